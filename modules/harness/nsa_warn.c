// SPDX-License-Identifier: GPL-2.0
/*
 * Hits WARN_ON() at load. No suite loads it: it is there to show that the
 * harness fails a run whose console holds a kernel report even when every
 * test passes (NSA_HARNESS_SELFTEST=warn, see bats/000-guest.bats).
 */
#include <linux/module.h>

static int __init nsa_warn_init(void)
{
	WARN_ON(1);
	return 0;
}
module_init(nsa_warn_init);

static void __exit nsa_warn_exit(void)
{
}
module_exit(nsa_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("triggers WARN_ON to test the harness");
