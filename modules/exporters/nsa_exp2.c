// SPDX-License-Identifier: GPL-2.0
/* A second exporter into NSA_RESTR that does not declare it. */
#include "nsa.h"

int nsa_fn2(void)
{
	return 5;
}
EXPORT_SYMBOL_NS_GPL(nsa_fn2, NSA_RESTR);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports into NSA_RESTR without declaring it");
