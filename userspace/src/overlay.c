// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --overlay - another build's namespaces and grants
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "builtin.h"
#include "hash.h"
#include "filecache.h"
#include "log.h"
#include "nsallow.h"
#include "overlay.h"
#include "symvers.h"
#include "vmlinux.h"

struct ov_export {
	const char *ns;
	bool gpl;
};

/* One grant as the build has it, before it is bound to the tree. */
struct ov_grant {
	const char *owner;	/* built-in object or module name */
	bool builtin;		/* modules.builtin.modinfo's */
	bool nsallow;		/* Module.nsallow's: when no file says */
	struct ns_grant g;
};

/* The grants of one object of the tree. */
struct ov_grants {
	struct ns_grant *g;
	size_t n, cap;
};

struct overlay {
	struct arena arena;
	struct filecache l;
	struct hash *exports;	/* symbol -> struct ov_export */
	struct hash *ns_symbols;	/* namespace -> its exports (uintptr_t) */
	struct hash *files;	/* module name -> struct nsmod (a file) */
	struct ov_grant *raw;
	size_t n_raw, cap_raw;
	bool vmlinux;		/* a build tree was given */
	struct hash *bound;	/* object name -> struct ov_grants */
	struct ov_grants **all;	/* the values of bound, to free them */
	size_t n_all, cap_all;
	struct hash *target_builtin;	/* names with the tree's file= */
	struct builtin_grants bg;	/* grants to the tree's built-ins */
};

struct overlay *overlay_new(void)
{
	struct overlay *ov = xcalloc(1, sizeof(*ov));

	filecache_init(&ov->l);
	ov->exports = hash_new();
	ov->ns_symbols = hash_new();
	ov->target_builtin = hash_new();
	ov->files = hash_new();
	ov->bound = hash_new();
	return ov;
}

void overlay_free(struct overlay *ov)
{
	size_t i;

	if (!ov)
		return;
	for (i = 0; i < ov->n_all; i++) {
		free(ov->all[i]->g);
		free(ov->all[i]);
	}
	free(ov->all);
	free(ov->raw);
	free(ov->bg.v);
	hash_free(ov->exports);
	hash_free(ov->ns_symbols);
	hash_free(ov->target_builtin);
	hash_free(ov->files);
	hash_free(ov->bound);
	filecache_free(&ov->l);
	arena_free(&ov->arena);
	free(ov);
}

static void add_export(struct overlay *ov, const char *sym, const char *ns,
		       bool gpl)
{
	void **slot;
	struct ov_export *e;

	if (hash_find(ov->exports, sym))
		return;		/* the first says: one build, one owner */
	sym = arena_strdup(&ov->arena, sym);
	slot = hash_slot(ov->exports, sym);
	e = arena_alloc(&ov->arena, sizeof(*e));
	e->ns = *ns ? arena_strdup(&ov->arena, ns) : "";
	e->gpl = gpl;
	*slot = e;
	if (*ns) {
		slot = hash_slot(ov->ns_symbols, e->ns);
		*slot = (void *)((uintptr_t)*slot + 1);
	}
}

static void add_grant(struct overlay *ov, const char *owner, bool builtin,
		      bool nsallow, const char *ns, size_t nslen,
		      const char *mod)
{
	struct ov_grant *r = VEC_PUSH(ov->raw, ov->n_raw, ov->cap_raw);

	r->owner = arena_strdup(&ov->arena, owner);
	r->builtin = builtin;
	r->nsallow = nsallow;
	r->g.ns = arena_strndup(&ov->arena, ns, nslen);
	r->g.mod = arena_strdup(&ov->arena, mod);
}

static void on_symvers(const struct symvers_line *l, void *arg)
{
	add_export(arg, l->sym, l->ns, l->gpl);
}

/* modules.builtin.modinfo: "<object>.allow_ns=<ns>:<module>". */
static void on_builtin(const char *obj, size_t objlen, const char *ns,
		       size_t nslen, const char *mod, void *arg)
{
	struct overlay *ov = arg;
	char *o = xasprintf("%.*s", (int)objlen, obj);

	add_grant(ov, o, true, false, ns, nslen, mod);
	free(o);
}

/* A module path as Module.symvers names it: its name. */
static char *owner_name(const char *owner)
{
	const char *base = strrchr(owner, '/');
	char *name = modname_normalize(base ? base + 1 : owner);

	name[strcspn(name, ".")] = '\0';
	return name;
}

struct nsallow_read {
	struct overlay *ov;
	const char *path;
	char **err;
};

