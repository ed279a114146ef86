// SPDX-License-Identifier: GPL-2.0
/*
 * A livepatch in the shape of samples/livepatch/livepatch-sample.c: it
 * replaces version_proc_show() (/proc/version), and the new function
 * calls vmlinux's test_ns_allow_fn, of TEST_NS_ALLOW, which vmlinux
 * restricts to another module. The loader judges a livepatch as listed by every owner (the
 * rst, "What a restriction means"), so this loads when signed with a
 * built-in key; vmlinux's grants bind to the signature, so an unsigned
 * copy is refused.
 */
#include <linux/livepatch.h>
#include <linux/seq_file.h>
#include "nsa.h"

static int nsa_version_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "nsa_livepatch test_ns_allow_fn() = %d\n",
		   test_ns_allow_fn());
	return 0;
}

static struct klp_func funcs[] = {
	{
		.old_name = "version_proc_show",
		.new_func = nsa_version_proc_show,
	}, { }
};

static struct klp_object objs[] = {
	{
		/* name being NULL means vmlinux */
		.funcs = funcs,
	}, { }
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
};

static int __init nsa_livepatch_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit nsa_livepatch_exit(void)
{
}

module_init(nsa_livepatch_init);
module_exit(nsa_livepatch_exit);
MODULE_IMPORT_NS(TEST_NS_ALLOW);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MODULE_DESCRIPTION("a livepatch that calls a restricted vmlinux export");
