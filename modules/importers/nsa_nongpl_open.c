// SPDX-License-Identifier: GPL-2.0
/* Not GPL-compatible, non-GPL symbol of an open namespace: loads. */
#define NSA_IMPORTS NSA_OPEN
#define NSA_USES nsa_open_fn_nongpl
#define NSA_LICENSE "Proprietary"
#include "nsa_importer.h"
