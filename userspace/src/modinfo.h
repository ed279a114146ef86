/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module's .modinfo strings ("key=value", NUL-separated), read
 * as the kernel's get_modinfo() reads them: name=, license=, import_ns=,
 * allow_ns= and softdep=.
 */
#ifndef NSCHECK_MODINFO_H
#define NSCHECK_MODINFO_H

#include <stddef.h>

#include "nsmod.h"
#include "util.h"

/*
 * Fill m's modinfo fields from the section's size bytes; strings go to
 * arena a. Returns 0, or -1 with *err set to a malloc'd message (a bad
 * allow_ns= value); the fields read are kept either way.
 */
int modinfo_parse(struct nsmod *m, struct arena *a, const char *data,
		  size_t size, char **err);

#endif
