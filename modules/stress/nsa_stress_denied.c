// SPDX-License-Identifier: GPL-2.0
/* Not listed by the owner (only by nsa_stress_lister): never loads. */
#define NSA_IMPORTS NSA_STRESS
#define NSA_USES nsa_stress_fn
#include "nsa_importer.h"
