/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - one model of the loaded kernel: vmlinux and the loaded
 * modules (the objects), the symbols they export (with namespace, GPL
 * flag and owner), the namespaces each object exports into, declares
 * (MODULE_NAMESPACE_ALLOW) or imports, and the grants per (owner,
 * namespace). Readers fill it (describe.c for vmlinux, kernel_load() for a
 * module file); verdict.c decides on it; --suggest analyses it.
 *
 * Lookups that model the kernel's own take a "self" object to leave out:
 * the requester, whose exports and records never count for itself.
 */
#ifndef NSCHECK_KERNEL_H
#define NSCHECK_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "nsmod.h"
#include "util.h"

struct object {
	const char *name;	/* mod->name, or "vmlinux" */
	const struct nsmod *mod;	/* the module file; NULL for vmlinux */
	unsigned int id;	/* index in kernel.objects; vmlinux is 0 */
	bool vmlinux;
	bool proprietary;	/* TAINT_PROPRIETARY_MODULE */
};

struct export {
	const char *sym;
	const char *ns;		/* "" when none */
	bool gpl;		/* EXPORT_SYMBOL_GPL* */
	struct object *owner;
	unsigned int id;	/* index in kernel.exports */
	struct export *next;	/* the same symbol, another owner */
};

/* An object's part in one namespace. */
struct ns_member {
	const struct object *o;
	bool exports;		/* exports a symbol into it */
	bool declares;		/* has a grant for it */
	bool imports;		/* MODULE_IMPORT_NS() of it */
	struct ns_member *next;
};

struct kernel {
	struct arena arena;
	struct object **objects;	/* load order; [0] is vmlinux */
	size_t n_objects, cap_objects;
	struct export **exports;	/* in the order they were added */
	size_t n_exports, cap_exports;
	bool vmlinux_known;	/* something said what vmlinux exports */
	struct hash *syms;	/* symbol -> struct export chain */
	struct hash *nss;	/* namespace -> struct ns_member list */
	struct hash *grants;	/* "ns:module" -> struct lister list */
	struct hash *names;	/* module name -> struct object */
};

struct kernel *kernel_new(void);
void kernel_free(struct kernel *k);

static inline struct object *kernel_vmlinux(const struct kernel *k)
{
	return k->objects[0];
}

/* vmlinux, from Module.symvers and modules.builtin.modinfo. */
void kernel_add_vmlinux_export(struct kernel *k, const char *sym,
			       const char *ns, bool gpl);
void kernel_add_vmlinux_grant(struct kernel *k, const char *ns,
			      size_t nslen, const char *mod);

/* A module that loads: its exports, namespaces and grants now count. */
struct object *kernel_load(struct kernel *k, const struct nsmod *m,
			   bool proprietary);
const struct object *kernel_find_name(const struct kernel *k,
				      const char *name);

/* Every export of sym, newest owner first. */
const struct export *kernel_exports_of(const struct kernel *k,
				       const char *sym);
/* find_symbol(): vmlinux first, then the newest module. */
const struct export *kernel_find_symbol(const struct kernel *k,
					const char *sym, bool gplok,
					const struct object *self);

/* The objects that have a part in ns, or NULL when none does. */
const struct ns_member *kernel_namespace(const struct kernel *k,
					 const char *ns);
/* A loaded object (not self) exports into ns and declares ns. */
bool kernel_restricted(const struct kernel *k, const char *ns,
		       const struct object *self);
bool kernel_declares(const struct kernel *k, const struct object *o,
		     const char *ns);
/* o has the grant ns:mod. */
bool kernel_lists(const struct kernel *k, const struct object *o,
		  const char *ns, const char *mod);
/*
 * A loaded object other than owner and self that lists mod for ns:
 * vmlinux if it does, else the one whose name sorts first.
 */
const struct object *kernel_other_lister(const struct kernel *k,
					 const char *ns, const char *mod,
					 const struct object *owner,
					 const struct object *self);

#endif
