// SPDX-License-Identifier: GPL-2.0
/* A name that starts with a digit, listed: loads. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#include "nsa_importer.h"
