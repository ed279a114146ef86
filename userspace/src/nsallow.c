// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - "ns:module" records and module lists
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nsallow.h"
#include "util.h"

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool name_ok(const char *s, size_t len, size_t max)
{
	size_t i;

	if (!len || len > max)
		return false;
	for (i = 0; i < len; i++) {
		if (!ident_char(s[i]))
			return false;
	}
	return true;
}

bool ns_allow_record_ok(const char *s, size_t len, size_t *colon)
{
	const char *c = memchr(s, ':', len);
	size_t pos, mlen;

	if (!c)
		return false;
	pos = c - s;
	mlen = len - pos - 1;
	/* ns_allow_module_ok(): one trailing '*' makes it a prefix. */
	if (mlen && s[len - 1] == '*')
		mlen--;
	if (!name_ok(s, pos, NS_ALLOW_NS_MAX) ||
	    !name_ok(c + 1, mlen, NS_ALLOW_MOD_MAX))
		return false;
	*colon = pos;
	return true;
}

bool ns_allow_is_prefix(const char *mod)
{
	size_t len = strlen(mod);

	return len && mod[len - 1] == '*';
}

bool ns_allow_grants(const char *mod, const char *name)
{
	/* Byte for byte: record names and mod->name are normalised. */
	if (ns_allow_is_prefix(mod))
		return !strncmp(name, mod, strlen(mod) - 1);
	return streq(mod, name);
}

bool ns_is_module_list(const char *ns)
{
	return strstartswith(ns, MODULE_NS_PREFIX);
}

static char unify(char c)
{
	return c == '-' ? '_' : c;
}

/* mod_strncmp(): n bytes at most, '-' and '_' alike. */
static bool mod_equal(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (unify(*a) != unify(*b))
			return false;
		if (!*a)
			break;
	}
	return true;
}

bool ns_module_list_match(const char *modname, const char *p)
{
	const char *comma;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len && p[len - 1] == '*') {
			if (mod_equal(modname, p, len - 1))
				return true;
		} else if (len && strlen(modname) == len &&
			   mod_equal(modname, p, len)) {
			return true;
		}
		if (!comma)
			return false;
		p = comma + 1;
	}
}

/* Why one side of a record is not a name; NULL when it is one. */
static char *side_why(const char *what, const char *s, size_t len,
		      size_t max, bool module)
{
	size_t i;

	if (!len)
		return xasprintf("an empty %s", what);
	if (len > max)
		return xasprintf("a %s of %zu characters, more than %zu", what,
				 len, max);
	for (i = 0; i < len; i++) {
		if (ident_char(s[i]))
			continue;
		if (module && s[i] == ':')
			return xstrdup("a second ':'");
		if (module && s[i] == '-')
			return xstrdup("'-' in the module name: module names "
				       "use '_', as the kernel's mod->name");
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return xasprintf("byte 0x%02x in the %s: only letters, "
					 "digits and '_'", (unsigned char)s[i],
					 what);
		return xasprintf("'%c' in the %s: only letters, digits and "
				 "'_'%s", s[i], what,
				 module ? " (and one final '*')" : "");
	}
	return NULL;
}

char *ns_allow_why(const char *data, size_t size, size_t off)
{
	size_t len, mlen;
	const char *c;
	char *rec, *why, *out;

	if (!data)
		return xstrdup("the section is SHT_NOBITS: it reads as zeros, "
			       "an empty record at offset 0");
	len = strnlen(data + off, size - off);
	if (!len)
		return xasprintf("an empty record at offset %zu (two NULs in "
				 "a row, or a leading one)", off);
	rec = strndup(data + off, len);
	if (!rec)
		abort();
	if (off + len == size) {
		why = xstrdup("no NUL after it: the section must end with one");
	} else if (!(c = memchr(data + off, ':', len))) {
		why = xstrdup("no ':' between the namespace and the module");
	} else {
		mlen = len - (c - (data + off)) - 1;
		if (mlen && data[off + len - 1] == '*')
			mlen--;
		why = side_why("namespace", data + off, c - (data + off),
			       NS_ALLOW_NS_MAX, false);
		if (!why)
			why = side_why("module name", c + 1, mlen,
				       NS_ALLOW_MOD_MAX, true);
		if (!why)
			why = xstrdup("not a record");
		else if (strstartswith(why, "'-' in the module")) {
			/* The record as the kernel wants it. */
			char *fixed = xstrdup(rec), *p, *t;

			for (p = strchr(fixed, ':') + 1; *p; p++)
				*p = *p == '-' ? '_' : *p;
			t = xasprintf("%s (%s)", why, fixed);
			free(fixed);
			free(why);
			why = t;
		}
	}
	out = xquote(rec, 80);
	free(rec);
	rec = out;
	out = xasprintf("record `%s' at offset %zu: %s", rec, off, why);
	free(rec);
	free(why);
	return out;
}

