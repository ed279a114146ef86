// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --graph - the model's exporters, namespaces and allowed modules
 * as Graphviz DOT
 */

#include <errno.h>

#include "cmd.h"
#include "graph.h"
#include "log.h"
#include "verdict.h"

/*
 * The modules given (and what they need), else every module of t (NULL:
 * none, the model as it is), all loaded into the model without a
 * verdict; then the graph.
 */
int graph_model(struct session *s, struct tree *t, int argc, char *argv[])
{
	struct kernel *k = s->k;
	struct planner p;
	int i, errors = 0;
	size_t j, n = argc ? (size_t)argc : t ? t->n_files : 0;

	planner_init(&p, k, t, &s->fc);
	for (i = 0; (size_t)i < n; i++) {
		if (!argc && !t->files[i].chosen)
			continue;
		char *err = NULL;

		if (plan(&p, argc ? argv[i] : t->files[i].path, &err) < 0) {
			cmd_error(-ENOENT, err);
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
	if (!s->o->rep.quiet)
		graph_write(k, s->o->namespaces.n ? s->o->namespaces.v : NULL,
			    s->o->namespaces.n);
	planner_free(&p);
	return errors ? EXIT_ERROR : EXIT_LOADS;
}

int cmd_graph(struct opts *o, int argc, char *argv[])
{
	struct session s;
	int ret = EXIT_ERROR;

	if (session_init(&s, o) == 0 && session_vmlinux(&s) == 0 &&
	    session_tree(&s) == 0)
		ret = graph_model(&s, s.t, argc, argv);
	session_free(&s);
	return ret;
}
