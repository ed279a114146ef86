/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the "ns:module" records of MODULE_NAMESPACE_ALLOW(), checked
 * as the patched kernel checks a module's __ns_allow section, and the
 * names they and EXPORT_SYMBOL_FOR_MODULES() lists grant.
 */
#ifndef NSCHECK_NSALLOW_H
#define NSCHECK_NSALLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "nsmod.h"

#define NS_ALLOW_NS_MAX 127	/* namespace side */
#define NS_ALLOW_MOD_MAX 55	/* MODULE_NAME_LEN - 1 on 64-bit */
#define MODULE_NS_PREFIX "module:"	/* EXPORT_SYMBOL_FOR_MODULES() */

/*
 * One record of len bytes (no NUL in it). True when it is
 * "<ns>:<module>" or "<ns>:<prefix>*", both names in [A-Za-z0-9_], of
 * 1..127 and 1..55 characters; *colon is then the offset of the ':'.
 */
bool ns_allow_record_ok(const char *s, size_t len, size_t *colon);

/* A grant's module side that ends in '*': every name it starts. */
bool ns_allow_is_prefix(const char *mod);

/* Whether grant mod (a name, or a prefix with its '*') lets name in. */
bool ns_allow_grants(const char *mod, const char *name);

/* A "module:<list>" namespace: its own allow-list. */
bool ns_is_module_list(const char *ns);

/*
 * Whether modname is on an EXPORT_SYMBOL_FOR_MODULES() list (the part
 * after "module:"): comma-separated names, each may end in '*'; '-' and
 * '_' compare equal (mainline's mod_strncmp()).
 */
bool ns_module_list_match(const char *modname, const char *patterns);

/*
 * Walk a whole __ns_allow section of size bytes, as the kernel does, and
 * call fn for each record. data is NULL for an SHT_NOBITS section, which
 * the kernel reads as zeros. Returns 0, or -EINVAL with *bad_offset set
 * to the offset of the first string that is not a record or has no NUL.
 */
int ns_allow_walk(const char *data, size_t size, size_t *bad_offset,
		  void (*fn)(const char *rec, size_t colon, void *arg),
		  void *arg);

/*
 * What is wrong with the string at bad_offset of a section that
 * ns_allow_walk() refused, for a person: the record, quoted, and why
 * (malloc'd). data and size as ns_allow_walk() had them.
 */
char *ns_allow_why(const char *data, size_t size, size_t bad_offset);

/*
 * The kernel's last check of the records: the set of modinfo allow_ns=
 * values must be the set of records. NULL when they agree, else a
 * malloc'd reason.
 */
char *ns_allow_disagree(const struct nsmod *m);

/* The kernel's text for a refused section (after "R: "). */
const char *ns_records_message(enum ns_records r);

#endif
