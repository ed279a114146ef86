// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - vmlinux, read into the model
 */

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "builtin.h"
#include "vmlinux.h"
#include "log.h"
#include "symvers.h"

static void on_symvers(const struct symvers_line *l, void *arg)
{
	const struct vmlinux_reader *rd = arg;

	/* Modules count only when they are loaded, from their files. */
	if (streq(l->owner, "vmlinux"))
		rd->export(rd->arg, l->sym, l->ns, l->gpl);
}

static void on_builtin(const char *obj, size_t objlen, const char *ns,
		       size_t nslen, const char *mod, void *arg)
{
	const struct vmlinux_reader *rd = arg;

	(void)obj, (void)objlen;
	rd->grant(rd->arg, ns, nslen, mod);
}

static void add_export(void *k, const char *sym, const char *ns, bool gpl)
{
	kernel_add_vmlinux_export(k, sym, ns, NULL, gpl);
}

static void add_grant(void *k, const char *ns, size_t nslen,
		      const char *mod)
{
	kernel_add_vmlinux_grant(k, ns, nslen, mod);
}

/* The tree's build/Module.symvers; an absolute link is under basedir. */
static char *tree_symvers(const char *dirname, const char *basedir)
{
	char *link = xasprintf("%s/build", dirname);
	char target[PATH_MAX];
	ssize_t len;
	char *path;

	len = readlink(link, target, sizeof(target) - 1);
	if (len > 0) {
		target[len] = '\0';
		if (target[0] == '/')
			path = xasprintf("%s%s/Module.symvers",
					 basedir ? basedir : "", target);
		else
			path = xasprintf("%s/%s/Module.symvers", dirname,
					 target);
	} else {
		path = xasprintf("%s/Module.symvers", link);
	}
	free(link);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

int vmlinux_read(struct kernel *k, const struct kdesc *d, char **err)
{
	const struct vmlinux_reader rd = {
		.export = add_export,
		.grant = add_grant,
		.arg = k,
	};

	return vmlinux_read_with(d, &rd, err);
}

char *vmlinux_builtin_modinfo(const struct kdesc *d)
{
	return xasprintf("%s/modules.builtin.modinfo",
			 d->kdir ? d->kdir : d->dirname);
}

int vmlinux_read_with(const struct kdesc *d, const struct vmlinux_reader *rd,
		      char **err)
{
	void *arg = (void *)rd;
	char *path = NULL;
	size_t i;
	int r = 0;

	for (i = 0; r == 0 && i < d->n_symvers; i++)
		r = symvers_read(d->symvers[i], on_symvers, arg, err);
	if (r == 0 && d->kdir) {
		path = xasprintf("%s/Module.symvers", d->kdir);
		r = symvers_read(path, on_symvers, arg, err);
		free(path);
	} else if (r == 0 && !d->n_symvers) {
		path = tree_symvers(d->dirname, d->basedir);
		if (path) {
			INF("using %s\n", path);
			r = symvers_read(path, on_symvers, arg, err);
		}
		free(path);
	}
	if (r < 0 || d->no_grants)
		goto done;

	path = vmlinux_builtin_modinfo(d);
	if (access(path, F_OK) == 0)
		r = builtin_read_grants(path, on_builtin, arg, err);
	free(path);
done:
	return r;
}

bool vmlinux_sig_rule(const char *kdir, char **cert)
{
	static const char opt[] = "\nCONFIG_MODULE_NS_ALLOW_SIG=y\n";
	char *path = xasprintf("%s/.config", kdir), *buf, *tmp;
	size_t len;
	bool on;

	*cert = NULL;
	if (read_whole_file(path, &buf, &len) < 0) {
		free(path);
		return false;
	}
	free(path);
	/* A leading newline, so that the first line matches too. */
	tmp = xasprintf("\n%s\n", buf);
	on = strstr(tmp, opt) != NULL;
	free(tmp);
	free(buf);
	if (on)
		*cert = xasprintf("%s/certs/signing_key.x509", kdir);
	return on;
}
