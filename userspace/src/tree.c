// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - the module files of a tree
 */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tree.h"
#include "util.h"

struct found {
	char **paths;
	size_t n, cap;
};

static bool is_module(const char *name)
{
	static const char *const suffixes[] = {
		".ko", ".ko.xz", ".ko.zst", ".ko.gz",
	};
	size_t len = strlen(name), i;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && streq(name + len - sl, suffixes[i]))
			return true;
	}
	return false;
}

static int walk(const char *path, bool top, struct found *f)
{
	struct dirent *de;
	DIR *d = opendir(path);
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		unsigned char type = de->d_type;
		char *sub;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || streq(de->d_name, "..")))
			continue;
		if (top && (streq(de->d_name, "build") ||
			    streq(de->d_name, "source")))
			continue;
		if (type == DT_UNKNOWN || type == DT_LNK) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			sub = xasprintf("%s/%s", path, de->d_name);
			err = walk(sub, false, f);
			free(sub);
			if (err < 0)
				break;
		} else if (type == DT_REG && is_module(de->d_name)) {
			*VEC_PUSH(f->paths, f->n, f->cap) =
				xasprintf("%s/%s", path, de->d_name);
		}
	}
	closedir(d);
	return err;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tree_find_modules(const char *dir, char ***paths, size_t *n)
{
	struct found f = { 0 };
	int err = walk(dir, true, &f);

	if (err < 0) {
		tree_free(f.paths, f.n);
		return err;
	}
	if (f.n)
		qsort(f.paths, f.n, sizeof(*f.paths), cmp_path);
	*paths = f.paths;
	*n = f.n;
	return 0;
}

int tree_read_order(const char *kdir, char ***paths, size_t *n)
{
	char *order = xasprintf("%s/modules.order", kdir);
	struct found f = { 0 };
	char *buf, *line, *end;
	size_t len;
	int err;

	err = read_whole_file(order, &buf, &len);
	free(order);
	if (err < 0)
		return err;
	for (line = buf; line < buf + len; line = end + 1) {
		size_t l;

		end = strchr(line, '\n');
		if (!end)
			end = buf + len;
		*end = '\0';
		l = strlen(line);
		if (!l)
			continue;
		if (l > 2 && streq(line + l - 2, ".o"))
			*VEC_PUSH(f.paths, f.n, f.cap) =
				xasprintf("%s/%.*sko", kdir, (int)l - 1, line);
		else
			*VEC_PUSH(f.paths, f.n, f.cap) =
				xasprintf("%s/%s", kdir, line);
	}
	free(buf);
	if (f.n)
		qsort(f.paths, f.n, sizeof(*f.paths), cmp_path);
	*paths = f.paths;
	*n = f.n;
	return 0;
}

void tree_free(char **paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}
