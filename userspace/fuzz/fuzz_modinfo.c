// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - a modinfo blob (NUL-separated key=value strings):
 * as a module's .modinfo, read by libkmod and modinfo.c, and as a
 * modules.builtin.modinfo (builtin.c).
 */

#include <stdlib.h>

#include "builtin.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_grant(const char *obj, size_t objlen, const char *ns,
		     size_t nslen, const char *mod, void *arg)
{
	(void)obj, (void)objlen, (void)ns, (void)nslen, (void)mod;
	(*(size_t *)arg)++;
}

/* A name is len bytes of the buffer: touch each, for ASan. */
static void on_module(const char *name, size_t len, void *arg)
{
	size_t i;

	for (i = 0; i < len; i++)
		*(size_t *)arg += (unsigned char)name[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t kosize, grants = 0;
	void *ko = fuzz_mkko(data, size, NULL, 0, &kosize);
	char *err = NULL;

	fuzz_check(fuzz_file(ko, kosize));
	free(ko);
	builtin_read_grants(fuzz_file(data, size), on_grant, &grants, &err);
	free(err);
	err = NULL;
	builtin_read_modules(fuzz_file(data, size), on_module, &grants, &err);
	free(err);
	return 0;
}
