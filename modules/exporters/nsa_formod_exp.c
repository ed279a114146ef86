// SPDX-License-Identifier: GPL-2.0
/*
 * A per-symbol list as Linux 6.16+ code writes it: nsa_formod_fn for kvm
 * and the kvm-* family alone ('-' and '_' compare equal).
 */
#include "nsa.h"

int nsa_formod_fn(void)
{
	return 6;
}
EXPORT_SYMBOL_FOR_MODULES(nsa_formod_fn, "kvm,kvm-*");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports a symbol for a list of modules");
