/*
 * opencl: the lock-free list as an OpenCL C kernel (structures/list_kernel.cl
 * with the shared list code, assembled at build time) run through the
 * system's OpenCL ICD loader: PoCL on the CPU, the GPU where a vendor ICD is
 * installed. The device is picked by index over the devices of all platforms
 * (--opencl-device); the kernel is timed by event profiling, copies outside.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "structures/list_engine.h"

static const char kernel_source[] =
#include "list_kernel_source.h"
	;

#define MAX_DEVICES 64

typedef struct cl_env {
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue;
	cl_program prog;
	cl_kernel kernel;
} cl_env;

static int cl_fail(char *err, size_t errlen, const char *what, cl_int rc)
{
	return gb_errmsg(err, errlen, "OpenCL error %d while %s", (int)rc, what);
}

/* The index-th device over all platforms, its names in where. */
static int pick_device(uint32_t index, cl_env *e, char *where, size_t wlen, char *err, size_t errlen)
{
	cl_platform_id plats[16];
	cl_uint np = 0, p, seen = 0;
	cl_int rc = clGetPlatformIDs(16, plats, &np);

	if (rc != CL_SUCCESS || np == 0)
		return gb_errmsg(err, errlen, "no OpenCL platform found (clGetPlatformIDs: %d); install an ICD "
				 "such as pocl-opencl-icd", (int)rc);
	for (p = 0; p < np; p++) {
		cl_device_id devs[MAX_DEVICES];
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
			continue;
		if (index < seen + nd) {
			char pname[128] = "", dname[128] = "";
			e->platform = plats[p];
			e->device = devs[index - seen];
			clGetPlatformInfo(e->platform, CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
			clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
			snprintf(where, wlen, "%s / %s", pname, dname);
			return 0;
		}
		seen += nd;
	}
	return gb_errmsg(err, errlen, "--opencl-device %u: only %u OpenCL devices found", index, seen);
}

static int setup(const list_params *p, cl_env *e, char *where, size_t wlen, char *err, size_t errlen)
{
	const char *src = kernel_source;
	char ext[4096] = "";
	cl_int rc;

	memset(e, 0, sizeof(*e));
	if (pick_device(p->opencl_device, e, where, wlen, err, errlen) != 0)
		return -1;
	clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, sizeof(ext) - 1, ext, NULL);
	if (!strstr(ext, "cl_khr_int64_base_atomics"))
		return gb_errmsg(err, errlen, "OpenCL device %s lacks cl_khr_int64_base_atomics (64-bit CAS)", where);
	e->ctx = clCreateContext(NULL, 1, &e->device, NULL, NULL, &rc);
	if (rc != CL_SUCCESS)
		return cl_fail(err, errlen, "creating a context", rc);
	e->queue = clCreateCommandQueue(e->ctx, e->device, CL_QUEUE_PROFILING_ENABLE, &rc);
	if (rc != CL_SUCCESS)
		return cl_fail(err, errlen, "creating a command queue", rc);
	e->prog = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &rc);
	if (rc != CL_SUCCESS)
		return cl_fail(err, errlen, "creating the program", rc);
	rc = clBuildProgram(e->prog, 1, &e->device, "-cl-std=CL1.2", NULL, NULL);
	if (rc != CL_SUCCESS) {
		char log[2048] = "";
		clGetProgramBuildInfo(e->prog, e->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
		return gb_errmsg(err, errlen, "building the OpenCL list kernel failed (%d): %s", (int)rc, log);
	}
	e->kernel = clCreateKernel(e->prog, "list_ops", &rc);
	if (rc != CL_SUCCESS)
		return cl_fail(err, errlen, "creating the kernel", rc);
	return 0;
}

static void teardown(cl_env *e)
{
	if (e->kernel)
		clReleaseKernel(e->kernel);
	if (e->prog)
		clReleaseProgram(e->prog);
	if (e->queue)
		clReleaseCommandQueue(e->queue);
	if (e->ctx)
		clReleaseContext(e->ctx);
}

