// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --suggest - who uses each export, and the proposed namespaces
 */

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hash.h"
#include "log.h"
#include "modinfo.h"
#include "suggest.h"

/* A generated name longer than this is cut and gets a hash. */
#define SG_NAME_MAX 64
#define SG_HASH_LEN 8

/* What the tree says of one namespace name. */
struct sg_nsinfo {
	unsigned int *exporters;	/* export into it, sorted, unique */
	size_t n_exporters, cap_exporters;
	unsigned int *declarers;	/* declare it */
	size_t n_declarers, cap_declarers;
};

struct suggest *suggest_new(void)
{
	struct suggest *sg = xcalloc(1, sizeof(*sg));
	struct sg_exporter *v;

	sg->syms = hash_new();
	sg->nss = hash_new();
	v = VEC_PUSH(sg->exporters, sg->n_exporters, sg->cap_exporters);
	*v = (struct sg_exporter){ .name = "vmlinux" };
	return sg;
}

void suggest_free(struct suggest *sg)
{
	size_t i;

	if (!sg)
		return;
	for (i = 0; i < sg->n_exports; i++)
		free(sg->exports[i]->users);
	for (i = 0; i < sg->n_nsinfos; i++) {
		free(sg->nsinfos[i]->exporters);
		free(sg->nsinfos[i]->declarers);
	}
	free(sg->nsinfos);
	free(sg->exports);
	free(sg->exporters);
	free(sg->users);
	free(sg->groups);
	hash_free(sg->syms);
	hash_free(sg->nss);
	arena_free(&sg->arena);
	free(sg);
}

static struct sg_nsinfo *nsinfo(struct suggest *sg, const char *ns,
				size_t nslen)
{
	char *key = xasprintf("%.*s", (int)nslen, ns);
	struct sg_nsinfo **slot, *n = hash_find(sg->nss, key);

	if (!n) {
		slot = (struct sg_nsinfo **)hash_slot(sg->nss,
			arena_strdup(&sg->arena, key));
		n = arena_alloc(&sg->arena, sizeof(*n));
		*n = (struct sg_nsinfo){ 0 };
		*slot = n;
		*VEC_PUSH(sg->nsinfos, sg->n_nsinfos, sg->cap_nsinfos) = n;
	}
	free(key);
	return n;
}

static void add_unique(unsigned int **v, size_t *n, size_t *cap,
		       unsigned int x)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*v)[i] == x)
			return;
	}
	*VEC_PUSH(*v, *n, *cap) = x;
}

static void add_export(struct suggest *sg, unsigned int exporter,
		       const char *sym, const char *ns, bool gpl)
{
	struct sg_export **head = (struct sg_export **)hash_slot(sg->syms,
								 sym);
	struct sg_export *e;

	/* The same vmlinux export from a second Module.symvers. */
	for (e = *head; e; e = e->next) {
		if (e->exporter == exporter)
			return;
	}
	e = arena_alloc(&sg->arena, sizeof(*e));
	*e = (struct sg_export){ .sym = sym, .ns = ns, .gpl = gpl,
				 .exporter = exporter, .next = *head };
	*head = e;
	*VEC_PUSH(sg->exports, sg->n_exports, sg->cap_exports) = e;
	sg->exporters[exporter].n_exports++;
	if (*ns) {
		struct sg_nsinfo *n = nsinfo(sg, ns, strlen(ns));

		add_unique(&n->exporters, &n->n_exporters, &n->cap_exporters,
			   exporter);
	}
}

void suggest_add_vmlinux_export(struct suggest *sg, const char *sym,
				const char *ns, bool gpl)
{
	sym = arena_strdup(&sg->arena, sym);
	ns = *ns ? arena_strdup(&sg->arena, ns) : "";
	add_export(sg, 0, sym, ns, gpl);
	sg->vmlinux_known = true;
}

void suggest_add_vmlinux_grant(struct suggest *sg, const char *ns,
			       size_t nslen)
{
	struct sg_nsinfo *n = nsinfo(sg, ns, nslen);

	add_unique(&n->declarers, &n->n_declarers, &n->cap_declarers, 0);
}

unsigned int suggest_bucket(size_t n_users)
{
	if (n_users <= 3)
		return n_users;
	return n_users <= 10 ? 4 : 5;
}

static int cmp_mod(const void *a, const void *b)
{
	const struct nsmod *x = *(const struct nsmod *const *)a;
	const struct nsmod *y = *(const struct nsmod *const *)b;
	int r = strcmp(x->name, y->name);

	return r ? r : strcmp(x->path, y->path);
}

static int cmp_user_name(const void *key, const void *u)
{
	return strcmp(key, ((const struct sg_user *)u)->name);
}

