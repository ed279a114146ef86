// SPDX-License-Identifier: GPL-2.0
/* Listed by vmlinux for TEST_NS_ALLOW: loads. */
#define NSA_IMPORTS TEST_NS_ALLOW
#define NSA_USES test_ns_allow_fn
#include "nsa_importer.h"
