// SPDX-License-Identifier: GPL-2.0
/*
 * Lists nsa_stress_denied for NSA_STRESS, a namespace it exports nothing
 * into: a grant that must never count, whenever it comes and goes.
 */
#include "nsa.h"

MODULE_NAMESPACE_ALLOW(NSA_STRESS, nsa_stress_denied);
MODULE_NAMESPACE_ALLOW(NSA_STRESS, nsa_getloop_denied);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("declares grants for someone else's namespace");
