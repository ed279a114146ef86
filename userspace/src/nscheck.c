// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - predict, without loading anything, whether a patched 6.1
 * kernel (MODULE_NAMESPACE_ALLOW) would load the given modules.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <gelf.h>

#include "builtin.h"
#include "inflate.h"
#include "loader.h"
#include "log.h"
#include "report.h"
#include "state.h"
#include "suggest.h"
#include "symvers.h"
#include "tree.h"
#include "util.h"
#include "verdict.h"

#define NSCHECK_VERSION "1"

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
};

#define DEFAULT_MAX_USERS 2

static const char cmdopts_s[] = "ab:k:E:qvVh";
static const struct option cmdopts[] = {
	{ "all", no_argument, 0, 'a' },
	{ "basedir", required_argument, 0, 'b' },
	{ "set-version", required_argument, 0, 'k' },
	{ "kdir", required_argument, 0, OPT_KDIR },
	{ "symvers", required_argument, 0, 'E' },
	{ "json", no_argument, 0, OPT_JSON },
	{ "suggest", no_argument, 0, OPT_SUGGEST },
	{ "max-users", required_argument, 0, OPT_MAX_USERS },
	{ "exporter", required_argument, 0, OPT_EXPORTER },
	{ "user", required_argument, 0, OPT_USER },
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
	struct report rep;
};

static void help(void)
{
	printf("Usage:\n"
	       "\t%1$s [options] MODULE.ko...\n"
	       "\t%1$s [options] --all\n"
	       "\t%1$s [options] --suggest [MODULE.ko...]\n"
	       "Checks, without loading anything, whether a kernel with\n"
	       "MODULE_NAMESPACE_ALLOW would load each module (in the order\n"
	       "given, each one loaded for the next), and prints each refusal\n"
	       "as the kernel's line. --suggest proposes namespaces for the\n"
	       "exports that few modules use, with the lines to paste.\n"
	       "Options:\n"
	       "\t-a, --all               check every module of the tree\n"
	       "\t-b, --basedir=DIR       use DIR/lib/modules/KVER\n"
	       "\t-k, --set-version=KVER  kernel version (default: running)\n"
	       "\t    --kdir=DIR          kernel build tree: its\n"
	       "\t                        Module.symvers and\n"
	       "\t                        modules.builtin.modinfo\n"
	       "\t-E, --symvers=FILE      vmlinux exports from a\n"
	       "\t                        Module.symvers (repeatable)\n"
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
	       "2 bad usage or unreadable input (--suggest: 0 or 2).\n",
	       program_invocation_short_name);
}

/* Where the description of vmlinux goes: the checker's or --suggest's. */
struct kernel_sink {
	void (*export)(void *arg, const char *sym, const char *ns, bool gpl);
	void (*grant)(void *arg, const char *ns, size_t nslen,
		      const char *mod);
	void *arg;
};

static void on_symvers(const struct symvers_line *l, void *arg)
{
	const struct kernel_sink *k = arg;

	/* Modules are loaded only when given (or in the tree with --all). */
	if (streq(l->owner, "vmlinux"))
		k->export(k->arg, l->sym, l->ns, l->gpl);
}

static void on_builtin(const char *ns, size_t nslen, const char *mod,
		       void *arg)
{
	const struct kernel_sink *k = arg;

	k->grant(k->arg, ns, nslen, mod);
}

static void state_export(void *arg, const char *sym, const char *ns,
			 bool gpl)
{
	state_add_vmlinux_export(arg, sym, ns, gpl);
}

static void state_grant(void *arg, const char *ns, size_t nslen,
			const char *mod)
{
	state_add_vmlinux_grant(arg, ns, nslen, mod);
}

static void suggest_export(void *arg, const char *sym, const char *ns,
			   bool gpl)
{
	suggest_add_vmlinux_export(arg, sym, ns, gpl);
}

