// SPDX-License-Identifier: GPL-2.0
/*
 * On the list, but imports the module: namespace explicitly, which no
 * module may: refused with -EPERM.
 */
#define NSA_USES nsa_formod_fn
#include "nsa_importer.h"

MODULE_INFO(import_ns, "module:kvm,kvm-*");
