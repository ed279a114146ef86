// SPDX-License-Identifier: GPL-2.0
/* __symbol_get() of an open namespace's symbol, pristine 6.1 build. */
#define NSA_OLD_GET "nsa_open_fn"
#include "nsa_importer.h"
