/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - modules.builtin.modinfo: "<modname>.<key>=<value>" strings,
 * NUL-separated. Every "<modname>.allow_ns=<ns>:<module>" is a grant of
 * vmlinux, whatever the prefix; every "<modname>.file=<path>" a module
 * built in (kbuild makes modules.builtin from them).
 */
#ifndef NSCHECK_BUILTIN_H
#define NSCHECK_BUILTIN_H

#include <stddef.h>

/*
 * Call fn for each allow_ns grant, with the built-in object it comes from
 * (objlen bytes at obj; strings live only during the call). Returns 0,
 * or -errno with *err set to a malloc'd message.
 */
int builtin_read_grants(const char *path,
			void (*fn)(const char *obj, size_t objlen,
				   const char *ns, size_t nslen,
				   const char *mod, void *arg),
			void *arg, char **err);

/*
 * Call fn for the name of each module built in: the prefix of each
 * "file=" string (len bytes at name, living only during the call).
 * Returns 0, or -errno with *err set to a malloc'd message.
 */
int builtin_read_modules(const char *path,
			 void (*fn)(const char *name, size_t len, void *arg),
			 void *arg, char **err);

#endif
