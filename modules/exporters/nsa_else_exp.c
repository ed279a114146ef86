// SPDX-License-Identifier: GPL-2.0
/*
 * Exports into TEST_NS_ALLOW_ELSEWHERE and restricts it. vmlinux lists
 * test_ns_allow_elsewhere for that namespace; this owner does not.
 */
#include "nsa.h"

int nsa_else_fn(void)
{
	return 6;
}
EXPORT_SYMBOL_NS_GPL(nsa_else_fn, TEST_NS_ALLOW_ELSEWHERE);

MODULE_NAMESPACE_ALLOW(TEST_NS_ALLOW_ELSEWHERE, nsa_else_user);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("restricts a namespace that vmlinux also declares");