int ns_allow_walk(const char *data, size_t size, size_t *bad_offset,
		  void (*fn)(const char *rec, size_t colon, void *arg),
		  void *arg)
{
	size_t off, len, colon;

	/* SHT_NOBITS: zeros, so an empty string at offset 0. */
	if (!data && size) {
		*bad_offset = 0;
		return -EINVAL;
	}
	for (off = 0; off < size; off += len + 1) {
		len = strnlen(data + off, size - off);
		if (off + len == size ||
		    !ns_allow_record_ok(data + off, len, &colon)) {
			*bad_offset = off;
			return -EINVAL;
		}
		fn(data + off, colon, arg);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, duplicates dropped; returns the new length. */
static size_t sort_unique(char **v, size_t n)
{
	size_t i, k = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		if (k && streq(v[k - 1], v[i]))
			free(v[i]);
		else
			v[k++] = v[i];
	}
	return k;
}

static char *why(const char *pre, const char *s, const char *post)
{
	char *q = xquote(s, 80), *r = xasprintf("%s%s%s", pre, q, post);

	free(q);
	return r;
}

/*
 * ns_allow_match_modinfo(): a value that cannot be a record (no ':', or
 * the last string of .modinfo without its NUL) fails at once; then both
 * sides are sets of strings.
 */
char *ns_allow_disagree(const struct nsmod *m)
{
	size_t nv = m->n_allow_values, nr = m->n_grants, i, j;
	char **vals, **recs, *reason = NULL;

	for (i = 0; i < nv; i++) {
		const char *v = m->allow_values[i];

		if (i + 1 == nv && m->allow_unterminated)
			return why("allow_ns=", v, " is not NUL-terminated "
				   "(it ends .modinfo)");
		if (!strchr(v, ':'))
			return why("allow_ns=", v, " has no ':'");
	}
	vals = xcalloc(nv, sizeof(*vals));
	recs = xcalloc(nr, sizeof(*recs));
	for (i = 0; i < nv; i++)
		vals[i] = xstrdup(m->allow_values[i]);
	for (i = 0; i < nr; i++)
		recs[i] = xasprintf("%s:%s", m->grants[i].ns,
				    m->grants[i].mod);
	nv = sort_unique(vals, nv);
	nr = sort_unique(recs, nr);
	for (i = j = 0; !reason && (i < nv || j < nr);) {
		int c = i == nv ? 1 : j == nr ? -1 : strcmp(vals[i], recs[j]);

		if (c < 0)
			reason = why("allow_ns=", vals[i], " is not a record");
		else if (c > 0)
			reason = why("the record ", recs[j], " has no allow_ns=");
		i += c <= 0;
		j += c >= 0;
	}
	for (i = 0; i < nv; i++)
		free(vals[i]);
	for (j = 0; j < nr; j++)
		free(recs[j]);
	free(vals);
	free(recs);
	return reason;
}

const char *ns_records_message(enum ns_records r)
{
	switch (r) {
	case NSREC_TWO_SECTIONS:
		return "more than one __ns_allow section";
	case NSREC_NOT_ALLOC:
		return "__ns_allow section is not allocated";
	case NSREC_WRITABLE:
		return "__ns_allow section is writable";
	case NSREC_RELOCATED:
		return "relocations target the __ns_allow section";
	case NSREC_MODINFO:
		return "modinfo allow_ns= entries do not match the __ns_allow "
		       "records";
	default:
		return "malformed namespace allow record";
	}
}
