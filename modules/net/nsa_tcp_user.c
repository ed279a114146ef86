// SPDX-License-Identifier: GPL-2.0
/*
 * An out-of-tree module reaching for a TCP internal that vmlinux exports
 * into the tcp namespace for ipv6 alone: refused, import or not.
 */
#include <linux/module.h>
#include <net/tcp.h>

MODULE_IMPORT_NS(tcp);

static int __init nsa_tcp_user_init(void)
{
	pr_info("nsa_tcp_user: tcp_mem %ld\n", sysctl_tcp_mem[0]);
	return 0;
}
module_init(nsa_tcp_user_init);

static void __exit nsa_tcp_user_exit(void)
{
}
module_exit(nsa_tcp_user_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("out-of-tree user of a tcp-namespace symbol");
