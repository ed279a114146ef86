// SPDX-License-Identifier: GPL-2.0
/* Not listed: symbol_get() of a restricted symbol returns NULL. */
#define NSA_SYMBOL_GET nsa_fn
#include "nsa_importer.h"
