// SPDX-License-Identifier: GPL-2.0
/* Granted by the prefix nsa_glob_*: loads. */
#define NSA_IMPORTS NSA_GLOB
#define NSA_USES nsa_glob_fn
#include "nsa_importer.h"
