/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the kernel being predicted: vmlinux and the loaded modules,
 * their exports, the namespaces they export into and declare, and their
 * grants. Lookups take a "self" object to leave out: the requester, whose
 * own exports and records never count.
 */
#ifndef NSCHECK_STATE_H
#define NSCHECK_STATE_H

#include <stdbool.h>

#include "nsmod.h"

struct object {
	const char *name;	/* mod->name, or "vmlinux" */
	const struct nsmod *mod;	/* NULL for vmlinux */
	bool vmlinux;
	bool proprietary;	/* TAINT_PROPRIETARY_MODULE */
	unsigned int seq;	/* load order: newer ones are searched first */
};

struct export_ref {
	struct object *owner;
	const char *ns;		/* "" when none */
	bool gpl;
	struct export_ref *next;
};

struct state;

struct state *state_new(void);
void state_free(struct state *st);

/* vmlinux, from Module.symvers and modules.builtin.modinfo. */
void state_add_vmlinux_export(struct state *st, const char *sym,
			      const char *ns, bool gpl);
void state_add_vmlinux_grant(struct state *st, const char *ns, size_t nslen,
			     const char *mod);
/* Whether anything said what vmlinux exports. */
bool state_vmlinux_known(const struct state *st);

/* A module that loads: its exports, namespaces and grants now count. */
struct object *state_load(struct state *st, const struct nsmod *m);
const struct object *state_find_name(const struct state *st,
				     const char *name);

/* find_symbol(): vmlinux first, then the newest module. */
const struct export_ref *state_find_symbol(const struct state *st,
					   const char *sym, bool gplok,
					   const struct object *self);
/* A loaded object (not self) exports into ns and declares ns. */
bool state_restricted(const struct state *st, const char *ns,
		      const struct object *self);
bool state_declares(const struct state *st, const struct object *o,
		    const char *ns);
bool state_lists(const struct state *st, const struct object *o,
		 const char *ns, const char *mod);
/*
 * A loaded object other than owner and self that lists mod for ns:
 * vmlinux if it does, else the one whose name sorts first.
 */
const struct object *state_other_lister(const struct state *st,
					const char *ns, const char *mod,
					const struct object *owner,
					const struct object *self);

#endif
