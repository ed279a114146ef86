// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --live - against the running kernel: the modules loaded now
 * and the loader's own index; with --graph, that system as DOT
 */

#include "cmd.h"
#include "live.h"
#include "log.h"

/* A model of the running kernel: vmlinux's exports, then what is live. */
static struct kernel *live_model(const struct live *lv, struct kdesc *kd)
{
	struct kernel *k = kernel_new();
	char *err = NULL;
	int r;

	kd->no_grants = true;
	r = vmlinux_read(k, kd, &err);
	if (r < 0) {
		cmd_error(r, err);
		kernel_free(k);
		return NULL;
	}
	live_apply(lv, k);
	return k;
}

/*
 * The arguments loaded one after the other, or each on its own (--each):
 * then a model as the system is, again when the last argument loaded
 * something into it (a name's dependencies).
 */
static int live_check(struct session *s, struct live *lv, int argc,
		      char *argv[])
{
	struct opts *o = s->o;
	struct planner p;
	int i, errors = 0;
	bool changed = false;

	report_begin(&o->rep);
	for (i = 0; i < argc; i++) {
		if (!s->k || changed) {
			kernel_free(s->k);
			s->k = live_model(lv, &s->kd);
			if (!s->k) {
				errors++;
				break;
			}
			if (!i)
				cmd_warn_no_symvers(s->k);
		}
		planner_init(&p, s->k, s->t, &s->fc);
		p.insmod = true;
		errors += cmd_check_plan(s, &p, argv[i], o->each,
					 &changed) < 0;
		changed &= o->each;
		planner_free(&p);
	}
	report_end(&o->rep);
	return errors ? EXIT_ERROR : cmd_exit_status(&o->rep);
}

static int run_live(struct session *s, int argc, char *argv[])
{
	struct opts *o = s->o;
	struct live_opts lo = {
		.root = o->root ? o->root : "",
		.external = o->external.v,
		.n_external = o->external.n,
		.t = s->t,
	};
	struct live lv;
	char *err = NULL;
	int r, ret = EXIT_ERROR;

	r = live_read(&lv, &lo, &err);
	if (r < 0) {
		cmd_error(r, err);
		goto done;
	}
	if (cmd_read_key(o) < 0)
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
	s->fc.key = o->key;
	if (o->graph) {
		s->k = live_model(&lv, &s->kd);
		if (s->k)
			ret = graph_model(s, NULL, 0, NULL);
		goto done;
	}
	ret = live_check(s, &lv, argc, argv);
done:
	/* The model may hold lv's modules: gone before them. */
	kernel_free(s->k);
	s->k = NULL;
	live_free(&lv);
	return ret;
}

int cmd_live(struct opts *o, int argc, char *argv[])
{
	struct session s;
	int ret = EXIT_ERROR;

	if (session_init(&s, o) == 0 && session_tree(&s) == 0)
		ret = run_live(&s, argc, argv);
	session_free(&s);
	return ret;
}
