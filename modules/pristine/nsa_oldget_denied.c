// SPDX-License-Identifier: GPL-2.0
/* __symbol_get("nsa_fn") from a pristine 6.1 build, not listed. */
#define NSA_OLD_GET "nsa_fn"
#include "nsa_importer.h"
