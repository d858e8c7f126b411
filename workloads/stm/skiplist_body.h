/*
 * The skiplist transaction bodies, written once against the transactional
 * API of api/tx.h; each STM engine instantiates them by defining that API and
 * then including this file, which defines TX_NAME(skiplist_body). No include
 * guard: it is included once per engine.
 *
 * A body searches the list outside the transaction (TX_PEEK: the search reads
 * a hundred words and more, far beyond any read set), then reads
 * transactionally only the window its operation depends on and writes:
 *   lookup(k):  pred[0].next[0]                                    1 word
 *   insert(k):  pred[l].next[l] for l < h (read and written), and
 *               N.next[l] for l < h (written)                      2h words
 *   delete(k):  pred[l].next[l] and X.next[l] for l < h(X) (both
 *               read and written)                                  2h words
 * where pred[l] is the last node with a key below k on level l, N the
 * insert's node and X the node that holds k. So a transaction touches at
 * most 2 x --levels words, and every word an update reads it also writes.
 *
 * Why that is serializable. Keys and heights never change (the header is
 * written by no transaction), and a node is in the list exactly when its
 * next pointers below its height are unmarked (workloads/stm/skiplist.h). Suppose
 * the engine validates the window: at the commit point every word read still
 * holds the value read (both engines guarantee it for words they also write,
 * and an update here writes all it reads). Then for each level l < h:
 * pred[l].next[l] = s[l] unmarked, so pred[l] is in the list and s[l] is its
 * successor on level l at that point; key(pred[l]) < k by the search, and the
 * body checked key(s[l]) > k (insert) or s[l] = X (delete). So the window is
 * exactly what a serial insert or delete of k would find at that point,
 * whatever stale or half-done state the search went through, and the writes
 * are exactly what it would write. A window that does not check out (a
 * marked pointer, a successor below k: the search was overtaken) aborts the
 * attempt, which the engine retries. An update's read set is a subset of its
 * write set, so conflicting updates hold a common lock when they take their
 * commit stamps and stamp order is a valid serial order (the oracle's
 * replay). A lookup's single word pred[0].next[0], validated, says that
 * pred[0] -> s[0] is an edge of level 0 at its commit point, so "k is in the
 * list" is exactly key(s[0]) == k there.
 *
 * The search cannot run away on half-done state: every next pointer ever
 * stored points to a node with a larger key (or is the end), and the search
 * only steps to a node whose key is above the current one and below k, so
 * it ends within the keys between; a pointer past the pool ends a level.
 *
 * An insert of a key in the list, or a delete of a key not in it, returns
 * TX_BODY_SEMANTIC: the generator never asks for one in program order
 * (workloads/stm/skiplist.h), so it only happens when an engine gave an earlier
 * entry of the key's thread up.
 */
#include "api/tx.h"
#include "common/port.h"
#include "workloads/stm/skiplist.h"

