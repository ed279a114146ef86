// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck MODULE... - each argument after what it needs, as modprobe or
 * insmod loads it, in the order given or (--order=deps) as depmod orders
 * the files
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hash.h"
#include "log.h"

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
static void order_by_deps(struct filecache *fc, int argc, char *argv[])
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
		m = d.mods[i] = filecache_get(fc, argv[i]);
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

int check_targets(struct session *s, int argc, char *argv[])
{
	struct report *rep = &s->o->rep;
	struct planner p;
	int i, errors = 0;
	bool changed;

	planner_init(&p, s->k, s->t, &s->fc);
	if (s->o->order_deps)
		order_by_deps(&s->fc, argc, argv);
	cmd_warn_no_symvers(s->k);
	report_begin(rep);
	for (i = 0; i < argc; i++)
		errors += cmd_check_plan(s, &p, argv[i], false, &changed) < 0;
	report_end(rep);
	planner_free(&p);
	return errors ? EXIT_ERROR : cmd_exit_status(rep);
}

int cmd_check(struct opts *o, int argc, char *argv[])
{
	struct session s;
	int ret = EXIT_ERROR;

	if (session_init(&s, o) == 0 && session_vmlinux(&s) == 0 &&
	    session_tree(&s) == 0)
		ret = check_targets(&s, argc, argv);
	session_free(&s);
	return ret;
}
