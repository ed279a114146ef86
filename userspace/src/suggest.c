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
#include "suggest.h"
#include "verdict.h"

/* A generated name longer than this is cut and gets a hash. */
#define SG_NAME_MAX 64
#define SG_HASH_LEN 8

struct suggest *suggest_new(struct kernel *k)
{
	struct suggest *sg = xcalloc(1, sizeof(*sg));

	sg->k = k;
	return sg;
}

void suggest_free(struct suggest *sg)
{
	size_t i;

	if (!sg)
		return;
	for (i = 0; sg->uses && i < sg->k->n_exports; i++)
		free(sg->uses[i].users);
	free(sg->uses);
	free(sg->files);
	free(sg->n_exports);
	free(sg->users);
	free(sg->groups);
	arena_free(&sg->arena);
	free(sg);
}

unsigned int suggest_bucket(size_t n_users)
{
	if (n_users <= 3)
		return n_users;
	return n_users <= 10 ? 4 : 5;
}

/* A module read, and how it is shown. */
struct sg_mod {
	const struct nsmod *m;
	const char *file;
};

static int cmp_mod(const void *a, const void *b)
{
	const struct nsmod *x = ((const struct sg_mod *)a)->m;
	const struct nsmod *y = ((const struct sg_mod *)b)->m;
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
 * Users, one per module name; every module is loaded into the model in
 * the same order (name, then file), so that object ids sort as names do.
 */
static void take_modules(struct suggest *sg, struct nsmod *const *mods,
			 const char *const *files, size_t n)
{
	struct sg_mod *sorted = xcalloc(n, sizeof(*sorted));
	struct kernel *k = sg->k;
	size_t i, j, nr = 0;

	for (i = 0; i < n; i++) {
		if (!mods[i]->error)
			sorted[nr++] = (struct sg_mod){ mods[i], files[i] };
	}
	sg->sum.modules = nr;
	sg->sum.unreadable = n - nr;
	if (nr)
		qsort(sorted, nr, sizeof(*sorted), cmp_mod);
	sg->users = xcalloc(nr, sizeof(*sg->users));
	sg->files = xcalloc(k->n_objects + nr, sizeof(*sg->files));
	for (i = 0; i < nr; i++) {
		const struct nsmod *m = sorted[i].m;
		bool proprietary = verdict_proprietary(m);
		const struct object *o = kernel_load(k, m, proprietary);

		sg->files[o->id] = sorted[i].file;
		if (!sg->n_users ||
		    !streq(sg->users[sg->n_users - 1].name, m->name))
			sg->users[sg->n_users++] = (struct sg_user){
				.name = m->name,
				.file = sorted[i].file,
				.proprietary = proprietary,
			};
	}
	sg->n_exports = xcalloc(k->n_objects, sizeof(*sg->n_exports));
	for (j = 0; j < k->n_exports; j++)
		sg->n_exports[k->exports[j]->owner->id]++;
	sg->uses = xcalloc(k->n_exports, sizeof(*sg->uses));
	free(sorted);
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
		const struct export *chain, *e;
		bool vmlinux = false;

		if (m->undefs[i].common)
			continue;
		chain = kernel_exports_of(sg->k, m->undefs[i].sym);
		for (e = chain; e; e = e->next)
			vmlinux |= e->owner->vmlinux;
		for (e = chain; e; e = e->next) {
			struct sg_uses *us = &sg->uses[e->id];

			if (vmlinux && !e->owner->vmlinux)
				continue;
			if (e->gpl && u->proprietary)
				continue;
			if (streq(e->owner->name, m->name))
				continue;
			*VEC_PUSH(us->users, us->n, us->cap) = uid;
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

/* An export with a user: the groups are made of these. */
struct cand {
	const struct export *e;
	const struct sg_uses *u;
};

/*
 * Candidates sort so that each group is a run: by exporter; exports with
 * a namespace first, by namespace; the others by user set; then by symbol.
 */
static int cmp_candidate(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	unsigned int xo = x->e->owner->id, yo = y->e->owner->id;
	int r;

	if (xo != yo)
		return xo < yo ? -1 : 1;
	if (!*x->e->ns != !*y->e->ns)
		return *x->e->ns ? -1 : 1;
	r = *x->e->ns ? strcmp(x->e->ns, y->e->ns) :
	    cmp_users(x->u->users, x->u->n, y->u->users, y->u->n);
	return r ? r : strcmp(x->e->sym, y->e->sym);
}

static bool same_group(const struct cand *x, const struct cand *y)
{
	if (x->e->owner != y->e->owner || !*x->e->ns != !*y->e->ns)
		return false;
	if (*x->e->ns)
		return streq(x->e->ns, y->e->ns);
	return !cmp_users(x->u->users, x->u->n, y->u->users, y->u->n);
}

/* An existing namespace: every user of the exporter's exports in it. */
static void existing_group(struct suggest *sg, struct sg_group *g)
{
	const struct ns_member *m;
	unsigned int *u = NULL, *o = NULL;
	size_t nu = 0, cap = 0, ocap = 0, i, j;

	for (i = 0; i < g->n_exports; i++) {
		const struct sg_uses *us = &sg->uses[g->exports[i]->id];

		for (j = 0; j < us->n; j++)
			*VEC_PUSH(u, nu, cap) = us->users[j];
	}
	nu = sort_unique(u, nu);
	g->users = arena_memdup(&sg->arena, u, nu * sizeof(*u));
	g->n_users = nu;
	free(u);

	g->ns = g->exports[0]->ns;
	g->existing = true;
	for (m = kernel_namespace(sg->k, g->ns); m; m = m->next) {
		if (m->o->id == g->exporter)
			g->declared = m->declares;
		else if (m->exports)
			*VEC_PUSH(o, g->n_others, ocap) = m->o->id;
	}
	g->n_others = sort_unique(o, g->n_others);
	g->others = arena_memdup(&sg->arena, o, g->n_others * sizeof(*o));
	free(o);
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
	const char *x = sg->k->objects[g->exporter]->name;
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
		    sg->k->objects[g->exporter]->name;
		do {
			h ^= (unsigned char)*s;
			h *= 0x100000001b3ull;
		} while (*s++);
	}
	return (uint32_t)(h ^ (h >> 32));
}

static bool taken(const struct suggest *sg, struct hash *used, const char *s)
{
	return hash_find(used, s) || kernel_namespace(sg->k, s);
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
		    kernel_namespace(sg->k, name)) {
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
		for (k = 2; taken(sg, used, name); k++) {
			char *s = xasprintf("%s_%u", name, k);

			if (!taken(sg, used, s)) {
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
	const struct kernel *k = sg->k;
	struct cand *cand = xcalloc(k->n_exports, sizeof(*cand));
	size_t n = 0, i, j, l, cap = 0;

	for (i = 0; i < k->n_exports; i++) {
		if (sg->uses[i].n)
			cand[n++] = (struct cand){ k->exports[i],
						   &sg->uses[i] };
	}
	if (n)
		qsort(cand, n, sizeof(*cand), cmp_candidate);
	for (i = 0; i < n; i = j) {
		struct sg_group *g;
		const struct export **ex;

		for (j = i + 1; j < n && same_group(&cand[i], &cand[j]); j++)
			;
		ex = arena_alloc(&sg->arena, (j - i) * sizeof(*ex));
		for (l = i; l < j; l++)
			ex[l - i] = cand[l].e;
		g = VEC_PUSH(sg->groups, sg->n_groups, cap);
		*g = (struct sg_group){
			.exporter = cand[i].e->owner->id,
			.exports = ex,
			.n_exports = j - i,
			.users = cand[i].u->users,
			.n_users = cand[i].u->n,
		};
		if (*cand[i].e->ns)
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
	return !o->exporter || streq(sg->k->objects[x]->name, o->exporter);
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
		if (!uses || !selected_exporter(sg, g->exporter, o))
			continue;
		g->shown = g->n_users <= o->max_users;
		if (g->shown) {
			sg->sum.groups++;
			sg->sum.grouped += g->n_exports;
		} else {
			/* Said in the summary, so that 0 is explained. */
			sg->sum.over++;
			if (!sg->sum.largest ||
			    g->n_users > sg->sum.largest->n_users)
				sg->sum.largest = g;
		}
	}
}

static void summarise(struct suggest *sg, const struct suggest_opts *o)
{
	const struct kernel *k = sg->k;
	size_t i;

	for (i = 0; i < k->n_exports; i++) {
		if (!selected_exporter(sg, k->exports[i]->owner->id, o))
			continue;
		sg->sum.exports++;
		sg->sum.buckets[suggest_bucket(sg->uses[i].n)]++;
	}
	for (i = 0; i < k->n_objects; i++) {
		if (sg->n_exports[i] && selected_exporter(sg, i, o))
			sg->sum.exporters++;
	}
}

void suggest_build(struct suggest *sg, struct nsmod *const *mods,
		   const char *const *files, size_t n,
		   const struct suggest_opts *o)
{
	const struct object *x;
	size_t i;

	take_modules(sg, mods, files, n);
	for (i = 0; i < n; i++) {
		if (!mods[i]->error)
			take_uses(sg, mods[i]);
	}
	for (i = 0; i < sg->k->n_exports; i++) {
		struct sg_uses *us = &sg->uses[i];

		us->n = sort_unique(us->users, us->n);
	}
	make_groups(sg);
	/* No group at all (no export has a user): sg->groups is NULL. */
	if (sg->n_groups)
		qsort(sg->groups, sg->n_groups, sizeof(*sg->groups),
		      cmp_group);

	if (o->exporter) {
		x = streq(o->exporter, "vmlinux") ? kernel_vmlinux(sg->k) :
		    kernel_find_name(sg->k, o->exporter);
		if (!x)
			WRN("--exporter %s: no such module in the tree\n",
			    o->exporter);
		else if (!sg->n_exports[x->id])
			WRN("--exporter %s: it exports nothing\n",
			    o->exporter);
	}
	if (o->user && !find_user(sg, o->user))
		WRN("--user %s: no such module in the tree\n", o->user);
	summarise(sg, o);
	select_groups(sg, o);
}
