// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module tree as depmod and modprobe see it
 *
 * Where depmod has run, libkmod answers on its indexes: which file a
 * name resolves to, aliases, dependencies. Where it has not (a
 * distribution's package, extracted; a tree being built), libkmod has
 * nothing to read, and this file reads the tree as depmod would (its
 * search order, depmod.d, modules.builtin) to list the modules --all
 * checks and a name's file. Running depmod on a scratch copy for that
 * would cost as much as depmod -n itself (320 ms on Debian's tree, where
 * all of --all takes 140 ms; make bench allows half of depmod's time),
 * so it is done only for what this reader cannot do at all: an alias
 * (treeindex.c).
 */

#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hash.h"
#include "log.h"
#include "tree.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

/* depmod's own configuration directories, in its order. */
static const char *const default_config[] = {
	SYSCONFDIR "/depmod.d",
	"/run/depmod.d",
	"/usr/local/lib/depmod.d",
	"/lib/depmod.d",
};

/* One word of a search line: a subdirectory, built-in or external. */
struct search {
	const char *dir;	/* NULL for built-in and external */
	bool external;
};

struct cfg {
	struct search *searches;	/* in the files' order: first wins */
	size_t n_searches, cap_searches;
	const char **overrides;	/* "subdir/modname" */
	size_t n_overrides, cap_overrides;
	const char **excludes;
	size_t n_excludes, cap_excludes;
	const char **externals;	/* directories */
	size_t n_externals, cap_externals;
	const char *kver;
	struct arena *a;
};

struct walk {
	struct tree *t;
	const struct cfg *cfg;
	struct tree_file *files;
	size_t n, cap;
};

bool tree_is_module_file(const char *path)
{
	static const char *const suffixes[] = {
		".ko", ".ko.xz", ".ko.zst", ".ko.gz",
	};
	size_t len = strlen(path), i;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && streq(path + len - sl, suffixes[i]))
			return true;
	}
	return false;
}

