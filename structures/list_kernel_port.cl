/*
 * The portability layer of common/port.h for OpenCL C 1.2, the paper's
 * platform: the prelude of the OpenCL kernel source, which the build
 * assembles from this file, structures/kma.h, structures/semilist.h,
 * api/list_ops.h, structures/list_apply.h and structures/list_kernel.cl
 * with their #include lines dropped (so common/port.h is never read here).
 * OpenCL 1.2 atomics are relaxed; mem_fence after a load or CAS stands in for
 * acquire ordering, as Listings 1 and 3 use it. 64-bit CAS needs
 * cl_khr_int64_base_atomics (the host checks the device has it).
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define GB_HD static inline
#define GB_GLOBAL __global
#define offsetof(type, member) __builtin_offsetof(type, member)

typedef uchar uint8_t;
typedef uint uint32_t;
typedef ulong uint64_t;

GB_HD uint32_t gb_ld_acquire_u32(const __global uint32_t *p)
{
	uint32_t v = *(const volatile __global uint32_t *)p;
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	return v;
}

GB_HD uint32_t gb_ld_relaxed_u32(const __global uint32_t *p)
{
	return *(const volatile __global uint32_t *)p;
}

GB_HD void gb_st_relaxed_u32(__global uint32_t *p, uint32_t v)
{
	*(volatile __global uint32_t *)p = v;
}

GB_HD uint32_t gb_cas_u32(__global uint32_t *p, uint32_t expected, uint32_t desired)
{
	uint32_t v = atomic_cmpxchg((volatile __global uint32_t *)p, expected, desired);
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	return v;
}

GB_HD void gb_fence(void)
{
	mem_fence(CLK_GLOBAL_MEM_FENCE);
}

GB_HD uint64_t gb_ld_relaxed_u64(const __global uint64_t *p)
{
	return *(const volatile __global uint64_t *)p;
}

GB_HD uint64_t gb_ld_acquire_u64(const __global uint64_t *p)
{
	uint64_t v = *(const volatile __global uint64_t *)p;
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	return v;
}

GB_HD uint64_t gb_cas_u64(__global uint64_t *p, uint64_t expected, uint64_t desired)
{
	uint64_t v = atom_cmpxchg((volatile __global uint64_t *)p, expected, desired);
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	return v;
}

GB_HD uint32_t gb_add_u32(__global uint32_t *p, uint32_t v)
{
	return atomic_add((volatile __global uint32_t *)p, v);
}

GB_HD uint64_t gb_add_u64(__global uint64_t *p, uint64_t v)
{
	return atom_add((volatile __global uint64_t *)p, v);
}

GB_HD uint64_t gb_xchg_u64(__global uint64_t *p, uint64_t v)
{
	return atom_xchg((volatile __global uint64_t *)p, v);
}

/* No sleep in OpenCL C 1.2: a wait just looks again. */
GB_HD void gb_backoff(uint32_t *state)
{
	(void)state;
}
