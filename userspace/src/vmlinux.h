/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - vmlinux, read into the model: its exports (and their
 * namespaces and GPL flags) from Module.symvers, its grants from
 * modules.builtin.modinfo.
 */
#ifndef NSCHECK_VMLINUX_H
#define NSCHECK_VMLINUX_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"

struct kdesc {
	const char *const *symvers;	/* -E files */
	size_t n_symvers;
	const char *kdir;	/* --kdir: a kernel build tree */
	const char *dirname;	/* the module tree, BASEDIR/lib/modules/KVER */
	const char *basedir;	/* -b, or NULL */
	bool no_grants;		/* --live: the kernel's index gives them */
};

/*
 * vmlinux's exports: every -E file and --kdir's Module.symvers; without
 * either, the module tree's build/Module.symvers when there is one. Its
 * grants (unless d->no_grants): --kdir's modules.builtin.modinfo, else
 * the module tree's.
 * Returns 0, or -errno with *err set to a malloc'd message naming the
 * file.
 */
int vmlinux_read(struct kernel *k, const struct kdesc *d, char **err);

/*
 * The modules.builtin.modinfo that describes vmlinux: --kdir's, else the
 * module tree's (malloc'd; the file may not exist).
 */
char *vmlinux_builtin_modinfo(const struct kdesc *d);

/*
 * The same files, each export and grant handed to a reader of its own
 * (--overlay rewrites them on their way into the model).
 */
struct vmlinux_reader {
	void (*export)(void *arg, const char *sym, const char *ns, bool gpl);
	void (*grant)(void *arg, const char *ns, size_t nslen,
		      const char *mod);
	void *arg;
};
int vmlinux_read_with(const struct kdesc *d, const struct vmlinux_reader *rd,
		      char **err);

/*
 * Whether the kernel built in kdir has CONFIG_MODULE_NS_ALLOW_SIG=y (its
 * .config): then *cert is its certs/signing_key.x509 (malloc'd).
 */
bool vmlinux_sig_rule(const char *kdir, char **cert);

#endif
