// SPDX-License-Identifier: GPL-2.0
/* On the list as "kvm-*": symbol_get() of nsa_formod_fn succeeds. */
#define NSA_SYMBOL_GET nsa_formod_fn
#include "nsa_importer.h"
