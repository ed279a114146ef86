// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - one model of the loaded kernel
 */

#include <stdlib.h>

#include "hash.h"
#include "kernel.h"
#include "nsallow.h"

struct lister {
	const struct object *o;
	struct lister *next;
};

/* A grant "ns:prefix*" of o: every name that starts with prefix. */
struct prefix {
	const struct object *o;
	const char *prefix;	/* with its '*' */
	struct prefix *next;
};

static struct object *new_object(struct kernel *k, const char *name,
				 const struct nsmod *m)
{
	struct object *o = arena_alloc(&k->arena, sizeof(*o));

	*o = (struct object){ .name = name, .mod = m,
			      .id = k->n_objects };
	*VEC_PUSH(k->objects, k->n_objects, k->cap_objects) = o;
	return o;
}

struct kernel *kernel_new(void)
{
	struct kernel *k = xcalloc(1, sizeof(*k));

	k->syms = hash_new();
	k->nss = hash_new();
	k->grants = hash_new();
	k->prefixes = hash_new();
	k->names = hash_new();
	new_object(k, "vmlinux", NULL)->vmlinux = true;
	return k;
}

void kernel_free(struct kernel *k)
{
	if (!k)
		return;
	hash_free(k->syms);
	hash_free(k->nss);
	hash_free(k->grants);
	hash_free(k->prefixes);
	hash_free(k->names);
	free(k->objects);
	free(k->exports);
	free(k->ns_names);
	free(k->grant_list);
	arena_free(&k->arena);
	free(k);
}

void kernel_set_sig_rule(struct kernel *k)
{
	k->sig_rule = true;
	kernel_vmlinux(k)->trusted = true;
}

static struct ns_member *member(struct kernel *k, const struct object *o,
				const char *ns)
{
	struct ns_member **head, *first, *m;

	first = hash_find(k->nss, ns);
	for (m = first; m; m = m->next) {
		if (m->o == o)
			return m;
	}
	/* A new key is kept by the table: give it a copy that lives. */
	if (!first) {
		ns = arena_strdup(&k->arena, ns);
		*VEC_PUSH(k->ns_names, k->n_ns_names, k->cap_ns_names) = ns;
	}
	head = (struct ns_member **)hash_slot(k->nss, ns);
	m = arena_alloc(&k->arena, sizeof(*m));
	*m = (struct ns_member){ .o = o, .next = *head };
	*head = m;
	return m;
}

static void add_export(struct kernel *k, struct object *o, const char *sym,
		       const char *ns, const char *was, bool gpl)
{
	struct export **head, *e;

	head = (struct export **)hash_slot(k->syms, sym);
	/* The same vmlinux export from a second Module.symvers. */
	for (e = *head; e; e = e->next) {
		if (e->owner == o)
			return;
	}
	e = arena_alloc(&k->arena, sizeof(*e));
	*e = (struct export){ .sym = sym, .ns = ns, .was_ns = was, .gpl = gpl,
			      .owner = o, .id = k->n_exports, .next = *head };
	*head = e;
	*VEC_PUSH(k->exports, k->n_exports, k->cap_exports) = e;
	if (*ns)
		member(k, o, ns)->exports = true;
}

void kernel_add_grant(struct kernel *k, const struct object *o,
		      const char *ns, const char *mod)
{
	struct kgrant *g;

	if (ns_allow_is_prefix(mod)) {
		struct prefix **head, *p;

		head = (struct prefix **)hash_slot(k->prefixes,
			hash_find(k->prefixes, ns) ? ns :
			arena_strdup(&k->arena, ns));
		for (p = *head; p; p = p->next) {
			if (p->o == o && streq(p->prefix, mod))
				goto declare;
		}
		p = arena_alloc(&k->arena, sizeof(*p));
		*p = (struct prefix){ .o = o, .next = *head,
				      .prefix = arena_strdup(&k->arena, mod) };
		*head = p;
	} else {
		char *key = xasprintf("%s:%s", ns, mod);
		struct lister **head, *l;

		if (hash_find(k->grants, key))
			head = (struct lister **)hash_slot(k->grants, key);
		else	/* a new key is kept by the table: a copy that lives */
			head = (struct lister **)hash_slot(k->grants,
				arena_strdup(&k->arena, key));
		free(key);
		for (l = *head; l && l->o != o; l = l->next)
			;
		if (l)
			goto declare;
		l = arena_alloc(&k->arena, sizeof(*l));
		*l = (struct lister){ .o = o, .next = *head };
		*head = l;
	}
	g = VEC_PUSH(k->grant_list, k->n_grant_list, k->cap_grant_list);
	g->o = o;
	g->ns = arena_strdup(&k->arena, ns);
	g->mod = arena_strdup(&k->arena, mod);
declare:
	member(k, o, ns)->declares = true;
}

void kernel_declare(struct kernel *k, const struct object *o,
		    const char *ns, bool exports)
{
	struct ns_member *m = member(k, o, ns);

	m->declares = true;
	m->exports = exports;
}

