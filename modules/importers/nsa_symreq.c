// SPDX-License-Identifier: GPL-2.0
/* Listed: symbol_request() of a restricted symbol succeeds. */
#define NSA_SYMBOL_REQUEST nsa_fn
#include "nsa_importer.h"
