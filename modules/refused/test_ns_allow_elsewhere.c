// SPDX-License-Identifier: GPL-2.0
/* Listed by vmlinux, not by nsa_else_exp which owns nsa_else_fn. */
#define NSA_IMPORTS TEST_NS_ALLOW_ELSEWHERE
#define NSA_USES nsa_else_fn
#include "nsa_importer.h"
