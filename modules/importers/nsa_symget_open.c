// SPDX-License-Identifier: GPL-2.0
/* symbol_get() of an open namespace's symbol, no import needed. */
#define NSA_SYMBOL_GET nsa_open_fn
#include "nsa_importer.h"
