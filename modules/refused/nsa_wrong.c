// SPDX-License-Identifier: GPL-2.0
/* Listed for NSA_RESTR by nsa_lister, which does not own nsa_fn. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#include "nsa_importer.h"
