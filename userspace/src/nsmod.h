/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - what nscheck knows of one module file: read once (loader.c),
 * then checked and, when it would load, added to the model (kernel.h).
 */
#ifndef NSCHECK_NSMOD_H
#define NSCHECK_NSMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ns_export {
	const char *sym;
	const char *ns;		/* "" when the symbol has no namespace */
	bool gpl;		/* in __ksymtab_gpl */
	uint64_t pos;		/* offset in its __ksymtab* section */
};

struct ns_undef {
	const char *sym;
	bool weak;
	bool common;		/* SHN_COMMON: refused, -fno-common */
};

/* One "ns:module" grant. */
struct ns_grant {
	const char *ns;
	const char *mod;
};

struct nsmod {
	const char *path;	/* as given, or as found in the tree */
	char *error;		/* why the file cannot be checked */
	/*
	 * A malformed __ns_allow section: the kernel refuses the module
	 * (-ENOEXEC); nscheck reports the offset it would print.
	 */
	bool bad_records;
	size_t bad_offset;

	const char *name;	/* modinfo name=, as the kernel's mod->name */
	const char *info_name;	/* modinfo name=, NULL when there is none */
	const char *license;	/* first license=, or NULL */
	uint16_t machine;	/* e_machine */

	const char **imports;	/* modinfo import_ns= */
	size_t n_imports;
	const char **softdeps;	/* modinfo softdep= */
	size_t n_softdeps;
	struct ns_export *exports;	/* __ksymtab, then __ksymtab_gpl */
	size_t n_exports;
	struct ns_undef *undefs;	/* in .symtab order */
	size_t n_undefs;
	struct ns_grant *grants;	/* __ns_allow records */
	size_t n_grants;
	struct ns_grant *info_grants;	/* modinfo allow_ns= */
	size_t n_info_grants;
};

#endif