/* depmod's path_to_modname(): the file name up to its first '.'. */
static const char *path_modname(struct arena *a, const char *path)
{
	const char *base = strrchr(path, '/');
	char *name, *p;

	base = base ? base + 1 : path;
	name = arena_strndup(a, base, strcspn(base, "."));
	for (p = name; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
	return name;
}

/* A kernel version pattern of override and external: '*' or a regex. */
static bool kver_matches(const char *pattern, const char *kver)
{
	regex_t re;
	bool m;

	if (streq(pattern, "*"))
		return true;
	if (!kver || regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return false;
	m = regexec(&re, kver, 0, NULL, 0) == 0;
	regfree(&re);
	return m;
}

static void cfg_line(struct cfg *c, char *line, const char *file,
		     unsigned int lineno)
{
	const char *sep = " \t\n";
	char *save, *cmd, *w, *ver, *dir;

	cmd = strtok_r(line, sep, &save);
	if (!cmd || cmd[0] == '#')
		return;
	if (streq(cmd, "search")) {
		while ((w = strtok_r(NULL, sep, &save))) {
			struct search *s = VEC_PUSH(c->searches, c->n_searches,
						    c->cap_searches);

			*s = (struct search){ 0 };
			if (streq(w, "external"))
				s->external = true;
			else if (!streq(w, "built-in"))
				s->dir = arena_strdup(c->a, w);
		}
	} else if (streq(cmd, "override")) {
		w = strtok_r(NULL, sep, &save);
		ver = strtok_r(NULL, sep, &save);
		dir = strtok_r(NULL, sep, &save);
		if (!w || !ver || !dir)
			goto bad;
		if (kver_matches(ver, c->kver)) {
			char *o = xasprintf("%s/%s", dir, w);

			*VEC_PUSH(c->overrides, c->n_overrides,
				  c->cap_overrides) = arena_strdup(c->a, o);
			free(o);
		}
	} else if (streq(cmd, "external")) {
		ver = strtok_r(NULL, sep, &save);
		dir = strtok_r(NULL, sep, &save);
		if (!ver || !dir)
			goto bad;
		if (kver_matches(ver, c->kver))
			*VEC_PUSH(c->externals, c->n_externals,
				  c->cap_externals) = arena_strdup(c->a, dir);
	} else if (streq(cmd, "exclude")) {
		while ((w = strtok_r(NULL, sep, &save)))
			*VEC_PUSH(c->excludes, c->n_excludes,
				  c->cap_excludes) = arena_strdup(c->a, w);
	} else if (!streq(cmd, "include") && !streq(cmd, "make_map_files")) {
		goto bad;
	}
	return;
bad:
	WRN("%s:%u: ignoring bad line starting with '%s'\n", file, lineno,
	    cmd);
}

static void cfg_file(struct cfg *c, const char *path)
{
	unsigned int lineno = 0;
	size_t cap = 0;
	char *line = NULL;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		WRN("%s: %s\n", path, strerror(errno));
		return;
	}
	while (getline(&line, &cap, f) >= 0)
		cfg_line(c, line, path, ++lineno);
	free(line);
	fclose(f);
}

struct cfg_file {
	const char *base;	/* in path */
	char *path;
	size_t dir;		/* index of its directory */
};

static int cmp_cfg_file(const void *a, const void *b)
{
	const struct cfg_file *x = a, *y = b;
	int r = strcmp(x->base, y->base);

	return r ? r : x->dir < y->dir ? -1 : x->dir > y->dir;
}

/*
 * As depmod: every "*.conf" of each directory (or the file itself), by
 * name; a name seen in an earlier directory hides the later ones.
 */
static void cfg_load(struct cfg *c, const char *const *paths, size_t n)
{
	struct cfg_file *files = NULL;
	size_t nf = 0, cap = 0, i;

	for (i = 0; i < n; i++) {
		struct dirent *de;
		struct stat st;
		struct cfg_file *f;
		DIR *d;

		if (stat(paths[i], &st) < 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			f = VEC_PUSH(files, nf, cap);
			f->path = xstrdup(paths[i]);
			f->dir = i;
			continue;
		}
		d = opendir(paths[i]);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (de->d_name[0] == '.' || len < 6 ||
			    !streq(de->d_name + len - 5, ".conf"))
				continue;
			f = VEC_PUSH(files, nf, cap);
			f->path = xasprintf("%s/%s", paths[i], de->d_name);
			f->dir = i;
		}
		closedir(d);
	}
	for (i = 0; i < nf; i++) {
		const char *slash = strrchr(files[i].path, '/');

		files[i].base = slash ? slash + 1 : files[i].path;
	}
	if (nf)
		qsort(files, nf, sizeof(*files), cmp_cfg_file);
	for (i = 0; i < nf; i++) {
		if (!i || !streq(files[i].base, files[i - 1].base))
			cfg_file(c, files[i].path);
	}
	for (i = 0; i < nf; i++)
		free(files[i].path);
	free(files);
	/* depmod's default when no file says: updates first. */
	if (!c->n_searches) {
		struct search *s = VEC_PUSH(c->searches, c->n_searches,
					    c->cap_searches);

		*s = (struct search){ .dir = "updates" };
	}
}

/*
 * depmod_module_is_higher_priority(), as a rank (lower wins): an override
 * first; else the first search word that matches (a subdirectory the file
 * is under, external for the external directories); else where built-in
 * stands (everything else), or last when no line names built-in.
 */
