// SPDX-License-Identifier: GPL-2.0
/* The smallest module: proves insmod, rmmod and dmesg work in the guest. */
#include <linux/module.h>

static int __init nsa_hello_init(void)
{
	pr_info("nsa_hello: loaded\n");
	return 0;
}
module_init(nsa_hello_init);

static void __exit nsa_hello_exit(void)
{
	pr_info("nsa_hello: unloaded\n");
}
module_exit(nsa_hello_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("trivial module for the guest's self-test");
