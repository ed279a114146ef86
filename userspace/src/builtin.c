// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - vmlinux's grants and built-in modules from
 * modules.builtin.modinfo
 */

#include <errno.h>
#include <stdlib.h>

#include "builtin.h"
#include "nsallow.h"
#include "util.h"

#define ALLOW_KEY ".allow_ns="
#define FILE_KEY ".file="

/* The whole file, NUL-terminated; on failure *err names it. */
static int read_modinfo(const char *path, char **buf, size_t *len,
			char **err)
{
	int r = read_whole_file(path, buf, len);

	if (r < 0)
		*err = xasprintf("%s: %s", path, strerror(-r));
	return r;
}

int builtin_read_grants(const char *path,
			void (*fn)(const char *obj, size_t objlen,
				   const char *ns, size_t nslen,
				   const char *mod, void *arg),
			void *arg, char **err)
{
	size_t len, colon, keylen = strlen(ALLOW_KEY);
	char *buf, *s;
	int r;

	r = read_modinfo(path, &buf, &len, err);
	if (r < 0)
		return r;
	/* buf[len] is a NUL: the last string is terminated either way. */
	for (s = buf; s < buf + len; s += strlen(s) + 1) {
		const char *dot = strchr(s, '.');
		const char *value;

		if (!dot || dot == s || strncmp(dot, ALLOW_KEY, keylen))
			continue;
		value = dot + keylen;
		if (!ns_allow_record_ok(value, strlen(value), &colon)) {
			char *q = xquote(s, 80);

			*err = xasprintf("%s: bad %s: not <namespace>:<module> "
					 "or <namespace>:<prefix>* in "
					 "[A-Za-z0-9_]", path, q);
			free(q);
			free(buf);
			return -EINVAL;
		}
		fn(s, dot - s, value, colon, value + colon + 1, arg);
	}
	free(buf);
	return 0;
}

int builtin_read_modules(const char *path,
			 void (*fn)(const char *name, size_t len, void *arg),
			 void *arg, char **err)
{
	size_t len, keylen = strlen(FILE_KEY);
	char *buf, *s;
	int r;

	r = read_modinfo(path, &buf, &len, err);
	if (r < 0)
		return r;
	/*
	 * MODULE_LICENSE() of built-in code adds file=KBUILD_MODFILE: every
	 * built-in module has one, code that is no module (kernel.*,
	 * printk.*) none.
	 */
	for (s = buf; s < buf + len; s += strlen(s) + 1) {
		const char *dot = strchr(s, '.');

		if (dot && dot != s && !strncmp(dot, FILE_KEY, keylen))
			fn(s, dot - s, arg);
	}
	free(buf);
	return 0;
}
