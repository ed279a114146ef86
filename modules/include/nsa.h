/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test modules share: the names of the test namespaces and the
 * prototypes of the symbols the exporters put in them.
 *
 * NSA_OPEN   an ordinary 6.1 namespace: nobody restricts it.
 * NSA_RESTR  restricted: nsa_exp exports into it and lists its users.
 * NSA_STRESS restricted: nsa_stress_exp, for the stress suite.
 * NSA_GLOB   restricted: nsa_glob_exp lists the prefix nsa_glob_*.
 * module:kvm,kvm-*  nsa_formod_exp's EXPORT_SYMBOL_FOR_MODULES() list.
 * TEST_NS_ALLOW, TEST_NS_ALLOW_ELSEWHERE  declared by vmlinux
 *            (lib/test_ns_allow.c, CONFIG_TEST_NS_ALLOW).
 * TEST_NS_UNDECLARED  vmlinux exports into it without declaring it;
 *            nsa_race_decl declares it (the stress suite's load order).
 */
#ifndef NSA_H
#define NSA_H

#include <linux/module.h>

int nsa_open_fn(void);
int nsa_open_fn_nongpl(void);
int nsa_fn(void);
int nsa_fn_nongpl(void);
int nsa_fn2(void);
int nsa_else_fn(void);
int nsa_stress_fn(void);
int nsa_glob_fn(void);
int nsa_formod_fn(void);
int test_ns_allow_fn(void);
int test_ns_undeclared_fn(void);
int nsa_race_fn(void);

#ifndef MODULE_NAMESPACE_ALLOW
/*
 * Built against pristine 6.1 headers: emit the same record and modinfo
 * entry as the patched macro, so the same module can be tried on a
 * pristine kernel (which ignores them) and on the patched one.
 */
#define MODULE_NAMESPACE_ALLOW(ns, module)				\
	static const char __UNIQUE_ID(ns_allow)[]			\
		__used __section("__ns_allow") __aligned(1)		\
		= __stringify(ns) ":" #module;				\
	MODULE_INFO(allow_ns, __stringify(ns) ":" #module)
#endif

#endif /* NSA_H */
