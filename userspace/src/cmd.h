/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the modes (check, --all, --suggest, --graph, --live,
 * --overlay), one driver each (cmd_*.c), and what they share: the options
 * main() parsed, and a session that sets up the tree, vmlinux and the
 * file cache the same way for each.
 */
#ifndef NSCHECK_CMD_H
#define NSCHECK_CMD_H

#include <stdbool.h>

#include "filecache.h"
#include "kernel.h"
#include "plan.h"
#include "report.h"
#include "sig.h"
#include "strv.h"
#include "suggest.h"
#include "tree.h"
#include "vmlinux.h"

enum {
	EXIT_LOADS = 0,
	EXIT_REFUSED = 1,
	EXIT_ERROR = 2,		/* bad usage or unreadable input */
};

struct opts {
	bool all;
	bool suggest;
	struct suggest_opts sg;
	char *exporter, *user;	/* sg's, normalised */
	const char *basedir;
	const char *kver;
	const char *kdir;
	struct strv symvers;	/* -E */
	struct strv config;	/* -C: depmod.d files or folders */
	struct strv overlay;	/* --overlay: builds, modules */
	bool live;		/* --live: against the running kernel */
	bool each;		/* --each: each module on its own */
	const char *root;	/* --root: the running system's files */
	struct strv external;	/* --external: loaded modules' files */
	bool graph;		/* --graph */
	bool order_deps;	/* --order=deps: files after their exporters */
	struct strv namespaces;	/* --namespace: the graph's */
	const char *trusted_key;	/* --trusted-key */
	struct sigkey *key;	/* the key of CONFIG_MODULE_NS_ALLOW_SIG */
	struct report rep;
};

/* What a mode runs on. */
struct session {
	struct opts *o;
	char *dirname;		/* the module tree, BASEDIR/lib/modules/KVER */
	struct kdesc kd;	/* where vmlinux is described */
	struct kernel *k;	/* the model */
	struct tree *t;		/* NULL when there is none */
	struct filecache fc;
};

/* The tree's folder and vmlinux's description. -errno after an error. */
int session_init(struct session *s, struct opts *o);
void session_free(struct session *s);
/*
 * The tree: -errno when it cannot be read and it is needed, after saying
 * so; 0 otherwise (s->t NULL when there is none).
 */
int session_tree(struct session *s);
/*
 * vmlinux into the model (made when s->k is NULL), then session_key().
 * -errno after an error.
 */
int session_vmlinux(struct session *s);
/*
 * The signature rule: its key into o->key, the model and the file
 * cache. -errno after an error.
 */
int session_key(struct session *s);

/*
 * Errors, one convention: a function that can fail returns 0 or -errno
 * and prints nothing; when -errno alone does not say what failed, it
 * also sets *err to a malloc'd message that names the file. The driver
 * reports it once, here: "nscheck: ERROR: <err>" (strerror() without
 * one), frees err and returns r. A module file that cannot be checked
 * is not an error of the run but a fact about that module: its reader
 * returns -errno too, and the message is the module's (nsmod.error),
 * reported with it.
 */
int cmd_error(int r, char *err);

/* CONFIG_MODULE_NS_ALLOW_SIG's key into o->key. -errno after an error. */
int cmd_read_key(struct opts *o);
void cmd_warn_no_symvers(const struct kernel *k);
int cmd_exit_status(const struct report *rep);

/*
 * Check m (self: m is in the model already); when it would load, and
 * load, it enters the model. Reported, and *status said.
 */
void cmd_check_one(struct session *s, struct nsmod *m,
		   const struct object *self, const char *as, bool load,
		   enum status *status);
/*
 * One argument after what it needs; -1 when it names nothing. With keep,
 * the model is left as it was when the plan had one step (*changed
 * false); else what loads is loaded into it.
 */
int cmd_check_plan(struct session *s, struct planner *p, const char *arg,
		   bool keep, bool *changed);

/* The bodies a mode may share, on a session set up. */
int check_targets(struct session *s, int argc, char *argv[]);
int check_all(struct session *s);
int graph_model(struct session *s, struct tree *t, int argc, char *argv[]);

/* The drivers: an exit status. */
int cmd_check(struct opts *o, int argc, char *argv[]);
int cmd_all(struct opts *o, int argc, char *argv[]);
int cmd_suggest(struct opts *o, int argc, char *argv[]);
int cmd_graph(struct opts *o, int argc, char *argv[]);
int cmd_live(struct opts *o, int argc, char *argv[]);
int cmd_overlay(struct opts *o, int argc, char *argv[]);

#endif
