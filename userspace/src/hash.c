// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - string-keyed hash table
 */

#include <stdint.h>
#include <stdlib.h>

#include "hash.h"
#include "util.h"

struct entry {
	const char *key;
	uint32_t hash;
	void *value;
};

struct hash {
	struct entry *entries;
	size_t size;	/* power of two */
	size_t count;
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

struct hash *hash_new(void)
{
	struct hash *h = xcalloc(1, sizeof(*h));

	h->size = 256;
	h->entries = xcalloc(h->size, sizeof(*h->entries));
	return h;
}

void hash_free(struct hash *h)
{
	if (!h)
		return;
	free(h->entries);
	free(h);
}

static struct entry *lookup(const struct hash *h, const char *key,
			    uint32_t hv)
{
	size_t mask = h->size - 1;
	size_t i = hv & mask;

	for (;; i = (i + 1) & mask) {
		struct entry *e = &h->entries[i];

		if (!e->key)
			return e;
		if (e->hash == hv && streq(e->key, key))
			return e;
	}
}

static void rehash(struct hash *h)
{
	struct entry *old = h->entries;
	size_t oldsize = h->size;
	size_t i;

	h->size *= 2;
	h->entries = xcalloc(h->size, sizeof(*h->entries));
	for (i = 0; i < oldsize; i++) {
		if (old[i].key)
			*lookup(h, old[i].key, old[i].hash) = old[i];
	}
	free(old);
}

void *hash_find(const struct hash *h, const char *key)
{
	return lookup(h, key, hash_str(key))->value;
}

void **hash_slot(struct hash *h, const char *key)
{
	uint32_t hv = hash_str(key);
	struct entry *e;

	if ((h->count + 1) * 4 > h->size * 3)
		rehash(h);
	e = lookup(h, key, hv);
	if (!e->key) {
		e->key = key;
		e->hash = hv;
		e->value = NULL;
		h->count++;
	}
	return &e->value;
}

size_t hash_count(const struct hash *h)
{
	return h->count;
}
