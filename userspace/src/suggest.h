/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck --suggest - candidate namespaces for MODULE_NAMESPACE_ALLOW:
 * for each exporting object (vmlinux, each module), the exports that at
 * most N modules of the tree use, grouped by their set of users, with the
 * lines a maintainer pastes to restrict them.
 *
 * A user of an export is a module with an undefined reference to it, weak
 * ones included: the kernel resolves a weak reference when the export
 * exists, and refuses the module when a namespace check fails on it
 * (simplify_symbols() lets only an unresolved weak symbol through).
 */
#ifndef NSCHECK_SUGGEST_H
#define NSCHECK_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "nsmod.h"
#include "util.h"

/* Exports by number of users: 0, 1, 2, 3, 4-10, >10. */
#define SG_BUCKETS 6

struct suggest_opts {
	unsigned int max_users;
	const char *exporter;	/* only this exporter (normalised), or NULL */
	const char *user;	/* only groups this module uses, or NULL */
	bool json;
	bool quiet;
};

/* An exporting object: vmlinux (index 0) or a module. */
struct sg_exporter {
	const char *name;
	const char *file;	/* NULL for vmlinux */
	const struct nsmod *mod;	/* NULL for vmlinux */
	size_t n_exports;
};

/* A module of the tree as a user; sorted by name, one per name. */
struct sg_user {
	const char *name;
	const char *file;	/* the first file of that name */
	bool proprietary;	/* not GPL-compatible */
};

struct sg_export {
	const char *sym;
	const char *ns;		/* "" when none */
	bool gpl;
	unsigned int exporter;
	unsigned int *users;	/* user indices, sorted, unique */
	size_t n_users, cap_users;
	struct sg_export *next;	/* same symbol, another exporter */
};

/* One proposed namespace. */
struct sg_group {
	unsigned int exporter;
	const char *ns;		/* proposed or existing name */
	bool existing;		/* the exports' own namespace, kept */
	bool declared;		/* the exporter already declares ns */
	const unsigned int *users;	/* sorted user indices */
	size_t n_users;
	struct sg_export **exports;	/* sorted by symbol */
	size_t n_exports;
	const unsigned int *others;	/* other exporters of ns (existing) */
	size_t n_others;
	bool shown;		/* within --max-users and the filters */
};

struct sg_nsinfo;

struct suggest_summary {
	size_t buckets[SG_BUCKETS];
	size_t exports;		/* of the selected exporters */
	size_t exporters;	/* selected exporters with an export */
	size_t modules;		/* readable modules: the possible users */
	size_t unreadable;
	size_t groups;		/* shown */
	size_t grouped;		/* exports in shown groups */
};

struct suggest {
	struct arena arena;
	struct hash *syms;	/* symbol -> struct sg_export chain */
	struct hash *nss;	/* namespace -> struct sg_nsinfo */
	struct sg_nsinfo **nsinfos;	/* the same, to free them */
	size_t n_nsinfos, cap_nsinfos;
	bool vmlinux_known;

	struct sg_exporter *exporters;
	size_t n_exporters, cap_exporters;
	struct sg_user *users;
	size_t n_users;
	struct sg_export **exports;	/* every export */
	size_t n_exports, cap_exports;
	struct sg_group *groups;	/* sorted by exporter, then name */
	size_t n_groups;

	struct suggest_summary sum;
};

struct suggest *suggest_new(void);
void suggest_free(struct suggest *sg);

/* vmlinux, from Module.symvers and modules.builtin.modinfo. */
void suggest_add_vmlinux_export(struct suggest *sg, const char *sym,
				const char *ns, bool gpl);
void suggest_add_vmlinux_grant(struct suggest *sg, const char *ns,
			       size_t nslen);

/*
 * Take the modules (those with m->error are only counted), find each
 * export's users, group and name them. files[i] is how mods[i] is shown.
 */
void suggest_build(struct suggest *sg, const struct nsmod *mods,
		   const char *const *files, size_t n,
		   const struct suggest_opts *o);

/* Text or JSON on stdout (suggest_report.c). */
void suggest_report(const struct suggest *sg, const struct suggest_opts *o);

/* The bucket of a number of users. */
unsigned int suggest_bucket(size_t n_users);

#endif
