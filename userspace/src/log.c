// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - messages on stderr
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

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

void log_printf(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio > log_priority)
		return;

	fprintf(stderr, "%s: %s: ", program_invocation_short_name,
		prio_to_str(prio));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
