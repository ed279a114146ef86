// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a cache of module files, each read once and kept by path
 *
 * Not through libkmod: kmod_module_get_info() and
 * kmod_module_get_dependency_symbols() map each file again (and inflate a
 * compressed one again), and on Debian's tree that second read and its
 * unmapping cost as much as all of depmod -n (README.md, "Reading
 * modules"). The undefined symbols are the ones libkmod lists, in the
 * same order; tests/crosscheck.c compares the two.
 */

#include <stdlib.h>

#include "hash.h"
#include "filecache.h"
#include "modelf.h"

void filecache_init(struct filecache *l)
{
	*l = (struct filecache){ .by_path = hash_new() };
}

void filecache_free(struct filecache *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->mods[i]->error);
	free(l->mods);
	hash_free(l->by_path);
	image_bufs_free(&l->bufs);
	arena_free(&l->arena);
}

struct nsmod *filecache_get(struct filecache *l, const char *path)
{
	struct nsmod **slot, *m = hash_find(l->by_path, path);
	struct image img;

	if (m)
		return m;
	m = arena_alloc(&l->arena, sizeof(*m));
	*m = (struct nsmod){ .path = arena_strdup(&l->arena, path) };
	slot = (struct nsmod **)hash_slot(l->by_path, m->path);
	*slot = m;
	*VEC_PUSH(l->mods, l->n, l->cap) = m;
	if (image_read(path, &l->bufs, &img, &m->error) < 0 ||
	    modelf_read(&img, m, &l->arena) < 0)
		return m;
	if (l->key)
		m->sig = sig_check(l->key, img.data, img.size);
	if (l->rewrite)
		l->rewrite(l->rewrite_arg, m, &l->arena);
	return m;
}
