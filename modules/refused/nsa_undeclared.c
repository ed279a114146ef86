// SPDX-License-Identifier: GPL-2.0
/* Uses nsa_fn2, whose owner nsa_exp2 does not declare NSA_RESTR. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn2
#include "nsa_importer.h"
