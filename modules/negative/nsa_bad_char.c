// SPDX-License-Identifier: GPL-2.0
/* A grant record naming a module with a character outside [A-Za-z0-9_]. */
#define NSA_BAD_RECORD "NSA_RESTR:nsa-user"
#include "nsa_malformed.h"
