/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of every importer test module. A module's own .c file only
 * says what it imports and how it reaches the symbol, then includes this:
 *
 *   NSA_IMPORTS ns        MODULE_IMPORT_NS(ns)
 *   NSA_LICENSE "..."     its license (default "GPL")
 * and one of
 *   NSA_USES sym          a plain reference, resolved at load
 *   NSA_SYMBOL_GET sym    symbol_get() at init, symbol_put() at exit
 *   NSA_SYMBOL_REQUEST sym  symbol_request() at init, symbol_put() at exit
 *   NSA_OLD_GET "name"    __symbol_get("name")/__symbol_put("name"), the
 *                         6.1 entry points as a module built against
 *                         pristine headers calls them
 *
 * A refused symbol_get makes init fail with -EACCES, so the load result
 * tells the test what symbol_get returned.
 */
#include "nsa.h"

#ifdef NSA_IMPORTS
MODULE_IMPORT_NS(NSA_IMPORTS);
#endif

#if defined(NSA_SYMBOL_GET) || defined(NSA_SYMBOL_REQUEST) || defined(NSA_OLD_GET)
#define NSA_RUNTIME 1
static int (*nsa_got)(void);
#endif

static int __init nsa_importer_init(void)
{
#if defined(NSA_USES)
	pr_info("%s: %s() = %d\n", KBUILD_MODNAME, __stringify(NSA_USES), NSA_USES());
#else
#if defined(NSA_SYMBOL_GET)
	nsa_got = symbol_get(NSA_SYMBOL_GET);
#elif defined(NSA_SYMBOL_REQUEST)
	nsa_got = symbol_request(NSA_SYMBOL_REQUEST);
#elif defined(NSA_OLD_GET)
	nsa_got = __symbol_get(NSA_OLD_GET);
#endif
	if (!nsa_got) {
		pr_info("%s: symbol_get returned NULL\n", KBUILD_MODNAME);
		return -EACCES;
	}
	pr_info("%s: got symbol, it returns %d\n", KBUILD_MODNAME, nsa_got());
#endif
	return 0;
}
module_init(nsa_importer_init);

static void __exit nsa_importer_exit(void)
{
#if defined(NSA_SYMBOL_GET)
	symbol_put(NSA_SYMBOL_GET);
#elif defined(NSA_SYMBOL_REQUEST)
	symbol_put(NSA_SYMBOL_REQUEST);
#elif defined(NSA_OLD_GET)
	__symbol_put(NSA_OLD_GET);
#endif
}
module_exit(nsa_importer_exit);

#ifndef NSA_LICENSE
#define NSA_LICENSE "GPL"
#endif
MODULE_LICENSE(NSA_LICENSE);
MODULE_DESCRIPTION("namespace allow-list test importer");
