// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - what loading one argument loads, in order
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "hash.h"
#include "log.h"
#include "plan.h"

void planner_init(struct planner *p, const struct kernel *k,
		  struct tree *t, struct filecache *l)
{
	*p = (struct planner){ .k = k, .t = t, .l = l,
			       .planned = hash_new() };
}

void planner_free(struct planner *p)
{
	hash_free(p->planned);
	hash_free(p->providers);
	free(p->steps);
}

static void probe(struct planner *p, const char *path, bool required);

static void append(struct planner *p, struct nsmod *m, bool required)
{
	struct step *s = VEC_PUSH(p->steps, p->n, p->cap);

	*s = (struct step){ .m = m, .required = required };
}

/* Loaded, or already in a plan: modprobe leaves it be. */
static bool done(struct planner *p, const char *name)
{
	return hash_find(p->planned, name) || kernel_find_name(p->k, name);
}

/* Every module of the tree read once: who exports each symbol. */
static void index_providers(struct planner *p)
{
	size_t i, j;

	p->providers = hash_new();
	for (i = 0; i < p->t->n_files; i++) {
		const struct tree_file *f = &p->t->files[i];
		const struct nsmod *m;

		if (!f->chosen)
			continue;
		m = filecache_get(p->l, f->path);
		for (j = 0; !m->error && j < m->n_exports; j++) {
			void **slot = hash_slot(p->providers,
						m->exports[j].sym);

			if (!*slot)	/* depmod keeps the first */
				*slot = (void *)f;
		}
	}
}

/* The path of the module that exports sym, as depmod records it. */
static char *provider(struct planner *p, const char *sym)
{
	const struct tree_file *f;

	if (p->t->ctx) {
		struct kmod_list *list = NULL;
		char *alias = xasprintf("symbol:%s", sym);
		char *path = NULL;

		if (kmod_module_new_from_lookup(p->t->ctx, alias, &list) < 0)
			list = NULL;
		if (list) {
			struct kmod_module *mod = kmod_module_get_module(list);

			if (kmod_module_get_path(mod))
				path = xstrdup(kmod_module_get_path(mod));
			kmod_module_unref(mod);
			kmod_module_unref_list(list);
		}
		free(alias);
		return path;
	}
	if (!p->providers)
		index_providers(p);
	f = hash_find(p->providers, sym);
	return f ? xstrdup(f->path) : NULL;
}

/* The modules of the tree that export what m uses and nothing loaded does. */
static void need(struct planner *p, const struct nsmod *m, bool required)
{
	size_t i;

	if (!p->t || m->error)
		return;
	for (i = 0; i < m->n_undefs; i++) {
		const char *sym = m->undefs[i].sym;
		char *path;

		if (m->undefs[i].common || kernel_exports_of(p->k, sym))
			continue;
		path = provider(p, sym);
		if (path)
			probe(p, path, required);
		free(path);
	}
}

/* softdep=pre: a b post: c */
static void modinfo_softdeps(struct planner *p, const struct nsmod *m,
			     bool post)
{
	size_t i;

	for (i = 0; i < m->n_softdeps; i++) {
		char *s = xstrdup(m->softdeps[i]), *save, *w;
		bool in_post = false;

		for (w = strtok_r(s, " \t", &save); w;
		     w = strtok_r(NULL, " \t", &save)) {
			const struct tree_file *f;

			if (streq(w, "pre:") || streq(w, "post:")) {
				in_post = streq(w, "post:");
				continue;
			}
			if (in_post != post)
				continue;
			f = tree_find(p->t, w);
			if (f)
				probe(p, f->path, false);
		}
		free(s);
	}
}

static void kmod_softdeps(struct planner *p, struct kmod_list *list)
{
	struct kmod_list *l;

	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		const char *path = kmod_module_get_path(mod);

		if (path)
			probe(p, path, false);
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
}

/* __kmod_module_fill_softdep(): pre, the module, post. */
static void with_softdeps(struct planner *p, struct nsmod *m, bool required)
{
	struct kmod_list *pre = NULL, *post = NULL;
	struct kmod_module *mod = NULL;
	char *name = NULL;

	if (p->t && p->t->ctx && !m->error) {
		name = modname_normalize(m->name);
		if (kmod_module_new_from_name(p->t->ctx, name, &mod) < 0 ||
		    kmod_module_get_softdeps(mod, &pre, &post) < 0)
			pre = post = NULL;
		kmod_softdeps(p, pre);
	} else if (p->t && !m->error) {
		modinfo_softdeps(p, m, false);
	}
	append(p, m, required);
	if (mod) {
		kmod_softdeps(p, post);
		kmod_module_unref(mod);
	} else if (p->t && !m->error) {
		modinfo_softdeps(p, m, true);
	}
	free(name);
}

/* The steps of path (the one an argument named) are the argument's own. */
static void mark_given(struct planner *p, const char *path)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (streq(p->steps[i].m->path, path))
			p->steps[i].given = true;
	}
}

