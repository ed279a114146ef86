// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --live - the running kernel, read into the model
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "hash.h"
#include "image.h"
#include "live.h"
#include "log.h"

static char *rooted(const struct live *lv, const char *path)
{
	return xasprintf("%s%s", lv->o->root, path);
}

/* The first error: e (-errno), its message (malloc'd) kept for the top. */
static int fail(struct live *lv, int e, char *msg)
{
	if (!lv->err)
		lv->err = msg;
	else
		free(msg);
	return e;
}

/* A file of the running system, whole; -errno after an error naming it. */
static int read_system_file(struct live *lv, const char *path,
			    char **buf, const char *hint)
{
	char *p = rooted(lv, path);
	size_t len;
	int r = read_whole_file(p, buf, &len);

	if (r < 0)
		fail(lv, r, xasprintf("%s: %s%s", p, strerror(-r),
				      r == -ENOENT && hint ? hint : ""));
	free(p);
	return r < 0 ? r : 0;
}

static struct live_obj *find_obj(const struct live *lv, const char *name)
{
	size_t i;

	for (i = 0; i < lv->n_objs; i++) {
		if (streq(lv->objs[i].name, name))
			return &lv->objs[i];
	}
	return NULL;
}

/*
 * /proc/modules: "name size refcnt deps state address [(flags)]", newest
 * first. The objects are kept oldest first.
 */
static int read_modules(struct live *lv)
{
	char *buf, *line, *save, *w, *wsave;
	struct live_obj *o;
	size_t i, n0;
	int r;

	r = read_system_file(lv, LIVE_MODULES, &buf, NULL);
	if (r < 0)
		return r;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		w = strtok_r(line, " ", &wsave);
		if (!w)
			continue;
		o = VEC_PUSH(lv->objs, lv->n_objs, lv->cap_objs);
		*o = (struct live_obj){ .name = arena_strdup(&lv->arena, w) };
		/* The taint flags, last: "(POE)"; "(+)" while loading. */
		for (w = strtok_r(NULL, " ", &wsave); w;
		     w = strtok_r(NULL, " ", &wsave)) {
			if (*w == '(' && strchr(w, 'P'))
				o->proprietary = true;
		}
	}
	free(buf);
	for (i = 0, n0 = lv->n_objs; i < n0 / 2; i++) {
		struct live_obj t = lv->objs[i];

		lv->objs[i] = lv->objs[n0 - 1 - i];
		lv->objs[n0 - 1 - i] = t;
	}
	return 0;
}

static bool is_object(const struct live *lv, const char *name)
{
	return streq(name, "vmlinux") || find_obj(lv, name);
}

/* One line of the index: "NAMESPACE OBJECT FLAGS GRANTS". */
static int index_line(struct live *lv, char *line, const char *path,
		      size_t lineno)
{
	char *w[5], *save, *g, *gsave;
	struct live_set *s;
	size_t n;

	for (n = 0; n < 5; n++) {
		w[n] = strtok_r(n ? NULL : line, " \t", &save);
		if (!w[n])
			break;
	}
	if (n != 4 || (!streq(w[2], "exports") && !streq(w[2], "-"))) {
		return fail(lv, -EINVAL, xasprintf("%s:%zu: not \"NAMESPACE "
						   "OBJECT exports|- GRANTS|-\"",
						   path, lineno));
	}
	if (!is_object(lv, w[1]))
		return fail(lv, -ENOENT, xasprintf("%s:%zu: %s is not loaded "
						   "(%s%s)", path, lineno,
						   w[1], lv->o->root,
						   LIVE_MODULES));
	s = VEC_PUSH(lv->sets, lv->n_sets, lv->cap_sets);
	*s = (struct live_set){
		.ns = arena_strdup(&lv->arena, w[0]),
		.obj = arena_strdup(&lv->arena, w[1]),
		.exports = streq(w[2], "exports"),
	};
	if (streq(w[3], "-"))
		return 0;
	for (n = 1, g = w[3]; *g; g++)
		n += *g == ',';
	s->grants = arena_alloc(&lv->arena, n * sizeof(*s->grants));
	for (g = strtok_r(w[3], ",", &gsave); g;
	     g = strtok_r(NULL, ",", &gsave))
		s->grants[s->n_grants++] = arena_strdup(&lv->arena, g);
	return 0;
}

