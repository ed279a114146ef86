/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - what the patched 6.1 loader decides for one module (SPEC §4,
 * §8.3, §8.4): one finding per failing symbol, in .symtab order, as the
 * kernel reports them; the refusals before any symbol (a name already
 * loaded, the records, an import of a module: namespace) alone.
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
	F_NOT_SIGNED,		/* a trusted owner lists an untrusted R */
	F_IMPORTS_MODULE_NS,	/* import_ns=module:...: -EPERM */
	/* module_ns_allow_prepare(), in its order: -ENOEXEC */
	F_TWO_SECTIONS,
	F_NOT_ALLOC,
	F_WRITABLE,
	F_RELOCATED,
	F_MALFORMED,
	F_MODINFO,
	/*
	 * --overlay: listed in a namespace the series gave the symbol, but
	 * built without its MODULE_IMPORT_NS(): the series must add it. Not
	 * a refusal.
	 */
	F_MISSING_IMPORT,
};

struct finding {
	enum finding_kind kind;
	int row;		/* row of the SPEC §4 table, or 0 */
	const char *sym;
	const char *ns;
	const char *owner;	/* the export's owner */
	const struct object *owner_obj;	/* the same, in the model */
	const char *declarer;	/* row 4's X */
	bool livepatch;		/* row 3 because R is a livepatch module */
	size_t offset;		/* F_MALFORMED */
	const char *was_ns;	/* F_MISSING_IMPORT: the tree's namespace */
	size_t count;		/* F_MISSING_IMPORT: symbols of ns used */
	int build_imports;	/* F_MISSING_IMPORT: the build's module of
				 * that name imports ns: 1, 0, -1 (none) */
};

struct findings {
	struct finding *f;
	size_t n, cap;
};

/* The kernel's license_is_gpl_compatible(); NULL is not. */
bool license_gpl_compatible(const char *license);
/* Whether loading m taints it TAINT_PROPRIETARY_MODULE (check_modinfo()). */
bool verdict_proprietary(const struct nsmod *m);

/*
 * Check m against the model k. self is m's own object when it is already
 * in k (--all), else NULL. Returns true when m would load.
 */
bool verdict_check(const struct kernel *k, const struct nsmod *m,
		   const struct object *self, struct findings *out);

/*
 * The kernel's refusal of a module whose __ns_allow section or records it
 * refuses (m->records).
 */
void verdict_records(const struct nsmod *m, struct findings *out);

/* Whether the kernel refuses the module for f (all but F_MISSING_IMPORT). */
bool finding_refuses(const struct finding *f);
/* The errno the kernel returns for a finding (0: none, not a refusal). */
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

/*
 * nscheck's own line after the kernel's: who restricts the namespace,
 * whom it lists (all of them with all_grants, else the first few), and
 * what the requester's author can do (malloc'd); NULL when there is
 * nothing to add. Never one of the kernel's lines.
 */
char *finding_hint(const struct kernel *k, const struct finding *f,
		   const char *modname, bool all_grants);

#endif
