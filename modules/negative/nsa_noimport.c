// SPDX-License-Identifier: GPL-2.0
/* Listed by nsa_exp, but does not import NSA_RESTR. */
#define NSA_USES nsa_fn
#include "nsa_importer.h"
