// SPDX-License-Identifier: GPL-2.0
/*
 * Declares grants for namespaces it exports nothing into: they restrict
 * nothing, and can only show up as the "wrong module".
 */
#include "nsa.h"

MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_wrong);
MODULE_NAMESPACE_ALLOW(NSA_OPEN, nsa_nobody);
MODULE_NAMESPACE_ALLOW(TEST_NS_ALLOW_ELSEWHERE, test_ns_allow_elsewhere);

static int __init nsa_lister_init(void)
{
	return 0;
}
module_init(nsa_lister_init);

static void __exit nsa_lister_exit(void)
{
}
module_exit(nsa_lister_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("declares grants for other objects' namespaces");