static int read_index(struct live *lv)
{
	char *buf, *line, *end, *path = rooted(lv, LIVE_INDEX);
	size_t lineno = 0;
	int r;

	r = read_system_file(lv, LIVE_INDEX, &buf,
			     " (is debugfs mounted, and the kernel built with "
			     "MODULE_NAMESPACE_ALLOW?)");
	if (r < 0) {
		free(path);
		return r;
	}
	for (line = buf; r == 0 && *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			*end++ = '\0';
		lineno++;
		if (*line)
			r = index_line(lv, line, path, lineno);
	}
	free(buf);
	free(path);
	return r;
}

/* trusted: one name a line. Absent: no CONFIG_MODULE_NS_ALLOW_SIG. */
static int read_trusted(struct live *lv)
{
	char *path = rooted(lv, LIVE_TRUSTED), *buf, *line, *save;
	struct live_obj *o;
	size_t len;
	int r;

	r = read_whole_file(path, &buf, &len);
	if (r == -ENOENT) {
		INF("%s: none: grants are not bound to a signing key\n", path);
		free(path);
		return 0;
	}
	if (r < 0) {
		fail(lv, r, xasprintf("%s: %s", path, strerror(-r)));
		free(path);
		return r;
	}
	lv->sig_rule = true;
	for (line = strtok_r(buf, "\n", &save); r == 0 && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (streq(line, "vmlinux"))
			continue;
		o = find_obj(lv, line);
		if (!o) {
			r = fail(lv, -ENOENT, xasprintf("%s: %s is not loaded "
							"(%s%s)", path, line,
							lv->o->root,
							LIVE_MODULES));
			break;
		}
		o->trusted = true;
	}
	free(buf);
	free(path);
	return r;
}