/* Module.nsallow: "ns<TAB>module<TAB>owner" a line. */
static int nsallow_line(char *line, size_t lineno, void *arg)
{
	struct nsallow_read *nr = arg;
	char *f[3], *name, *rec;
	size_t colon;

	if (!*line)
		return 0;
	f[0] = line;
	f[1] = strchr(f[0], '\t');
	f[2] = f[1] ? strchr(f[1] + 1, '\t') : NULL;
	if (f[2])
		*f[1]++ = *f[2]++ = '\0';
	rec = f[2] ? xasprintf("%s:%s", f[0], f[1]) : NULL;
	if (!rec || strchr(f[2], '\t') ||
	    !ns_allow_record_ok(rec, strlen(rec), &colon)) {
		*nr->err = xasprintf("%s: line %zu: not <namespace>TAB"
				     "<module>TAB<owner>", nr->path, lineno);
		free(rec);
		return -EINVAL;
	}
	free(rec);
	/* vmlinux's come from modules.builtin.modinfo. */
	if (!streq(f[2], "vmlinux")) {
		name = owner_name(f[2]);
		add_grant(nr->ov, name, false, true, f[0], strlen(f[0]), f[1]);
		free(name);
	}
	return 0;
}

static int read_nsallow(struct overlay *ov, const char *path, char **err)
{
	struct nsallow_read nr = { .ov = ov, .path = path, .err = err };
	int r;

	*err = NULL;
	r = read_lines(path, false, nsallow_line, &nr);
	if (r == -ENOENT)
		return 0;
	if (r < 0 && !*err)
		*err = xasprintf("%s: %s", path, strerror(-r));
	return r;
}

static void add_file(struct overlay *ov, const char *path)
{
	struct nsmod *m = filecache_get(&ov->l, path);
	size_t i;

	if (m->error) {
		WRN("%s: %s: its grants are left out of the overlay\n", path,
		    m->error);
		return;
	}
	if (hash_find(ov->files, m->name))
		return;		/* the first of a name */
	*hash_slot(ov->files, m->name) = m;
	for (i = 0; i < m->n_exports; i++)
		add_export(ov, m->exports[i].sym, m->exports[i].ns,
			   m->exports[i].gpl);
	for (i = 0; i < m->n_grants; i++)
		add_grant(ov, m->name, false, false, m->grants[i].ns,
			  strlen(m->grants[i].ns), m->grants[i].mod);
}

/* Every module file under dir (a build tree's modules.order, or all). */
static int add_files(struct overlay *ov, const char *dir, bool build_tree,
		     char **err)
{
	static const char *const no_config[1];
	/* No depmod.d (none of its files): updates/ first, as depmod. */
	struct tree_opts to = { .dir = dir, .build_tree = build_tree,
				.config = no_config };
	struct tree *t;
	size_t i;
	int r;

	r = tree_open(&t, &to);
	if (r < 0) {
		*err = xasprintf("%s: %s", dir, strerror(-r));
		return r;
	}
	for (i = 0; i < t->n_files; i++) {
		if (t->files[i].chosen && access(t->files[i].path, R_OK) == 0)
			add_file(ov, t->files[i].path);
	}
	tree_free(t);
	return 0;
}

static int add_build(struct overlay *ov, const char *dir, char **err)
{
	char *path = xasprintf("%s/Module.symvers", dir);
	int r = symvers_read(path, on_symvers, ov, err);

	free(path);
	if (r < 0)
		return r;
	ov->vmlinux = true;
	path = xasprintf("%s/modules.builtin.modinfo", dir);
	if (access(path, F_OK) == 0)
		r = builtin_read_grants(path, on_builtin, ov, err);
	free(path);
	if (r < 0)
		return r;
	path = xasprintf("%s/modules.order", dir);
	if (access(path, F_OK) == 0)
		r = add_files(ov, dir, true, err);
	free(path);
	if (r < 0)
		return r;
	path = xasprintf("%s/Module.nsallow", dir);
	r = read_nsallow(ov, path, err);
	free(path);
	return r;
}

