/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module's modinfo through libkmod: name=, license=,
 * import_ns= and allow_ns=.
 */
#ifndef NSCHECK_MODINFO_H
#define NSCHECK_MODINFO_H

#include <libkmod.h>

#include "image.h"
#include "nsmod.h"
#include "util.h"

/*
 * Fill m's modinfo fields; strings go to arena a. Returns 0, or -1 with
 * m->error set. compression says what the file was, for the message when
 * libkmod cannot read it.
 */
int modinfo_read(struct kmod_ctx *ctx, struct nsmod *m, struct arena *a,
		 enum image_compression compression);

/* The kernel's license_is_gpl_compatible(); NULL is not. */
bool license_gpl_compatible(const char *license);
/* Whether loading m taints it TAINT_PROPRIETARY_MODULE (check_modinfo()). */
bool modinfo_proprietary(const struct nsmod *m);

#endif
