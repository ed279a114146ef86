// SPDX-License-Identifier: GPL-2.0
/* Imports NSA_RESTR but nsa_exp does not list it: refused. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#include "nsa_importer.h"
