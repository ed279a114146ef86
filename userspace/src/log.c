// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - messages on stderr
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <libkmod.h>

#include "log.h"

int log_priority = LOG_WARNING;

static const char *prio_to_str(int prio)
{
	switch (prio) {
	case LOG_ERR:
		return "ERROR";
	case LOG_WARNING:
		return "WARNING";
	case LOG_INFO:
		return "INFO";
	default:
		return "DEBUG";
	}
}

static void __attribute__((format(printf, 3, 0)))
log_vprintf(int prio, const char *from, const char *fmt, va_list ap)
{
	if (prio > log_priority)
		return;
	fprintf(stderr, "%s: %s: %s", program_invocation_short_name,
		prio_to_str(prio), from);
	vfprintf(stderr, fmt, ap);
}

void log_printf(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprintf(prio, "", fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 6, 0)))
log_kmod(void *data, int prio, const char *file, int line, const char *fn,
	 const char *fmt, va_list ap)
{
	(void)data, (void)file, (void)line, (void)fn;
	log_vprintf(prio, "libkmod: ", fmt, ap);
}

void log_setup_kmod(struct kmod_ctx *ctx)
{
	kmod_set_log_fn(ctx, log_kmod, NULL);
	kmod_set_log_priority(ctx, log_priority);
}
