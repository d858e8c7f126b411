/*
 * opencl, opencl-cpu: the lock-free list as an OpenCL C kernel
 * (structures/list_kernel.cl with the shared list code, assembled at build
 * time) run through the system's OpenCL ICD loader. Table 1 of the paper has
 * two OpenCL columns, the same kernel on a GPU and on the CPU: opencl takes an
 * OpenCL GPU device, opencl-cpu an OpenCL CPU device (PoCL here), and neither
 * falls back to the other. --opencl-platform narrows the platforms (an index,
 * or part of the name or vendor), --opencl-device picks among the matching
 * devices of that type. The kernel is timed by event profiling, copies
 * outside, as the paper did.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "structures/list_engine.h"

static const char kernel_source[] =
#include "list_kernel_source.h"
	;

#define MAX_PLATFORMS 16
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

static const char *type_name(cl_device_type t)
{
	return t & CL_DEVICE_TYPE_GPU ? "gpu" : t & CL_DEVICE_TYPE_CPU ? "cpu" :
	       t & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator" : "other";
}

static const char *type_label(cl_device_type t)
{
	return t & CL_DEVICE_TYPE_GPU ? "GPU" : "CPU";
}

/* Case-insensitive: does hay contain needle? */
static int contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i, j;

	for (i = 0; hay[i]; i++) {
		for (j = 0; j < n && hay[i + j] && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]); j++)
			;
		if (j == n)
			return 1;
	}
	return n == 0;
}

/* --opencl-platform: empty (any), a platform's index, or part of its name or vendor. */
static int platform_matches(const char *want, cl_uint index, const char *name, const char *vendor)
{
	size_t i;

	if (!want[0])
		return 1;
	for (i = 0; want[i] && isdigit((unsigned char)want[i]); i++)
		;
	if (!want[i])
		return strtoul(want, NULL, 10) == index;
	return contains(name, want) || contains(vendor, want);
}

static void platform_str(cl_platform_id p, cl_platform_info what, char *buf, size_t len)
{
	buf[0] = 0;
	if (clGetPlatformInfo(p, what, len - 1, buf, NULL) != CL_SUCCESS)
		buf[0] = 0;
	buf[len - 1] = 0;
}

static void device_str(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
	buf[0] = 0;
	if (clGetDeviceInfo(d, what, len - 1, buf, NULL) != CL_SUCCESS)
		buf[0] = 0;
	buf[len - 1] = 0;
}

/* What the loader offers, for a refusal: "NAME (i): 1 cpu; ..." over every platform. */
static void describe_platforms(const cl_platform_id *plats, cl_uint np, char *buf, size_t len)
{
	size_t at = 0;
	cl_uint p;

	buf[0] = 0;
	for (p = 0; p < np && at < len; p++) {
		char name[128];
		cl_device_id devs[MAX_DEVICES];
		cl_uint nd = 0, d, gpus = 0, cpus = 0, other = 0;
		platform_str(plats[p], CL_PLATFORM_NAME, name, sizeof(name));
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
			nd = 0;
		for (d = 0; d < nd && d < MAX_DEVICES; d++) {
			cl_device_type t = 0;
			clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof(t), &t, NULL);
			if (t & CL_DEVICE_TYPE_GPU)
				gpus++;
			else if (t & CL_DEVICE_TYPE_CPU)
				cpus++;
			else
				other++;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s (%u): %u gpu, %u cpu, %u other", p ? "; " : "",
				       name, p, gpus, cpus, other);
	}
}

/*
 * The index-th device of type want on the platforms --opencl-platform picks;
 * what they are named in info and where. A machine without such a device is
 * refused with what the loader does offer and how to add NVIDIA's OpenCL.
 */
