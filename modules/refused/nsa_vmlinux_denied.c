// SPDX-License-Identifier: GPL-2.0
/* Imports TEST_NS_ALLOW, which vmlinux restricts to others. */
#define NSA_IMPORTS TEST_NS_ALLOW
#define NSA_USES test_ns_allow_fn
#include "nsa_importer.h"
