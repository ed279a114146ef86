// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - Module.symvers
 */

#include <errno.h>
#include <ctype.h>
#include <stdlib.h>

#include "symvers.h"
#include "util.h"

#define SYMVERS_FIELDS 5

static bool is_crc(const char *s)
{
	size_t n;

	if (s[0] != '0' || s[1] != 'x')
		return false;
	for (n = 0, s += 2; *s; s++, n++) {
		if (!isxdigit((unsigned char)*s))
			return false;
	}
	return n >= 1 && n <= 16;
}

static bool no_space(const char *s)
{
	for (; *s; s++) {
		if (isspace((unsigned char)*s) || !isprint((unsigned char)*s))
			return false;
	}
	return true;
}

/* Split line (modified in place) at tabs; NULL when it is well formed. */
static const char *parse_line(char *line, struct symvers_line *l)
{
	char *f[SYMVERS_FIELDS];
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (n == SYMVERS_FIELDS)
			return "more than 5 tab-separated fields";
		f[n++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n != SYMVERS_FIELDS)
		return "fewer than 5 tab-separated fields";
	if (!is_crc(f[0]))
		return "CRC is not 0x followed by hex digits";
	if (!*f[1] || !no_space(f[1]))
		return "bad symbol name";
	if (!*f[2] || !no_space(f[2]))
		return "bad owner";
	if (streq(f[3], "EXPORT_SYMBOL"))
		l->gpl = false;
	else if (streq(f[3], "EXPORT_SYMBOL_GPL"))
		l->gpl = true;
	else
		return "export type is not EXPORT_SYMBOL or EXPORT_SYMBOL_GPL";
	if (!no_space(f[4]))
		return "bad namespace";
	l->sym = f[1];
	l->owner = f[2];
	l->ns = f[4];
	return NULL;
}

struct symvers_read {
	const char *path;
	void (*fn)(const struct symvers_line *l, void *arg);
	void *arg;
	char **err;
};

static int symvers_line(char *line, size_t lineno, void *arg)
{
	struct symvers_read *sr = arg;
	struct symvers_line l;
	const char *why;

	/* depmod -E skips an empty line (a trailing one, often). */
	if (!*line)
		return 0;
	why = parse_line(line, &l);
	if (why) {
		*sr->err = xasprintf("%s: line %zu: malformed Module.symvers "
				     "line: %s", sr->path, lineno, why);
		return -EINVAL;
	}
	sr->fn(&l, sr->arg);
	return 0;
}

int symvers_read(const char *path,
		 void (*fn)(const struct symvers_line *l, void *arg),
		 void *arg, char **err)
{
	struct symvers_read sr = {
		.path = path, .fn = fn, .arg = arg, .err = err,
	};
	int r;

	*err = NULL;
	r = read_lines(path, true, symvers_line, &sr);
	if (r == -EILSEQ)
		*err = xasprintf("%s: binary data, not a Module.symvers",
				 path);
	else if (r < 0 && !*err)
		*err = xasprintf("%s: %s", path, strerror(-r));
	return r;
}
