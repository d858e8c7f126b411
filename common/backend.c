#include <string.h>

#include "common/backend.h"
#include "common/error.h"
#include "common/opts.h"

const char *const gb_backend_names[] = {
	[GB_BACKEND_AUTO] = "auto", [GB_BACKEND_GPU] = "gpu", [GB_BACKEND_CPU] = "cpu", [GB_BACKEND_CPU + 1] = NULL,
};

const char *gb_backend_name(gb_backend b)
{
	return gb_backend_names[b];
}

gb_backend gb_backend_parse(const char *opt, const char *text)
{
	return (gb_backend)gb_opt_choice(opt, text, gb_backend_names);
}

static int fell_back;

int gb_backend_fell_back(void)
{
	return fell_back;
}

void gb_backend_set_fell_back(void)
{
	fell_back = 1;
}

gb_backend gb_backend_resolve(gb_backend requested, unsigned supported, const char *what,
			      gb_device_info *dev)
{
	char why[256] = "";
	int have_gpu = 0;

	if (requested != GB_BACKEND_CPU && (supported & GB_BACKEND_MASK(GB_BACKEND_GPU)))
		have_gpu = gb_device_count(why, sizeof(why)) > 0;
	if (requested == GB_BACKEND_GPU) {
		if (!gb_cuda_compiled())
			gb_die(GB_EXIT_USAGE, "--backend gpu: this gpubench was built without CUDA "
			       "(use --backend cpu, or build where nvcc is on the PATH)");
		if (!(supported & GB_BACKEND_MASK(GB_BACKEND_GPU)))
			gb_die(GB_EXIT_USAGE, "%s has no GPU backend (use --backend cpu)", what);
		if (!have_gpu)
			gb_die(GB_EXIT_RUNTIME, "--backend gpu: %s", why);
	}
	if (requested == GB_BACKEND_AUTO) {
		if (have_gpu) {
			requested = GB_BACKEND_GPU;
		} else {
			requested = GB_BACKEND_CPU;
			if (supported & GB_BACKEND_MASK(GB_BACKEND_GPU)) {
				gb_note("note: %s; running %s on the CPU backend", why, what);
				fell_back = 1;
			}
		}
	}
	if (requested == GB_BACKEND_CPU && !(supported & GB_BACKEND_MASK(GB_BACKEND_CPU)))
		gb_die(GB_EXIT_USAGE, "%s has no CPU backend", what);
	if (requested == GB_BACKEND_GPU && dev && gb_device_query(gb_device_current(), dev) != 0)
		gb_die(GB_EXIT_RUNTIME, "cannot query CUDA device %d", gb_device_current());
	return requested;
}
