/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - decompress a module image into a growing buffer.
 */
#ifndef NSCHECK_INFLATE_H
#define NSCHECK_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

/* No module is this big: refuse to inflate a bomb. */
#define IMAGE_MAX ((size_t)1 << 30)

struct outbuf {
	unsigned char *data;
	size_t size;
	size_t cap;
};

/* Room for 64 KiB more (in_size: the compressed size, a first guess). */
bool outbuf_reserve(struct outbuf *o, size_t in_size);

/* 0, or -errno with *err set to a malloc'd message. */
int inflate_xz(const void *in, size_t len, struct outbuf *o, char **err);
int inflate_zstd(const void *in, size_t len, struct outbuf *o, char **err);
int inflate_gzip(const void *in, size_t len, struct outbuf *o, char **err);

/* "+XZ +ZSTD +ZLIB", with - for what this build lacks. */
const char *inflate_features(void);

#endif
