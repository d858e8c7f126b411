/* Event streams and outcome names of the deadlock-detection model (see rag_model.h). */
#include <stdlib.h>
#include <string.h>

#include "api/rag_model.h"
#include "common/error.h"

static const char *const outcome_names[RAG_NOUTCOMES] = {
	[RAG_GRANTED] = "granted",
	[RAG_BLOCKED] = "blocked",
	[RAG_DEADLOCK] = "deadlock",
	[RAG_RELEASED] = "released",
	[RAG_REGRANTED] = "regranted",
};

const char *rag_outcome_name(unsigned outcome)
{
	return outcome < RAG_NOUTCOMES ? outcome_names[outcome] : "unknown";
}

void rag_events_init(rag_events *e, uint64_t count)
{
	e->count = count;
	e->type = gb_xcalloc(count ? count : 1, sizeof(uint8_t), "detect event types");
	e->proc = gb_xcalloc(count ? count : 1, sizeof(uint32_t), "detect event processes");
	e->res = gb_xcalloc(count ? count : 1, sizeof(uint32_t), "detect event resources");
}

void rag_events_free(rag_events *e)
{
	free(e->type);
	free(e->proc);
	free(e->res);
	memset(e, 0, sizeof(*e));
}
