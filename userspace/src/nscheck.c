// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - predict, without loading anything, whether a patched 6.1
 * kernel (MODULE_NAMESPACE_ALLOW) would load the given modules.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <gelf.h>

#include "describe.h"
#include "graph.h"
#include "hash.h"
#include "inflate.h"
#include "kernel.h"
#include "live.h"
#include "loader.h"
#include "log.h"
#include "overlay.h"
#include "plan.h"
#include "report.h"
#include "sig.h"
#include "suggest.h"
#include "tree.h"
#include "util.h"
#include "verdict.h"

#ifndef MODULE_DIRECTORY
#define MODULE_DIRECTORY "/lib/modules"
#endif

/* The Makefile's: git describe, else its NSCHECK_VERSION. */
#ifndef NSCHECK_VERSION
#define NSCHECK_VERSION "unknown"
#endif

enum {
	EXIT_LOADS = 0,
	EXIT_REFUSED = 1,
	EXIT_ERROR = 2,		/* bad usage or unreadable input */
};

enum {
	OPT_KDIR = 0x100,
	OPT_JSON,
	OPT_SUGGEST,
	OPT_MAX_USERS,
	OPT_EXPORTER,
	OPT_USER,
	OPT_TRUSTED_KEY,
	OPT_OVERLAY,
	OPT_LIVE,
	OPT_EACH,
	OPT_ROOT,
	OPT_EXTERNAL,
	OPT_GRAPH,
	OPT_NAMESPACE,
	OPT_ORDER,
};

#define DEFAULT_MAX_USERS 2

/* ':' first: nscheck says what is wrong, once, in kmod's style. */
static const char cmdopts_s[] = ":ab:k:C:E:qvVh";
static const struct option cmdopts[] = {
	{ "all", no_argument, 0, 'a' },
	{ "basedir", required_argument, 0, 'b' },
	{ "set-version", required_argument, 0, 'k' },
	{ "kdir", required_argument, 0, OPT_KDIR },
	{ "config", required_argument, 0, 'C' },
	{ "symvers", required_argument, 0, 'E' },
	{ "json", no_argument, 0, OPT_JSON },
	{ "suggest", no_argument, 0, OPT_SUGGEST },
	{ "max-users", required_argument, 0, OPT_MAX_USERS },
	{ "exporter", required_argument, 0, OPT_EXPORTER },
	{ "user", required_argument, 0, OPT_USER },
	{ "trusted-key", required_argument, 0, OPT_TRUSTED_KEY },
	{ "overlay", required_argument, 0, OPT_OVERLAY },
	{ "live", no_argument, 0, OPT_LIVE },
	{ "each", no_argument, 0, OPT_EACH },
	{ "root", required_argument, 0, OPT_ROOT },
	{ "external", required_argument, 0, OPT_EXTERNAL },
	{ "graph", no_argument, 0, OPT_GRAPH },
	{ "namespace", required_argument, 0, OPT_NAMESPACE },
	{ "order", required_argument, 0, OPT_ORDER },
	{ "quiet", no_argument, 0, 'q' },
	{ "verbose", no_argument, 0, 'v' },
	{ "version", no_argument, 0, 'V' },
	{ "help", no_argument, 0, 'h' },
	{ NULL, 0, 0, 0 },
};

struct opts {
	bool all;
	bool suggest;
	bool suggest_only;	/* an option that only --suggest takes */
	struct suggest_opts sg;
	char *exporter, *user;	/* sg's, normalised */
	const char *basedir;
	const char *kver;
	const char *kdir;
	const char **symvers;
	size_t n_symvers, cap_symvers;
	const char **config;	/* -C: depmod.d files or folders */
	size_t n_config, cap_config;
	const char **overlay;	/* --overlay: builds, modules */
	size_t n_overlay, cap_overlay;
	struct overlay *ov;
	bool live;		/* --live: against the running kernel */
	bool each;		/* --each: each module on its own */
	const char *root;	/* --root: the running system's files */
	const char **external;	/* --external: loaded modules' files */
	size_t n_external, cap_external;
	bool graph;		/* --graph */
	bool order_deps;	/* --order=deps: files after their exporters */
	const char **namespaces;	/* --namespace: the graph's */
	size_t n_namespaces, cap_namespaces;
	const char *trusted_key;	/* --trusted-key */
	struct sigkey *key;	/* the key of CONFIG_MODULE_NS_ALLOW_SIG */
	struct report rep;
};

