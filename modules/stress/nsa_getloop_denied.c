// SPDX-License-Identifier: GPL-2.0
/* Not listed by the owner: its symbol_get() of nsa_stress_fn always fails. */
#define NSA_GETLOOP_REFUSED
#include "nsa_getloop.h"
