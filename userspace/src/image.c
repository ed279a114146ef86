// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module file's ELF image in memory
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "image.h"
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

/* The whole of fd (size bytes) into o, from its start. */
static int read_all(int fd, size_t size, struct outbuf *o, char **err)
{
	size_t done = 0;

	if (o->cap < size) {
		free(o->data);
		o->data = xmalloc(size);
		o->cap = size;
	}
	while (done < size) {
		ssize_t r = pread(fd, o->data + done, size - done, done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			*err = xasprintf("cannot read: %s", strerror(e));
			return -e;
		}
		if (r == 0)
			break;	/* it shrank under us: read what is there */
		done += r;
	}
	o->size = done;
	return 0;
}

static int open_regular(const char *path, size_t *size, char **err)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
		*err = xstrdup(strerror(-e));
		return e;
	}
	if (fstat(fd, &st) < 0) {
		e = -errno;
		*err = xstrdup(strerror(-e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		*err = xstrdup(S_ISDIR(st.st_mode) ? "is a directory" :
			       "not a regular file");
		goto fail;
	}
	if (st.st_size == 0) {
		e = -ENOEXEC;
		*err = xstrdup("empty file, not an ELF module");
		goto fail;
	}
	if ((unsigned long long)st.st_size > IMAGE_MAX) {
		e = -EFBIG;
		*err = xasprintf("%lld bytes: too large for a module",
				 (long long)st.st_size);
		goto fail;
	}
	*size = st.st_size;
	return fd;
fail:
	close(fd);
	return e;
}

int image_read(const char *path, struct image_bufs *b, struct image *img,
	       char **err)
{
	size_t size = 0;
	int fd, r;

	*img = (struct image){ 0 };
	fd = open_regular(path, &size, err);
	if (fd < 0)
		return fd;
	r = read_all(fd, size, &b->out, err);
	close(fd);
	if (r < 0)
		return r;

	img->compression = detect(b->out.data, b->out.size);
	if (img->compression != IMAGE_PLAIN) {
		struct outbuf t = b->raw;

		/* The compressed bytes go aside; the image is inflated. */
		b->raw = b->out;
		b->out = t;
		b->out.size = 0;
		switch (img->compression) {
		case IMAGE_XZ:
			r = inflate_xz(b->raw.data, b->raw.size, &b->out, err);
			break;
		case IMAGE_ZSTD:
			r = inflate_zstd(b->raw.data, b->raw.size, &b->out,
					 err);
			break;
		default:
			r = inflate_gzip(b->raw.data, b->raw.size, &b->out,
					 err);
			break;
		}
		if (r < 0)
			return r;
	}
	img->data = b->out.data;
	img->size = b->out.size;
	return 0;
}

void image_bufs_free(struct image_bufs *b)
{
	free(b->raw.data);
	free(b->out.data);
	*b = (struct image_bufs){ 0 };
}