/* A module of the tree, with what it needs first. */
static void probe(struct planner *p, const char *path, bool required)
{
	struct nsmod *m = filecache_get(p->l, path);
	struct kmod_module *mod;
	struct kmod_list *deps, *l;

	if (m->error) {
		append(p, m, required);
		return;
	}
	if (done(p, m->name))
		return;
	*hash_slot(p->planned, m->name) = m;
	if (!p->t->ctx) {
		need(p, m, required);
		with_softdeps(p, m, required);
		return;
	}
	/* modules.dep lists them all, in an order that loads. */
	if (kmod_module_new_from_name(p->t->ctx, m->name, &mod) == 0) {
		deps = kmod_module_get_dependencies(mod);
		kmod_list_foreach(l, deps) {
			struct kmod_module *dm = kmod_module_get_module(l);
			const char *dpath = kmod_module_get_path(dm);
			struct nsmod *d;

			d = dpath ? filecache_get(p->l, dpath) : NULL;
			kmod_module_unref(dm);
			if (!d || (!d->error && done(p, d->name)))
				continue;
			if (!d->error)
				*hash_slot(p->planned, d->name) = d;
			with_softdeps(p, d, required);
		}
		kmod_module_unref_list(deps);
		kmod_module_unref(mod);
	}
	with_softdeps(p, m, required);
}

/*
 * A path (it has a '/'), a file name (.ko, .ko.xz...) or a file that
 * exists; anything else is a module name, as modprobe takes it.
 */
bool plan_is_file(const char *arg)
{
	struct stat st;

	return strchr(arg, '/') || tree_is_module_file(arg) ||
	       stat(arg, &st) == 0;
}

/*
 * An alias of a tree depmod has not indexed: the names libkmod finds for
 * it in the indexes of a scratch copy, each the tree's file of that name
 * (the scratch copy's paths are links), planned as without the index.
 */
static int plan_alias(struct planner *p, const char *arg, char **err)
{
	struct kmod_list *list = NULL, *l;
	const struct tree_file *f;
	int found = 0;

	if (kmod_module_new_from_lookup(p->t->scratch_ctx, arg, &list) < 0)
		list = NULL;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		const char *name = kmod_module_get_name(mod);

		f = tree_find(p->t, name);
		if (f && kmod_module_get_path(mod)) {
			probe(p, f->path, true);
			mark_given(p, f->path);
			found++;
		} else if (!kmod_module_get_path(mod)) {
			INF("%s: %s is built into vmlinux\n", arg, name);
			found++;
		}
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
	if (!found) {
		*err = xasprintf("module %s not found in %s", arg, p->t->dir);
		return -ENOENT;
	}
	return 0;
}

static int plan_name(struct planner *p, const char *arg, char **err)
{
	struct kmod_list *list = NULL, *l;
	const struct tree_file *f;
	int found = 0;

	if (!p->t) {
		*err = xasprintf("%s: not a module file, and no module tree to "
				 "look it up in", arg);
		return -ENOENT;
	}
	if (!p->t->ctx) {
		f = tree_find(p->t, arg);
		if (f) {
			probe(p, f->path, true);
			mark_given(p, f->path);
			return 0;
		}
		if (tree_is_builtin(p->t, arg)) {
			INF("%s: built into vmlinux\n", arg);
			return 0;
		}
		/* No modules.dep.bin: an alias, from a scratch copy's. */
		if (tree_index(p->t))
			return plan_alias(p, arg, err);
		*err = xasprintf("module %s not found in %s: no module of that "
				 "name; depmod has not run there (no "
				 "modules.dep.bin or modules.alias), so it was "
				 "not looked up as an alias: run depmod on the "
				 "tree, or name the module or its file", arg,
				 p->t->dir);
		return -ENOENT;
	}
	/* A name or an alias, as modprobe looks it up. */
	if (kmod_module_new_from_lookup(p->t->ctx, arg, &list) < 0)
		list = NULL;
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);
		const char *path = kmod_module_get_path(mod);

		if (path) {
			probe(p, path, true);
			mark_given(p, path);
		} else {
			INF("%s: %s is built into vmlinux\n", arg,
			    kmod_module_get_name(mod));
		}
		kmod_module_unref(mod);
		found++;
	}
	kmod_module_unref_list(list);
	if (!found) {
		*err = xasprintf("module %s not found in %s", arg,
				 p->t->dir);
		return -ENOENT;
	}
	return 0;
}

int plan(struct planner *p, const char *arg, char **err)
{
	struct nsmod *m;
	size_t first;

	p->n = 0;
	if (!plan_is_file(arg))
		return plan_name(p, arg, err);
	/* insmod FILE, after what it needs from the tree. */
	m = filecache_get(p->l, arg);
	if (!m->error)
		*hash_slot(p->planned, m->name) = m;
	if (!p->insmod)
		need(p, m, true);
	first = p->n;
	append(p, m, true);
	p->steps[first].given = true;
	return 0;
}