int overlay_add(struct overlay *ov, const char *path, char **err)
{
	struct stat st;
	char *symvers;
	bool build;

	if (stat(path, &st) < 0) {
		int e = errno;

		*err = xasprintf("%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		struct nsmod *m = filecache_get(&ov->l, path);

		if (m->error) {
			*err = xasprintf("%s: %s", path, m->error);
			return -ENOEXEC;
		}
		add_file(ov, path);
		return 0;
	}
	symvers = xasprintf("%s/Module.symvers", path);
	build = access(symvers, F_OK) == 0;
	free(symvers);
	return build ? add_build(ov, path, err) : add_files(ov, path, false,
							     err);
}

static struct ov_grants *bound(struct overlay *ov, const char *name)
{
	struct ov_grants **slot, *b = hash_find(ov->bound, name);

	if (b)
		return b;
	name = arena_strdup(&ov->arena, name);
	slot = (struct ov_grants **)hash_slot(ov->bound, name);
	*slot = b = xcalloc(1, sizeof(*b));
	*VEC_PUSH(ov->all, ov->n_all, ov->cap_all) = b;
	return b;
}

/* Built in by the tree: in its modules.builtin, or the build says so. */
static bool in_vmlinux(const struct tree *t, const struct ov_grant *r)
{
	if (!t)
		return r->builtin;
	if (r->builtin)
		return !tree_find(t, r->owner) || tree_is_builtin(t, r->owner);
	return tree_is_builtin(t, r->owner);
}

void overlay_bind(struct overlay *ov, const struct tree *t)
{
	size_t i;

	if (ov->vmlinux)
		bound(ov, "vmlinux");
	/* Every module the build has a file of is described, grants or not. */
	for (i = 0; i < ov->l.n; i++) {
		const struct nsmod *m = ov->l.mods[i];

		if (!m->error && hash_find(ov->files, m->name) == m)
			bound(ov, t && tree_is_builtin(t, m->name) ?
			      "vmlinux" : m->name);
	}
	for (i = 0; i < ov->n_raw; i++) {
		const struct ov_grant *r = &ov->raw[i];
		const char *owner = in_vmlinux(t, r) ? "vmlinux" : r->owner;
		struct ov_grants *b;

		/* A module file's records say more than Module.nsallow. */
		if (r->nsallow && hash_find(ov->files, r->owner))
			continue;
		b = bound(ov, owner);
		*VEC_PUSH(b->g, b->n, b->cap) = r->g;
	}
}

/* The build's export of sym: its namespace and GPL flag. */
static const struct ov_export *build_export(const struct overlay *ov,
					    const char *sym)
{
	return hash_find(ov->exports, sym);
}

/* The grants the build gives the object name, or NULL: it has none. */
static const struct ov_grants *build_grants(const struct overlay *ov,
					    const char *name)
{
	return hash_find(ov->bound, name);
}

void overlay_rewrite(void *arg, struct nsmod *m, struct arena *a)
{
	const struct overlay *ov = arg;
	const struct ov_grants *b = build_grants(ov, m->name);
	size_t i;

	for (i = 0; i < m->n_exports; i++) {
		struct ns_export *e = &m->exports[i];
		const struct ov_export *x = build_export(ov, e->sym);

		if (!x)
			continue;
		if (!streq(e->ns, x->ns))
			e->was_ns = e->ns;
		e->ns = x->ns;
		e->gpl = x->gpl;
	}
	if (b) {
		m->grants = b->n ? arena_memdup(a, b->g, b->n * sizeof(*b->g)) :
			    NULL;
		m->n_grants = b->n;
	}
	m->rebuilt = hash_find(ov->files, m->name);
}

struct vmlinux_arg {
	const struct overlay *ov;
	struct kernel *k;
};

static void vmlinux_export(void *arg, const char *sym, const char *ns,
			   bool gpl)
{
	struct vmlinux_arg *va = arg;
	const struct ov_export *x = build_export(va->ov, sym);
	const char *was = NULL;

	if (x) {
		if (!streq(ns, x->ns))
			was = ns;
		ns = x->ns;
		gpl = x->gpl;
	}
	kernel_add_vmlinux_export(va->k, sym, ns, was, gpl);
}

static void vmlinux_grant(void *arg, const char *ns, size_t nslen,
			  const char *mod)
{
	struct vmlinux_arg *va = arg;

	kernel_add_vmlinux_grant(va->k, ns, nslen, mod);
}

/* The build's grants stand for the tree's: the file is read all the same. */
static void vmlinux_no_grant(void *arg, const char *ns, size_t nslen,
			     const char *mod)
{
	(void)arg, (void)ns, (void)nslen, (void)mod;
}

int overlay_read_vmlinux(const struct overlay *ov, struct kernel *k,
			 const struct kdesc *d, char **err)
{
	const struct ov_grants *b = build_grants(ov, "vmlinux");
	struct vmlinux_arg va = { .ov = ov, .k = k };
	const struct vmlinux_reader rd = {
		.export = vmlinux_export,
		.grant = b ? vmlinux_no_grant : vmlinux_grant,
		.arg = &va,
	};
	size_t i;

	for (i = 0; b && i < b->n; i++)
		kernel_add_grant(k, kernel_vmlinux(k), b->g[i].ns,
				 b->g[i].mod);
	return vmlinux_read_with(d, &rd, err);
}

static void on_target_builtin(const char *name, size_t len, void *arg)
{
	struct overlay *ov = arg;
	char *raw = xasprintf("%.*s", (int)len, name);
	char *n = modname_normalize(raw);

	if (!hash_find(ov->target_builtin, n))
		*hash_slot(ov->target_builtin, arena_strdup(&ov->arena, n)) = ov;
	free(n);
	free(raw);
}

/*
 * Whether no loadable module can be mod: the tree builds it in. A prefix
 * grant ("tcp_*") is no built-in's name: it may match a module the tree
 * has, and counts among the others.
 */
static bool target_builtin(const struct overlay *ov, const struct tree *t,
			   const char *mod)
{
	char *n;
	bool b;

	if (t && tree_is_builtin(t, mod))
		return true;
	n = modname_normalize(mod);
	b = hash_find(ov->target_builtin, n) != NULL;
	free(n);
	return b;
}

/* One namespace's grantees, each name once. */
struct ns_grantees {
	const char *ns;
	const char **mods;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_builtin_grant(const void *a, const void *b)
{
	return strcmp(((const struct builtin_grant *)a)->ns,
		      ((const struct builtin_grant *)b)->ns);
}

/* The grantees built in, those not, and the namespace's count, into bg. */
static void split_grantees(struct overlay *ov, const struct tree *t,
			   const struct ns_grantees *g, size_t symbols)
{
	const char **in = arena_alloc(&ov->arena, g->n * sizeof(*in));
	const char **out = arena_alloc(&ov->arena, g->n * sizeof(*out));
	struct builtin_grant *b;
	size_t i, n_in = 0, n_out = 0;

	for (i = 0; i < g->n; i++) {
		if (target_builtin(ov, t, g->mods[i]))
			in[n_in++] = g->mods[i];
		else
			out[n_out++] = g->mods[i];
	}
	if (!n_in)
		return;
	b = VEC_PUSH(ov->bg.v, ov->bg.n, ov->bg.cap);
	*b = (struct builtin_grant){
		.ns = g->ns,
		.builtin = in,
		.n_builtin = n_in,
		.others = out,
		.n_others = n_out,
		.symbols = symbols,
	};
}

int overlay_builtin_grants(struct overlay *ov, const struct tree *t,
			   const char *modinfo,
			   const struct builtin_grants **out, char **err)
{
	struct hash *by_ns = hash_new();	/* ns -> index + 1 in gs */
	struct ns_grantees *gs = NULL;
	size_t n_gs = 0, cap_gs = 0, i, j;
	int r = 0;

	*out = &ov->bg;
	if (access(modinfo, F_OK) == 0)
		r = builtin_read_modules(modinfo, on_target_builtin, ov, err);
	if (r < 0)
		goto done;
	/* The grants as overlay_bind() keeps them, whoever gets them. */
	for (i = 0; i < ov->n_raw; i++) {
		const struct ov_grant *rg = &ov->raw[i];
		void **slot;
		struct ns_grantees *g;

		if (rg->nsallow && hash_find(ov->files, rg->owner))
			continue;
		/* A namespace no export is in is not restricted: open. */
		if (!hash_find(ov->ns_symbols, rg->g.ns))
			continue;
		slot = hash_slot(by_ns, rg->g.ns);
		if (!*slot) {
			g = VEC_PUSH(gs, n_gs, cap_gs);
			*g = (struct ns_grantees){ .ns = rg->g.ns };
			*slot = (void *)(uintptr_t)n_gs;
		}
		g = &gs[(uintptr_t)*slot - 1];
		for (j = 0; j < g->n && !streq(g->mods[j], rg->g.mod); j++)
			;
		if (j == g->n)
			*VEC_PUSH(g->mods, g->n, g->cap) = rg->g.mod;
	}
	for (i = 0; i < n_gs; i++) {
		qsort(gs[i].mods, gs[i].n, sizeof(*gs[i].mods), cmp_str);
		split_grantees(ov, t, &gs[i], (uintptr_t)hash_find(
				       ov->ns_symbols, gs[i].ns));
		free(gs[i].mods);
	}
	if (ov->bg.n)
		qsort(ov->bg.v, ov->bg.n, sizeof(*ov->bg.v),
		      cmp_builtin_grant);
done:
	free(gs);
	hash_free(by_ns);
	return r;
}
