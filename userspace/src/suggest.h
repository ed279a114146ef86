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

#include "kernel.h"
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

/* A module of the tree as a user; sorted by name, one per name. */
struct sg_user {
	const char *name;
	const char *file;	/* the first file of that name */
	bool proprietary;	/* not GPL-compatible */
};

/* The users of one export of the model, by its id. */
struct sg_uses {
	unsigned int *users;	/* user indices, sorted, unique */
	size_t n, cap;
};

/* One proposed namespace. */
struct sg_group {
	unsigned int exporter;	/* object id in the model */
	const char *ns;		/* proposed or existing name */
	bool existing;		/* the exports' own namespace, kept */
	bool declared;		/* the exporter already declares ns */
	const unsigned int *users;	/* sorted user indices */
	size_t n_users;
	const struct export **exports;	/* sorted by symbol */
	size_t n_exports;
	unsigned int *others;	/* other exporters of ns (existing) */
	size_t n_others;
	bool shown;		/* within --max-users and the filters */
};

struct suggest_summary {
	size_t buckets[SG_BUCKETS];
	size_t exports;		/* of the selected exporters */
	size_t exporters;	/* selected exporters with an export */
	size_t modules;		/* readable modules: the possible users */
	size_t unreadable;
	size_t groups;		/* shown */
	size_t grouped;		/* exports in shown groups */
	size_t over;		/* groups left out: more than --max-users */
	const struct sg_group *largest;	/* the largest of those */
};

struct suggest {
	struct arena arena;
	struct kernel *k;	/* the model: vmlinux, then every module */
	const char **files;	/* by object id: how it is shown; NULL */
	size_t *n_exports;	/* by object id */
	struct sg_uses *uses;	/* by export id */
	struct sg_user *users;
	size_t n_users;
	struct sg_group *groups;	/* sorted by exporter, then name */
	size_t n_groups;

	struct suggest_summary sum;
};

/*
 * k holds vmlinux (vmlinux.c); suggest_build() loads every readable
 * module into it. The model stays the caller's.
 */
struct suggest *suggest_new(struct kernel *k);
void suggest_free(struct suggest *sg);

/*
 * Take the modules (those with m->error are only counted), find each
 * export's users, group and name them. files[i] is how mods[i] is shown.
 */
void suggest_build(struct suggest *sg, struct nsmod *const *mods,
		   const char *const *files, size_t n,
		   const struct suggest_opts *o);

/* Text or JSON on stdout (suggest_report.c). */
void suggest_report(const struct suggest *sg, const struct suggest_opts *o);

/* The bucket of a number of users. */
unsigned int suggest_bucket(size_t n_users);

#endif
