// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - the kernel being predicted
 */

#include <limits.h>
#include <stdlib.h>

#include "hash.h"
#include "modinfo.h"
#include "state.h"
#include "util.h"

/* An object's part in a namespace. */
struct ns_member {
	const struct object *o;
	bool exports;
	bool declares;
	struct ns_member *next;
};

struct lister {
	const struct object *o;
	struct lister *next;
};

struct state {
	struct arena arena;
	struct object vmlinux;
	bool vmlinux_known;
	unsigned int seq;
	struct hash *syms;	/* symbol -> struct export_ref list */
	struct hash *nss;	/* namespace -> struct ns_member list */
	struct hash *grants;	/* "ns:module" -> struct lister list */
	struct hash *names;	/* module name -> struct object */
};

struct state *state_new(void)
{
	struct state *st = xcalloc(1, sizeof(*st));

	st->vmlinux.name = "vmlinux";
	st->vmlinux.vmlinux = true;
	st->syms = hash_new();
	st->nss = hash_new();
	st->grants = hash_new();
	st->names = hash_new();
	return st;
}

void state_free(struct state *st)
{
	if (!st)
		return;
	hash_free(st->syms);
	hash_free(st->nss);
	hash_free(st->grants);
	hash_free(st->names);
	arena_free(&st->arena);
	free(st);
}

static struct ns_member *member(struct state *st, const struct object *o,
				const char *ns)
{
	struct ns_member **head, *m;

	m = hash_find(st->nss, ns);
	for (; m; m = m->next) {
		if (m->o == o)
			return m;
	}
	ns = arena_strdup(&st->arena, ns);
	head = (struct ns_member **)hash_slot(st->nss, ns);
	m = arena_alloc(&st->arena, sizeof(*m));
	*m = (struct ns_member){ .o = o, .next = *head };
	*head = m;
	return m;
}

static void add_export(struct state *st, struct object *o, const char *sym,
		       const char *ns, bool gpl)
{
	struct export_ref **head = (struct export_ref **)hash_slot(st->syms,
								   sym);
	struct export_ref *e;

	/* The same vmlinux export from a second Module.symvers. */
	for (e = *head; e; e = e->next) {
		if (e->owner == o)
			return;
	}
	e = arena_alloc(&st->arena, sizeof(*e));
	*e = (struct export_ref){ .owner = o, .ns = ns, .gpl = gpl,
				  .next = *head };
	*head = e;
	if (*ns)
		member(st, o, ns)->exports = true;
}

static void add_grant(struct state *st, const struct object *o,
		      const char *ns, size_t nslen, const char *mod)
{
	char *key = xasprintf("%.*s:%s", (int)nslen, ns, mod);
	struct lister **head, *l;

	if (hash_find(st->grants, key))
		head = (struct lister **)hash_slot(st->grants, key);
	else
		head = (struct lister **)hash_slot(st->grants,
			arena_strdup(&st->arena, key));
	for (l = *head; l && l->o != o; l = l->next)
		;
	if (!l) {
		l = arena_alloc(&st->arena, sizeof(*l));
		*l = (struct lister){ .o = o, .next = *head };
		*head = l;
	}
	key[nslen] = '\0';
	member(st, o, key)->declares = true;
	free(key);
}

void state_add_vmlinux_export(struct state *st, const char *sym,
			      const char *ns, bool gpl)
{
	sym = arena_strdup(&st->arena, sym);
	ns = *ns ? arena_strdup(&st->arena, ns) : "";
	add_export(st, &st->vmlinux, sym, ns, gpl);
	st->vmlinux_known = true;
}

void state_add_vmlinux_grant(struct state *st, const char *ns, size_t nslen,
			     const char *mod)
{
	add_grant(st, &st->vmlinux, ns, nslen, mod);
}

bool state_vmlinux_known(const struct state *st)
{
	return st->vmlinux_known;
}

struct object *state_load(struct state *st, const struct nsmod *m)
{
	struct object *o = arena_alloc(&st->arena, sizeof(*o));
	size_t i;

	*o = (struct object){
		.name = m->name,
		.mod = m,
		.proprietary = modinfo_proprietary(m),
		.seq = ++st->seq,
	};
	*hash_slot(st->names, m->name) = o;
	for (i = 0; i < m->n_exports; i++)
		add_export(st, o, m->exports[i].sym, m->exports[i].ns,
			   m->exports[i].gpl);
	for (i = 0; i < m->n_grants; i++)
		add_grant(st, o, m->grants[i].ns, strlen(m->grants[i].ns),
			  m->grants[i].mod);
	return o;
}

const struct object *state_find_name(const struct state *st,
				     const char *name)
{
	return hash_find(st->names, name);
}

/*
 * find_symbol()'s order: vmlinux, then modules newest first; non-GPL
 * before GPL-only within an object.
 */
static unsigned long rank(const struct export_ref *e)
{
	unsigned long r = e->owner->vmlinux ? 0 : UINT_MAX - e->owner->seq + 1;

	return r * 2 + e->gpl;
}

const struct export_ref *state_find_symbol(const struct state *st,
					   const char *sym, bool gplok,
					   const struct object *self)
{
	const struct export_ref *e, *best = NULL;

	for (e = hash_find(st->syms, sym); e; e = e->next) {
		if (e->owner == self || (e->gpl && !gplok))
			continue;
		if (!best || rank(e) < rank(best))
			best = e;
	}
	return best;
}

bool state_restricted(const struct state *st, const char *ns,
		      const struct object *self)
{
	const struct ns_member *m;

	for (m = hash_find(st->nss, ns); m; m = m->next) {
		if (m->o != self && m->exports && m->declares)
			return true;
	}
	return false;
}

bool state_declares(const struct state *st, const struct object *o,
		    const char *ns)
{
	const struct ns_member *m;

	for (m = hash_find(st->nss, ns); m; m = m->next) {
		if (m->o == o)
			return m->declares;
	}
	return false;
}

static const struct lister *listers(const struct state *st, const char *ns,
				    const char *mod)
{
	char *key = xasprintf("%s:%s", ns, mod);
	const struct lister *l = hash_find(st->grants, key);

	free(key);
	return l;
}

bool state_lists(const struct state *st, const struct object *o,
		 const char *ns, const char *mod)
{
	const struct lister *l;

	for (l = listers(st, ns, mod); l; l = l->next) {
		if (l->o == o)
			return true;
	}
	return false;
}

const struct object *state_other_lister(const struct state *st,
					const char *ns, const char *mod,
					const struct object *owner,
					const struct object *self)
{
	const struct object *best = NULL;
	const struct lister *l;

	for (l = listers(st, ns, mod); l; l = l->next) {
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
