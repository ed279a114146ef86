// SPDX-License-Identifier: GPL-2.0
/* kvm_amd, on the list as "kvm-*": loads, with no import. */
#define NSA_USES nsa_formod_fn
#include "nsa_importer.h"
