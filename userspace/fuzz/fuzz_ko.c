// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - a whole module file (plain, xz, zstd or gzip), read
 * and checked as nscheck checks one: image.c, inflate.c, modelf.c,
 * modinfo.c through libkmod, nsallow.c, then the verdict and reports.
 */

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_check(fuzz_file(data, size));
	return 0;
}
