/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - small helpers: allocation that cannot fail, and an arena that
 * owns every string a module keeps after its file is closed.
 */
#ifndef NSCHECK_UTIL_H
#define NSCHECK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline bool streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static inline bool strstartswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * s for a message: at most max bytes of it, those outside printable ASCII
 * (and backslashes) as \xNN, then "...(N bytes)" if it was longer.
 */
char *xquote(const char *s, size_t max);

/*
 * Grow *arr (of *cap elements of size elem) so that it holds at least
 * n + 1 elements.
 */
void grow(void **arr, size_t *cap, size_t n, size_t elem);
#define VEC_PUSH(arr, n, cap) \
	(grow((void **)&(arr), &(cap), (n), sizeof(*(arr))), &(arr)[(n)++])

struct arena_chunk;
struct arena {
	struct arena_chunk *head;
};

void *arena_alloc(struct arena *a, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_strdup(struct arena *a, const char *s);
void *arena_memdup(struct arena *a, const void *p, size_t size);
/* Move every chunk of src into dst; src is left empty. */
void arena_merge(struct arena *dst, struct arena *src);
void arena_free(struct arena *a);

/*
 * A module name as the kernel and kmod have it, '-' as '_' (malloc'd):
 * for file names, aliases, the names options and indexes give.
 */
char *modname_normalize(const char *s);

/* Whole file into a NUL-terminated malloc'd buffer; 0, or -errno. */
int read_whole_file(const char *path, char **buf, size_t *len);

/*
 * Each line of the file at path, without its '\n' and NUL-terminated
 * (writable, gone after the call), with its number from 1, empty ones
 * too, to fn, until fn returns nonzero. Returns what fn returned, 0, or
 * -errno when the file cannot be read; with text, -EILSEQ before any
 * line when the file holds a NUL byte (binary data).
 */
int read_lines(const char *path, bool text,
	       int (*fn)(char *line, size_t lineno, void *arg), void *arg);

#endif
