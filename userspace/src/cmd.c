// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - what the modes share: the session (tree, vmlinux, file
 * cache), the signing key, and checking one module or one argument
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd.h"
#include "log.h"
#include "verdict.h"

#ifndef MODULE_DIRECTORY
#define MODULE_DIRECTORY "/lib/modules"
#endif

/*
 * The module tree BASEDIR/lib/modules/KVER (kmod's module directory)
 * into *dir; 0, or -errno after saying why.
 */
static int tree_dir(const struct opts *o, char **dir)
{
	const char *kver = o->kver;
	char *path, *osrelease = NULL;
	struct utsname u;
	size_t len;
	int r;

	/* Under --root, its kernel's release, as uname -r there. */
	if (!kver && o->root) {
		path = xasprintf("%s/proc/sys/kernel/osrelease", o->root);
		r = read_whole_file(path, &osrelease, &len);
		if (r < 0) {
			cmd_error(r, xasprintf("%s: %s", path, strerror(-r)));
			free(path);
			return r;
		}
		free(path);
		osrelease[strcspn(osrelease, "\n")] = '\0';
		kver = osrelease;
	} else if (!kver) {
		if (uname(&u) < 0) {
			r = -errno;
			return cmd_error(r, xasprintf("uname: %s",
						      strerror(-r)));
		}
		kver = u.release;
	}
	*dir = xasprintf("%s%s/%s", o->basedir ? o->basedir : "",
			 MODULE_DIRECTORY, kver);
	free(osrelease);
	return 0;
}

int session_init(struct session *s, struct opts *o)
{
	int r;

	*s = (struct session){ .o = o };
	filecache_init(&s->fc);
	r = tree_dir(o, &s->dirname);
	if (r < 0)
		return r;
	s->kd = (struct kdesc){
		.symvers = o->symvers.v,
		.n_symvers = o->symvers.n,
		.kdir = o->kdir,
		.dirname = s->dirname,
		.basedir = o->basedir,
	};
	return 0;
}

void session_free(struct session *s)
{
	filecache_free(&s->fc);
	tree_free(s->t);
	kernel_free(s->k);
	free(s->dirname);
}

/*
 * The tree that --all checks, names are looked up in and dependencies come
 * from: the module tree when -b or -k says which; else, with --kdir, the
 * build tree's modules.order; else the running kernel's. -errno when it
 * cannot be read.
 */
static int open_tree(const struct opts *o, const char *dirname,
		     struct tree **t)
{
	struct tree_opts to = {
		.dir = dirname,
		.kver = o->kver,
		.config = o->config.n ? o->config.v : NULL,
		.n_config = o->config.n,
	};

	if (o->kdir && !o->basedir && !o->kver) {
		to.dir = o->kdir;
		to.build_tree = true;
	}
	return tree_open(t, &to);
}

/*
 * The tree is needed when -b, -k or --root named it (a typo must not
 * check against nothing), for --all and --suggest, and when it is the
 * running kernel's by default and nothing else says what vmlinux exports
 * (no -E, no --kdir): nscheck fails closed rather than predict from an
 * empty model (SPEC 9.2).
 */
int session_tree(struct session *s)
{
	const struct opts *o = s->o;
	bool pointed = o->basedir || o->kver;
	bool build = o->kdir && !pointed;
	int err = open_tree(o, s->dirname, &s->t);

	if (err >= 0)
		return 0;
	s->t = NULL;
	if (build && (o->all || o->suggest)) {
		ERR("%s: %s: no modules.order there; name a kernel build tree "
		    "with --kdir DIR, or a module tree with -b DIR -k KVER\n",
		    o->kdir, strerror(-err));
		return err;
	}
	if (pointed || o->all || o->suggest ||
	    (!o->kdir && !o->symvers.n)) {
		ERR("%s: no module tree there (%s%s); name the kernel's "
		    "tree with -b DIR and -k KVER (DIR%s/KVER), or its build "
		    "with --kdir DIR%s\n", s->dirname, strerror(-err),
		    o->kver ? "" : ", its release the running kernel's",
		    MODULE_DIRECTORY, pointed || o->all || o->suggest ? "" :
		    ", or vmlinux's exports with -E FILE");
		return err;
	}
	INF("%s: %s: no dependencies from a tree\n",
	    build ? o->kdir : s->dirname, strerror(-err));
	return 0;
}