static void help(void)
{
	printf("Usage:\n"
	       "\t%1$s [options] MODULE.ko|NAME...\n"
	       "\t%1$s [options] --all\n"
	       "\t%1$s [options] --suggest [MODULE.ko...]\n"
	       "\t%1$s [options] --overlay=PATH... [MODULE.ko|NAME...]\n"
	       "\t%1$s [options] --live [--each] MODULE.ko|NAME...\n"
	       "\t%1$s [options] --graph [--live] [MODULE.ko|NAME...]\n"
	       "Checks, without loading anything, whether a kernel with\n"
	       "MODULE_NAMESPACE_ALLOW would load each module (in the order\n"
	       "given, each after its dependencies, as modprobe), and prints\n"
	       "each refusal as the kernel's lines. --suggest proposes\n"
	       "namespaces for the exports that few modules use.\n"
	       "Options:\n"
	       "\t-a, --all               check every module of the tree\n"
	       "\t-b, --basedir=DIR       use DIR/lib/modules/KVER\n"
	       "\t-k, --set-version=KVER  kernel version (default: running)\n"
	       "\t    --kdir=DIR          kernel build tree: its\n"
	       "\t                        Module.symvers and\n"
	       "\t                        modules.builtin.modinfo\n"
	       "\t-C, --config=PATH       depmod.d configuration (search\n"
	       "\t                        order); repeatable\n"
	       "\t-E, --symvers=FILE      vmlinux exports from a\n"
	       "\t                        Module.symvers (repeatable)\n"
	       "\t    --trusted-key=CERT  grants bound to this signing key\n"
	       "\t                        (CONFIG_MODULE_NS_ALLOW_SIG);\n"
	       "\t                        without it, --kdir's key when\n"
	       "\t                        its .config has the option\n"
	       "\t    --overlay=PATH      the tree as if built with this\n"
	       "\t                        build's namespaces and grants (a\n"
	       "\t                        build tree, module, or folder of\n"
	       "\t                        modules; repeatable); no module:\n"
	       "\t                        the whole tree\n"
	       "\t    --live              against the running kernel and\n"
	       "\t                        the modules loaded now (insmod)\n"
	       "\t    --each              --live: each module on its own\n"
	       "\t    --root=DIR          --live: read /proc, /sys and the\n"
	       "\t                        tree under DIR\n"
	       "\t    --external=PATH     --live: files of loaded modules\n"
	       "\t                        outside the tree (repeatable)\n"
	       "\t    --graph             exporters, namespaces and allowed\n"
	       "\t                        modules as Graphviz DOT\n"
	       "\t    --namespace=NS      --graph: only NS (repeatable)\n"
	       "\t    --order=deps|given  the given files after the given\n"
	       "\t                        files they use symbols of, as\n"
	       "\t                        depmod orders them (default:\n"
	       "\t                        given, as insmod)\n"
	       "\t    --json              findings as JSON\n"
	       "\t    --suggest           propose allow-listed namespaces\n"
	       "\t    --max-users=N       for exports with at most N users\n"
	       "\t                        (default 2)\n"
	       "\t    --exporter=NAME     only NAME's exports (vmlinux or a\n"
	       "\t                        module)\n"
	       "\t    --user=NAME         only namespaces that NAME uses\n"
	       "\t-q, --quiet             print nothing on stdout\n"
	       "\t-v, --verbose           say what would load, and a summary\n"
	       "\t-V, --version           show version\n"
	       "\t-h, --help              show this help\n"
	       "Exit status: 0 all would load, 1 a module would be refused,\n"
	       "2 bad usage, a name found nowhere, a module tree that does\n"
	       "not exist, or unreadable input (--suggest, --graph: 0 or 2).\n"
	       "See nscheck(1).\n",
	       program_invocation_short_name);
}

