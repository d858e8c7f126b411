/*
 * The memcached transaction bodies, written once against the transactional
 * API of api/tx.h; each STM engine instantiates them by defining that API and
 * then including this file, which defines TX_NAME(memcached_body). No include
 * guard: it is included once per engine.
 *
 * A GET reads the set's keys transactionally, way by way and every word of
 * each, until one equals its key, then that way's value (at most W KW + VW
 * words), and gives the value's digest (0: a miss) to TX_RESULT. It writes
 * nothing: a read-only transaction.
 *
 * A SET reads the set's clock transactionally and then the set's keys and
 * stamps with TX_PEEK, picks its way (the one holding its key, else the least
 * recently set), and writes the way's key, value and stamp and the clock:
 * KW + VW + 2 words.
 *
 * Why a SET's peeks see the set as of its commit point. Every word of a set
 * is written only by SETs of that set, and every one of them also writes the
 * clock. The SET reads the clock before it peeks and writes it too, so the
 * engine guarantees that at its commit point the clock still holds the value
 * read (prstm and gpustm: a word read and written is validated under its
 * lock; csmv and jvstm: the read set is validated against every commit since
 * the snapshot). So no SET of the set commits between the clock read and the
 * commit point. A SET that committed before it is complete when the clock
 * read sees it: prstm and gpustm release a lock, with the next version, only
 * after the write-back, and a read that meets a held lock aborts; the loads
 * after that acquiring read see the write-back. csmv and jvstm peek at the
 * transaction's snapshot, the same one the clock read is of. So the peeks
 * read exactly the set a serial SET would find at the commit point, and the
 * SETs of a set commit in the order of their clocks, which is the order of
 * their stamps: the oracle's replay.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/memcached.h"

GB_HD int TX_NAME(memcached_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i,
				  const tx_entry *x)
{
	memcached_entry e = memcached_entry_of(x);
	uint32_t ways = MEMCACHED_WAYS(e.meta), kw = MEMCACHED_KEY_WORDS(e.meta), vw = MEMCACHED_VALUE_WORDS(e.meta);
	uint32_t base = e.a, key = e.b, values = base + 1u + ways * kw, stamps = values + ways * vw;
	uint32_t j, l, way, clock, best;

	(void)t;
	(void)i;
	if (MEMCACHED_OP(e.meta) == MEMCACHED_GET) {
		for (j = 0; j < ways; j++) {
			uint32_t hit = 1, h = 0;
			for (l = 0; l < kw; l++) { /* the whole key, as a comparison of 16 bytes reads it */
				uint32_t k = TX_READ(tx, m, base + 1u + j * kw + l);
				if (TX_ABORTED(tx))
					return TX_BODY_ABORT;
				hit &= k == memcached_key_word(key, l);
			}
			if (!hit)
				continue;
			for (l = 0; l < vw; l++) { /* a hit: the way's value */
				h = memcached_digest_step(h, l, TX_READ(tx, m, values + j * vw + l));
				if (TX_ABORTED(tx))
					return TX_BODY_ABORT;
			}
			TX_RESULT(tx, memcached_digest_end(h));
			return TX_BODY_OK;
		}
		TX_RESULT(tx, 0u); /* a miss */
		return TX_BODY_OK;
	}
	clock = TX_READ(tx, m, base);
	if (TX_ABORTED(tx))
		return TX_BODY_ABORT;
	way = ways;
	best = 0;
	for (j = 0; j < ways; j++) {
		uint32_t hit = 1, stamp;
		for (l = 0; l < kw; l++)
			hit &= TX_PEEK(tx, m, base + 1u + j * kw + l) == memcached_key_word(key, l);
		if (hit) {
			way = j;
			break;
		}
		stamp = TX_PEEK(tx, m, stamps + j);
		if (j == 0 || stamp < best) {
			best = stamp;
			way = j;
		}
	}
	/* a miss keeps the first way of the smallest stamp; a hit stops the scan at its way */
	for (l = 0; l < kw; l++)
		TX_WRITE(tx, m, base + 1u + way * kw + l, memcached_key_word(key, l));
	for (l = 0; l < vw; l++)
		TX_WRITE(tx, m, values + way * vw + l, memcached_value_word(e.c, l));
	TX_WRITE(tx, m, stamps + way, clock + 1u);
	TX_WRITE(tx, m, base, clock + 1u);
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
