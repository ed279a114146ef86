// SPDX-License-Identifier: GPL-2.0
/* A grant record without a colon. */
#define NSA_BAD_RECORD "NSA_RESTR"
#include "nsa_malformed.h"