static int rank(const struct cfg *c, const char *rel, bool external)
{
	size_t i, builtin = c->n_searches;

	if (rel) {
		/* An override names "subdir/modname", no extension. */
		const char *base = strrchr(rel, '/');
		size_t len;

		base = base ? base + 1 : rel;
		len = (base - rel) + strcspn(base, ".");
		for (i = 0; i < c->n_overrides; i++) {
			if (strlen(c->overrides[i]) == len &&
			    !strncmp(c->overrides[i], rel, len))
				return -1;
		}
	}
	for (i = 0; i < c->n_searches; i++) {
		const struct search *s = &c->searches[i];
		size_t dl;

		if (s->external) {
			if (external)
				return i;
		} else if (!s->dir) {
			if (builtin == c->n_searches)
				builtin = i;
		} else if (rel && !external) {
			dl = strlen(s->dir);
			if (!strncmp(rel, s->dir, dl) && rel[dl] == '/')
				return i;
		}
	}
	return builtin;
}

static bool excluded(const struct cfg *c, const char *name)
{
	size_t i;

	if (name[0] == '.' && (!name[1] || streq(name, "..")))
		return true;
	if (streq(name, "build") || streq(name, "source"))
		return true;
	for (i = 0; i < c->n_excludes; i++) {
		if (streq(name, c->excludes[i]))
			return true;
	}
	return false;
}

static void add_file(struct walk *w, const char *path, int rnk)
{
	struct tree_file *f = VEC_PUSH(w->files, w->n, w->cap);

	f->path = arena_strdup(&w->t->arena, path);
	f->modname = path_modname(&w->t->arena, path);
	f->rank = rnk;
	f->chosen = false;
}

/* As depmod: every level, symbolic links followed. */
static int walk_dir(struct walk *w, const char *path, size_t base,
		    bool external)
{
	struct dirent *de;
	DIR *d = opendir(path);
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		unsigned char type = de->d_type;
		char *sub;

		if (excluded(w->cfg, de->d_name))
			continue;
		if (type == DT_UNKNOWN || type == DT_LNK) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type != DT_DIR && (type != DT_REG ||
				       !tree_is_module_file(de->d_name)))
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		if (type == DT_DIR)
			err = walk_dir(w, sub, base, external);
		else
			add_file(w, sub, rank(w->cfg, external ? NULL :
					      sub + base, external));
		free(sub);
		if (err < 0)
			break;
	}
	closedir(d);
	return err;
}

/* modules.order: "kernel/x/y.ko" (or ".o", older) a line. */
static int order_line(char *line, size_t lineno, void *arg)
{
	struct walk *w = arg;
	size_t l = strlen(line);
	char *path;

	(void)lineno;
	if (!l)
		return 0;
	if (l > 2 && streq(line + l - 2, ".o"))
		path = xasprintf("%s/%.*sko", w->t->dir, (int)l - 1, line);
	else
		path = xasprintf("%s/%s", w->t->dir, line);
	add_file(w, path, 0);
	free(path);
	return 0;
}

/* A kernel build tree: the modules of its modules.order. */
static int read_order(struct walk *w, const char *kdir)
{
	char *order = xasprintf("%s/modules.order", kdir);
	int err = read_lines(order, false, order_line, w);

	free(order);
	return err;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct tree_file *)a)->path,
		      ((const struct tree_file *)b)->path);
}

/* modules.builtin: "kernel/x/y.ko" a line. */
static int builtin_line(char *line, size_t lineno, void *arg)
{
	struct tree *t = arg;

	(void)lineno;
	if (*line)
		*hash_slot(t->builtin, path_modname(&t->arena, line)) = t;
	return 0;
}

static void read_builtin(struct tree *t)
{
	char *path = xasprintf("%s/modules.builtin", t->dir);

	read_lines(path, false, builtin_line, t);
	free(path);
}

static void open_kmod(struct tree *t)
{
	char *dep = xasprintf("%s/modules.dep.bin", t->dir);
	bool have = access(dep, R_OK) == 0;

	free(dep);
	if (!have)
		return;
	t->ctx = kmod_new(t->dir, NULL);
	if (!t->ctx) {
		WRN("%s: libkmod cannot read the tree's indexes\n", t->dir);
		return;
	}
	log_setup_kmod(t->ctx);
	/* Fails when an index is missing: each lookup reads the files. */
	if (kmod_load_resources(t->ctx) < 0)
		INF("%s: not every index of depmod is there\n", t->dir);
}

