// SPDX-License-Identifier: GPL-2.0
/* Exports a second nsa_fn into NSA_RESTR and lists itself: refused. */
#include "nsa.h"

int nsa_fn(void)
{
	return 13;
}
EXPORT_SYMBOL_NS_GPL(nsa_fn, NSA_RESTR);

MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_dup);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports a duplicate of a restricted symbol");
