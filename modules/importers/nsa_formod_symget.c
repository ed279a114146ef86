// SPDX-License-Identifier: GPL-2.0
/* Not on the list: symbol_get() of nsa_formod_fn is refused. */
#define NSA_SYMBOL_GET nsa_formod_fn
#include "nsa_importer.h"
