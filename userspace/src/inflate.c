// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - inflate xz, zstd and gzip module images; each decoder is there
 * when its library was found at build time (HAVE_XZ, HAVE_ZSTD, HAVE_ZLIB).
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef HAVE_XZ
#include <lzma.h>
#endif
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "inflate.h"
#include "util.h"

bool outbuf_reserve(struct outbuf *o, size_t in_size)
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

#ifdef HAVE_XZ
int inflate_xz(const void *in, size_t len, struct outbuf *o, char **err)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	lzma_ret r;

	r = lzma_stream_decoder(&strm, UINT64_MAX, LZMA_CONCATENATED);
	if (r != LZMA_OK) {
		*err = xasprintf("xz: cannot start decoder (%d)", r);
		return -ENOEXEC;
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
		return -ENOEXEC;
	}
	return 0;
}
#else
int inflate_xz(const void *in, size_t len, struct outbuf *o, char **err)
{
	(void)in, (void)len, (void)o;
	*err = xstrdup("nscheck was built without xz support");
	return -EOPNOTSUPP;
}
#endif

#ifdef HAVE_ZSTD
int inflate_zstd(const void *in, size_t len, struct outbuf *o, char **err)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t r = 1;
	int ret = -ENOEXEC;

	if (!ds) {
		*err = xstrdup("zstd: cannot start decoder");
		return -ENOEXEC;
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
#else
int inflate_zstd(const void *in, size_t len, struct outbuf *o, char **err)
{
	(void)in, (void)len, (void)o;
	*err = xstrdup("nscheck was built without zstd support");
	return -EOPNOTSUPP;
}
#endif

#ifdef HAVE_ZLIB
int inflate_gzip(const void *in, size_t len, struct outbuf *o, char **err)
{
	z_stream zs = { 0 };
	int r;

	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		*err = xstrdup("gzip: cannot start decoder");
		return -ENOEXEC;
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
		return -ENOEXEC;
	}
	return 0;
}
#else
int inflate_gzip(const void *in, size_t len, struct outbuf *o, char **err)
{
	(void)in, (void)len, (void)o;
	*err = xstrdup("nscheck was built without zlib support");
	return -EOPNOTSUPP;
}
#endif

const char *inflate_features(void)
{
	return
#ifdef HAVE_XZ
		"+XZ "
#else
		"-XZ "
#endif
#ifdef HAVE_ZSTD
		"+ZSTD "
#else
		"-ZSTD "
#endif
#ifdef HAVE_ZLIB
		"+ZLIB";
#else
		"-ZLIB";
#endif
}