/* The module tree BASEDIR/lib/modules/KVER (kmod's module directory). */
static char *tree_dir(const struct opts *o)
{
	const char *kver = o->kver;
	char *path, *osrelease = NULL, *dir;
	struct utsname u;
	size_t len;
	int r;

	/* Under --root, its kernel's release, as uname -r there. */
	if (!kver && o->root) {
		path = xasprintf("%s/proc/sys/kernel/osrelease", o->root);
		r = read_whole_file(path, &osrelease, &len);
		if (r < 0) {
			ERR("%s: %s\n", path, strerror(-r));
			free(path);
			return NULL;
		}
		free(path);
		osrelease[strcspn(osrelease, "\n")] = '\0';
		kver = osrelease;
	} else if (!kver) {
		if (uname(&u) < 0) {
			ERR("uname: %m\n");
			return NULL;
		}
		kver = u.release;
	}
	dir = xasprintf("%s%s/%s", o->basedir ? o->basedir : "",
			MODULE_DIRECTORY, kver);
	free(osrelease);
	return dir;
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
		.config = o->n_config ? o->config : NULL,
		.n_config = o->n_config,
	};

	if (o->kdir && !o->basedir && !o->kver) {
		to.dir = o->kdir;
		to.build_tree = true;
	}
	return tree_open(t, &to);
}

static void check_one(struct opts *o, struct kernel *k, struct nsmod *m,
		      const struct object *self, const char *as, bool load,
		      enum status *status)
{
	struct findings fs = { 0 };

	*status = STATUS_UNREADABLE;
	o->rep.k = k;
	if (m->error) {
		/* The kernel names the module: say it as it would. */
		if (m->name)
			verdict_records(m, &fs);
	} else {
		*status = verdict_check(k, m, self, &fs) ? STATUS_LOADS :
			  STATUS_REFUSED;
		if (*status == STATUS_LOADS && !self && load)
			kernel_load(k, m, verdict_proprietary(m));
	}
	report_module(&o->rep, m, *status, as, &fs);
	free(fs.f);
}

static int exit_status(const struct report *rep)
{
	if (rep->count[STATUS_UNREADABLE])
		return EXIT_ERROR;
	return rep->count[STATUS_REFUSED] ? EXIT_REFUSED : EXIT_LOADS;
}

static void warn_no_symvers(const struct kernel *k)
{
	if (!k->vmlinux_known)
		WRN("no Module.symvers: a symbol no module exports is taken "
		    "as vmlinux's, in no namespace\n");
}

/* --all: every module depmod keeps, each against all the others. */
static int check_all(struct opts *o, struct kernel *k, struct tree *t)
{
	const struct object **self = xcalloc(t->n_files, sizeof(*self));
	struct nsmod **mods = xcalloc(t->n_files, sizeof(*mods));
	struct loader l;
	enum status status;
	size_t i, n = 0;

	loader_init(&l);
	l.key = o->key;
	for (i = 0; i < t->n_files; i++) {
		if (t->files[i].chosen)
			mods[n++] = loader_get(&l, t->files[i].path);
	}
	warn_no_symvers(k);
	for (i = 0; i < n; i++) {
		if (!mods[i]->error)
			self[i] = kernel_load(k, mods[i],
					      verdict_proprietary(mods[i]));
	}
	report_begin(&o->rep);
	for (i = 0; i < n; i++)
		check_one(o, k, mods[i], self[i], "given", true, &status);
	report_end(&o->rep);
	loader_free(&l);
	free(mods);
	free(self);
	return exit_status(&o->rep);
}

/*
 * One argument after what it needs; -1 when it names nothing. With
 * keep, the model is left as it was when the plan had one step (*changed
 * false); else what loads is loaded into it.
 */
