// SPDX-License-Identifier: GPL-2.0
/* Listed by nsa_exp and imports NSA_RESTR: loads. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#include "nsa_importer.h"
