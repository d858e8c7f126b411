/*
 * One batch of a bank workload on an engine's CPU backend, with every
 * account at the initial balance, and the checks the snapshot-reading
 * engines' tests (csmv, jvstm) make of it: the serial replay in commit order,
 * every inquiry's sum against the bank at its snapshot, and that a tampered
 * sum or snapshot is caught.
 */
#ifndef GB_TESTS_BANK_RUN_H
#define GB_TESTS_BANK_RUN_H

#include <stdint.h>

#include "stm/stm.h"
#include "workloads/stm/bank.h"

typedef struct bank_run {
	stm_batch_result r;
	uint32_t *status, *results;
	int32_t *after; /* the balances after the batch */
} bank_run;

/* Every account of w at its initial balance (free() it). */
int32_t *bank_run_initial(const bank_workload *w);

/* Runs w once on ops with `workers` CPU workers (60 s timeout); bank_run_free() the outcome. */
void bank_run_cpu(const stm_ops *ops, const bank_workload *w, uint32_t workers, bank_run *o);
void bank_run_free(bank_run *o);

/*
 * The replay in commit order (everything committed, counters agree, no
 * thread failed, versions kept within the ring) and every inquiry's sum at
 * its snapshot; engine names the run in the failure messages. Returns the
 * inquiries checked.
 */
uint64_t bank_run_verify(const bank_workload *w, const bank_run *o, const char *engine);

/* A wrong sum, and a snapshot past the last commit, make the snapshot check fail (o is left as it was). */
void bank_run_check_tampering(const bank_workload *w, bank_run *o);

#endif
