// SPDX-License-Identifier: GPL-2.0
/*
 * Times iterations= symbol_get()/symbol_put() pairs of a symbol of
 * bench_exp: with kind=restricted of bench_fn_0, in BENCH_NS, which
 * bench_exp restricts and lets this module use; kind=open of
 * bench_open_fn, in BENCH_OPEN, which nobody restricts; kind=none of
 * bench_plain_fn, which is in no namespace.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/string.h>

int bench_fn_0(void);
int bench_open_fn(void);
int bench_plain_fn(void);

static unsigned int iterations = 10000;
module_param(iterations, uint, 0444);
static char *kind = "restricted";
module_param(kind, charp, 0444);

enum bench_kind { BENCH_RESTRICTED, BENCH_OPEN, BENCH_NONE };
static const char * const bench_kinds[] = { "restricted", "open", "none" };

/* symbol_get() takes the symbol's name from its argument: one per kind */
static bool bench_get_put(enum bench_kind which)
{
	switch (which) {
	case BENCH_RESTRICTED:
		if (!symbol_get(bench_fn_0))
			return false;
		symbol_put(bench_fn_0);
		break;
	case BENCH_OPEN:
		if (!symbol_get(bench_open_fn))
			return false;
		symbol_put(bench_open_fn);
		break;
	case BENCH_NONE:
		if (!symbol_get(bench_plain_fn))
			return false;
		symbol_put(bench_plain_fn);
		break;
	}
	return true;
}

static int __init bench_symget_init(void)
{
	int which = match_string(bench_kinds, ARRAY_SIZE(bench_kinds), kind);
	unsigned int i;
	u64 t0, t1;

	if (which < 0) {
		pr_err("bench_symget: kind=%s: restricted, open or none\n", kind);
		return -EINVAL;
	}
	t0 = ktime_get_ns();
	for (i = 0; i < iterations; i++)
		if (!bench_get_put(which))
			return -EACCES;
	t1 = ktime_get_ns();
	pr_info("bench_symget: %s %u pairs in %llu ns\n", kind, iterations,
		t1 - t0);
	return 0;
}
module_init(bench_symget_init);

static void __exit bench_symget_exit(void)
{
}
module_exit(bench_symget_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("times symbol_get()/symbol_put() of a restricted, an open or a plain symbol");
