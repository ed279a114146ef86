// SPDX-License-Identifier: GPL-2.0
/* On nsa_formod_fn's list by its exact name: loads, with no import. */
#define NSA_USES nsa_formod_fn
#include "nsa_importer.h"