static const struct sg_user *find_user(const struct suggest *sg,
				       const char *name)
{
	return bsearch(name, sg->users, sg->n_users, sizeof(*sg->users),
		       cmp_user_name);
}

/*
 * Users, one per module name, and module exporters, one per file, both
 * sorted by name (then file): indices then sort as names do.
 */
static void take_modules(struct suggest *sg, const struct nsmod *mods,
			 const char *const *files, size_t n)
{
	const struct nsmod **sorted = xcalloc(n, sizeof(*sorted));
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (!mods[i].error)
			sorted[k++] = &mods[i];
	}
	sg->sum.modules = k;
	sg->sum.unreadable = n - k;
	if (k)
		qsort(sorted, k, sizeof(*sorted), cmp_mod);
	sg->users = xcalloc(k, sizeof(*sg->users));
	for (i = 0; i < k; i++) {
		const struct nsmod *m = sorted[i];
		size_t idx = m - mods;

		/* Only so that no generated name takes an imported one. */
		for (j = 0; j < m->n_imports; j++)
			nsinfo(sg, m->imports[j], strlen(m->imports[j]));
		if (!sg->n_users ||
		    !streq(sg->users[sg->n_users - 1].name, m->name))
			sg->users[sg->n_users++] = (struct sg_user){
				.name = m->name,
				.file = files[idx],
				.proprietary = modinfo_proprietary(m),
			};
		if (m->n_exports) {
			struct sg_exporter *x;

			x = VEC_PUSH(sg->exporters, sg->n_exporters,
				     sg->cap_exporters);
			*x = (struct sg_exporter){ .name = m->name,
						   .file = files[idx],
						   .mod = m };
		}
	}
	free(sorted);
}

/* A module's exports and the namespaces it declares. */
static void take_exports(struct suggest *sg, const struct nsmod *m,
			 unsigned int x)
{
	size_t i;

	for (i = 0; i < m->n_exports; i++)
		add_export(sg, x, m->exports[i].sym, m->exports[i].ns,
			   m->exports[i].gpl);
	for (i = 0; i < m->n_grants; i++) {
		struct sg_nsinfo *n = nsinfo(sg, m->grants[i].ns,
					     strlen(m->grants[i].ns));

		add_unique(&n->declarers, &n->n_declarers, &n->cap_declarers,
			   x);
	}
}

/*
 * m's undefined references: to vmlinux's export when it has one (a module
 * exporting it too cannot load), else to every module exporting it. A
 * module that is not GPL-compatible never sees a GPL-only export.
 */
static void take_uses(struct suggest *sg, const struct nsmod *m)
{
	const struct sg_user *u = find_user(sg, m->name);
	unsigned int uid = u - sg->users;
	size_t i;

	for (i = 0; i < m->n_undefs; i++) {
		struct sg_export *chain, *e;
		bool vmlinux = false;

		if (m->undefs[i].common)
			continue;
		chain = hash_find(sg->syms, m->undefs[i].sym);
		for (e = chain; e; e = e->next)
			vmlinux |= e->exporter == 0;
		for (e = chain; e; e = e->next) {
			if (vmlinux && e->exporter)
				continue;
			if (e->gpl && u->proprietary)
				continue;
			if (streq(sg->exporters[e->exporter].name, m->name))
				continue;
			*VEC_PUSH(e->users, e->n_users, e->cap_users) = uid;
		}
	}
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a;
	unsigned int y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static size_t sort_unique(unsigned int *v, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_uint);
	for (i = 0; i < n; i++) {
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	}
	return k;
}

