// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - one model of the loaded kernel
 */

#include <stdlib.h>

#include "hash.h"
#include "kernel.h"

struct lister {
	const struct object *o;
	struct lister *next;
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
	hash_free(k->names);
	free(k->objects);
	free(k->exports);
	arena_free(&k->arena);
	free(k);
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
	if (!first)
		ns = arena_strdup(&k->arena, ns);
	head = (struct ns_member **)hash_slot(k->nss, ns);
	m = arena_alloc(&k->arena, sizeof(*m));
	*m = (struct ns_member){ .o = o, .next = *head };
	*head = m;
	return m;
}

static void add_export(struct kernel *k, struct object *o, const char *sym,
		       const char *ns, bool gpl)
{
	struct export **head, *e;

	head = (struct export **)hash_slot(k->syms, sym);
	/* The same vmlinux export from a second Module.symvers. */
	for (e = *head; e; e = e->next) {
		if (e->owner == o)
			return;
	}
	e = arena_alloc(&k->arena, sizeof(*e));
	*e = (struct export){ .sym = sym, .ns = ns, .gpl = gpl, .owner = o,
			      .id = k->n_exports, .next = *head };
	*head = e;
	*VEC_PUSH(k->exports, k->n_exports, k->cap_exports) = e;
	if (*ns)
		member(k, o, ns)->exports = true;
}

static void add_grant(struct kernel *k, const struct object *o,
		      const char *ns, size_t nslen, const char *mod)
{
	char *key = xasprintf("%.*s:%s", (int)nslen, ns, mod);
	struct lister **head, *l;

	if (hash_find(k->grants, key))
		head = (struct lister **)hash_slot(k->grants, key);
	else	/* a new key is kept by the table: a copy that lives */
		head = (struct lister **)hash_slot(k->grants,
			arena_strdup(&k->arena, key));
	for (l = *head; l && l->o != o; l = l->next)
		;
	if (!l) {
		l = arena_alloc(&k->arena, sizeof(*l));
		*l = (struct lister){ .o = o, .next = *head };
		*head = l;
	}
	key[nslen] = '\0';
	member(k, o, key)->declares = true;
	free(key);
}

void kernel_add_vmlinux_export(struct kernel *k, const char *sym,
			       const char *ns, bool gpl)
{
	sym = arena_strdup(&k->arena, sym);
	ns = *ns ? arena_strdup(&k->arena, ns) : "";
	add_export(k, kernel_vmlinux(k), sym, ns, gpl);
	k->vmlinux_known = true;
}

void kernel_add_vmlinux_grant(struct kernel *k, const char *ns,
			      size_t nslen, const char *mod)
{
	add_grant(k, kernel_vmlinux(k), ns, nslen, mod);
}

struct object *kernel_load(struct kernel *k, const struct nsmod *m,
			   bool proprietary)
{
	struct object *o = new_object(k, m->name, m);
	size_t i;

	o->proprietary = proprietary;
	*hash_slot(k->names, m->name) = o;
	for (i = 0; i < m->n_exports; i++)
		add_export(k, o, m->exports[i].sym, m->exports[i].ns,
			   m->exports[i].gpl);
	for (i = 0; i < m->n_grants; i++)
		add_grant(k, o, m->grants[i].ns, strlen(m->grants[i].ns),
			  m->grants[i].mod);
	for (i = 0; i < m->n_imports; i++)
		member(k, o, m->imports[i])->imports = true;
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

	for (l = listers(k, ns, mod); l; l = l->next) {
		if (l->o == o)
			return true;
	}
	return false;
}

const struct object *kernel_other_lister(const struct kernel *k,
					 const char *ns, const char *mod,
					 const struct object *owner,
					 const struct object *self)
{
	const struct object *best = NULL;
	const struct lister *l;

	for (l = listers(k, ns, mod); l; l = l->next) {
		const struct object *o = l->o;

		if (o == owner || o == self)
			continue;
		if (o->vmlinux)
			return o;
		if (!best || strcmp(o->name, best->name) < 0)
			best = o;
	}
	return best;
}
