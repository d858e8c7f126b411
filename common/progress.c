#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "common/error.h"
#include "common/progress.h"
#include "common/timer.h"

void gb_progress_start(gb_progress *p, const char *what)
{
	p->on = !gb_quiet;
	p->tty = isatty(2);
	p->every_ns = p->tty ? 250000000ull : GB_PROGRESS_LOG_EVERY_S * 1000000000ull;
	p->shown = 0;
	p->last_ns = gb_now_ns();
	p->start_ns = p->last_ns;
	p->what = what;
}

void gb_progress_text(char *buf, size_t len, const char *what, uint64_t done, uint64_t total, double elapsed_s)
{
	size_t k = (size_t)snprintf(buf, len, "%s %" PRIu64 "/%" PRIu64 " (%.0f%%", what, done, total,
				    total ? 100.0 * (double)done / (double)total : 100.0);
	double left;
	unsigned long s;

	if (k < len && done && done < total) {
		left = elapsed_s * (double)(total - done) / (double)done;
		s = (unsigned long)(left + 0.5);
		if (s < 60)
			k += (size_t)snprintf(buf + k, len - k, ", about %lu s left", s);
		else if (s < 3600)
			k += (size_t)snprintf(buf + k, len - k, ", about %lu min %lu s left", s / 60, s % 60);
		else
			k += (size_t)snprintf(buf + k, len - k, ", about %lu h %lu min left", s / 3600, s / 60 % 60);
	}
	if (k < len)
		snprintf(buf + k, len - k, ")");
}

void gb_progress_update(gb_progress *p, uint64_t done, uint64_t total)
{
	char line[256];
	uint64_t now;

	if (!p->on)
		return;
	now = gb_now_ns();
	if (now - p->last_ns < p->every_ns)
		return;
	p->last_ns = now;
	gb_progress_text(line, sizeof(line), p->what, done, total, (double)(now - p->start_ns) / 1e9);
	if (p->tty) {
		p->shown = 1;
		fprintf(stderr, "\r\033[K%s", line);
	} else {
		fprintf(stderr, "gpubench: progress: %s\n", line);
	}
	fflush(stderr);
}

void gb_progress_end(gb_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