/*
 * CONFIG_MODULE_NS_ALLOW_SIG: on with --trusted-key, or when --kdir's
 * .config has it (its certs/signing_key.x509). -errno after saying why.
 */
int cmd_read_key(struct opts *o)
{
	char *cert = NULL, *err = NULL;
	const char *path = o->trusted_key;
	int r = 0;

	if (!path && o->kdir && vmlinux_sig_rule(o->kdir, &cert))
		path = cert;
	if (path) {
		r = sigkey_read(path, &o->key, &err);
		if (r < 0) {
			ERR("%s%s\n", err, cert ? " (the key of --kdir's "
			    "CONFIG_MODULE_NS_ALLOW_SIG=y)" : "");
			free(err);
		} else {
			INF("grants bound to the key of %s\n", path);
		}
	}
	free(cert);
	return r;
}

int session_key(struct session *s)
{
	int r = cmd_read_key(s->o);

	if (r < 0)
		return r;
	if (s->o->key)
		kernel_set_sig_rule(s->k);
	s->fc.key = s->o->key;
	return 0;
}

int session_vmlinux(struct session *s)
{
	char *err = NULL;
	int r;

	if (!s->k)
		s->k = kernel_new();
	r = vmlinux_read(s->k, &s->kd, &err);
	if (r < 0)
		return cmd_error(r, err);
	return session_key(s);
}

int cmd_error(int r, char *err)
{
	ERR("%s\n", err ? err : strerror(-r));
	free(err);
	return r;
}

int cmd_exit_status(const struct report *rep)
{
	if (rep->count[STATUS_UNREADABLE] || rep->count[STATUS_MALFORMED])
		return EXIT_ERROR;
	return rep->count[STATUS_REFUSED] ? EXIT_REFUSED : EXIT_LOADS;
}

void cmd_warn_no_symvers(const struct kernel *k)
{
	if (!k->vmlinux_known)
		WRN("no Module.symvers: a symbol no module exports is taken "
		    "as vmlinux's, in no namespace\n");
}

void cmd_check_one(struct session *s, struct nsmod *m,
		   const struct object *self, const char *as, bool load,
		   enum status *status)
{
	struct report *rep = &s->o->rep;
	struct findings fs = { 0 };

	*status = STATUS_UNREADABLE;
	rep->k = s->k;
	if (m->error) {
		/* The kernel names the module: say it as it would. */
		if (m->name && m->records != NSREC_OK) {
			verdict_records(m, &fs);
			*status = STATUS_MALFORMED;
		}
	} else {
		*status = verdict_check(s->k, m, self, &fs) ? STATUS_LOADS :
			  STATUS_REFUSED;
		if (*status == STATUS_LOADS && !self && load)
			kernel_load(s->k, m, verdict_proprietary(m));
	}
	report_module(rep, m, *status, as, &fs);
	free(fs.f);
}

int cmd_check_plan(struct session *s, struct planner *p, const char *arg,
		   bool keep, bool *changed)
{
	enum status status;
	size_t j;

	char *err = NULL;
	int r;

	*changed = false;
	r = plan(p, arg, &err);
	if (r < 0)
		return cmd_error(r, err);
	for (j = 0; j < p->n; j++) {
		struct step *st = &p->steps[j];
		bool load = !keep || p->n > 1;

		cmd_check_one(s, st->m, NULL, st->given ? "given" :
			      st->required ? "dependency" : "softdep", load,
			      &status);
		*changed |= load && status == STATUS_LOADS;
		if (status == STATUS_LOADS || !st->required || j + 1 == p->n)
			continue;
		/* modprobe stops at a dependency that fails. */
		WRN("%s: not loaded: its dependency %s would not load\n", arg,
		    st->m->path);
		break;
	}
	return 0;
}