static int check_plan(struct opts *o, struct kernel *k, struct planner *p,
		      const char *arg, bool keep, bool *changed)
{
	enum status status;
	size_t j;

	*changed = false;
	if (plan(p, arg) < 0)
		return -1;
	for (j = 0; j < p->n; j++) {
		struct step *s = &p->steps[j];
		bool load = !keep || p->n > 1;

		check_one(o, k, s->m, NULL, s->given ? "given" :
			  s->required ? "dependency" : "softdep", load,
			  &status);
		*changed |= load && status == STATUS_LOADS;
		if (status == STATUS_LOADS || !s->required || j + 1 == p->n)
			continue;
		/* modprobe stops at a dependency that fails. */
		WRN("%s: not loaded: its dependency %s would not load\n", arg,
		    s->m->path);
		break;
	}
	return 0;
}

enum { UNSEEN, VISITING, DONE };

struct deps_order {
	char **argv;
	struct nsmod **mods;	/* each file argument's, else NULL */
	struct hash *providers;	/* symbol -> its first given exporter + 1 */
	int *state;
	int *stack;		/* the path being visited, for a cycle */
	int depth;
	char **out;
	int n_out;
};

/* Post-order: what argument i uses from the other files, then i. */
static void deps_visit(struct deps_order *d, int i)
{
	const struct nsmod *m = d->mods[i];
	size_t u;
	int j, s;

	d->state[i] = VISITING;
	d->stack[d->depth++] = i;
	for (u = 0; m && !m->error && u < m->n_undefs; u++) {
		if (m->undefs[u].common)
			continue;
		j = (int)(uintptr_t)hash_find(d->providers,
					      m->undefs[u].sym) - 1;
		if (j < 0 || j == i || d->state[j] == DONE)
			continue;
		if (d->state[j] == UNSEEN) {
			deps_visit(d, j);
			continue;
		}
		/* As depmod: "Cycle detected: a -> b -> a". */
		for (s = 0; d->stack[s] != j; s++)
			;
		fprintf(stderr, "%s: WARNING: cycle detected:",
			program_invocation_short_name);
		for (; s < d->depth; s++)
			fprintf(stderr, " %s ->", d->mods[d->stack[s]]->name);
		fprintf(stderr, " %s: the files are loaded in the order "
			"given; the kernel cannot load them all\n",
			d->mods[j]->name);
	}
	d->depth--;
	d->state[i] = DONE;
	d->out[d->n_out++] = d->argv[i];
}

/*
 * --order=deps: the files among the arguments, each after the given
 * files whose exports it uses (modules.dep's order: what modprobe
 * would load first), the order given otherwise; names stay where they
 * are in it. A cycle is said and left to the check, which refuses it.
 */
static void order_by_deps(struct loader *l, int argc, char *argv[])
{
	struct deps_order d = {
		.argv = argv,
		.mods = xcalloc(argc, sizeof(*d.mods)),
		.providers = hash_new(),
		.state = xcalloc(argc, sizeof(*d.state)),
		.stack = xcalloc(argc, sizeof(*d.stack)),
		.out = xcalloc(argc, sizeof(*d.out)),
	};
	size_t e;
	int i;

	for (i = 0; i < argc; i++) {
		struct nsmod *m;

		if (!plan_is_file(argv[i]))
			continue;
		m = d.mods[i] = loader_get(l, argv[i]);
		for (e = 0; !m->error && e < m->n_exports; e++) {
			void **slot = hash_slot(d.providers,
						m->exports[e].sym);

			if (!*slot)
				*slot = (void *)(uintptr_t)(i + 1);
		}
	}
	for (i = 0; i < argc; i++) {
		if (d.state[i] == UNSEEN)
			deps_visit(&d, i);
	}
	memcpy(argv, d.out, argc * sizeof(*argv));
	free(d.out);
	free(d.stack);
	free(d.state);
	hash_free(d.providers);
	free(d.mods);
}

/* Each argument after what it needs, as modprobe or insmod loads it. */
static int check_targets(struct opts *o, struct kernel *k, struct tree *t,
			 int argc, char *argv[])
{
	struct planner p;
	struct loader l;
	int i, errors = 0;
	bool changed;

	loader_init(&l);
	l.key = o->key;
	planner_init(&p, k, t, &l);
	if (o->order_deps)
		order_by_deps(&l, argc, argv);
	warn_no_symvers(k);
	report_begin(&o->rep);
	for (i = 0; i < argc; i++)
		errors += check_plan(o, k, &p, argv[i], false, &changed) < 0;
	report_end(&o->rep);
	planner_free(&p);
	loader_free(&l);
	return errors ? EXIT_ERROR : exit_status(&o->rep);
}