void kernel_add_vmlinux_export(struct kernel *k, const char *sym,
			       const char *ns, const char *was_ns, bool gpl)
{
	sym = arena_strdup(&k->arena, sym);
	ns = *ns ? arena_strdup(&k->arena, ns) : "";
	if (was_ns)
		was_ns = arena_strdup(&k->arena, was_ns);
	add_export(k, kernel_vmlinux(k), sym, ns, was_ns, gpl);
	k->vmlinux_known = true;
}

void kernel_add_vmlinux_grant(struct kernel *k, const char *ns,
			      size_t nslen, const char *mod)
{
	char *n;

	n = xasprintf("%.*s", (int)nslen, ns);
	kernel_add_grant(k, kernel_vmlinux(k), n, mod);
	free(n);
}

static struct object *add_module(struct kernel *k, const char *name,
				 const struct nsmod *m, bool proprietary)
{
	struct object *o = new_object(k, name, m);
	size_t i;

	o->proprietary = proprietary;
	*hash_slot(k->names, name) = o;
	for (i = 0; m && i < m->n_exports; i++)
		add_export(k, o, m->exports[i].sym, m->exports[i].ns,
			   m->exports[i].was_ns, m->exports[i].gpl);
	for (i = 0; m && i < m->n_imports; i++)
		member(k, o, m->imports[i])->imports = true;
	return o;
}

struct object *kernel_load(struct kernel *k, const struct nsmod *m,
			   bool proprietary)
{
	struct object *o = add_module(k, m->name, m, proprietary);
	size_t i;

	o->trusted = k->sig_rule && m->sig == SIG_TRUSTED;
	for (i = 0; i < m->n_grants; i++)
		kernel_add_grant(k, o, m->grants[i].ns, m->grants[i].mod);
	return o;
}

struct object *kernel_load_live(struct kernel *k, const char *name,
				const struct nsmod *m, bool proprietary,
				bool trusted)
{
	struct object *o;

	name = arena_strdup(&k->arena, name);
	o = add_module(k, name, m, proprietary);
	o->trusted = trusted;
	o->no_file = !m;
	return o;
}

const struct object *kernel_find_name(const struct kernel *k,
				      const char *name)
{
	return hash_find(k->names, name);
}

const struct export *kernel_exports_of(const struct kernel *k,
				       const char *sym)
{
	return hash_find(k->syms, sym);
}

/*
 * find_symbol()'s order: vmlinux, then modules newest first; non-GPL
 * before GPL-only within an object.
 */
static unsigned long rank(const struct export *e)
{
	unsigned long r = e->owner->vmlinux ? 0 : ~0u - e->owner->id + 1;

	return r * 2 + e->gpl;
}

const struct export *kernel_find_symbol(const struct kernel *k,
					const char *sym, bool gplok,
					const struct object *self)
{
	const struct export *e, *best = NULL;

	for (e = hash_find(k->syms, sym); e; e = e->next) {
		if (e->owner == self || (e->gpl && !gplok))
			continue;
		if (!best || rank(e) < rank(best))
			best = e;
	}
	return best;
}

const struct ns_member *kernel_namespace(const struct kernel *k,
					 const char *ns)
{
	return hash_find(k->nss, ns);
}

bool kernel_restricted(const struct kernel *k, const char *ns,
		       const struct object *self)
{
	const struct ns_member *m;

	for (m = hash_find(k->nss, ns); m; m = m->next) {
		if (m->o != self && m->exports && m->declares)
			return true;
	}
	return false;
}

bool kernel_declares(const struct kernel *k, const struct object *o,
		     const char *ns)
{
	const struct ns_member *m;

	for (m = hash_find(k->nss, ns); m; m = m->next) {
		if (m->o == o)
			return m->declares;
	}
	return false;
}

static const struct lister *listers(const struct kernel *k, const char *ns,
				    const char *mod)
{
	char *key = xasprintf("%s:%s", ns, mod);
	const struct lister *l = hash_find(k->grants, key);

	free(key);
	return l;
}

bool kernel_lists(const struct kernel *k, const struct object *o,
		  const char *ns, const char *mod)
{
	const struct lister *l;
	const struct prefix *p;

	for (l = listers(k, ns, mod); l; l = l->next) {
		if (l->o == o)
			return true;
	}
	for (p = hash_find(k->prefixes, ns); p; p = p->next) {
		if (p->o == o && ns_allow_grants(p->prefix, mod))
			return true;
	}
	return false;
}

static void better(const struct object **best, const struct object *o)
{
	if (!*best || (!(*best)->vmlinux &&
		       (o->vmlinux || strcmp(o->name, (*best)->name) < 0)))
		*best = o;
}

const struct object *kernel_other_lister(const struct kernel *k,
					 const char *ns, const char *mod,
					 const struct object *owner,
					 const struct object *self)
{
	const struct object *best = NULL;
	const struct lister *l;
	const struct prefix *p;

	for (l = listers(k, ns, mod); l; l = l->next) {
		if (l->o != owner && l->o != self)
			better(&best, l->o);
	}
	for (p = hash_find(k->prefixes, ns); p; p = p->next) {
		if (p->o != owner && p->o != self &&
		    ns_allow_grants(p->prefix, mod))
			better(&best, p->o);
	}
	return best;
}
