// SPDX-License-Identifier: GPL-2.0
/* Uses vmlinux's TEST_NS_UNDECLARED symbol: refused while nsa_race_decl is loaded. */
#define NSA_IMPORTS TEST_NS_UNDECLARED
#define NSA_USES test_ns_undeclared_fn
#include "nsa_importer.h"
