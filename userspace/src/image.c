// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module file's ELF image in memory
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "image.h"
#include "util.h"

/* No module is this big: refuse to inflate a bomb. */
#define IMAGE_MAX ((size_t)1 << 30)

struct outbuf {
	unsigned char *data;
	size_t size;
	size_t cap;
};

static bool outbuf_reserve(struct outbuf *o, size_t in_size)
{
	size_t ncap;

	if (o->cap - o->size >= 64 * 1024)
		return true;
	ncap = o->cap ? o->cap * 2 : in_size * 4 + 64 * 1024;
	if (ncap > IMAGE_MAX)
		ncap = IMAGE_MAX;
	if (ncap <= o->cap)
		return false;
	o->data = xrealloc(o->data, ncap, 1);
	o->cap = ncap;
	return true;
}

static int inflate_xz(const void *in, size_t len, struct outbuf *o,
		      char **err)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	lzma_ret r;

	r = lzma_stream_decoder(&strm, UINT64_MAX, LZMA_CONCATENATED);
	if (r != LZMA_OK) {
		*err = xasprintf("xz: cannot start decoder (%d)", r);
		return -1;
	}
	strm.next_in = in;
	strm.avail_in = len;
	do {
		if (!outbuf_reserve(o, len)) {
			r = LZMA_MEMLIMIT_ERROR;
			break;
		}
		strm.next_out = o->data + o->size;
		strm.avail_out = o->cap - o->size;
		r = lzma_code(&strm, LZMA_FINISH);
		o->size = o->cap - strm.avail_out;
	} while (r == LZMA_OK);
	lzma_end(&strm);
	if (r != LZMA_STREAM_END) {
		*err = xasprintf("xz: corrupt or truncated data (%d)", r);
		return -1;
	}
	return 0;
}

static int inflate_zstd(const void *in, size_t len, struct outbuf *o,
			char **err)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t r = 1;
	int ret = -1;

	if (!ds) {
		*err = xstrdup("zstd: cannot start decoder");
		return -1;
	}
	for (;;) {
		ZSTD_outBuffer ob;

		if (!outbuf_reserve(o, len)) {
			*err = xstrdup("zstd: image too large");
			goto done;
		}
		ob = (ZSTD_outBuffer){ o->data, o->cap, o->size };
		r = ZSTD_decompressStream(ds, &ob, &ib);
		o->size = ob.pos;
		if (ZSTD_isError(r)) {
			*err = xasprintf("zstd: %s", ZSTD_getErrorName(r));
			goto done;
		}
		if (ob.pos < ob.size && ib.pos == ib.size)
			break;
	}
	if (r != 0) {
		*err = xstrdup("zstd: truncated data");
		goto done;
	}
	ret = 0;
done:
	ZSTD_freeDStream(ds);
	return ret;
}

static int inflate_gzip(const void *in, size_t len, struct outbuf *o,
			char **err)
{
	z_stream zs = { 0 };
	int r;

	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		*err = xstrdup("gzip: cannot start decoder");
		return -1;
	}
	zs.next_in = (Bytef *)in;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : len;
	do {
		if (!outbuf_reserve(o, len)) {
			r = Z_MEM_ERROR;
			break;
		}
		zs.next_out = o->data + o->size;
		zs.avail_out = o->cap - o->size;
		r = inflate(&zs, Z_NO_FLUSH);
		o->size = o->cap - zs.avail_out;
	} while (r == Z_OK);
	inflateEnd(&zs);
	if (r != Z_STREAM_END) {
		*err = xasprintf("gzip: corrupt or truncated data (%d)", r);
		return -1;
	}
	return 0;
}

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