static int pick_device(const list_params *lp, cl_device_type want, cl_env *e, list_cl_info *info, char *where,
		       size_t wlen, char *err, size_t errlen)
{
	cl_platform_id plats[MAX_PLATFORMS];
	cl_uint np = 0, p, seen = 0;
	char offered[1024];
	cl_int rc = clGetPlatformIDs(MAX_PLATFORMS, plats, &np);

	if (rc != CL_SUCCESS || np == 0)
		return gb_errmsg(err, errlen, "no OpenCL platform found (clGetPlatformIDs: %d); install an ICD "
				 "such as pocl-opencl-icd, or for NVIDIA's OpenCL see scripts/opencl-icd.sh", (int)rc);
	if (np > MAX_PLATFORMS)
		np = MAX_PLATFORMS;
	for (p = 0; p < np; p++) {
		char name[128], vendor[128];
		cl_device_id devs[MAX_DEVICES];
		cl_uint nd = 0;
		platform_str(plats[p], CL_PLATFORM_NAME, name, sizeof(name));
		platform_str(plats[p], CL_PLATFORM_VENDOR, vendor, sizeof(vendor));
		if (!platform_matches(lp->opencl_platform, p, name, vendor))
			continue;
		if (clGetDeviceIDs(plats[p], want, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
			continue; /* CL_DEVICE_NOT_FOUND: none of this type */
		if (nd > MAX_DEVICES)
			nd = MAX_DEVICES;
		if (lp->opencl_device < seen + nd) {
			cl_device_type t = 0;
			e->platform = plats[p];
			e->device = devs[lp->opencl_device - seen];
			memset(info, 0, sizeof(*info));
			snprintf(info->platform, sizeof(info->platform), "%s", name);
			snprintf(info->vendor, sizeof(info->vendor), "%s", vendor);
			platform_str(e->platform, CL_PLATFORM_VERSION, info->platform_version, sizeof(info->platform_version));
			device_str(e->device, CL_DEVICE_NAME, info->device, sizeof(info->device));
			device_str(e->device, CL_DEVICE_VERSION, info->device_version, sizeof(info->device_version));
			device_str(e->device, CL_DRIVER_VERSION, info->driver_version, sizeof(info->driver_version));
			clGetDeviceInfo(e->device, CL_DEVICE_TYPE, sizeof(t), &t, NULL);
			snprintf(info->device_type, sizeof(info->device_type), "%s", type_name(t));
			snprintf(where, wlen, "%.120s / %.120s", info->platform, info->device);
			return 0;
		}
		seen += nd;
	}
	describe_platforms(plats, np, offered, sizeof(offered));
	if (seen)
		return gb_errmsg(err, errlen, "--opencl-device %u: only %u OpenCL %s devices found%s%s (platforms: %s)",
				 lp->opencl_device, seen, type_label(want), lp->opencl_platform[0] ? " on platforms matching "
				 "--opencl-platform " : "", lp->opencl_platform, offered);
	return gb_errmsg(err, errlen, "no OpenCL %s device found%s%s; the platforms here: %s.%s",
			 type_label(want), lp->opencl_platform[0] ? " on a platform matching --opencl-platform " : "",
			 lp->opencl_platform, offered,
			 want == CL_DEVICE_TYPE_GPU ? " opencl-cpu runs the kernel on an OpenCL CPU device; NVIDIA's "
			 "OpenCL (libnvidia-opencl.so.1, installed with the driver) is often not registered with the "
			 "ICD loader: eval \"$(scripts/opencl-icd.sh)\" registers it for this shell (docs/list.md)" : "");
}

static int setup(const list_params *p, cl_device_type want, cl_env *e, list_cl_info *info, char *where,
		 size_t wlen, char *err, size_t errlen)
{
	const char *src = kernel_source;
	char ext[4096] = "";
	cl_int rc;

	memset(e, 0, sizeof(*e));
	if (pick_device(p, want, e, info, where, wlen, err, errlen) != 0)
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

static int run_opencl(cl_device_type want, const list_workload *w, const list_params *p, list_run *r, char *err,
		      size_t errlen)
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
	r->no_op_steps = 1; /* no counter comes back from the kernel */
	if (setup(p, want, &e, &r->cl, r->where, sizeof(r->where), err, errlen) != 0)
		goto done;
	r->has_cl = 1;
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

static int run_opencl_gpu(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return run_opencl(CL_DEVICE_TYPE_GPU, w, p, r, err, errlen);
}

static int run_opencl_cpu(const list_workload *w, const list_params *p, list_run *r, char *err, size_t errlen)
{
	return run_opencl(CL_DEVICE_TYPE_CPU, w, p, r, err, errlen);
}

const list_engine list_engine_opencl = {
	.head = LIST_OPENCL_HEAD,
	.platform = LIST_ON_OPENCL,
	.run = run_opencl_gpu,
};

const list_engine list_engine_opencl_cpu = {
	.head = LIST_OPENCL_CPU_HEAD,
	.platform = LIST_ON_OPENCL,
	.run = run_opencl_cpu,
};
