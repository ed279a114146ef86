/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module's .modinfo strings ("key=value", NUL-separated), read
 * as the kernel's get_modinfo() reads them: name=, license=, intree=,
 * import_ns=, allow_ns= (raw, for the loader's comparison with the
 * records) and softdep=.
 */
#ifndef NSCHECK_MODINFO_H
#define NSCHECK_MODINFO_H

#include <stddef.h>

#include "nsmod.h"
#include "util.h"

/* Fill m's modinfo fields from the section's size bytes, into arena a. */
void modinfo_parse(struct nsmod *m, struct arena *a, const char *data,
		   size_t size);

#endif
