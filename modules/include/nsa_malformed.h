/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grant records written by hand, not by MODULE_NAMESPACE_ALLOW(), to check
 * that the loader validates them. The including file defines NSA_BAD_RECORD;
 * it is the module's only record, so it starts at offset 0.
 */
#include "nsa.h"

static const char nsa_bad[] __used __section("__ns_allow") __aligned(1) =
	NSA_BAD_RECORD;

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("carries a malformed namespace grant record");
