// SPDX-License-Identifier: GPL-2.0
/* File nsa-dash.ko, module nsa_dash, listed as nsa_dash: loads. */
#define NSA_IMPORTS NSA_RESTR
#define NSA_USES nsa_fn
#include "nsa_importer.h"
