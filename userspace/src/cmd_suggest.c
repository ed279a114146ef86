// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --suggest - namespaces and allow-lists for the exports that few
 * modules use
 */

#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hash.h"
#include "log.h"

static const char *shown_path(const char *path, const char *top)
{
	size_t len = top ? strlen(top) : 0;

	if (len && strncmp(path, top, len) == 0 && path[len] == '/')
		return path + len + 1;
	return path;
}

/*
 * --suggest's modules: those given, then the tree's that have none of
 * their names, shown relative to the tree: an export's users are counted
 * over both, never over the given files alone (every export of vmlinux
 * would seem to have one user).
 */
static int suggest(struct session *s, int argc, char *argv[])
{
	const struct tree *t = s->t;
	struct opts *o = s->o;
	struct suggest *sg = suggest_new(s->k);
	size_t n = (size_t)argc + t->n_files, i, nm = 0;
	struct nsmod **mods = xcalloc(n, sizeof(*mods));
	const char **files = xcalloc(n, sizeof(*files));
	struct hash *given = hash_new();
	int ret;

	if (!s->k->vmlinux_known)
		WRN("no Module.symvers: vmlinux's exports are unknown, only "
		    "modules are exporters\n");
	for (i = 0; i < n; i++) {
		bool is_given = i < (size_t)argc;
		const struct tree_file *f = is_given ? NULL :
					    &t->files[i - argc];

		if (f && !f->chosen)
			continue;
		mods[nm] = filecache_get(&s->fc, f ? f->path : argv[i]);
		if (f && !mods[nm]->error &&
		    hash_find(given, mods[nm]->name))
			continue;	/* a given file stands for it */
		files[nm] = f ? shown_path(f->path, t->dir) : argv[i];
		if (mods[nm]->error)
			ERR("%s: %s\n", mods[nm]->path, mods[nm]->error);
		else if (is_given)
			*hash_slot(given, mods[nm]->name) = mods[nm];
		nm++;
	}
	if (argc)
		INF("users counted over the modules given (%zu) and the "
		    "tree's others (%zu)\n", (size_t)argc, nm - argc);
	suggest_build(sg, mods, files, nm, &o->sg);
	suggest_report(sg, &o->sg);
	INF("%zu modules read, %zu unreadable\n", sg->sum.modules,
	    sg->sum.unreadable);
	ret = sg->sum.unreadable ? EXIT_ERROR : EXIT_LOADS;
	hash_free(given);
	free(mods);
	free(files);
	suggest_free(sg);
	return ret;
}

int cmd_suggest(struct opts *o, int argc, char *argv[])
{
	struct session s;
	int ret = EXIT_ERROR;

	if (session_init(&s, o) == 0 && session_vmlinux(&s) == 0 &&
	    session_tree(&s) == 0)
		ret = suggest(&s, argc, argv);
	session_free(&s);
	return ret;
}
