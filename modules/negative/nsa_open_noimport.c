// SPDX-License-Identifier: GPL-2.0
/* Uses an open namespace's symbol without importing it. */
#define NSA_USES nsa_open_fn
#include "nsa_importer.h"
