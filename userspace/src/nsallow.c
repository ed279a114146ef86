// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - "ns:module" records
 */

#include <string.h>

#include "nsallow.h"

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

bool ns_allow_record_ok(const char *s, size_t len, size_t *colon)
{
	size_t i, pos = len;

	for (i = 0; i < len; i++) {
		if (s[i] == ':') {
			if (pos != len)
				return false;
			pos = i;
		} else if (!ident_char(s[i])) {
			return false;
		}
	}
	if (pos == len || pos == 0 || pos > NS_ALLOW_NS_MAX)
		return false;
	if (len - pos - 1 == 0 || len - pos - 1 > NS_ALLOW_MOD_MAX)
		return false;
	*colon = pos;
	return true;
}

int ns_allow_walk(const char *data, size_t size, size_t *bad_offset,
		  void (*fn)(const char *rec, size_t colon, void *arg),
		  void *arg)
{
	size_t off, len, colon;

	/* SHT_NOBITS: zeros, so an empty string at offset 0. */
	if (!data && size) {
		*bad_offset = 0;
		return -1;
	}
	for (off = 0; off < size; off += len + 1) {
		len = strnlen(data + off, size - off);
		if (off + len == size ||
		    !ns_allow_record_ok(data + off, len, &colon)) {
			*bad_offset = off;
			return -1;
		}
		fn(data + off, colon, arg);
	}
	return 0;
}
