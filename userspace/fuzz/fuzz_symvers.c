// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - a Module.symvers (symvers.c), whose vmlinux lines go
 * into the model as vmlinux_read() puts them, then --suggest on it.
 */

#include <stdlib.h>

#include "vmlinux.h"
#include "fuzz.h"
#include "kernel.h"
#include "suggest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct kdesc d = { .symvers = &path, .n_symvers = 1,
			   .dirname = "/nonexistent" };
	struct suggest_opts so = { .max_users = 2, .json = true };
	struct kernel *k = kernel_new();
	struct suggest *sg;
	char *err = NULL;

	/* Into the one model, then --suggest on it (no module). */
	vmlinux_read(k, &d, &err);
	free(err);
	sg = suggest_new(k);
	suggest_build(sg, NULL, NULL, 0, &so);
	suggest_report(sg, &so);
	suggest_free(sg);
	kernel_free(k);
	return 0;
}