static const char *shown_path(const char *path, const char *top)
{
	size_t len = top ? strlen(top) : 0;

	if (len && strncmp(path, top, len) == 0 && path[len] == '/')
		return path + len + 1;
	return path;
}

/*
 * --suggest's modules: those given, then the tree's that have none of
 * their names, shown relative to the tree: an export's users are counted
 * over both, never over the given files alone (every export of vmlinux
 * would seem to have one user).
 */
static int suggest(struct opts *o, struct kernel *k, struct tree *t,
		   int argc, char *argv[])
{
	struct suggest *sg = suggest_new(k);
	size_t n = (size_t)argc + t->n_files, i, nm = 0;
	struct nsmod **mods = xcalloc(n, sizeof(*mods));
	const char **files = xcalloc(n, sizeof(*files));
	struct hash *given = hash_new();
	struct loader l;
	int ret;

	loader_init(&l);
	l.key = o->key;
	if (!k->vmlinux_known)
		WRN("no Module.symvers: vmlinux's exports are unknown, only "
		    "modules are exporters\n");
	for (i = 0; i < n; i++) {
		bool is_given = i < (size_t)argc;
		const struct tree_file *f = is_given ? NULL :
					    &t->files[i - argc];

		if (f && !f->chosen)
			continue;
		mods[nm] = loader_get(&l, f ? f->path : argv[i]);
		if (f && !mods[nm]->error &&
		    hash_find(given, mods[nm]->name))
			continue;	/* a given file stands for it */
		files[nm] = f ? shown_path(f->path, t->dir) : argv[i];
		if (mods[nm]->error)
			ERR("%s: %s\n", mods[nm]->path, mods[nm]->error);
		else if (is_given)
			*hash_slot(given, mods[nm]->name) = mods[nm];
		nm++;
	}
	if (argc)
		INF("users counted over the modules given (%zu) and the "
		    "tree's others (%zu)\n", (size_t)argc, nm - argc);
	suggest_build(sg, mods, files, nm, &o->sg);
	suggest_report(sg, &o->sg);
	INF("%zu modules read, %zu unreadable\n", sg->sum.modules,
	    sg->sum.unreadable);
	ret = sg->sum.unreadable ? EXIT_ERROR : EXIT_LOADS;
	hash_free(given);
	loader_free(&l);
	free(mods);
	free(files);
	suggest_free(sg);
	return ret;
}

/*
 * CONFIG_MODULE_NS_ALLOW_SIG: on with --trusted-key, or when --kdir's
 * .config has it (its certs/signing_key.x509). -1 after an error.
 */
