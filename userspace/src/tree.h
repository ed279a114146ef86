/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module tree as depmod and modprobe see it: the module files
 * under DIR (BASEDIR/lib/modules/KVER, or a kernel build tree's
 * modules.order), one kept per module name by depmod's search order
 * (depmod.d: search, override, exclude, external), the names built into
 * vmlinux (modules.builtin), and, when depmod has run (modules.dep.bin),
 * libkmod's view of it: which file a name resolves to, aliases,
 * dependencies and soft dependencies.
 */
#ifndef NSCHECK_TREE_H
#define NSCHECK_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include <libkmod.h>

#include "util.h"

struct tree_file {
	const char *path;	/* DIR/relative, or an external directory's */
	const char *modname;	/* from the file name: depmod's name for it */
	int rank;		/* search order: lower wins */
	bool chosen;		/* the file depmod keeps for modname */
};

struct tree {
	char *dir;
	struct arena arena;
	struct tree_file *files;	/* sorted by path */
	size_t n_files;
	struct hash *by_name;	/* modname -> its chosen struct tree_file */
	struct hash *builtin;	/* modname -> non-NULL: in modules.builtin */
	struct kmod_ctx *ctx;	/* when the tree has modules.dep.bin */
	/*
	 * Without it, for an alias: depmod's indexes of a scratch copy of
	 * the tree (symbolic links), made at the first alias looked up and
	 * removed by tree_free().
	 */
	char *scratch;		/* its top folder, under TMPDIR */
	char *scratch_dir;	/* scratch/lib/modules/KVER */
	struct kmod_ctx *scratch_ctx;
	bool scratch_tried;
	bool build_tree;
	const char **config;	/* -C paths, for depmod; NULL: its own */
	size_t n_config;
};

struct tree_opts {
	const char *dir;
	const char *kver;	/* for depmod.d's override and external */
	const char *const *config;	/* -C paths; NULL: depmod's own */
	size_t n_config;
	bool build_tree;	/* dir is a build tree: read modules.order */
};

/*
 * Find the modules of o->dir. Returns 0, or -errno when o->dir cannot be
 * read (nothing printed).
 */
int tree_open(struct tree **t, const struct tree_opts *o);
void tree_free(struct tree *t);

/*
 * libkmod on depmod's indexes of the tree, for aliases: the tree's own
 * (t->ctx), else those depmod(8) writes for a scratch copy of it (its
 * folders and files as symbolic links, under TMPDIR; $NSCHECK_DEPMOD
 * names another depmod). NULL when there is neither: a build tree, or
 * depmod could not run.
 */
struct kmod_ctx *tree_index(struct tree *t);
/* The scratch copy and its libkmod context, gone (treeindex.c). */
void tree_index_free(struct tree *t);

/* The file kept for a module name ('-' and '_' alike), or NULL. */
const struct tree_file *tree_find(const struct tree *t, const char *name);
bool tree_is_builtin(const struct tree *t, const char *name);
/* Whether path names a module file (.ko, .ko.xz, .ko.zst, .ko.gz). */
bool tree_is_module_file(const char *path);

#endif
