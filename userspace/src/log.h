/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - messages on stderr, as kmod's tools print them:
 * "nscheck: ERROR: ...".
 */
#ifndef NSCHECK_LOG_H
#define NSCHECK_LOG_H

#include <syslog.h>

extern int log_priority;

void log_printf(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct kmod_ctx;
/* libkmod's messages go the same way, at the same priority (-v). */
void log_setup_kmod(struct kmod_ctx *ctx);

#define ERR(...) log_printf(LOG_ERR, __VA_ARGS__)
#define WRN(...) log_printf(LOG_WARNING, __VA_ARGS__)
#define INF(...) log_printf(LOG_INFO, __VA_ARGS__)
#define DBG(...) log_printf(LOG_DEBUG, __VA_ARGS__)

#endif
