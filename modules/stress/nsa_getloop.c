// SPDX-License-Identifier: GPL-2.0
/* Listed for NSA_STRESS: its symbol_get() of nsa_stress_fn is never refused. */
#include "nsa_getloop.h"