static int read_key(struct opts *o)
{
	char *cert = NULL, *err = NULL;
	const char *path = o->trusted_key;
	int r = 0;

	if (!path && o->kdir && describe_sig_rule(o->kdir, &cert))
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

static int sig_rule(struct opts *o, struct kernel *k)
{
	int r = read_key(o);

	if (r == 0 && o->key)
		kernel_set_sig_rule(k);
	return r;
}

/*
 * The tree: -errno when it cannot be read and it is needed, after saying
 * so; 0 otherwise (*t NULL when there is none). It is needed when -b, -k
 * or --root named it (a typo must not check against nothing), for --all
 * and --suggest, and when it is the running kernel's by default and
 * nothing else says what vmlinux exports (no -E, no --kdir): nscheck
 * fails closed rather than predict from an empty model (SPEC 9.2).
 */
static int need_tree(const struct opts *o, const char *dirname, int argc,
		     struct tree **t)
{
	bool pointed = o->basedir || o->kver;
	bool build = o->kdir && !pointed;
	int err = open_tree(o, dirname, t);

	(void)argc;
	if (err >= 0)
		return 0;
	*t = NULL;
	if (build && (o->all || o->suggest)) {
		ERR("%s: %s: no modules.order there; name a kernel build tree "
		    "with --kdir DIR, or a module tree with -b DIR -k KVER\n",
		    o->kdir, strerror(-err));
		return err;
	}
	if (pointed || o->all || o->suggest ||
	    (!o->kdir && !o->n_symvers)) {
		ERR("%s: no module tree there (%s%s); name the kernel's "
		    "tree with -b DIR and -k KVER (DIR%s/KVER), or its build "
		    "with --kdir DIR%s\n", dirname, strerror(-err),
		    o->kver ? "" : ", its release the running kernel's",
		    MODULE_DIRECTORY, pointed || o->all || o->suggest ? "" :
		    ", or vmlinux's exports with -E FILE");
		return err;
	}
	INF("%s: %s: no dependencies from a tree\n",
	    build ? o->kdir : dirname, strerror(-err));
	return 0;
}

/* --overlay: the builds' namespaces and grants, bound to the tree. */
static int overlay(struct opts *o, struct kernel *k, const struct tree *t)
{
	char *err = NULL;
	size_t i;

	o->ov = overlay_new();
	for (i = 0; i < o->n_overlay; i++) {
		if (overlay_add(o->ov, o->overlay[i], &err) < 0) {
			ERR("%s\n", err);
			free(err);
			return -1;
		}
	}
	overlay_bind(o->ov, t);
	kernel_set_overlay(k, o->ov);
	return 0;
}

/*
 * --graph: the modules given (and what they need), else every module of
 * the tree, all loaded into the model without a verdict.
 */
static int graph(struct opts *o, struct kernel *k, struct tree *t,
		 int argc, char *argv[])
{
	struct planner p;
	struct loader l;
	int i, errors = 0;
	size_t j, n = argc ? (size_t)argc : t ? t->n_files : 0;

	loader_init(&l);
	l.key = o->key;
	planner_init(&p, k, t, &l);
	for (i = 0; (size_t)i < n; i++) {
		if (!argc && !t->files[i].chosen)
			continue;
		if (plan(&p, argc ? argv[i] : t->files[i].path) < 0) {
			errors++;
			continue;
		}
		for (j = 0; j < p.n; j++) {
			struct nsmod *m = p.steps[j].m;

			if (m->error) {
				ERR("%s: %s\n", m->path, m->error);
				errors++;
			} else if (kernel_find_name(k, m->name)) {
				INF("%s: %s is there already\n", m->path,
				    m->name);
			} else {
				kernel_load(k, m, verdict_proprietary(m));
			}
		}
	}
	if (!o->rep.quiet)
		graph_write(k, o->n_namespaces ? o->namespaces : NULL,
			    o->n_namespaces);
	planner_free(&p);
	loader_free(&l);
	return errors ? EXIT_ERROR : EXIT_LOADS;
}

/* A model of the running kernel: vmlinux's exports, then what is live. */
static struct kernel *live_model(const struct live *lv, struct kdesc *kd)
{
	struct kernel *k = kernel_new();

	kd->no_grants = true;
	if (describe_vmlinux(k, kd) < 0) {
		kernel_free(k);
		return NULL;
	}
	live_apply(lv, k);
	return k;
}

/*
 * --live: the modules loaded now and the loader's index; the arguments
 * loaded one after the other, or each on its own (--each).
 */
static int run_live(struct opts *o, struct kdesc *kd, struct tree *t,
		    int argc, char *argv[])
{
	struct live_opts lo = {
		.root = o->root ? o->root : "",
		.external = o->external,
		.n_external = o->n_external,
		.t = t,
	};
	struct kernel *k = NULL;
	struct planner p;
	struct loader l;
	struct live lv;
	int i, ret = EXIT_ERROR, errors = 0;
	bool changed = false;

	if (live_read(&lv, &lo) < 0 || read_key(o) < 0)
		goto done;
	if (!lv.sig_rule && o->key) {
		INF("the kernel does not bind grants to a key: --trusted-key "
		    "left unused\n");
	} else if (lv.sig_rule && !o->key) {
		o->key = live_learn_key(&lv);
		if (!o->key)
			WRN("the kernel binds grants to its signing key, and "
			    "no trusted module's file names it: every module "
			    "is taken as unsigned (--trusted-key names it)\n");
	}
	if (o->graph) {
		k = live_model(&lv, kd);
		if (k)
			ret = graph(o, k, NULL, 0, NULL);
		goto done;
	}
	loader_init(&l);
	l.key = o->key;
	report_begin(&o->rep);
	for (i = 0; i < argc; i++) {
		/*
		 * One after the other: the same model throughout. Each on
		 * its own: a model as the system is, again when the last
		 * argument loaded something into it (a name's dependencies).
		 */
		if (!k || changed) {
			kernel_free(k);
			k = live_model(&lv, kd);
			if (!k) {
				errors++;
				break;
			}
			if (!i)
				warn_no_symvers(k);
		}
		planner_init(&p, k, t, &l);
		p.insmod = true;
		errors += check_plan(o, k, &p, argv[i], o->each, &changed) < 0;
		changed &= o->each;
		planner_free(&p);
	}
	report_end(&o->rep);
	loader_free(&l);
	ret = errors ? EXIT_ERROR : exit_status(&o->rep);
done:
	kernel_free(k);
	live_free(&lv);
	return ret;
}

static int run(struct opts *o, int argc, char *argv[])
{
	char *dirname = tree_dir(o);
	struct kernel *k = kernel_new();
	struct tree *t = NULL;
	struct kdesc kd = {
		.symvers = o->symvers,
		.n_symvers = o->n_symvers,
		.kdir = o->kdir,
		.dirname = dirname,
		.basedir = o->basedir,
	};
	int ret = EXIT_ERROR;

	if (!dirname)
		goto done;
	if (o->live) {
		if (need_tree(o, dirname, argc, &t) == 0)
			ret = run_live(o, &kd, t, argc, argv);
		goto done;
	}
	/* The overlay binds to the tree before anything enters the model. */
	if (o->n_overlay && (need_tree(o, dirname, argc, &t) < 0 ||
			     overlay(o, k, t) < 0))
		goto done;
	if (describe_vmlinux(k, &kd) < 0 || sig_rule(o, k) < 0)
		goto done;
	if (!o->n_overlay && need_tree(o, dirname, argc, &t) < 0)
		goto done;
	if (o->graph)
		ret = graph(o, k, t, argc, argv);
	else if (o->suggest)
		ret = suggest(o, k, t, argc, argv);
	else if (o->all)
		ret = check_all(o, k, t);
	else
		ret = check_targets(o, k, t, argc, argv);
done:
	tree_free(t);
	kernel_free(k);
	overlay_free(o->ov);
	free(dirname);
	return ret;
}

static int parse_max_users(const char *s, unsigned int *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT_MAX)
		return -1;
	*n = v;
	return 0;
}

