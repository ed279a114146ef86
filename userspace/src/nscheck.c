// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - predict, without loading anything, whether a patched 6.1
 * kernel (MODULE_NAMESPACE_ALLOW) would load the given modules.
 *
 * main() parses the options, checks that they go together, and runs the
 * mode's driver (cmd_*.c), as kmod's tools/kmod.c dispatches.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <gelf.h>

#include "cmd.h"
#include "inflate.h"
#include "log.h"

/* The Makefile's: git describe, else its NSCHECK_VERSION. */
#ifndef NSCHECK_VERSION
#define NSCHECK_VERSION "unknown"
#endif

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

/* What was given, for the rules below. */
enum {
	G_ALL = 1 << 0,
	G_SUGGEST = 1 << 1,
	G_SUGGEST_ONLY = 1 << 2,	/* --max-users, --exporter, --user */
	G_OVERLAY = 1 << 3,
	G_LIVE = 1 << 4,
	G_LIVE_ONLY = 1 << 5,		/* --each, --root, --external */
	G_EACH = 1 << 6,
	G_GRAPH = 1 << 7,
	G_NAMESPACE = 1 << 8,
	G_JSON = 1 << 9,
	G_QUIET = 1 << 10,
	G_MODULES = 1 << 11,		/* a MODULE argument */
};

/*
 * Options that do not go together, in the order they are said: a rule
 * holds when every one of all is given, and one of any (when any), and
 * none of none.
 */
static const struct usage_rule {
	unsigned int all, any, none;
	const char *msg;
} usage_rules[] = {
	{ G_SUGGEST_ONLY, 0, G_SUGGEST,
	  "--max-users, --exporter and --user go with --suggest" },
	{ G_SUGGEST | G_ALL, 0, 0, "--suggest and --all: choose one" },
	{ G_SUGGEST | G_OVERLAY, 0, 0, "--suggest and --overlay: choose one" },
	{ G_LIVE_ONLY, 0, G_LIVE,
	  "--each, --root and --external go with --live" },
	{ G_NAMESPACE, 0, G_GRAPH, "--namespace goes with --graph" },
	{ G_LIVE, G_ALL | G_SUGGEST | G_OVERLAY, 0,
	  "--live and --all, --suggest or --overlay: choose one" },
	{ G_GRAPH, G_SUGGEST | G_JSON | G_EACH, 0,
	  "--graph and --suggest, --json or --each: choose one" },
	{ G_GRAPH | G_LIVE | G_MODULES, 0, 0,
	  "--graph --live shows the running system: give no module" },
	{ G_ALL | G_MODULES, 0, 0,
	  "--all checks the whole tree: give no module" },
	/* --overlay alone checks the whole tree, as --all. */
	{ 0, 0, G_ALL | G_SUGGEST | G_GRAPH | G_OVERLAY | G_MODULES,
	  "missing module argument; see --help" },
	{ G_QUIET | G_JSON, 0, 0, "--quiet and --json: choose one" },
};

static int check_usage(unsigned int given)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(usage_rules); i++) {
		const struct usage_rule *r = &usage_rules[i];

		if ((given & r->all) == r->all &&
		    (!r->any || (given & r->any)) && !(given & r->none)) {
			ERR("%s\n", r->msg);
			return -1;
		}
	}
	return 0;
}

typedef int (*cmd_fn)(struct opts *o, int argc, char *argv[]);

/* The mode's driver. */
static cmd_fn mode(const struct opts *o)
{
	if (o->live)
		return cmd_live;
	if (o->overlay.n)
		return cmd_overlay;
	if (o->graph)
		return cmd_graph;
	if (o->suggest)
		return cmd_suggest;
	if (o->all)
		return cmd_all;
	return cmd_check;
}

/*
 * One option into o and given; 1 when main() is done (-h, -V), -1 after
 * bad usage, else 0.
 */
