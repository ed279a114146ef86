// SPDX-License-Identifier: GPL-2.0
/* Not GPL-compatible, listed, GPL-only symbol: invisible to it. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#define NSA_LICENSE "Proprietary"
#include "nsa_importer.h"