/* Launch the kernel over steps steps; the kernel's seconds by event profiling in *secs. */
static cl_int launch(cl_env *e, cl_mem heap, const kma_heap *h, cl_mem ops, cl_mem out, uint32_t threads,
		     uint32_t steps, double *secs)
{
	size_t global = threads;
	cl_ulong t0 = 0, t1 = 0;
	cl_event ev;
	cl_int rc = 0;

	rc |= clSetKernelArg(e->kernel, 0, sizeof(cl_mem), &heap);
	rc |= clSetKernelArg(e->kernel, 1, sizeof(cl_uint), &h->sb_size);
	rc |= clSetKernelArg(e->kernel, 2, sizeof(cl_uint), &h->sb_count);
	rc |= clSetKernelArg(e->kernel, 3, sizeof(cl_uint), &h->sb_first);
	rc |= clSetKernelArg(e->kernel, 4, sizeof(cl_mem), &ops);
	rc |= clSetKernelArg(e->kernel, 5, sizeof(cl_uint), &threads);
	rc |= clSetKernelArg(e->kernel, 6, sizeof(cl_uint), &steps);
	rc |= clSetKernelArg(e->kernel, 7, sizeof(cl_mem), &out);
	if (rc != CL_SUCCESS)
		return rc;
	rc = clEnqueueNDRangeKernel(e->queue, e->kernel, 1, NULL, &global, NULL, 0, NULL, &ev);
	if (rc != CL_SUCCESS)
		return rc;
	rc = clWaitForEvents(1, &ev);
	if (rc == CL_SUCCESS) {
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
		*secs = (double)(t1 - t0) * 1e-9;
	}
	clReleaseEvent(ev);
	return rc;
}

static int run_opencl(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	uint64_t cells = (uint64_t)w->steps * w->threads;
	size_t heap_bytes = (size_t)p->sb_count * p->sb_size;
	cl_mem heap = NULL, ops = NULL, out = NULL;
	cl_env e;
	kma_heap h;
	double warm;
	cl_int rc;
	int ret = -1;

	r->no_op_times = 1;
	if (setup(p, &e, r->where, sizeof(r->where), err, errlen) != 0)
		goto done;
	if (list_heap_build(w, p, 0, &h, err, errlen) != 0)
		goto done;
	memset(r->outcome, 0, cells);
	heap = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, heap_bytes, h.base, &rc);
	if (rc == CL_SUCCESS)
		ops = clCreateBuffer(e.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cells * sizeof(uint32_t),
				     w->ops, &rc);
	if (rc == CL_SUCCESS)
		out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells, r->outcome, &rc);
	if (rc != CL_SUCCESS) {
		cl_fail(err, errlen, "allocating the heap and operation buffers", rc);
		goto free_heap;
	}
	/* Warm-up: a launch without steps compiles and loads whatever the driver defers. */
	rc = launch(&e, heap, &h, ops, out, w->threads, 0, &warm);
	if (rc == CL_SUCCESS)
		rc = launch(&e, heap, &h, ops, out, w->threads, w->steps, &r->seconds);
	if (rc != CL_SUCCESS) {
		cl_fail(err, errlen, "running the list kernel", rc);
		goto free_heap;
	}
	rc = clEnqueueReadBuffer(e.queue, heap, CL_TRUE, 0, heap_bytes, h.base, 0, NULL, NULL);
	if (rc == CL_SUCCESS)
		rc = clEnqueueReadBuffer(e.queue, out, CL_TRUE, 0, cells, r->outcome, 0, NULL, NULL);
	if (rc != CL_SUCCESS) {
		cl_fail(err, errlen, "reading the heap and outcomes back", rc);
		goto free_heap;
	}
	list_heap_finish(h, r);
	ret = 0;
free_heap:
	if (heap)
		clReleaseMemObject(heap);
	if (ops)
		clReleaseMemObject(ops);
	if (out)
		clReleaseMemObject(out);
	kma_host_destroy(h);
done:
	teardown(&e);
	return ret;
}

const list_engine list_engine_opencl = {
	.head = LIST_OPENCL_HEAD,
	.platform = LIST_ON_OPENCL,
	.run = run_opencl,
};
