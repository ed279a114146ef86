// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --all - every module depmod keeps, each against all the others
 */

#include <stdlib.h>

#include "cmd.h"
#include "verdict.h"

int check_all(struct session *s)
{
	const struct tree *t = s->t;
	const struct object **self = xcalloc(t->n_files, sizeof(*self));
	struct nsmod **mods = xcalloc(t->n_files, sizeof(*mods));
	struct report *rep = &s->o->rep;
	enum status status;
	size_t i, n = 0;

	for (i = 0; i < t->n_files; i++) {
		if (t->files[i].chosen)
			mods[n++] = filecache_get(&s->fc, t->files[i].path);
	}
	cmd_warn_no_symvers(s->k);
	for (i = 0; i < n; i++) {
		if (!mods[i]->error)
			self[i] = kernel_load(s->k, mods[i],
					      verdict_proprietary(mods[i]));
	}
	report_begin(rep);
	for (i = 0; i < n; i++)
		cmd_check_one(s, mods[i], self[i], "given", true, &status);
	report_end(rep);
	free(mods);
	free(self);
	return cmd_exit_status(rep);
}

int cmd_all(struct opts *o, int argc, char *argv[])
{
	struct session s;
	int ret = EXIT_ERROR;

	(void)argc, (void)argv;
	if (session_init(&s, o) == 0 && session_vmlinux(&s) == 0 &&
	    session_tree(&s) == 0)
		ret = check_all(&s);
	session_free(&s);
	return ret;
}
