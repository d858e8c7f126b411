/* Backend choice (--backend gpu|cpu|auto), shared by every subcommand. */
#ifndef GB_BACKEND_H
#define GB_BACKEND_H

#include "common/cpus.h" /* gb_cpu_count: what a CPU backend runs on */
#include "common/device.h"

typedef enum gb_backend {
	GB_BACKEND_AUTO = 0,
	GB_BACKEND_GPU = 1,
	GB_BACKEND_CPU = 2,
} gb_backend;

#define GB_BACKEND_MASK(b) (1u << (b))

/* "auto", "gpu", "cpu" by enum value, NULL-terminated: the choices of --backend. */
extern const char *const gb_backend_names[];
const char *gb_backend_name(gb_backend b);
gb_backend gb_backend_parse(const char *opt, const char *text);

/*
 * Resolve a requested backend against what the engine supports and what the
 * machine has. auto picks the GPU when a device is present, else the CPU with
 * a one-line note. An explicit gpu request without a device exits 1. On GPU,
 * fills *dev with device 0's description.
 */
gb_backend gb_backend_resolve(gb_backend requested, unsigned supported, const char *what,
			      gb_device_info *dev);

/*
 * Whether this process runs on the CPU only because no GPU was found: --backend
 * auto, or no --impl, on an engine or a choice that has a GPU side. Reports
 * record it (device.no_gpu_fallback), so a resumed sweep can tell a CPU run
 * that would go to the GPU on a host with one from one that asked for the CPU.
 */
int gb_backend_fell_back(void);
void gb_backend_set_fell_back(void);

#endif
