/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of the symbol_get() loop modules of the stress suite. Writing
 * N to the "run" parameter makes N rounds, each one symbol_get() and
 * symbol_put() of
 *   nsa_stress_fn     NSA_STRESS, restricted; its owner comes and goes
 *   nsa_open_fn       NSA_OPEN, open; nsa_open_exp stays loaded
 * and, with NSA_GETLOOP_REFUSED defined,
 *   test_ns_allow_fn  TEST_NS_ALLOW, restricted by vmlinux to another
 *                     module: always refused
 * and counts in read-only parameters how many returned the symbol and
 * how many NULL. The suite reads the counts and judges them. Only the
 * refused module tries vmlinux's symbol: each refusal logs a line, and
 * the listed module's loop runs unthrottled.
 */
#include "nsa.h"
#include <linux/atomic.h>

static atomic_long_t counts[6];
#define NSA_COUNT(name, i)						\
	static int get_##name(char *buf, const struct kernel_param *kp)	\
	{								\
		return sysfs_emit(buf, "%ld\n",				\
				  atomic_long_read(&counts[i]));	\
	}								\
	static const struct kernel_param_ops name##_ops = {		\
		.get = get_##name,					\
	};								\
	module_param_cb(name, &name##_ops, NULL, 0444)

NSA_COUNT(got_restricted, 0);
NSA_COUNT(null_restricted, 1);
NSA_COUNT(got_open, 2);
NSA_COUNT(null_open, 3);
NSA_COUNT(got_vmlinux, 4);
NSA_COUNT(null_vmlinux, 5);

/* symbol_get() is a macro over the name: one function per symbol. */
#define NSA_GET_PUT(sym, i)						\
	do {								\
		int (*fn)(void) = symbol_get(sym);			\
									\
		atomic_long_inc(&counts[fn ? (i) : (i) + 1]);		\
		if (fn) {						\
			fn();						\
			symbol_put(sym);				\
		}							\
	} while (0)

static int nsa_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		NSA_GET_PUT(nsa_stress_fn, 0);
		NSA_GET_PUT(nsa_open_fn, 2);
#ifdef NSA_GETLOOP_REFUSED
		NSA_GET_PUT(test_ns_allow_fn, 4);
#endif
		cond_resched();
	}
	return 0;
}

static const struct kernel_param_ops run_ops = {
	.set = nsa_run,
};
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: N rounds of symbol_get()/symbol_put()");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("symbol_get()/symbol_put() loop for the stress suite");
