/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - read module files: the ELF image through libelf, the modinfo
 * through libkmod.
 */
#ifndef NSCHECK_LOADER_H
#define NSCHECK_LOADER_H

#include <stddef.h>

#include "nsmod.h"
#include "util.h"

/*
 * Read mods[0..n) (their path set); strings go to arena a. A file that
 * cannot be read gets m->error. Returns 0, or -1 when libkmod cannot start.
 */
int loader_read(struct nsmod *mods, size_t n, struct arena *a);

/* Whether m's modinfo allow_ns= and its __ns_allow records differ. */
bool loader_grants_differ(const struct nsmod *m);

#endif
