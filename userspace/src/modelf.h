/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - read what libkmod has no API for from a module's ELF image
 * (libelf): its exports and their namespaces, its undefined symbols in
 * .symtab order, its __ns_allow records, its build ID.
 */
#ifndef NSCHECK_MODELF_H
#define NSCHECK_MODELF_H

#include "image.h"
#include "nsmod.h"
#include "util.h"

/*
 * Fill m from img; strings go to arena a. Returns 0, or -ENOEXEC with
 * m->error set (and m->records when the loader refuses its __ns_allow
 * section or records, or modinfo's allow_ns= values differ from them). m->name is
 * set to the name in .gnu.linkonce.this_module, which the kernel falls
 * back to when modinfo has no name=.
 */
int modelf_read(const struct image *img, struct nsmod *m, struct arena *a);

#endif
