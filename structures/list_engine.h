/*
 * The list implementations (--impl) behind one table: cmd/list.c, --help and
 * `gpubench info` read it. A run builds the starting list, times the
 * operations of a workload (workloads/list/list_gen.h) and hands back every
 * outcome and a snapshot of what the list holds, for the oracle.
 */
#ifndef GB_LIST_ENGINE_H
#define GB_LIST_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "api/list_snapshot.h"
#include "common/registry.h"
#include "structures/kma_host.h"
#include "workloads/list/list_gen.h"

enum list_platform { LIST_ON_CPU = 0, LIST_ON_GPU, LIST_ON_OPENCL };

typedef struct list_params {
	uint32_t sb_count, sb_size;   /* the heap (implementations on the KMA-style heap) */
	uint32_t cpu_workers;         /* OS threads of the multi-threaded CPU implementations */
	uint32_t opencl_device;       /* index among the OpenCL devices of the engine's type on the platforms picked */
	char opencl_platform[64];     /* "": any platform; digits: a platform's index; else part of its name or vendor */
} list_params;

/* The OpenCL platform and device an opencl implementation ran on, as their driver names them. */
typedef struct list_cl_info {
	char platform[128], platform_version[128], vendor[128];
	char device[128], device_type[12], device_version[128], driver_version[64];
} list_cl_info;

/* One repetition, as an implementation reports it. */
typedef struct list_run {
	double seconds;               /* the operations only: set-up and checks are outside */
	uint8_t *outcome;             /* steps x threads, enum list_outcome (allocated by the caller) */
	uint32_t *op_ns;              /* steps x threads: each operation's duration */
	int no_op_times;              /* op_ns not filled: the implementation cannot time one operation */
	uint32_t *op_steps;           /* steps x threads: next words each operation's walks read (semilist) */
	int no_op_steps;              /* op_steps not filled: not the semi-linked list's code, or not counted */
	list_snapshot snap;
	int has_heap;                 /* on the KMA-style heap: heap below is filled */
	kma_usage heap;
	char where[256];              /* the OpenCL platform and device, else empty */
	int has_cl;                   /* an opencl implementation: cl below is filled */
	list_cl_info cl;
	char broken[256];             /* the heap or list found broken after the run (fails verification) */
} list_run;

typedef struct list_engine {
	gb_entry_head head;
	unsigned platform;            /* enum list_platform */
	/* 0, or -1 with a message (1 runtime failure, as the caller decides). */
	int (*run)(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen);
	int tail; /* an add appends through a tail pointer, not after a walk of the list */
} list_engine;

/*
 * The options only some implementations read (gb_entry_head.options): the
 * KMA-style heap's, the CPU threads', the OpenCL device choice.
 */
extern const char *const list_heap_options[], *const list_threaded_options[], *const list_opencl_options[];

/* The group (warp) size whose adds the tail variant links into one chain. */
#define LIST_GROUP 32u

/*
 * The heads of the implementations a build may lack: their files define them
 * on these, and a build without CUDA, or without OpenCL, lists the same heads
 * (structures/list_registry.c), unavailable for the reason in them.
 */
#define LIST_GPU_HEAD \
	{ .name = "gpu", .summary = "the lock-free list (Listings 1 and 3) on the KMA-style heap, in CUDA", \
	  .backends = GB_BACKEND_MASK(GB_BACKEND_GPU), .unavailable = GB_NEEDS_CUDA, .options = list_heap_options }
#define LIST_GPU_TAIL_HEAD \
	{ .name = "gpu-tail", .summary = "the tail-pointer list in CUDA, a block's adds appended as one chain", \
	  .backends = GB_BACKEND_MASK(GB_BACKEND_GPU), .unavailable = GB_NEEDS_CUDA, .options = list_heap_options }
#ifdef GB_HAVE_OPENCL
#define LIST_NEEDS_OPENCL NULL
#else
#define LIST_NEEDS_OPENCL "needs the OpenCL headers and ICD loader at build time"
#endif
/*
 * The OpenCL implementations: one kernel, run through the ICD loader on an
 * OpenCL GPU (Table 1's "OpenCL GPU" column, the paper's subject) or an
 * OpenCL CPU device (its "OpenCL CPU" column, PoCL here). Neither needs CUDA:
 * the GPU one runs on any vendor's OpenCL GPU, so both list both backends.
 */
#define LIST_OPENCL_HEAD \
	{ .name = "opencl", \
	  .summary = "the lock-free list as an OpenCL C kernel on an OpenCL GPU device (Table 1's OpenCL GPU)", \
	  .backends = GB_BACKEND_MASK(GB_BACKEND_GPU) | GB_BACKEND_MASK(GB_BACKEND_CPU), \
	  .unavailable = LIST_NEEDS_OPENCL, .options = list_opencl_options }
#define LIST_OPENCL_CPU_HEAD \
	{ .name = "opencl-cpu", \
	  .summary = "the same OpenCL C kernel on an OpenCL CPU device, e.g. PoCL (Table 1's OpenCL CPU)", \
	  .backends = GB_BACKEND_MASK(GB_BACKEND_CPU), \
	  .unavailable = LIST_NEEDS_OPENCL, .options = list_opencl_options }

extern const list_engine *const list_engines[];
/* gb_cycles() ticks per nanosecond on this host, measured once. */
double list_cycles_per_ns(void);

/*
 * Shared by the implementations on the KMA-style heap: a heap image holding
 * the workload's starting list (built here with the shared list code), and
 * the hand-over of a finished image (allocator check, walk, count).
 */
int list_heap_build(const list_workload *w, const list_params *p, int tail, kma_heap *out,
		    char *err, size_t errlen);
void list_heap_finish(kma_heap image, list_run *r);

/*
 * Read the list out of a quiescent heap image (anchor at SL_ANCHOR): every
 * node must be a node-sized block of the heap, the walk must end, and only the
 * last node may be marked (next word 1). Fills keys, nkeys and in_deletion;
 * -1 with a message when the list is broken. This is the snapshot that
 * list_heap_finish hands to the oracle.
 */
int list_walk_heap(kma_heap h, list_snapshot *s, char *err, size_t errlen);

#endif
