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

/*
 * --overlay: a namespace the build exports into and grants to modules the
 * tree builds in. Built-in code does not go through the loader's check,
 * and no module can be loaded under a built-in one's name: such a grant
 * admits nobody. Not a refusal: a finding about the kernel.
 */
struct builtin_grant {
	const char *ns;
	const char **builtin;	/* the grantees built in, sorted */
	size_t n_builtin;
	const char **others;	/* the other grantees (or prefixes), sorted */
	size_t n_others;
	size_t symbols;		/* the build's exports in ns */
};

struct builtin_grants {
	struct builtin_grant *v;	/* by namespace */
	size_t n, cap;
};

struct report {
	const struct kernel *k;	/* the model the findings were made on */
	bool json;
	bool quiet;
	size_t count[N_STATUS];	/* by enum status */
	size_t missing_import;	/* loads, lacking an import (--overlay) */
	size_t nmods;
	/* --overlay's, said before the modules; NULL in the other modes */
	const struct builtin_grants *builtin;
};

/* A JSON string (null for NULL) on stdout. */
void json_str(const char *s);

/* The line of a struct builtin_grant (malloc'd). */
char *builtin_grant_line(const struct builtin_grant *b);

/* The JSON object's start, and rep->builtin's lines. */
void report_begin(struct report *rep);
/* as: "given", "dependency" or "softdep": why m is loaded. */
void report_module(struct report *rep, const struct nsmod *m,
		   enum status status, const char *as,
		   const struct findings *fs);
void report_end(struct report *rep);

#endif
