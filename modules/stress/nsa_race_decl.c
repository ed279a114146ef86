// SPDX-License-Identifier: GPL-2.0
/*
 * Exports into TEST_NS_UNDECLARED and declares it: while it is loaded,
 * vmlinux's test_ns_undeclared_fn, which vmlinux does not declare, is
 * refused as undeclared (row 6).
 */
#include "nsa.h"

int nsa_race_fn(void)
{
	return 5;
}
EXPORT_SYMBOL_NS_GPL(nsa_race_fn, TEST_NS_UNDECLARED);

MODULE_NAMESPACE_ALLOW(TEST_NS_UNDECLARED, nsa_nobody);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports into and declares a namespace vmlinux exports into");