int main(int argc, char *argv[])
{
	struct opts o = { .sg.max_users = DEFAULT_MAX_USERS };
	int c, ret = EXIT_ERROR;

	opterr = 0;
	while ((c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o.all = true;
			break;
		case 'b':
			o.basedir = optarg;
			break;
		case 'k':
			o.kver = optarg;
			break;
		case OPT_KDIR:
			o.kdir = optarg;
			break;
		case 'E':
			*VEC_PUSH(o.symvers, o.n_symvers, o.cap_symvers) =
				optarg;
			break;
		case 'C':
			*VEC_PUSH(o.config, o.n_config, o.cap_config) = optarg;
			break;
		case OPT_JSON:
			o.rep.json = true;
			break;
		case OPT_SUGGEST:
			o.suggest = true;
			break;
		case OPT_MAX_USERS:
			o.suggest_only = true;
			if (parse_max_users(optarg, &o.sg.max_users) < 0) {
				ERR("--max-users: '%s' is not a number of "
				    "users\n", optarg);
				goto done;
			}
			break;
		case OPT_EXPORTER:
			o.suggest_only = true;
			free(o.exporter);
			o.exporter = tree_modname(optarg);
			break;
		case OPT_USER:
			o.suggest_only = true;
			free(o.user);
			o.user = tree_modname(optarg);
			break;
		case OPT_TRUSTED_KEY:
			o.trusted_key = optarg;
			break;
		case OPT_OVERLAY:
			*VEC_PUSH(o.overlay, o.n_overlay, o.cap_overlay) =
				optarg;
			break;
		case OPT_LIVE:
			o.live = true;
			break;
		case OPT_EACH:
			o.each = true;
			break;
		case OPT_ROOT:
			o.root = optarg;
			break;
		case OPT_EXTERNAL:
			*VEC_PUSH(o.external, o.n_external, o.cap_external) =
				optarg;
			break;
		case OPT_GRAPH:
			o.graph = true;
			break;
		case OPT_NAMESPACE:
			*VEC_PUSH(o.namespaces, o.n_namespaces,
				  o.cap_namespaces) = optarg;
			break;
		case OPT_ORDER:
			if (!streq(optarg, "deps") && !streq(optarg, "given")) {
				ERR("--order: '%s' is not deps or given\n",
				    optarg);
				goto done;
			}
			o.order_deps = streq(optarg, "deps");
			break;
		case 'q':
			o.rep.quiet = true;
			break;
		case 'v':
			log_priority = LOG_INFO;
			break;
		case 'h':
			help();
			ret = EXIT_LOADS;
			goto done;
		case 'V':
			printf("nscheck version %s\n%s %s\n", NSCHECK_VERSION,
			       inflate_features(), sig_feature());
			ret = EXIT_LOADS;
			goto done;
		case ':':
			ERR("option '%s' needs an argument; see --help\n",
			    argv[optind - 1]);
			goto done;
		default:
			if (optopt && optopt < 0x100)
				ERR("invalid option -- '%c'; see --help\n",
				    optopt);
			else
				ERR("unrecognized option '%s'; see --help\n",
				    argv[optind - 1]);
			goto done;
		}
	}
	if (o.suggest_only && !o.suggest) {
		ERR("--max-users, --exporter and --user go with --suggest\n");
		goto done;
	}
	if (o.suggest && o.all) {
		ERR("--suggest and --all: choose one\n");
		goto done;
	}
	if (o.suggest && o.n_overlay) {
		ERR("--suggest and --overlay: choose one\n");
		goto done;
	}
	if ((o.each || o.root || o.n_external) && !o.live) {
		ERR("--each, --root and --external go with --live\n");
		goto done;
	}
	if (o.n_namespaces && !o.graph) {
		ERR("--namespace goes with --graph\n");
		goto done;
	}
	if (o.live && (o.all || o.suggest || o.n_overlay)) {
		ERR("--live and --all, --suggest or --overlay: choose one\n");
		goto done;
	}
	if (o.graph && (o.suggest || o.rep.json || o.each)) {
		ERR("--graph and --suggest, --json or --each: choose one\n");
		goto done;
	}
	if (o.graph && o.live && optind < argc) {
		ERR("--graph --live shows the running system: give no "
		    "module\n");
		goto done;
	}
	/* Under --root, the tree is there too. */
	if (o.root && !o.basedir)
		o.basedir = o.root;
	/* --overlay alone checks the whole tree, as --all. */
	if (o.n_overlay && optind >= argc && !o.graph)
		o.all = true;
	if (o.all && optind < argc) {
		ERR("--all checks the whole tree: give no module\n");
		goto done;
	}
	if (!o.all && !o.suggest && !o.graph && optind >= argc) {
		ERR("missing module argument; see --help\n");
		goto done;
	}
	if (o.rep.quiet && o.rep.json) {
		ERR("--quiet and --json: choose one\n");
		goto done;
	}
	o.sg.json = o.rep.json;
	o.sg.quiet = o.rep.quiet;
	o.sg.exporter = o.exporter;
	o.sg.user = o.user;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ERR("libelf is out of date\n");
		goto done;
	}
	ret = run(&o, argc - optind, argv + optind);
done:
	sigkey_free(o.key);
	free(o.overlay);
	free(o.external);
	free(o.namespaces);
	free(o.symvers);
	free(o.config);
	free(o.exporter);
	free(o.user);
	return ret;
}
