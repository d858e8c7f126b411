/* The deadlock detectors (--algo, --impl): cmd/detect.c, --help and `gpubench info` read this table. */
#include <string.h>

#include "deadlock/rag.h"

extern const rag_engine rag_engine_osdda_cpu, rag_engine_osdda_cpu_bits;
extern const rag_engine rag_engine_lmdda_cpu, rag_engine_lmdda_cpu_bits;

const rag_engine *const rag_engines[] = {
	&rag_engine_osdda_cpu, &rag_engine_osdda_cpu_bits,
	&rag_engine_lmdda_cpu, &rag_engine_lmdda_cpu_bits,
	NULL,
};

const rag_engine *rag_engine_find(const char *algo, const char *name)
{
	int i;
	for (i = 0; rag_engines[i]; i++)
		if (strcmp(rag_engines[i]->algo, algo) == 0 && strcmp(rag_engines[i]->name, name) == 0)
			return rag_engines[i];
	return NULL;
}
