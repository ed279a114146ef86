// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcp_yeah: uses tcp_slow_start(), which the patched kernel exports into the
 * restricted namespace tcpcong. vmlinux lists tcp_yeah (a module of that name,
 * as DKMS replacement drivers are): the kernel loads it.
 */
#include <linux/module.h>
#include <net/tcp.h>

static u32 (*const slow_start)(struct tcp_sock *, u32) = tcp_slow_start;

static int __init tcp_yeah_init(void)
{
	return slow_start ? 0 : -ENODEV;
}
module_init(tcp_yeah_init);

static void __exit tcp_yeah_exit(void)
{
}
module_exit(tcp_yeah_exit);

MODULE_IMPORT_NS(tcpcong);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("nscheck's DKMS test module");
