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
#include "sig.h"
#include "tree.h"

struct overlay;

struct overlay *overlay_new(void);
void overlay_free(struct overlay *ov);

/*
 * Add what path holds: a kernel build tree (Module.symvers, and
 * modules.builtin.modinfo, Module.nsallow and modules.order's module
 * files when it has them), a module file, or a folder of module files.
 * Returns 0, or -1 with *err set to a malloc'd message naming the file.
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
 * The build's export of sym: true with its namespace and GPL flag, false
 * when the build does not export it.
 */
bool overlay_export(const struct overlay *ov, const char *sym,
		    const char **ns, bool *gpl);
/*
 * The grants the build gives the object name (after overlay_bind()):
 * true with *g and *n set when the build describes that object (there
 * may be none), else false and they are left alone.
 */
bool overlay_grants(const struct overlay *ov, const char *name,
		    const struct ns_grant **g, size_t *n);
/*
 * Whether the build's module name imports ns: 1 yes, 0 no, -1 the build
 * has no module file of that name.
 */
int overlay_imports(const struct overlay *ov, const char *name,
		    const char *ns);

#endif
