/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the findings, as the kernel's lines on stdout or as JSON
 * (schema in nscheck(1), JSON); errors go to stderr either way.
 */
#ifndef NSCHECK_REPORT_H
#define NSCHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "nsmod.h"
#include "verdict.h"

enum status {
	STATUS_LOADS,
	STATUS_REFUSED,
	STATUS_UNREADABLE,	/* nscheck cannot read the file */
	STATUS_MALFORMED,	/* the kernel refuses its grants' section */
	N_STATUS,
};

struct kernel;

struct report {
	const struct kernel *k;	/* the model the findings were made on */
	bool json;
	bool quiet;
	size_t count[N_STATUS];	/* by enum status */
	size_t missing_import;	/* loads, lacking an import (--overlay) */
	size_t nmods;
};

/* A JSON string (null for NULL) on stdout. */
void json_str(const char *s);

void report_begin(struct report *rep);
/* as: "given", "dependency" or "softdep": why m is loaded. */
void report_module(struct report *rep, const struct nsmod *m,
		   enum status status, const char *as,
		   const struct findings *fs);
void report_end(struct report *rep);

#endif
