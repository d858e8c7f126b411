/*
 * The operation set of the lock-free list, which workloads generate and the
 * list implementations run: one operation in a word, an opcode in the top
 * two bits and a key below; and what became of it. Macros and enums only, so
 * the OpenCL kernel source can include it too.
 */
#ifndef GB_API_LIST_OPS_H
#define GB_API_LIST_OPS_H

enum list_opcode { LIST_NOP = 0, LIST_ADD = 1, LIST_GET = 2, LIST_DEL = 3, LIST_NOPCODES };
/* Outcome of one operation: add done / get found / delete done, not found, heap exhausted. */
enum list_outcome { LIST_NOT_RUN = 0, LIST_DONE = 1, LIST_MISS = 2, LIST_NOMEM = 3 };

#define LIST_OP_OF(w) ((w) >> 30)
#define LIST_KEY_OF(w) ((w) & 0x3FFFFFFFu)
#define LIST_OP(op, key) (((uint32_t)(op) << 30) | (key))
#define LIST_MAX_KEY 0x3FFFFFFFu

#endif
