/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the module files of a tree (DIR/lib/modules/KVER), found as
 * depmod finds them: *.ko, *.ko.xz, *.ko.zst, *.ko.gz, not under the
 * top-level build and source links.
 */
#ifndef NSCHECK_TREE_H
#define NSCHECK_TREE_H

#include <stddef.h>

/*
 * Sorted malloc'd paths (each malloc'd) in *paths. Returns 0, or -errno
 * when dir cannot be read.
 */
int tree_find_modules(const char *dir, char ***paths, size_t *n);
/*
 * The modules a kernel build tree built: KDIR/modules.order, each line a
 * path under KDIR (a ".o" line is its ".ko"), sorted as above.
 */
int tree_read_order(const char *kdir, char ***paths, size_t *n);
void tree_free(char **paths, size_t n);

#endif
