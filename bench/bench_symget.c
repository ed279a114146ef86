// SPDX-License-Identifier: GPL-2.0
/*
 * Times iterations= symbol_get()/symbol_put() pairs of bench_fn_0, a
 * symbol of the restricted BENCH_NS that bench_exp lets this module use,
 * or with open=1 of bench_open_fn, a symbol of BENCH_OPEN, which nobody
 * restricts.
 */
#include <linux/ktime.h>
#include <linux/module.h>

int bench_fn_0(void);
int bench_open_fn(void);

static unsigned int iterations = 10000;
module_param(iterations, uint, 0444);
static bool open;
module_param(open, bool, 0444);

static int __init bench_symget_init(void)
{
	unsigned int i;
	u64 t0, t1;

	t0 = ktime_get_ns();
	for (i = 0; i < iterations; i++) {
		if (open) {
			if (!symbol_get(bench_open_fn))
				return -EACCES;
			symbol_put(bench_open_fn);
		} else {
			if (!symbol_get(bench_fn_0))
				return -EACCES;
			symbol_put(bench_fn_0);
		}
	}
	t1 = ktime_get_ns();
	pr_info("bench_symget: %s %u pairs in %llu ns\n",
		open ? "open" : "restricted", iterations, t1 - t0);
	return 0;
}
module_init(bench_symget_init);

static void __exit bench_symget_exit(void)
{
}
module_exit(bench_symget_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("times symbol_get()/symbol_put() of a restricted or an open symbol");
