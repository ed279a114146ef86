/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - what loading one argument loads, in order, as modprobe and
 * insmod would: a module name (or alias) is looked up in the tree and
 * brings its dependencies and soft dependencies first, as modprobe does;
 * a file is loaded as insmod loads it, after the modules of the tree that
 * export the symbols it uses, as modprobe would once depmod had run.
 *
 * With modules.dep.bin, libkmod answers (kmod_module_new_from_lookup(),
 * kmod_module_get_dependencies(), kmod_module_get_softdeps(), and
 * "symbol:" lookups in modules.symbols); without it, the tree is read and
 * the dependencies worked out from its symbols as depmod would, and the
 * soft dependencies are the modules' modinfo softdep= lines.
 */
#ifndef NSCHECK_PLAN_H
#define NSCHECK_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"
#include "filecache.h"
#include "tree.h"

struct step {
	struct nsmod *m;
	bool given;		/* the argument itself, not a dependency */
	bool required;		/* its failure stops modprobe (not a softdep) */
};

struct planner {
	const struct kernel *k;	/* what is loaded: not loaded again */
	struct tree *t;		/* NULL: no tree, no dependencies */
	struct filecache *l;
	bool insmod;		/* --live: a file alone, as insmod loads it */
	struct hash *planned;	/* module names already in a plan */
	struct hash *providers;	/* symbol -> struct tree_file (no ctx) */
	struct step *steps;
	size_t n, cap;
};

void planner_init(struct planner *p, const struct kernel *k,
		  struct tree *t, struct filecache *l);
void planner_free(struct planner *p);

/*
 * The steps for one argument (in p->steps, p->n; replaced by the next
 * call). Returns 0, or -ENOENT with *err set to a malloc'd message (a
 * name found nowhere).
 */
int plan(struct planner *p, const char *arg, char **err);

/*
 * Whether an argument is a file (it has a '/', a module file's name, or
 * exists), as modinfo tells a file from a name.
 */
bool plan_is_file(const char *arg);

#endif
