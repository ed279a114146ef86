/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a growable array of strings, as kmod's shared/array.c: one
 * object where a (pointer, count, capacity) triple was. The strings are
 * not copied: they outlive the array (argv, the model's arena).
 */
#ifndef NSCHECK_STRV_H
#define NSCHECK_STRV_H

#include <stddef.h>

struct strv {
	const char **v;
	size_t n;
	size_t cap;
};

void strv_push(struct strv *s, const char *str);
void strv_free(struct strv *s);

#endif