static void add_external(struct live *lv, const char *path)
{
	struct external_file *e = VEC_PUSH(lv->ext, lv->n_ext, lv->cap_ext);
	const char *base = strrchr(path, '/');
	char *name = modname_normalize(base ? base + 1 : path);

	name[strcspn(name, ".")] = '\0';
	*e = (struct external_file){
		.path = arena_strdup(&lv->arena, path),
		.modname = arena_strdup(&lv->arena, name),
	};
	free(name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The module files under dir, in the order of their paths. */
static int walk_external(struct live *lv, const char *dir)
{
	char **names = NULL, *path;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = 0;

	d = opendir(dir);
	if (!d) {
		r = -errno;
		return fail(lv, r, xasprintf("%s: %s", dir, strerror(-r)));
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.')
			*VEC_PUSH(names, n, cap) = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		if (r == 0 && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				r = walk_external(lv, path);
			else if (tree_is_module_file(names[i]))
				add_external(lv, path);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return r;
}

static int read_externals(struct live *lv)
{
	struct stat st;
	size_t i;
	int r;

	for (i = 0; i < lv->o->n_external; i++) {
		const char *p = lv->o->external[i];

		if (stat(p, &st) < 0) {
			r = -errno;
			return fail(lv, r, xasprintf("%s: %s (--external)", p,
						     strerror(-r)));
		}
		if (S_ISDIR(st.st_mode)) {
			r = walk_external(lv, p);
			if (r < 0)
				return r;
		} else {
			add_external(lv, p);
		}
	}
	return 0;
}

struct want {
	const char *name;	/* the kernel's, '-' as '_' */
	const char *build_id;	/* /sys/module/M/notes, or NULL */
	size_t build_id_len;
	struct sigkey **learn;	/* also: a signature to learn the key from */
	bool named;		/* a file of that name was seen */
};

/* m is the loaded module: its name, its build, its signature. */
static bool matches(struct live *lv, struct want *w, struct nsmod *m)
{
	struct image img;
	char *err = NULL, *name;
	bool same;

	if (m->error)
		return false;
	name = modname_normalize(m->name);
	same = streq(name, w->name);
	free(name);
	if (!same)
		return false;
	w->named = true;
	if (w->build_id && (m->build_id_len != w->build_id_len ||
			    memcmp(m->build_id, w->build_id, w->build_id_len)))
		return false;
	if (!w->learn)
		return true;
	if (image_read(m->path, &lv->l.bufs, &img, &err) < 0) {
		free(err);
		return false;
	}
	return sigkey_learn(w->learn, img.data, img.size) == 1;
}

/*
 * The loaded module's file: the tree's, then --external's of that file
 * name, then the other --external files, read only when needed.
 */
static struct nsmod *find_file(struct live *lv, struct want *w)
{
	const struct tree_file *f = lv->o->t ? tree_find(lv->o->t, w->name) :
				    NULL;
	struct nsmod *m;
	size_t i;
	int pass;

	if (f) {
		m = filecache_get(&lv->l, f->path);
		if (m->error && !w->learn)
			return m;	/* the caller names it */
		if (matches(lv, w, m))
			return m;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < lv->n_ext; i++) {
			if (streq(lv->ext[i].modname, w->name) != !pass)
				continue;
			m = filecache_get(&lv->l, lv->ext[i].path);
			if (matches(lv, w, m))
				return m;
		}
	}
	return NULL;
}

/* /sys/module/M/notes/.note.gnu.build-id, as the file's section. */
static char *loaded_build_id(const struct live *lv, const char *name,
			     size_t *len)
{
	char *path = xasprintf("%s/sys/module/%s/notes/.note.gnu.build-id",
			       lv->o->root, name);
	char *buf = NULL;

	if (read_whole_file(path, &buf, len) < 0 || !*len) {
		free(buf);
		buf = NULL;
	}
	free(path);
	return buf;
}

static int find_files(struct live *lv)
{
	struct want w = { 0 };
	size_t i;
	int r = 0;

	for (i = 0; r == 0 && i < lv->n_objs; i++) {
		struct live_obj *o = &lv->objs[i];
		char *name = modname_normalize(o->name);

		w = (struct want){ .name = name };
		w.build_id = loaded_build_id(lv, o->name, &w.build_id_len);
		o->m = find_file(lv, &w);
		if (o->m && o->m->error) {
			r = fail(lv, -ENOEXEC,
				 xasprintf("%s: %s (the file of loaded module "
					   "%s)", o->m->path, o->m->error,
					   o->name));
		} else if (!o->m) {
			r = fail(lv, -ENOENT,
				 xasprintf("%s: loaded, but no file %sof it in "
					   "%s%s", o->name,
					   w.named && w.build_id ?
					   "with its build ID " : "",
					   lv->o->t ? lv->o->t->dir :
					   "no module tree",
					   lv->o->n_external ?
					   " or --external" :
					   " (--external names more)"));
		}
		free((char *)w.build_id);
		free(name);
	}
	return r;
}

int live_read(struct live *lv, const struct live_opts *o, char **err)
{
	int r;

	*lv = (struct live){ .o = o };
	filecache_init(&lv->l);
	r = read_modules(lv);
	if (r == 0)
		r = read_index(lv);
	if (r == 0)
		r = read_trusted(lv);
	if (r == 0)
		r = read_externals(lv);
	if (r == 0)
		r = find_files(lv);
	*err = lv->err;
	lv->err = NULL;
	return r;
}

void live_free(struct live *lv)
{
	filecache_free(&lv->l);
	free(lv->err);
	free(lv->objs);
	free(lv->sets);
	free(lv->ext);
	arena_free(&lv->arena);
}

struct sigkey *live_learn_key(struct live *lv)
{
	struct sigkey *key = NULL;
	size_t i;

	for (i = 0; i < lv->n_objs; i++) {
		struct live_obj *o = &lv->objs[i];
		char *name;
		struct want w;

		if (!o->trusted)
			continue;
		name = modname_normalize(o->name);
		w = (struct want){ .name = name, .learn = &key };
		w.build_id = loaded_build_id(lv, o->name, &w.build_id_len);
		if (find_file(lv, &w))
			INF("signing key learnt from %s\n", o->name);
		free((char *)w.build_id);
		free(name);
	}
	return key;
}

void live_apply(const struct live *lv, struct kernel *k)
{
	const struct object *o;
	size_t i, j;

	k->live = true;
	if (lv->sig_rule)
		kernel_set_sig_rule(k);
	for (i = 0; i < lv->n_objs; i++) {
		const struct live_obj *lo = &lv->objs[i];

		kernel_load_live(k, lo->name, lo->m, lo->proprietary,
				 lv->sig_rule && lo->trusted);
	}
	for (i = 0; i < lv->n_sets; i++) {
		const struct live_set *s = &lv->sets[i];

		o = streq(s->obj, "vmlinux") ? kernel_vmlinux(k) :
		    kernel_find_name(k, s->obj);
		kernel_declare(k, o, s->ns, s->exports);
		for (j = 0; j < s->n_grants; j++)
			kernel_add_grant(k, o, s->ns, s->grants[j]);
	}
}
