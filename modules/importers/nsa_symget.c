// SPDX-License-Identifier: GPL-2.0
/* Listed: symbol_get() of a restricted symbol succeeds. */
#define NSA_SYMBOL_GET nsa_fn
#include "nsa_importer.h"
