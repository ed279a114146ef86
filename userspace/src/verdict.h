/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - what the patched 6.1 loader decides for one module (SPEC §4):
 * one finding per failing symbol, in .symtab order, as the kernel reports
 * them.
 */
#ifndef NSCHECK_VERDICT_H
#define NSCHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"
#include "nsmod.h"

enum finding_kind {
	F_UNKNOWN_SYMBOL,	/* not found (or GPL-only, hidden): -ENOENT */
	F_NOT_IMPORTED,		/* rows 2 and 3: no import_ns: -EINVAL */
	F_WRONG_MODULE,		/* row 4: -EACCES */
	F_NOT_ALLOWED,		/* row 5: -EACCES */
	F_UNDECLARED,		/* row 6: -EACCES */
	F_NOT_GPL,		/* restricted non-GPL export, proprietary R */
	F_PROPRIETARY_OWNER,	/* 6.1 inherit_taint(): -ENOENT */
	F_COMMON,		/* SHN_COMMON symbol: -ENOEXEC */
	F_DUPLICATE,		/* exports a symbol that exists: -ENOEXEC */
	F_ALREADY_LOADED,	/* same name loaded: -EEXIST */
	F_MALFORMED,		/* bad __ns_allow section: -ENOEXEC */
};

struct finding {
	enum finding_kind kind;
	int row;		/* row of the SPEC §4 table, or 0 */
	const char *sym;
	const char *ns;
	const char *owner;	/* the export's owner */
	const char *declarer;	/* row 4's X */
	size_t offset;		/* F_MALFORMED */
};

struct findings {
	struct finding *f;
	size_t n, cap;
};

/* The kernel's license_is_gpl_compatible(); NULL is not. */
bool license_gpl_compatible(const char *license);
/* Whether loading m taints it TAINT_PROPRIETARY_MODULE (check_modinfo()). */
bool verdict_proprietary(const struct nsmod *m);
/* Whether m's modinfo allow_ns= lines and its __ns_allow records differ. */
bool verdict_grants_differ(const struct nsmod *m);

/*
 * Check m against the model k. self is m's own object when it is already
 * in k (--all), else NULL. Returns true when m would load.
 */
bool verdict_check(const struct kernel *k, const struct nsmod *m,
		   const struct object *self, struct findings *out);

/* The kernel's refusal of a module whose __ns_allow is malformed. */
void verdict_malformed(const struct nsmod *m, struct findings *out);

/* The errno the kernel returns for a finding. */
int finding_errno(const struct finding *f);
/* Its verdict name in --json. */
const char *finding_name(const struct finding *f);
/* The exact line the kernel prints (malloc'd). */
char *finding_line(const struct finding *f, const char *modname);
/*
 * The line simplify_symbols() prints after it, "R: Unknown symbol S (err
 * E)" (malloc'd), or NULL when the kernel prints none.
 */
char *finding_unknown_line(const struct finding *f, const char *modname);

#endif
