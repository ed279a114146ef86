/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck --overlay - a kernel build with the series (its Module.symvers,
 * modules.builtin.modinfo, Module.nsallow and its modules' records)
 * applied to the model of another tree, as if that tree had been built
 * with them: each symbol the build exports gets the build's namespace and
 * GPL flag, and each object the build describes gets the build's grants,
 * wherever the tree has it (built in or a module).
 */
#ifndef NSCHECK_OVERLAY_H
#define NSCHECK_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "nsmod.h"
#include "report.h"
#include "sig.h"
#include "kernel.h"
#include "tree.h"
#include "vmlinux.h"

struct overlay;

struct overlay *overlay_new(void);
void overlay_free(struct overlay *ov);

/*
 * Add what path holds: a kernel build tree (Module.symvers, and
 * modules.builtin.modinfo, Module.nsallow and modules.order's module
 * files when it has them), a module file, or a folder of module files.
 * Returns 0, or -errno with *err set to a malloc'd message naming the
 * file.
 */
int overlay_add(struct overlay *ov, const char *path, char **err);

/*
 * Give the grants to the tree's objects: a built-in object's grants go to
 * the tree's module of that name when the tree has one (not built in),
 * else to vmlinux; a module's to vmlinux when the tree builds it in. t
 * may be NULL: the build's own layout.
 */
void overlay_bind(struct overlay *ov, const struct tree *t);

/*
 * The namespaces the build both exports into and grants to a module the
 * tree builds in, into *out (valid until overlay_free()). Built in: in
 * t's modules.builtin (t may be NULL), or with a "file=" string in
 * modinfo, the modules.builtin.modinfo that describes the tree's vmlinux
 * (it may not exist). Returns 0, or -errno with *err set to a malloc'd
 * message naming the file.
 */
int overlay_builtin_grants(struct overlay *ov, const struct tree *t,
			   const char *modinfo,
			   const struct builtin_grants **out, char **err);

/*
 * A module file of the tree as if built with the build (a struct
 * filecache rewrite hook, arg the overlay, after overlay_bind()): each
 * export the build has gets its namespace (the file's in was_ns when it
 * differs) and GPL flag; the grants are the build's when it describes
 * the object; m->rebuilt is the build's module of that name.
 */
void overlay_rewrite(void *arg, struct nsmod *m, struct arena *a);

/*
 * vmlinux into k as vmlinux_read() reads it, its exports rewritten the
 * same way, and its grants the build's when the build describes vmlinux.
 * Returns 0, or -errno with *err set as vmlinux_read() sets it.
 */
int overlay_read_vmlinux(const struct overlay *ov, struct kernel *k,
			 const struct kdesc *d, char **err);

#endif
