// SPDX-License-Identifier: GPL-2.0
/* Not listed: symbol_request() of a restricted symbol returns NULL. */
#define NSA_SYMBOL_REQUEST nsa_fn
#include "nsa_importer.h"