GB_HD int TX_NAME(skiplist_body)(TX_CTX *tx, const TX_MEM *m, const tx_table *t, uint32_t i,
				 const tx_entry *x)
{
	skiplist_entry e = skiplist_entry_of(x);
	uint32_t op = SKIPLIST_OP(e.meta), levels = SKIPLIST_LEVELS(e.meta), stride = levels + 1u;
	uint32_t key = e.key, nodes = e.nodes;
	uint32_t pred[SKIPLIST_MAX_LEVELS] = {0}, addrs[2 * SKIPLIST_MAX_LEVELS] = {0};
	uint32_t cur = SKIPLIST_HEAD, cur_key = 0, next, l, h, j, v, s;

	(void)t;
	(void)i;
	/* The search, outside the transaction: one round trip per step, the
	 * successor's header and its next pointer on the same level loaded
	 * together. */
	for (l = levels; l-- > 0;) {
		next = TX_PEEK(tx, m, skiplist_next_word(cur, l, stride)) & ~SKIPLIST_MARK;
		while (next < nodes) {
			uint32_t hdr = TX_PEEK(tx, m, skiplist_header_word(next, stride));
			uint32_t after = TX_PEEK(tx, m, skiplist_next_word(next, l, stride)) & ~SKIPLIST_MARK;
			uint32_t k = SKIPLIST_KEY(hdr);
			if (k >= key || k <= cur_key || l >= SKIPLIST_HEIGHT(hdr))
				break;
			cur = next;
			cur_key = k;
			next = after;
		}
		pred[l] = cur;
	}

	if (op == SKIPLIST_LOOKUP) {
		v = TX_READ(tx, m, skiplist_next_word(pred[0], 0, stride));
		if (TX_ABORTED(tx) || (v & SKIPLIST_MARK))
			return TX_BODY_ABORT;
		if (v < nodes && SKIPLIST_KEY(TX_PEEK(tx, m, skiplist_header_word(v, stride))) < key)
			return TX_BODY_ABORT; /* overtaken: an insert below k came after pred[0] */
		return TX_BODY_OK;
	}

	if (op == SKIPLIST_INSERT) {
		h = SKIPLIST_ENTRY_HEIGHT(e.meta);
		for (l = 0; l < h; l++)
			addrs[l] = skiplist_next_word(pred[l], l, stride);
		TX_PREFETCH(tx, m, addrs, h);
		for (l = 0; l < h; l++) {
			v = TX_READ(tx, m, addrs[l]);
			if (TX_ABORTED(tx) || (v & SKIPLIST_MARK))
				return TX_BODY_ABORT;
			if (v < nodes) {
				s = SKIPLIST_KEY(TX_PEEK(tx, m, skiplist_header_word(v, stride)));
				if (s == key)
					return TX_BODY_SEMANTIC; /* k is in the list */
				if (s < key)
					return TX_BODY_ABORT;
			}
			TX_WRITE(tx, m, skiplist_next_word(e.node, l, stride), v);
			TX_WRITE(tx, m, addrs[l], e.node);
		}
		return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
	}

	/* delete: the node that holds k, as the search saw it */
	v = TX_PEEK(tx, m, skiplist_next_word(pred[0], 0, stride)) & ~SKIPLIST_MARK;
	if (v >= nodes || SKIPLIST_KEY(TX_PEEK(tx, m, skiplist_header_word(v, stride))) != key) {
		/* k looks absent: confirm it on the window before calling it semantic */
		v = TX_READ(tx, m, skiplist_next_word(pred[0], 0, stride));
		if (TX_ABORTED(tx) || (v & SKIPLIST_MARK))
			return TX_BODY_ABORT;
		if (v < nodes) {
			s = SKIPLIST_KEY(TX_PEEK(tx, m, skiplist_header_word(v, stride)));
			if (s <= key)
				return TX_BODY_ABORT; /* overtaken, or k came back meanwhile */
		}
		return TX_BODY_SEMANTIC;
	}
	h = SKIPLIST_HEIGHT(TX_PEEK(tx, m, skiplist_header_word(v, stride)));
	if (h > levels)
		return TX_BODY_ABORT; /* not a node of this list (cannot happen: headers never change) */
	for (l = 0; l < h; l++) {
		addrs[l] = skiplist_next_word(pred[l], l, stride);
		addrs[h + l] = skiplist_next_word(v, l, stride);
	}
	TX_PREFETCH(tx, m, addrs, 2 * h);
	for (l = 0; l < h; l++) {
		uint32_t p = TX_READ(tx, m, addrs[l]);
		j = TX_READ(tx, m, addrs[h + l]);
		if (TX_ABORTED(tx) || p != v || (j & SKIPLIST_MARK))
			return TX_BODY_ABORT;
		TX_WRITE(tx, m, addrs[l], j);
		TX_WRITE(tx, m, addrs[h + l], j | SKIPLIST_MARK);
	}
	return TX_ABORTED(tx) ? TX_BODY_ABORT : TX_BODY_OK;
}
