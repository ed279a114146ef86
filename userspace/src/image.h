/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - a module file's ELF image in memory: mapped when plain,
 * decompressed when it is xz, zstd or gzip (detected by magic, as libkmod
 * does).
 */
#ifndef NSCHECK_IMAGE_H
#define NSCHECK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

enum image_compression {
	IMAGE_PLAIN,
	IMAGE_XZ,
	IMAGE_ZSTD,
	IMAGE_GZIP,
};

struct image {
	void *data;
	size_t size;
	bool mapped;
	enum image_compression compression;
};

/* 0, or -1 with *err set to a malloc'd message. */
int image_open(const char *path, struct image *img, char **err);
void image_close(struct image *img);
const char *image_compression_name(enum image_compression c);

#endif
