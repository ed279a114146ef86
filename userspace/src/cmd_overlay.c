// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --overlay - the tree as if built with another build's
 * namespaces and grants: every module of it (as --all), the modules
 * given, or the graph
 */

#include <stdlib.h>

#include "cmd.h"
#include "log.h"
#include "overlay.h"

/* The builds' namespaces and grants, bound to the tree. -1 after an error. */
static int overlay_read(struct session *s, struct overlay *ov)
{
	char *err = NULL;
	size_t i;

	for (i = 0; i < s->o->overlay.n; i++) {
		if (overlay_add(ov, s->o->overlay.v[i], &err) < 0) {
			ERR("%s\n", err);
			free(err);
			return -1;
		}
	}
	overlay_bind(ov, s->t);
	kernel_set_overlay(s->k, ov);
	return 0;
}

int cmd_overlay(struct opts *o, int argc, char *argv[])
{
	struct overlay *ov = overlay_new();
	struct session s;
	int ret = EXIT_ERROR;

	/* The overlay binds to the tree before anything enters the model. */
	if (session_init(&s, o) < 0 || session_tree(&s) < 0)
		goto done;
	s.k = kernel_new();
	if (overlay_read(&s, ov) < 0 || session_vmlinux(&s) < 0)
		goto done;
	if (o->graph)
		ret = graph_model(&s, s.t, argc, argv);
	else if (o->all)
		ret = check_all(&s);
	else
		ret = check_targets(&s, argc, argv);
done:
	session_free(&s);
	overlay_free(ov);
	return ret;
}
