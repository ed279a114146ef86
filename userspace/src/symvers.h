/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - Module.symvers (6.1):
 * 0xCRC<TAB>symbol<TAB>owner<TAB>EXPORT_SYMBOL[_GPL]<TAB>namespace
 */
#ifndef NSCHECK_SYMVERS_H
#define NSCHECK_SYMVERS_H

#include <stdbool.h>

struct symvers_line {
	const char *sym;
	const char *owner;	/* "vmlinux", or a module path */
	const char *ns;		/* "" when none */
	bool gpl;
};

/*
 * Parse path and call fn for each line; the strings live only during
 * the call. Returns 0, or -errno with *err set to a malloc'd message.
 */
int symvers_read(const char *path,
		 void (*fn)(const struct symvers_line *l, void *arg),
		 void *arg, char **err);

#endif
