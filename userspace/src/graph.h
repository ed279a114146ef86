/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck --graph - the model's allow-lists as Graphviz DOT: for each
 * namespace some object declares (or a module: list), the objects that
 * export into it, those that only list modules for it, and the modules
 * it lets in. Sorted, so that two runs on the same inputs are the same.
 */
#ifndef NSCHECK_GRAPH_H
#define NSCHECK_GRAPH_H

#include <stddef.h>

#include "kernel.h"

/*
 * Write the graph on stdout; only: the namespaces to keep (NULL: all).
 * Returns how many namespaces of only were found nowhere.
 */
size_t graph_write(const struct kernel *k, const char *const *only,
		   size_t n_only);

#endif
