/* The PBA model's state and event helpers (see pba_model.h). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "api/pba_model.h"

static const char *const outcome_names[PBA_NOUTCOMES] = {
	[PBA_GRANTED] = "granted",
	[PBA_DENIED_INVALID] = "denied-invalid",
	[PBA_DENIED_UNAVAILABLE] = "denied-unavailable",
	[PBA_DENIED_UNSAFE] = "denied-unsafe",
	[PBA_RELEASED] = "released",
	[PBA_RELEASE_INVALID] = "release-invalid",
};

const char *pba_outcome_name(unsigned outcome)
{
	return outcome < PBA_NOUTCOMES ? outcome_names[outcome] : "unknown";
}

void pba_system_init(pba_system *s, uint32_t procs, uint32_t res)
{
	size_t cells = (size_t)procs * res;
	s->procs = procs;
	s->res = res;
	s->maximum = gb_xcalloc(cells, sizeof(int32_t), "PBA maximum matrix");
	s->allocation = gb_xcalloc(cells, sizeof(int32_t), "PBA allocation matrix");
	s->need = gb_xcalloc(cells, sizeof(int32_t), "PBA need matrix");
	s->available = gb_xcalloc(res, sizeof(int32_t), "PBA available vector");
}

void pba_system_free(pba_system *s)
{
	free(s->maximum);
	free(s->allocation);
	free(s->need);
	free(s->available);
	memset(s, 0, sizeof(*s));
}

void pba_system_copy(pba_system *dst, const pba_system *src)
{
	size_t cells = (size_t)src->procs * src->res * sizeof(int32_t);
	memcpy(dst->maximum, src->maximum, cells);
	memcpy(dst->allocation, src->allocation, cells);
	memcpy(dst->need, src->need, cells);
	memcpy(dst->available, src->available, src->res * sizeof(int32_t));
}

int pba_system_equal(const pba_system *a, const pba_system *b)
{
	size_t cells = (size_t)a->procs * a->res * sizeof(int32_t);
	return a->procs == b->procs && a->res == b->res &&
	       memcmp(a->maximum, b->maximum, cells) == 0 &&
	       memcmp(a->allocation, b->allocation, cells) == 0 &&
	       memcmp(a->need, b->need, cells) == 0 &&
	       memcmp(a->available, b->available, a->res * sizeof(int32_t)) == 0;
}

void pba_events_init(pba_events *e, uint64_t count, uint32_t res)
{
	e->count = count;
	e->type = gb_xcalloc(count, sizeof(uint8_t), "PBA event types");
	e->proc = gb_xcalloc(count, sizeof(uint32_t), "PBA event processes");
	e->amount = gb_xcalloc(count * res, sizeof(int32_t), "PBA event amounts");
}

void pba_events_free(pba_events *e)
{
	free(e->type);
	free(e->proc);
	free(e->amount);
	memset(e, 0, sizeof(*e));
}
