/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module file's ELF image in memory: read when plain,
 * decompressed when it is xz, zstd or gzip (told by magic, as libkmod
 * does). Each file is read once, with read(2) into buffers that the next
 * file reuses: no mapping, so no unmapping and no TLB flush per file.
 */
#ifndef NSCHECK_IMAGE_H
#define NSCHECK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "inflate.h"

enum image_compression {
	IMAGE_PLAIN,
	IMAGE_XZ,
	IMAGE_ZSTD,
	IMAGE_GZIP,
};

/* Buffers reused from one file to the next. */
struct image_bufs {
	struct outbuf raw;	/* a compressed file as read */
	struct outbuf out;	/* the ELF image */
};

struct image {
	unsigned char *data;	/* in bufs->out: valid until the next read */
	size_t size;
	enum image_compression compression;
};

/* 0, or -errno with *err set to a malloc'd message. */
int image_read(const char *path, struct image_bufs *b, struct image *img,
	       char **err);
void image_bufs_free(struct image_bufs *b);
const char *image_compression_name(enum image_compression c);

#endif