static int cmp_users(const unsigned int *a, size_t na,
		     const unsigned int *b, size_t nb)
{
	size_t i;

	for (i = 0; i < na && i < nb; i++) {
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return na < nb ? -1 : na > nb;
}

/*
 * Candidates sort so that each group is a run: by exporter; exports with
 * a namespace first, by namespace; the others by user set; then by symbol.
 */
static int cmp_candidate(const void *a, const void *b)
{
	const struct sg_export *x = *(const struct sg_export *const *)a;
	const struct sg_export *y = *(const struct sg_export *const *)b;
	int r;

	if (x->exporter != y->exporter)
		return x->exporter < y->exporter ? -1 : 1;
	if (!*x->ns != !*y->ns)
		return *x->ns ? -1 : 1;
	r = *x->ns ? strcmp(x->ns, y->ns) :
	    cmp_users(x->users, x->n_users, y->users, y->n_users);
	return r ? r : strcmp(x->sym, y->sym);
}

static bool same_group(const struct sg_export *x, const struct sg_export *y)
{
	if (x->exporter != y->exporter || !*x->ns != !*y->ns)
		return false;
	if (*x->ns)
		return streq(x->ns, y->ns);
	return !cmp_users(x->users, x->n_users, y->users, y->n_users);
}

/* An existing namespace: every user of the exporter's exports in it. */
static void existing_group(struct suggest *sg, struct sg_group *g)
{
	struct sg_nsinfo *n = hash_find(sg->nss, g->exports[0]->ns);
	unsigned int *u = NULL, *o;
	size_t nu = 0, cap = 0, i, j;

	for (i = 0; i < g->n_exports; i++) {
		const struct sg_export *e = g->exports[i];

		for (j = 0; j < e->n_users; j++)
			*VEC_PUSH(u, nu, cap) = e->users[j];
	}
	nu = sort_unique(u, nu);
	g->users = arena_memdup(&sg->arena, u, nu * sizeof(*u));
	g->n_users = nu;
	free(u);

	g->ns = g->exports[0]->ns;
	g->existing = true;
	for (i = 0; i < n->n_declarers; i++)
		g->declared |= n->declarers[i] == g->exporter;
	o = arena_alloc(&sg->arena, n->n_exporters * sizeof(*o));
	for (i = 0; i < n->n_exporters; i++) {
		if (n->exporters[i] != g->exporter)
			o[g->n_others++] = n->exporters[i];
	}
	qsort(o, g->n_others, sizeof(*o), cmp_uint);
	g->others = o;
}

struct strbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct strbuf *b, const char *s, bool upper)
{
	for (; *s; s++) {
		char c = *s;

		if (upper)
			c = isalnum((unsigned char)c) ?
			    toupper((unsigned char)c) : '_';
		*VEC_PUSH(b->s, b->len, b->cap) = c;
	}
	grow((void **)&b->s, &b->cap, b->len, 1);
	b->s[b->len] = '\0';
}

/* EXPORTER_FOR_USER1_USER2..., "NS_" first if it would start a digit. */
static char *base_name(const struct suggest *sg, const struct sg_group *g)
{
	struct strbuf b = { 0 };
	const char *x = sg->exporters[g->exporter].name;
	size_t i;

	if (isdigit((unsigned char)x[0]))
		sb_add(&b, "NS_", false);
	sb_add(&b, x, true);
	sb_add(&b, "_FOR", false);
	for (i = 0; i < g->n_users; i++) {
		sb_add(&b, "_", false);
		sb_add(&b, sg->users[g->users[i]].name, true);
	}
	return b.s;
}

/* FNV-1a (64 bit) of the exporter's and the users' names. */
static uint32_t group_hash(const struct suggest *sg, const struct sg_group *g)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const char *s;
	size_t i;

	for (i = 0; i <= g->n_users; i++) {
		s = i ? sg->users[g->users[i - 1]].name :
		    sg->exporters[g->exporter].name;
		do {
			h ^= (unsigned char)*s;
			h *= 0x100000001b3ull;
		} while (*s++);
	}
	return (uint32_t)(h ^ (h >> 32));
}

static bool taken(struct hash *used, const struct hash *nss, const char *s)
{
	return hash_find(used, s) || hash_find(nss, s);
}

/*
 * Name the new groups. A name depends on its exporter and users only,
 * whatever --max-users and the filters: EXPORTER_FOR_USERS when that is
 * short, no namespace of the tree has it and no other group would get it;
 * else its first characters and a hash of the names; else, for a clash
 * left (two exporters of one name), _2, _3... in group order.
 */
static void name_groups(struct suggest *sg)
{
	struct hash *bases = hash_new(), *used = hash_new();
	char **base = xcalloc(sg->n_groups, sizeof(*base));
	void **slot;
	size_t i;

	for (i = 0; i < sg->n_groups; i++) {
		if (sg->groups[i].existing)
			continue;
		base[i] = base_name(sg, &sg->groups[i]);
		slot = hash_slot(bases, base[i]);
		*slot = (void *)((uintptr_t)*slot + 1);
	}
	for (i = 0; i < sg->n_groups; i++) {
		struct sg_group *g = &sg->groups[i];
		char *name = base[i];
		unsigned int k;

		if (g->existing)
			continue;
		if (strlen(name) > SG_NAME_MAX ||
		    (uintptr_t)hash_find(bases, name) > 1 ||
		    hash_find(sg->nss, name)) {
			size_t len = strlen(name);

			if (len > SG_NAME_MAX - SG_HASH_LEN - 1)
				len = SG_NAME_MAX - SG_HASH_LEN - 1;
			while (len && name[len - 1] == '_')
				len--;
			name = xasprintf("%.*s_%0*X", (int)len, name,
					 SG_HASH_LEN, group_hash(sg, g));
		} else {
			name = xstrdup(name);
		}
		for (k = 2; taken(used, sg->nss, name); k++) {
			char *s = xasprintf("%s_%u", name, k);

			if (!taken(used, sg->nss, s)) {
				free(name);
				name = s;
				break;
			}
			free(s);
		}
		g->ns = arena_strdup(&sg->arena, name);
		*hash_slot(used, g->ns) = g;
		free(name);
	}
	hash_free(bases);
	hash_free(used);
	for (i = 0; i < sg->n_groups; i++)
		free(base[i]);
	free(base);
}

