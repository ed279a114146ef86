/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - string-keyed hash table (open addressing). Keys are borrowed:
 * the caller keeps them alive for as long as the table.
 */
#ifndef NSCHECK_HASH_H
#define NSCHECK_HASH_H

#include <stdbool.h>
#include <stddef.h>

struct hash;

struct hash *hash_new(void);
void hash_free(struct hash *h);
void *hash_find(const struct hash *h, const char *key);
/*
 * Slot of key's value: NULL-initialised when the key was not there yet
 * (then key is stored).
 */
void **hash_slot(struct hash *h, const char *key);
size_t hash_count(const struct hash *h);

#endif
