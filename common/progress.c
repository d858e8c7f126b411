#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "common/error.h"
#include "common/progress.h"
#include "common/timer.h"

void gb_progress_start(gb_progress *p, const char *what)
{
	p->on = !gb_quiet && isatty(2);
	p->shown = 0;
	p->last_ns = gb_now_ns();
	p->what = what;
}

void gb_progress_update(gb_progress *p, uint64_t done, uint64_t total)
{
	uint64_t now;

	if (!p->on)
		return;
	now = gb_now_ns();
	if (now - p->last_ns < 250000000ull)
		return;
	p->last_ns = now;
	p->shown = 1;
	fprintf(stderr, "\r\033[K%s %" PRIu64 "/%" PRIu64 " (%.0f%%)", p->what, done, total,
		total ? 100.0 * (double)done / (double)total : 100.0);
	fflush(stderr);
}

void gb_progress_end(gb_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
