/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - read module files: each one once (image.c), its ELF and
 * modinfo through libelf (modelf.c), its signature against the trusted
 * key when there is one (sig.c), kept by path for as long as the cache
 * lives.
 */
#ifndef NSCHECK_FILECACHE_H
#define NSCHECK_FILECACHE_H

#include "image.h"
#include "nsmod.h"
#include "sig.h"
#include "util.h"

struct filecache {
	const struct sigkey *key;	/* set: each m->sig against it */
	/* set: each file read is handed to it (--overlay rewrites it) */
	void (*rewrite)(void *arg, struct nsmod *m, struct arena *a);
	void *rewrite_arg;
	struct arena arena;	/* every nsmod and its strings */
	struct image_bufs bufs;
	struct hash *by_path;	/* path -> struct nsmod */
	struct nsmod **mods;	/* in the order read */
	size_t n, cap;
};

void filecache_init(struct filecache *l);
void filecache_free(struct filecache *l);

/*
 * The module at path, read the first time it is asked for. A file that
 * cannot be read has m->error set.
 */
struct nsmod *filecache_get(struct filecache *l, const char *path);

#endif
