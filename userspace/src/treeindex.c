// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - depmod's indexes for a tree that has none, for what reading
 * the tree cannot answer (an alias): depmod -b on a scratch copy of the
 * tree, symbolic links to its folders and files under TMPDIR, and
 * libkmod on what depmod wrote there. The tree itself is never written
 * to; the copy is removed by tree_free().
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "log.h"
#include "tree.h"

/*
 * depmod -b SCRATCH [-C PATH...] KVER, quiet. 0 when it wrote the
 * indexes, else -errno.
 */
static int run_depmod(const struct tree *t, const char *kver)
{
	static const char *const fallback[] = {
		"/usr/sbin/depmod", "/sbin/depmod",
	};
	const char *depmod = getenv("NSCHECK_DEPMOD");
	const char **argv = xcalloc(6 + 2 * t->n_config, sizeof(*argv));
	size_t n = 0, i;
	int status, fd;
	pid_t pid;

	argv[n++] = depmod ? depmod : "depmod";
	argv[n++] = "-b";
	argv[n++] = t->scratch;
	for (i = 0; i < t->n_config; i++) {
		argv[n++] = "-C";
		argv[n++] = t->config[i];
	}
	argv[n++] = kver;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(argv);
		return -errno;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], (char *const *)argv);
		for (i = 0; !depmod && i < ARRAY_SIZE(fallback); i++)
			execv(fallback[i], (char *const *)argv);
		free(argv);	/* for valgrind, which follows the child */
		_exit(127);
	}
	free(argv);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOEXEC;
}

/* Every entry of the tree but depmod's indexes, as a link in dir. */
static int link_tree(const struct tree *t, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(t->dir);
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		const char *n = de->d_name;
		char *from, *to;

		if (streq(n, ".") || streq(n, "..") || streq(n, "build") ||
		    streq(n, "source") || (strstartswith(n, "modules.") &&
		    !streq(n, "modules.builtin") &&
		    !streq(n, "modules.builtin.modinfo") &&
		    !streq(n, "modules.order")))
			continue;
		from = xasprintf("%s/%s", t->dir, n);
		to = xasprintf("%s/%s", dir, n);
		if (symlink(from, to) < 0)
			err = -errno;
		free(from);
		free(to);
	}
	closedir(d);
	return err;
}

/* The scratch copy, and what depmod wrote there: links and files only. */
static void remove_scratch(struct tree *t)
{
	static const char *const up[] = { "/lib/modules", "/lib", "" };
	struct dirent *de;
	size_t i;
	DIR *d;

	if (!t->scratch)
		return;
	d = t->scratch_dir ? opendir(t->scratch_dir) : NULL;
	while (d && (de = readdir(d))) {
		if (!streq(de->d_name, ".") && !streq(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	if (t->scratch_dir)
		rmdir(t->scratch_dir);
	for (i = 0; i < ARRAY_SIZE(up); i++) {
		char *p = xasprintf("%s%s", t->scratch, up[i]);

		rmdir(p);
		free(p);
	}
	free(t->scratch_dir);
	free(t->scratch);
	t->scratch = t->scratch_dir = NULL;
}

struct kmod_ctx *tree_index(struct tree *t)
{
	const char *tmp = getenv("TMPDIR"), *kver;
	char *p;
	int r;

	if (t->ctx || t->scratch_tried || t->build_tree)
		return t->ctx;
	t->scratch_tried = true;
	kver = strrchr(t->dir, '/');
	kver = kver ? kver + 1 : t->dir;
	t->scratch = xasprintf("%s/nscheck-XXXXXX", tmp && *tmp ? tmp :
			       "/tmp");
	if (!mkdtemp(t->scratch)) {
		r = -errno;
		free(t->scratch);
		t->scratch = NULL;
		goto fail;
	}
	p = xasprintf("%s/lib", t->scratch);
	r = mkdir(p, 0700) < 0 ? -errno : 0;
	free(p);
	p = xasprintf("%s/lib/modules", t->scratch);
	if (!r && mkdir(p, 0700) < 0)
		r = -errno;
	free(p);
	t->scratch_dir = xasprintf("%s/lib/modules/%s", t->scratch, kver);
	if (!r && mkdir(t->scratch_dir, 0700) < 0)
		r = -errno;
	if (!r)
		r = link_tree(t, t->scratch_dir);
	if (!r)
		r = run_depmod(t, kver);
	if (!r) {
		t->scratch_ctx = kmod_new(t->scratch_dir, NULL);
		if (t->scratch_ctx) {
			log_setup_kmod(t->scratch_ctx);
			INF("%s: aliases from depmod's indexes of a scratch "
			    "copy\n", t->dir);
			return t->scratch_ctx;
		}
		r = -ENOMEM;
	}
fail:
	INF("%s: depmod could not index a scratch copy: %s\n", t->dir,
	    strerror(-r));
	remove_scratch(t);
	return NULL;
}

void tree_index_free(struct tree *t)
{
	if (t->scratch_ctx)
		kmod_unref(t->scratch_ctx);
	t->scratch_ctx = NULL;
	remove_scratch(t);
}
