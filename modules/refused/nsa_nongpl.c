// SPDX-License-Identifier: GPL-2.0
/* Not GPL-compatible, listed, non-GPL symbol of a restricted namespace. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn_nongpl
#define NSA_LICENSE "Proprietary"
#include "nsa_importer.h"
