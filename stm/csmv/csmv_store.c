/* The versioned store of csmv's and jvstm's CPU backends (see stm/csmv/csmv_store.h). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stm/csmv/csmv_store.h"
#include "stm/backend/stm_cpu.h"

void csmv_store_open(csmv_store *s, const tx_input *in, uint32_t slots, const char *slots_what)
{
	s->in = *in;
	s->m.head = gb_xcalloc(in->words, sizeof(uint32_t), "version counts");
	s->m.ver = gb_xcalloc((size_t)in->words * CSMV_VERSIONS, sizeof(uint64_t), "versions");
	s->status = gb_xcalloc(in->ntx, sizeof(uint32_t), "transaction status");
	s->results = gb_xcalloc(in->ntx * TX_RESULT_WORDS, sizeof(uint32_t), "read-only results");
	s->m.client_ts = gb_xcalloc(slots, sizeof(uint32_t), slots_what);
	s->m.g = &s->words;
	s->m.ngroups = slots;
	s->m.words = in->words;
	stm_cpu_table_of(&s->table, in);
	s->table.status = s->status;
	s->table.results = s->results;
}

void csmv_store_clear(csmv_store *s)
{
	uint32_t i;
	memset(s->status, 0, s->in.ntx * sizeof(uint32_t));
	memset(s->results, 0, s->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t));
	memset(&s->words, 0, sizeof(s->words));
	for (i = 0; i < s->m.ngroups; i++)
		s->m.client_ts[i] = CSMV_IDLE;
	for (i = 0; i < s->in.words; i++)
		csmv_box_rebase(&s->m, i);
}

void csmv_store_close(csmv_store *s)
{
	free(s->m.head);
	free(s->m.ver);
	free(s->status);
	free(s->results);
	free(s->m.client_ts);
}

void csmv_store_load(void *ctx, const uint32_t *words)
{
	csmv_store *s = ctx;
	uint32_t i;
	for (i = 0; i < s->in.words; i++)
		csmv_box_init(&s->m, i, words[i]);
}

void csmv_store_fetch(void *ctx, uint32_t *words, uint32_t *status)
{
	csmv_store *s = ctx;
	uint32_t i;
	if (words)
		for (i = 0; i < s->in.words; i++)
			words[i] = csmv_box_newest(&s->m, i);
	if (status)
		memcpy(status, s->status, s->in.ntx * sizeof(uint32_t));
}

int csmv_store_rounds_ok(void *ctx)
{
	(void)ctx;
	return 0;
}

void csmv_store_fetch_results(void *ctx, uint32_t *results)
{
	csmv_store *s = ctx;
	memcpy(results, s->results, s->in.ntx * TX_RESULT_WORDS * sizeof(uint32_t));
}