/*
 * One file per module name: the one libkmod resolves the name to when
 * depmod has run, else the best ranked, the first by path on a tie (depmod
 * keeps the first it reads, in directory order).
 */
static void choose(struct tree *t)
{
	struct hash *by_path = hash_new();
	struct kmod_module *mod;
	struct tree_file *f, **slot, *k;
	size_t i;

	for (i = 0; i < t->n_files; i++) {
		f = &t->files[i];
		slot = (struct tree_file **)hash_slot(t->by_name, f->modname);
		if (!*slot || f->rank < (*slot)->rank)
			*slot = f;
		*hash_slot(by_path, f->path) = f;
	}
	for (i = 0; t->ctx && i < t->n_files; i++) {
		f = &t->files[i];
		slot = (struct tree_file **)hash_slot(t->by_name, f->modname);
		if (*slot != f || kmod_module_new_from_name(t->ctx, f->modname,
							    &mod) < 0)
			continue;
		k = kmod_module_get_path(mod) ?
		    hash_find(by_path, kmod_module_get_path(mod)) : NULL;
		if (k)
			*slot = k;
		else
			INF("%s: not in modules.dep (run depmod)\n", f->path);
		kmod_module_unref(mod);
	}
	hash_free(by_path);
	for (i = 0; i < t->n_files; i++) {
		f = &t->files[i];
		k = hash_find(t->by_name, f->modname);
		f->chosen = k == f;
		if (!f->chosen)
			INF("%s: depmod keeps %s\n", f->path, k->path);
	}
}

int tree_open(struct tree **tp, const struct tree_opts *o)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	struct cfg c = { .kver = o->kver, .a = &t->arena };
	struct walk w = { .t = t, .cfg = &c };
	size_t i, cap_config = 0;
	int err;

	t->dir = xstrdup(o->dir);
	t->build_tree = o->build_tree;
	for (i = 0; o->config && i < o->n_config; i++)
		*VEC_PUSH(t->config, t->n_config, cap_config) =
			arena_strdup(&t->arena, o->config[i]);
	t->by_name = hash_new();
	t->builtin = hash_new();
	if (o->build_tree) {
		err = read_order(&w, o->dir);
	} else {
		if (o->config)
			cfg_load(&c, o->config, o->n_config);
		else
			cfg_load(&c, default_config,
				 ARRAY_SIZE(default_config));
		err = walk_dir(&w, o->dir, strlen(o->dir) + 1, false);
		for (i = 0; !err && i < c.n_externals; i++) {
			int e = walk_dir(&w, c.externals[i], 0, true);

			if (e < 0)	/* as depmod: a missing one is fine */
				INF("%s: %s\n", c.externals[i], strerror(-e));
		}
	}
	free(c.searches);
	free(c.overrides);
	free(c.excludes);
	free(c.externals);
	t->files = w.files;
	t->n_files = w.n;
	if (err < 0) {
		tree_free(t);
		return err;
	}
	if (t->n_files)
		qsort(t->files, t->n_files, sizeof(*t->files), cmp_file);
	read_builtin(t);
	if (!o->build_tree)
		open_kmod(t);
	choose(t);
	*tp = t;
	return 0;
}

void tree_free(struct tree *t)
{
	if (!t)
		return;
	if (t->ctx)
		kmod_unref(t->ctx);
	tree_index_free(t);
	free(t->config);
	hash_free(t->by_name);
	hash_free(t->builtin);
	free(t->files);
	arena_free(&t->arena);
	free(t->dir);
	free(t);
}

const struct tree_file *tree_find(const struct tree *t, const char *name)
{
	char *n = modname_normalize(name);
	const struct tree_file *f = hash_find(t->by_name, n);

	free(n);
	return f;
}

bool tree_is_builtin(const struct tree *t, const char *name)
{
	char *n = modname_normalize(name);
	bool b = hash_find(t->builtin, n) != NULL;

	free(n);
	return b;
}
