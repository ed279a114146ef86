/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - one model of the loaded kernel: vmlinux and the loaded
 * modules (the objects), the symbols they export (with namespace, GPL
 * flag and owner), the namespaces each object exports into, declares
 * (MODULE_NAMESPACE_ALLOW) or imports, the grants per (owner,
 * namespace), plain names and prefixes, and which objects are trusted
 * (signed with the built-in key, CONFIG_MODULE_NS_ALLOW_SIG). Readers
 * fill it (vmlinux.c for vmlinux, kernel_load() for a module file, live.c
 * for the running kernel, overlay.c rewriting what the others read with
 * another build's namespaces and grants); verdict.c decides on it;
 * --suggest and --graph walk it.
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
	bool trusted;		/* vmlinux, or signed with the built-in key */
	bool no_file;		/* loaded, its file not found: exports unknown */
};

struct export {
	const char *sym;
	const char *ns;		/* "" when none */
	const char *was_ns;	/* a reader changed ns: the file's, or NULL */
	bool gpl;		/* EXPORT_SYMBOL_GPL* */
	struct object *owner;
	unsigned int id;	/* index in kernel.exports */
	struct export *next;	/* the same symbol, another owner */
};

/* An object's part in one namespace. */
struct ns_member {
	const struct object *o;
	bool exports;		/* exports a symbol into it */
	bool declares;		/* has a grant for it (or a set, live) */
	bool imports;		/* MODULE_IMPORT_NS() of it */
	struct ns_member *next;
};

/* One grant of the model, in the order added. */
struct kgrant {
	const struct object *o;
	const char *ns;
	const char *mod;	/* a name, or a prefix ending in '*' */
};

struct kernel {
	struct arena arena;
	struct object **objects;	/* load order; [0] is vmlinux */
	size_t n_objects, cap_objects;
	struct export **exports;	/* in the order they were added */
	size_t n_exports, cap_exports;
	const char **ns_names;	/* every namespace with a member, in order */
	size_t n_ns_names, cap_ns_names;
	struct kgrant *grant_list;	/* every grant, in order */
	size_t n_grant_list, cap_grant_list;
	bool vmlinux_known;	/* something said what vmlinux exports */
	bool sig_rule;		/* CONFIG_MODULE_NS_ALLOW_SIG */
	bool live;		/* grants and exports flags from the kernel */
	struct hash *syms;	/* symbol -> struct export chain */
	struct hash *nss;	/* namespace -> struct ns_member list */
	struct hash *grants;	/* "ns:module" -> struct lister list */
	struct hash *prefixes;	/* namespace -> struct prefix list */
	struct hash *names;	/* module name -> struct object */
};

struct kernel *kernel_new(void);
void kernel_free(struct kernel *k);

static inline struct object *kernel_vmlinux(const struct kernel *k)
{
	return k->objects[0];
}

/*
 * The rule of CONFIG_MODULE_NS_ALLOW_SIG: vmlinux is trusted, and so is
 * each module loaded after, whose signature names the trusted key.
 */
void kernel_set_sig_rule(struct kernel *k);

/*
 * vmlinux, from Module.symvers and modules.builtin.modinfo; was_ns as in
 * struct ns_export.
 */
void kernel_add_vmlinux_export(struct kernel *k, const char *sym,
			       const char *ns, const char *was_ns, bool gpl);
void kernel_add_vmlinux_grant(struct kernel *k, const char *ns,
			      size_t nslen, const char *mod);

/* A module that loads: its exports, namespaces and grants now count. */
struct object *kernel_load(struct kernel *k, const struct nsmod *m,
			   bool proprietary);
/*
 * A loaded module as the live view shows it: its exports from m (NULL
 * when its file was not found), no grants (kernel_add_grant() and
 * kernel_declare() give the kernel's own).
 */
struct object *kernel_load_live(struct kernel *k, const char *name,
				const struct nsmod *m, bool proprietary,
				bool trusted);
/* o has the grant ns:mod. */
void kernel_add_grant(struct kernel *k, const struct object *o,
		      const char *ns, const char *mod);
/*
 * o declares ns (a set in the kernel's index, grants or none); exports:
 * the kernel's word on whether o exports into ns.
 */
void kernel_declare(struct kernel *k, const struct object *o,
		    const char *ns, bool exports);

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
/* o lets mod in for ns: a grant of that name, or a prefix of it. */
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
