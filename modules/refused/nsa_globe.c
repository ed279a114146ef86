// SPDX-License-Identifier: GPL-2.0
/* nsa_globe does not start with nsa_glob_: refused. */
#define NSA_IMPORTS NSA_GLOB
#define NSA_USES nsa_glob_fn
#include "nsa_importer.h"
