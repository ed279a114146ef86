// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - small helpers
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "util.h"

#define ARENA_CHUNK (256 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t size;
	_Alignas(max_align_t) char data[];
};

static void *oom(void)
{
	ERR("out of memory\n");
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	return p ? p : oom();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : oom();
}

void *xrealloc(void *p, size_t n, size_t size)
{
	void *q;

	if (size && n > SIZE_MAX / size)
		return oom();
	n *= size;
	q = realloc(p, n ? n : 1);
	return q ? q : oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom();
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return r < 0 ? oom() : s;
}

char *xquote(const char *s, size_t max)
{
	size_t len = strlen(s), n = len < max ? len : max, i, o = 0;
	char *out = xmalloc(n * 4 + 40);

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			o += sprintf(out + o, "\\x%02x", c);
		else
			out[o++] = c;
	}
	if (n < len)
		sprintf(out + o, "...(%zu bytes)", len);
	else
		out[o] = '\0';
	return out;
}

void grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;

	if (n < *cap)
		return;
	ncap = *cap ? *cap * 2 : 16;
	*arr = xrealloc(*arr, ncap, elem);
	*cap = ncap;
}

void *arena_alloc(struct arena *a, size_t size)
{
	const size_t align = _Alignof(max_align_t);
	struct arena_chunk *c = a->head;
	void *p;

	size = (size + align - 1) & ~(align - 1);
	if (!c || c->size - c->used < size) {
		size_t csize = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = xmalloc(sizeof(*c) + csize);
		c->used = 0;
		c->size = csize;
		c->next = a->head;
		a->head = c;
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void *arena_memdup(struct arena *a, const void *p, size_t size)
{
	void *q = arena_alloc(a, size);

	if (size)
		memcpy(q, p, size);
	return q;
}

void arena_merge(struct arena *dst, struct arena *src)
{
	struct arena_chunk *c = src->head;

	if (!c)
		return;
	while (c->next)
		c = c->next;
	c->next = dst->head;
	dst->head = src->head;
	src->head = NULL;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->head = NULL;
}

int read_whole_file(const char *path, char **buf, size_t *len)
{
	size_t size = 0, cap = 64 * 1024;
	char *p;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = xmalloc(cap + 1);
	for (;;) {
		ssize_t r = read(fd, p + size, cap - size);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		size += r;
		if (size == cap) {
			cap *= 2;
			p = xrealloc(p, cap + 1, 1);
		}
	}
	close(fd);
	if (err) {
		free(p);
		return err;
	}
	p[size] = '\0';
	*buf = p;
	*len = size;
	return 0;
}

char *modname_normalize(const char *s)
{
	char *p, *name = xstrdup(s);

	for (p = name; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
	return name;
}

int read_lines(const char *path, bool text,
	       int (*fn)(char *line, size_t lineno, void *arg), void *arg)
{
	char *buf, *line, *end;
	size_t len, lineno = 0;
	int r = read_whole_file(path, &buf, &len);

	if (r < 0)
		return r;
	if (text && memchr(buf, '\0', len)) {
		free(buf);
		return -EILSEQ;
	}
	for (line = buf; r == 0 && line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		if (!end)
			end = buf + len;
		*end = '\0';
		r = fn(line, ++lineno, arg);
	}
	free(buf);
	return r;
}
