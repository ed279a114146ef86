/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck's libFuzzer targets: what they share. The targets call
 * nscheck's own readers (src/); only the glue that main() would do is
 * here.
 */
#ifndef NSCHECK_FUZZ_H
#define NSCHECK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * The path of a file holding data (a memfd, rewritten on each call),
 * for the readers that take a path, as nscheck's do.
 */
const char *fuzz_file(const uint8_t *data, size_t size);

/*
 * A small x86_64 module (ET_REL) with the given .modinfo and, when
 * records is not NULL, an __ns_allow section; *size is set. Malloc'd.
 */
void *fuzz_mkko(const uint8_t *modinfo, size_t modinfo_size,
		const uint8_t *records, size_t records_size, size_t *size);

/*
 * Check the module at path as nscheck does, against a small kernel
 * (vmlinux and three loaded modules): loader (image, libelf, libkmod),
 * verdict, JSON report (to /dev/null), and --suggest's grouping.
 */
void fuzz_check(const char *path);

/* Once per process: libelf, no messages, stdout to /dev/null. */
void fuzz_init(void);
/* Defined once in fuzzlib.c: calls fuzz_init(). */
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
