// SPDX-License-Identifier: GPL-2.0
/*
 * An impostor: an out-of-tree module that calls itself ipv6 to use a
 * symbol that vmlinux exports into the tcp namespace for ipv6 alone. Its
 * name is listed; with CONFIG_MODULE_NS_ALLOW_SIG it is refused all the
 * same, for it is not signed with the kernel's key.
 */
#include <linux/module.h>
#include <net/tcp.h>

MODULE_IMPORT_NS(tcp);

static int __init ipv6_impostor_init(void)
{
	pr_info("ipv6 impostor: tcp_mem %ld\n", sysctl_tcp_mem[0]);
	return 0;
}
module_init(ipv6_impostor_init);

static void __exit ipv6_impostor_exit(void)
{
}
module_exit(ipv6_impostor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("not the real ipv6: a listed name, without the signature");
