// SPDX-License-Identifier: GPL-2.0
/* Listed by nsa_stress_exp: loads whenever the exporter is there. */
#define NSA_IMPORTS NSA_STRESS
#define NSA_USES nsa_stress_fn
#include "nsa_importer.h"
