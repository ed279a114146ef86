/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - the "ns:module" records of MODULE_NAMESPACE_ALLOW(), checked
 * as the patched kernel checks a module's __ns_allow section.
 */
#ifndef NSCHECK_NSALLOW_H
#define NSCHECK_NSALLOW_H

#include <stdbool.h>
#include <stddef.h>

#define NS_ALLOW_NS_MAX 127	/* namespace side */
#define NS_ALLOW_MOD_MAX 55	/* MODULE_NAME_LEN - 1 on 64-bit */

/*
 * One record of len bytes (no NUL in it). True when it is
 * "<ns>:<module>" with both sides in [A-Za-z0-9_], of 1..127 and 1..55
 * characters; *colon is then the offset of the ':'.
 */
bool ns_allow_record_ok(const char *s, size_t len, size_t *colon);

/*
 * Walk a whole __ns_allow section of size bytes, as the kernel does, and
 * call fn for each record. data is NULL for an SHT_NOBITS section, which
 * the kernel reads as zeros. Returns 0, or -1 with *bad_offset set to the
 * offset of the first string that is not a record or has no NUL.
 */
int ns_allow_walk(const char *data, size_t size, size_t *bad_offset,
		  void (*fn)(const char *rec, size_t colon, void *arg),
		  void *arg);

#endif
