// SPDX-License-Identifier: GPL-2.0
/* NSA_OPEN: exported into a namespace, restricted by nobody. */
#include "nsa.h"

int nsa_open_fn(void)
{
	return 1;
}
EXPORT_SYMBOL_NS_GPL(nsa_open_fn, NSA_OPEN);

int nsa_open_fn_nongpl(void)
{
	return 2;
}
EXPORT_SYMBOL_NS(nsa_open_fn_nongpl, NSA_OPEN);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports into an open namespace");
