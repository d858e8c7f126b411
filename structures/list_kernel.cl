/*
 * The lock-free list as an OpenCL C kernel (Mulder 2015, sections 5 and
 * 6.1: the paper's own platform, and Listing 2's kernel generalised to the
 * add, get and delete of a workload): one work-item per logical thread, each
 * running its operations in order with the shared code of
 * structures/semilist.h on the KMA-style heap. Per-operation times are not
 * taken (OpenCL C has no clock); the host times the kernel by event
 * profiling, as the paper did.
 */
__kernel void list_ops(__global uint32_t *heap, uint32_t sb_size, uint32_t sb_count, uint32_t sb_first,
		       __global const uint32_t *ops, uint32_t threads, uint32_t steps,
		       __global uint8_t *outcome)
{
	uint32_t t = (uint32_t)get_global_id(0), i;
	kma_heap h;

	h.base = heap;
	h.sb_size = sb_size;
	h.sb_count = sb_count;
	h.sb_first = sb_first;
	if (t >= threads)
		return;
	for (i = 0; i < steps; i++) {
		ulong c = (ulong)i * threads + t;
		uint32_t op = ops[c], steps = 0;
		if (op)
			outcome[c] = list_apply(h, op, 0, &steps);
	}
}
