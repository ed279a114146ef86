// SPDX-License-Identifier: GPL-2.0
/* Not on nsa_formod_fn's list: refused, with no import to add. */
#define NSA_USES nsa_formod_fn
#include "nsa_importer.h"