static int parse_one(int c, struct opts *o, unsigned int *given,
		     char *argv[])
{
	switch (c) {
	case 'a':
		o->all = true;
		*given |= G_ALL;
		break;
	case 'b':
		o->basedir = optarg;
		break;
	case 'k':
		o->kver = optarg;
		break;
	case OPT_KDIR:
		o->kdir = optarg;
		break;
	case 'E':
		strv_push(&o->symvers, optarg);
		break;
	case 'C':
		strv_push(&o->config, optarg);
		break;
	case OPT_JSON:
		o->rep.json = true;
		*given |= G_JSON;
		break;
	case OPT_SUGGEST:
		o->suggest = true;
		*given |= G_SUGGEST;
		break;
	case OPT_MAX_USERS:
		*given |= G_SUGGEST_ONLY;
		if (parse_max_users(optarg, &o->sg.max_users) < 0) {
			ERR("--max-users: '%s' is not a number of users\n",
			    optarg);
			return -1;
		}
		break;
	case OPT_EXPORTER:
		*given |= G_SUGGEST_ONLY;
		free(o->exporter);
		o->exporter = modname_normalize(optarg);
		break;
	case OPT_USER:
		*given |= G_SUGGEST_ONLY;
		free(o->user);
		o->user = modname_normalize(optarg);
		break;
	case OPT_TRUSTED_KEY:
		o->trusted_key = optarg;
		break;
	case OPT_OVERLAY:
		strv_push(&o->overlay, optarg);
		*given |= G_OVERLAY;
		break;
	case OPT_LIVE:
		o->live = true;
		*given |= G_LIVE;
		break;
	case OPT_EACH:
		o->each = true;
		*given |= G_EACH | G_LIVE_ONLY;
		break;
	case OPT_ROOT:
		o->root = optarg;
		*given |= G_LIVE_ONLY;
		break;
	case OPT_EXTERNAL:
		strv_push(&o->external, optarg);
		*given |= G_LIVE_ONLY;
		break;
	case OPT_GRAPH:
		o->graph = true;
		*given |= G_GRAPH;
		break;
	case OPT_NAMESPACE:
		strv_push(&o->namespaces, optarg);
		*given |= G_NAMESPACE;
		break;
	case OPT_ORDER:
		if (!streq(optarg, "deps") && !streq(optarg, "given")) {
			ERR("--order: '%s' is not deps or given\n", optarg);
			return -1;
		}
		o->order_deps = streq(optarg, "deps");
		break;
	case 'q':
		o->rep.quiet = true;
		*given |= G_QUIET;
		break;
	case 'v':
		log_priority = LOG_INFO;
		break;
	case 'h':
		help();
		return 1;
	case 'V':
		printf("nscheck version %s\n%s %s\n", NSCHECK_VERSION,
		       inflate_features(), sig_feature());
		return 1;
	case ':':
		ERR("option '%s' needs an argument; see --help\n",
		    argv[optind - 1]);
		return -1;
	default:
		if (optopt && optopt < 0x100)
			ERR("invalid option -- '%c'; see --help\n", optopt);
		else
			ERR("unrecognized option '%s'; see --help\n",
			    argv[optind - 1]);
		return -1;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	struct opts o = { .sg.max_users = DEFAULT_MAX_USERS };
	unsigned int given = 0;
	int c, r = 0, ret = EXIT_ERROR;

	opterr = 0;
	while (r == 0 &&
	       (c = getopt_long(argc, argv, cmdopts_s, cmdopts, NULL)) != -1)
		r = parse_one(c, &o, &given, argv);
	if (r)
		goto done;
	if (optind < argc)
		given |= G_MODULES;
	if (check_usage(given) < 0)
		goto done;
	/* Under --root, the tree is there too. */
	if (o.root && !o.basedir)
		o.basedir = o.root;
	/* --overlay alone checks the whole tree, as --all. */
	if (o.overlay.n && !(given & (G_MODULES | G_GRAPH)))
		o.all = true;
	o.sg.json = o.rep.json;
	o.sg.quiet = o.rep.quiet;
	o.sg.exporter = o.exporter;
	o.sg.user = o.user;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ERR("libelf is out of date\n");
		goto done;
	}
	ret = mode(&o)(&o, argc - optind, argv + optind);
done:
	if (r > 0)
		ret = EXIT_LOADS;
	sigkey_free(o.key);
	strv_free(&o.overlay);
	strv_free(&o.external);
	strv_free(&o.namespaces);
	strv_free(&o.symvers);
	strv_free(&o.config);
	free(o.exporter);
	free(o.user);
	return ret;
}