static void suggest_grant(void *arg, const char *ns, size_t nslen,
			  const char *mod)
{
	(void)mod;
	suggest_add_vmlinux_grant(arg, ns, nslen);
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

/* vmlinux: its exports (Module.symvers) and grants (builtin modinfo). */
static int describe_kernel(struct kernel_sink *k, const struct opts *o,
			   const char *dirname)
{
	char *path = NULL, *err = NULL;
	size_t i;
	int r = 0;

	for (i = 0; r == 0 && i < o->n_symvers; i++)
		r = symvers_read(o->symvers[i], on_symvers, k, &err);
	if (r == 0 && o->kdir) {
		path = xasprintf("%s/Module.symvers", o->kdir);
		r = symvers_read(path, on_symvers, k, &err);
		free(path);
	} else if (r == 0 && !o->n_symvers) {
		path = tree_symvers(dirname, o->basedir);
		if (path) {
			INF("using %s\n", path);
			r = symvers_read(path, on_symvers, k, &err);
		}
		free(path);
	}
	if (r < 0)
		goto done;

	if (o->kdir)
		path = xasprintf("%s/modules.builtin.modinfo", o->kdir);
	else
		path = xasprintf("%s/modules.builtin.modinfo", dirname);
	if (access(path, F_OK) == 0)
		r = builtin_read_grants(path, on_builtin, k, &err);
	free(path);
done:
	if (r < 0)
		ERR("%s\n", err);
	free(err);
	return r;
}

static int check_all(struct opts *o, struct state *st, struct nsmod *mods,
		     size_t n)
{
	const struct object **self = xcalloc(n, sizeof(*self));
	size_t i, readable = 0;

	for (i = 0; i < n; i++)
		readable += !mods[i].error;
	if (readable && !state_vmlinux_known(st))
		WRN("no Module.symvers: a symbol no module exports is taken "
		    "as vmlinux's, in no namespace\n");
	if (o->all) {
		for (i = 0; i < n; i++) {
			if (!mods[i].error)
				self[i] = state_load(st, &mods[i]);
		}
	}
	report_begin(&o->rep);
	for (i = 0; i < n; i++) {
		struct nsmod *m = &mods[i];
		struct findings fs = { 0 };
		enum status status = STATUS_UNREADABLE;

		if (m->error) {
			/* The kernel names the module: say it as it would. */
			if (m->bad_records && m->name)
				verdict_malformed(m, &fs);
		} else {
			if (loader_grants_differ(m))
				WRN("%s: modinfo allow_ns differs from the "
				    "__ns_allow records (the kernel reads "
				    "those)\n", m->path);
			status = verdict_check(st, m, self[i], &fs) ?
				 STATUS_LOADS : STATUS_REFUSED;
			if (status == STATUS_LOADS && !o->all)
				state_load(st, m);
		}
		report_module(&o->rep, m, status, &fs);
		free(fs.f);
	}
	report_end(&o->rep);
	free(self);
	if (o->rep.count[STATUS_UNREADABLE])
		return EXIT_ERROR;
	return o->rep.count[STATUS_REFUSED] ? EXIT_REFUSED : EXIT_LOADS;
}

/* The module tree DIR/lib/modules/KVER. */
static char *tree_dir(const struct opts *o)
{
	const char *kver = o->kver;
	struct utsname u;

	if (!kver) {
		if (uname(&u) < 0) {
			ERR("uname: %m\n");
			return NULL;
		}
		kver = u.release;
	}
	return xasprintf("%s/lib/modules/%s", o->basedir ? o->basedir : "",
			 kver);
}

static int check(struct opts *o, const char *dirname, int argc,
		 char *argv[])
{
	struct arena arena = { 0 };
	struct state *st = state_new();
	struct kernel_sink k = { state_export, state_grant, st };
	struct nsmod *mods = NULL;
	char **paths = NULL;
	size_t n = 0, i;
	int ret = EXIT_ERROR, err;

	if (describe_kernel(&k, o, dirname) < 0)
		goto done;

	if (o->all) {
		err = tree_find_modules(dirname, &paths, &n);
		if (err < 0) {
			ERR("%s: %s\n", dirname, strerror(-err));
			goto done;
		}
	} else {
		paths = argv;
		n = argc;
	}
	mods = xcalloc(n, sizeof(*mods));
	for (i = 0; i < n; i++)
		mods[i].path = paths[i];
	if (loader_read(mods, n, &arena) < 0)
		goto done;
	ret = check_all(o, st, mods, n);
done:
	for (i = 0; mods && i < n; i++)
		free(mods[i].error);
	free(mods);
	if (o->all)
		tree_free(paths, n);
	arena_free(&arena);
	state_free(st);
	return ret;
}

/*
 * --suggest's modules: those given; else the module tree when -b or -k
 * says which; else the build tree's modules.order with --kdir; else the
 * running kernel's tree. *top is the folder shown paths are relative to.
 */
static int suggest_modules(const struct opts *o, const char *dirname,
			   int argc, char *argv[], char ***paths, size_t *n,
			   const char **top)
{
	const char *dir;
	int err;

	*top = NULL;
	if (argc) {
		*paths = argv;
		*n = argc;
		return 0;
	}
	if (o->kdir && !o->basedir && !o->kver) {
		dir = o->kdir;
		err = tree_read_order(dir, paths, n);
	} else {
		dir = dirname;
		err = tree_find_modules(dir, paths, n);
	}
	if (err < 0) {
		ERR("%s: %s\n", dir, strerror(-err));
		return err;
	}
	*top = dir;
	return 0;
}

static const char *shown_path(const char *path, const char *top)
{
	size_t len = top ? strlen(top) : 0;

	if (len && strncmp(path, top, len) == 0 && path[len] == '/')
		return path + len + 1;
	return path;
}

static int suggest(struct opts *o, const char *dirname, int argc,
		   char *argv[])
{
	struct arena arena = { 0 };
	struct suggest *sg = suggest_new();
	struct kernel_sink k = { suggest_export, suggest_grant, sg };
	const char **files = NULL;
	struct nsmod *mods = NULL;
	const char *top = NULL;
	char **paths = NULL;
	size_t n = 0, i;
	int ret = EXIT_ERROR;

	if (describe_kernel(&k, o, dirname) < 0)
		goto done;
	if (!sg->vmlinux_known)
		WRN("no Module.symvers: vmlinux's exports are unknown, only "
		    "modules are exporters\n");
	if (suggest_modules(o, dirname, argc, argv, &paths, &n, &top) < 0)
		goto done;
	mods = xcalloc(n, sizeof(*mods));
	files = xcalloc(n, sizeof(*files));
	for (i = 0; i < n; i++) {
		mods[i].path = paths[i];
		files[i] = shown_path(paths[i], top);
	}
	if (loader_read(mods, n, &arena) < 0)
		goto done;
	for (i = 0; i < n; i++) {
		if (mods[i].error)
			ERR("%s: %s\n", mods[i].path, mods[i].error);
	}
	suggest_build(sg, mods, files, n, &o->sg);
	suggest_report(sg, &o->sg);
	INF("%zu modules read, %zu unreadable\n", sg->sum.modules,
	    sg->sum.unreadable);
	ret = sg->sum.unreadable ? EXIT_ERROR : EXIT_LOADS;
done:
	for (i = 0; mods && i < n; i++)
		free(mods[i].error);
	free(mods);
	free(files);
	if (top)
		tree_free(paths, n);
	arena_free(&arena);
	suggest_free(sg);
	return ret;
}

static int run(struct opts *o, int argc, char *argv[])
{
	char *dirname = tree_dir(o);
	int ret;

	if (!dirname)
		return EXIT_ERROR;
	if (o->suggest)
		ret = suggest(o, dirname, argc, argv);
	else
		ret = check(o, dirname, argc, argv);
	free(dirname);
	return ret;
}

/* A module name as the kernel has it: '-' is '_'. */
static char *module_name(const char *s)
{
	char *p, *name = xstrdup(s);

	for (p = name; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
	return name;
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
			o.exporter = module_name(optarg);
			break;
		case OPT_USER:
			o.suggest_only = true;
			free(o.user);
			o.user = module_name(optarg);
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
			printf("nscheck version %s\n%s\n", NSCHECK_VERSION,
			       inflate_features());
			ret = EXIT_LOADS;
			goto done;
		default:
			ERR("bad option; see --help\n");
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
	if (o.all && optind < argc) {
		ERR("--all checks the whole tree: give no module\n");
		goto done;
	}
	if (!o.all && !o.suggest && optind >= argc) {
		ERR("missing module argument; see --help\n");
		goto done;
	}
	if (o.rep.quiet)
		o.rep.json = false;
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
	free(o.symvers);
	free(o.exporter);
	free(o.user);
	return ret;
}
