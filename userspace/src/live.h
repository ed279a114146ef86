/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck --live - the running kernel, read into the model: the modules
 * loaded now (/proc/modules, newest first there; their taint), their files
 * (the module tree, then --external; a file whose build ID is not the one
 * in /sys/module/M/notes is another build), and the loader's own index
 * (<debugfs>/module_ns_allow/index: the grants and restrictions it
 * consults; trusted: vmlinux and the modules signed with a built-in key).
 * Every path is read under a root (--root), so that tests can make one.
 */
#ifndef NSCHECK_LIVE_H
#define NSCHECK_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"
#include "filecache.h"
#include "sig.h"
#include "tree.h"

#define LIVE_MODULES "/proc/modules"
#define LIVE_INDEX "/sys/kernel/debug/module_ns_allow/index"
#define LIVE_TRUSTED "/sys/kernel/debug/module_ns_allow/trusted"

struct live_opts {
	const char *root;	/* "" for the running system */
	const char *const *external;	/* --external files or folders */
	size_t n_external;
	const struct tree *t;	/* the module tree, or NULL */
};

/* A loaded module, as /proc/modules and the trusted list show it. */
struct live_obj {
	const char *name;
	bool proprietary;	/* 'P' in its taint flags */
	bool trusted;		/* listed in trusted */
	struct nsmod *m;	/* its file */
};

/* A line of the index: obj declares ns; exports: it exports into ns. */
struct live_set {
	const char *ns;
	const char *obj;	/* "vmlinux" or a loaded module */
	bool exports;
	const char **grants;
	size_t n_grants;
};

struct external_file {
	const char *path;
	const char *modname;	/* from the file name */
};

struct live {
	struct arena arena;
	struct filecache l;	/* the loaded modules' files, no key */
	struct live_obj *objs;	/* oldest first, as the kernel loaded them */
	size_t n_objs, cap_objs;
	struct live_set *sets;	/* in the index's order */
	size_t n_sets, cap_sets;
	bool sig_rule;		/* trusted exists: CONFIG_MODULE_NS_ALLOW_SIG */
	char *err;		/* the first error, until live_read() returns */
	struct external_file *ext;	/* --external's module files */
	size_t n_ext, cap_ext;
	const struct live_opts *o;
};

/*
 * Read the running system. Returns 0, or -errno with *err set to a
 * malloc'd message naming the file or module (no index, a loaded module
 * without a file...).
 */
int live_read(struct live *lv, const struct live_opts *o, char **err);
void live_free(struct live *lv);

/*
 * Without --trusted-key: the signers of the trusted modules' files.
 * Returns the key, or NULL when no trusted module's file is signed.
 */
struct sigkey *live_learn_key(struct live *lv);

/*
 * Into a model that has vmlinux's exports (vmlinux_read() without its
 * grants): the loaded modules, oldest first, then the index's sets and
 * grants; the signature rule when the kernel has it.
 */
void live_apply(const struct live *lv, struct kernel *k);

#endif
