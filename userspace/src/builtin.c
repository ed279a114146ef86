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

/*
 * Calls fn(entry, object name length, value) for each entry of the file
 * whose key is key, as "<object>.<key><value>"; a negative return of fn
 * ends the walk with that value. On failure *err names the file.
 */
static int for_each_key(const char *path, const char *key,
			int (*fn)(const char *s, size_t objlen,
				  const char *value, void *ctx),
			void *ctx, char **err)
{
	size_t len, keylen = strlen(key);
	char *buf, *s;
	int r;

	r = read_whole_file(path, &buf, &len);
	if (r < 0) {
		*err = xasprintf("%s: %s", path, strerror(-r));
		return r;
	}
	/* buf[len] is a NUL: the last string is terminated either way. */
	for (s = buf, r = 0; s < buf + len && r >= 0; s += strlen(s) + 1) {
		const char *dot = strchr(s, '.');

		if (dot && dot != s && !strncmp(dot, key, keylen))
			r = fn(s, dot - s, dot + keylen, ctx);
	}
	free(buf);
	return r < 0 ? r : 0;
}

struct grants_walk {
	void (*fn)(const char *obj, size_t objlen, const char *ns,
		   size_t nslen, const char *mod, void *arg);
	void *arg;
	const char *path;
	char **err;
};

static int on_grant(const char *s, size_t objlen, const char *value,
		    void *ctx)
{
	struct grants_walk *w = ctx;
	size_t colon;

	if (!ns_allow_record_ok(value, strlen(value), &colon)) {
		char *q = xquote(s, 80);

		*w->err = xasprintf("%s: bad %s: not <namespace>:<module> "
				    "or <namespace>:<prefix>* in "
				    "[A-Za-z0-9_]", w->path, q);
		free(q);
		return -EINVAL;
	}
	w->fn(s, objlen, value, colon, value + colon + 1, w->arg);
	return 0;
}

int builtin_read_grants(const char *path,
			void (*fn)(const char *obj, size_t objlen,
				   const char *ns, size_t nslen,
				   const char *mod, void *arg),
			void *arg, char **err)
{
	struct grants_walk w = { fn, arg, path, err };

	return for_each_key(path, ALLOW_KEY, on_grant, &w, err);
}

struct modules_walk {
	void (*fn)(const char *name, size_t len, void *arg);
	void *arg;
};

static int on_module(const char *s, size_t objlen, const char *value,
		     void *ctx)
{
	struct modules_walk *w = ctx;

	(void)value;
	w->fn(s, objlen, w->arg);
	return 0;
}

/*
 * MODULE_LICENSE() of built-in code adds file=KBUILD_MODFILE: every
 * built-in module has one, code that is no module (kernel.*, printk.*)
 * none.
 */
int builtin_read_modules(const char *path,
			 void (*fn)(const char *name, size_t len, void *arg),
			 void *arg, char **err)
{
	struct modules_walk w = { fn, arg };

	return for_each_key(path, FILE_KEY, on_module, &w, err);
}
