// SPDX-License-Identifier: GPL-2.0
/* Imports the open NSA_OPEN: the 6.1 rule, loads. */
#define NSA_IMPORTS NSA_OPEN
#define NSA_USES nsa_open_fn
#include "nsa_importer.h"
