// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --overlay - the tree as if built with another build's
 * namespaces and grants: every module of it (as --all), the modules
 * given, or the graph. The overlay is a reader over the others: vmlinux
 * and each module file are rewritten on their way into the model.
 */

#include <stdlib.h>

#include "cmd.h"
#include "log.h"
#include "overlay.h"

/*
 * The builds' namespaces and grants, bound to the tree; -errno after an
 * error.
 */
static int overlay_read(struct session *s, struct overlay *ov)
{
	char *err = NULL;
	size_t i;
	int r;

	for (i = 0; i < s->o->overlay.n; i++) {
		r = overlay_add(ov, s->o->overlay.v[i], &err);
		if (r < 0)
			return cmd_error(r, err);
	}
	overlay_bind(ov, s->t);
	return 0;
}

/*
 * The build's grants to modules the tree builds in: said before the
 * modules (o->rep.builtin). -errno after an error.
 */
static int overlay_builtin(struct session *s, struct overlay *ov)
{
	char *modinfo = vmlinux_builtin_modinfo(&s->kd), *err = NULL;
	int r = overlay_builtin_grants(ov, s->t, modinfo, &s->o->rep.builtin,
				       &err);

	free(modinfo);
	return r < 0 ? cmd_error(r, err) : 0;
}

int cmd_overlay(struct opts *o, int argc, char *argv[])
{
	struct overlay *ov = overlay_new();
	struct session s;
	char *err = NULL;
	int r, ret = EXIT_ERROR;

	/* The overlay binds to the tree before anything enters the model. */
	if (session_init(&s, o) < 0 || session_tree(&s) < 0)
		goto done;
	if (overlay_read(&s, ov) < 0)
		goto done;
	/* A reader over the others: vmlinux and each module file. */
	s.k = kernel_new();
	r = overlay_read_vmlinux(ov, s.k, &s.kd, &err);
	if (r < 0) {
		cmd_error(r, err);
		goto done;
	}
	if (session_key(&s) < 0)
		goto done;
	/* A graph is no report: it already shows whom each namespace lists. */
	if (!o->graph && overlay_builtin(&s, ov) < 0)
		goto done;
	s.fc.rewrite = overlay_rewrite;
	s.fc.rewrite_arg = ov;
	if (o->graph)
		ret = graph_model(&s, s.t, argc, argv);
	else if (o->all)
		ret = check_all(&s);
	else
		ret = check_targets(&s, argc, argv);
done:
	/* The report outlives the overlay, which owns the findings. */
	o->rep.builtin = NULL;
	session_free(&s);
	overlay_free(ov);
	return ret;
}
