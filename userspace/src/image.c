// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module file's ELF image in memory
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "image.h"
#include "inflate.h"
#include "util.h"

static enum image_compression detect(const unsigned char *p, size_t len)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (len >= sizeof(xz) && !memcmp(p, xz, sizeof(xz)))
		return IMAGE_XZ;
	if (len >= sizeof(zst) && !memcmp(p, zst, sizeof(zst)))
		return IMAGE_ZSTD;
	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return IMAGE_GZIP;
	return IMAGE_PLAIN;
}

const char *image_compression_name(enum image_compression c)
{
	switch (c) {
	case IMAGE_XZ:
		return "xz";
	case IMAGE_ZSTD:
		return "zstd";
	case IMAGE_GZIP:
		return "gzip";
	default:
		return "none";
	}
}

int image_open(const char *path, struct image *img, char **err)
{
	struct outbuf o = { 0 };
	struct stat st;
	void *map;
	int fd, r;

	*img = (struct image){ 0 };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xstrdup(strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		*err = xstrdup(strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xstrdup(S_ISDIR(st.st_mode) ? "is a directory" :
			       "not a regular file");
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		*err = xstrdup("empty file, not an ELF module");
		close(fd);
		return -1;
	}
	/* Private and writable: libelf may convert in place, never the file. */
	map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		   0);
	close(fd);
	if (map == MAP_FAILED) {
		*err = xasprintf("cannot map: %s", strerror(errno));
		return -1;
	}

	img->compression = detect(map, st.st_size);
	switch (img->compression) {
	case IMAGE_PLAIN:
		img->data = map;
		img->size = st.st_size;
		img->mapped = true;
		return 0;
	case IMAGE_XZ:
		r = inflate_xz(map, st.st_size, &o, err);
		break;
	case IMAGE_ZSTD:
		r = inflate_zstd(map, st.st_size, &o, err);
		break;
	default:
		r = inflate_gzip(map, st.st_size, &o, err);
		break;
	}
	munmap(map, st.st_size);
	if (r < 0) {
		free(o.data);
		return -1;
	}
	img->data = o.data;
	img->size = o.size;
	return 0;
}

void image_close(struct image *img)
{
	if (img->mapped)
		munmap(img->data, img->size);
	else
		free(img->data);
	*img = (struct image){ 0 };
}
