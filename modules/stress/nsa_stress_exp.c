// SPDX-License-Identifier: GPL-2.0
/* NSA_STRESS: loaded and unloaded over and over by the stress suite. */
#include "nsa.h"

int nsa_stress_fn(void)
{
	return 5;
}
EXPORT_SYMBOL_NS_GPL(nsa_stress_fn, NSA_STRESS);

MODULE_NAMESPACE_ALLOW(NSA_STRESS, nsa_stress_user);
MODULE_NAMESPACE_ALLOW(NSA_STRESS, nsa_getloop);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports into NSA_STRESS and lists its users");