/* Every export with a user is in one group. */
static void make_groups(struct suggest *sg)
{
	struct sg_export **cand = xcalloc(sg->n_exports, sizeof(*cand));
	size_t n = 0, i, j, cap = 0;

	for (i = 0; i < sg->n_exports; i++) {
		if (sg->exports[i]->n_users)
			cand[n++] = sg->exports[i];
	}
	if (n)
		qsort(cand, n, sizeof(*cand), cmp_candidate);
	for (i = 0; i < n; i = j) {
		struct sg_group *g;

		for (j = i + 1; j < n && same_group(cand[i], cand[j]); j++)
			;
		g = VEC_PUSH(sg->groups, sg->n_groups, cap);
		*g = (struct sg_group){
			.exporter = cand[i]->exporter,
			.exports = arena_memdup(&sg->arena, &cand[i],
						(j - i) * sizeof(*cand)),
			.n_exports = j - i,
			.users = cand[i]->users,
			.n_users = cand[i]->n_users,
		};
		if (*cand[i]->ns)
			existing_group(sg, g);
	}
	free(cand);
	name_groups(sg);
}

static int cmp_group(const void *a, const void *b)
{
	const struct sg_group *x = a, *y = b;

	if (x->exporter != y->exporter)
		return x->exporter < y->exporter ? -1 : 1;
	return strcmp(x->ns, y->ns);
}

static bool selected_exporter(const struct suggest *sg, unsigned int x,
			      const struct suggest_opts *o)
{
	return !o->exporter || streq(sg->exporters[x].name, o->exporter);
}

static void select_groups(struct suggest *sg, const struct suggest_opts *o)
{
	const struct sg_user *want = o->user ? find_user(sg, o->user) : NULL;
	size_t i, j;

	for (i = 0; i < sg->n_groups; i++) {
		struct sg_group *g = &sg->groups[i];
		bool uses = !o->user;

		for (j = 0; want && j < g->n_users; j++)
			uses |= g->users[j] == (unsigned int)(want - sg->users);
		g->shown = g->n_users <= o->max_users && uses &&
			   selected_exporter(sg, g->exporter, o);
		if (g->shown) {
			sg->sum.groups++;
			sg->sum.grouped += g->n_exports;
		}
	}
}

static void summarise(struct suggest *sg, const struct suggest_opts *o)
{
	size_t i;

	for (i = 0; i < sg->n_exports; i++) {
		const struct sg_export *e = sg->exports[i];

		if (!selected_exporter(sg, e->exporter, o))
			continue;
		sg->sum.exports++;
		sg->sum.buckets[suggest_bucket(e->n_users)]++;
	}
	for (i = 0; i < sg->n_exporters; i++) {
		if (sg->exporters[i].n_exports && selected_exporter(sg, i, o))
			sg->sum.exporters++;
	}
}

void suggest_build(struct suggest *sg, const struct nsmod *mods,
		   const char *const *files, size_t n,
		   const struct suggest_opts *o)
{
	size_t i;

	take_modules(sg, mods, files, n);
	/* Exporters in their sorted order, so that exports sort alike. */
	for (i = 1; i < sg->n_exporters; i++)
		take_exports(sg, sg->exporters[i].mod, i);
	for (i = 0; i < n; i++) {
		if (!mods[i].error)
			take_uses(sg, &mods[i]);
	}
	for (i = 0; i < sg->n_exports; i++) {
		struct sg_export *e = sg->exports[i];

		e->n_users = sort_unique(e->users, e->n_users);
	}
	make_groups(sg);
	/* No group at all (no export has a user): sg->groups is NULL. */
	if (sg->n_groups)
		qsort(sg->groups, sg->n_groups, sizeof(*sg->groups),
		      cmp_group);

	if (o->exporter && !selected_exporter(sg, 0, o) &&
	    !find_user(sg, o->exporter))
		WRN("--exporter %s: no such module in the tree\n",
		    o->exporter);
	if (o->user && !find_user(sg, o->user))
		WRN("--user %s: no such module in the tree\n", o->user);
	summarise(sg, o);
	select_groups(sg, o);
}
