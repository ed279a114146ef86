// SPDX-License-Identifier: GPL-2.0
/* NSA_GLOB: granted to a family of modules by a prefix. */
#include "nsa.h"

int nsa_glob_fn(void)
{
	return 7;
}
EXPORT_SYMBOL_NS_GPL(nsa_glob_fn, NSA_GLOB);

MODULE_NAMESPACE_ALLOW(NSA_GLOB, nsa_glob_*);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("grants its namespace to every module named nsa_glob_*");
