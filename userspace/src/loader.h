/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - read module files: each one once (image.c), its ELF and
 * modinfo through libelf (modelf.c), its signature against the trusted
 * key when there is one (sig.c), kept by path for as long as the loader
 * lives.
 */
#ifndef NSCHECK_LOADER_H
#define NSCHECK_LOADER_H

#include "image.h"
#include "nsmod.h"
#include "sig.h"
#include "util.h"

struct loader {
	const struct sigkey *key;	/* set: each m->sig against it */
	struct arena arena;	/* every nsmod and its strings */
	struct image_bufs bufs;
	struct hash *by_path;	/* path -> struct nsmod */
	struct nsmod **mods;	/* in the order read */
	size_t n, cap;
};

void loader_init(struct loader *l);
void loader_free(struct loader *l);

/*
 * The module at path, read the first time it is asked for. A file that
 * cannot be read has m->error set.
 */
struct nsmod *loader_get(struct loader *l, const char *path);

#endif
