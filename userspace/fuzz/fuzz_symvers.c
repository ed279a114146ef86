// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - a Module.symvers (symvers.c), whose vmlinux lines go
 * into the checker's state and --suggest's, as nscheck's on_symvers().
 */

#include <stdlib.h>

#include "fuzz.h"
#include "state.h"
#include "suggest.h"
#include "symvers.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sinks {
	struct state *st;
	struct suggest *sg;
};

static void on_line(const struct symvers_line *l, void *arg)
{
	struct sinks *k = arg;

	if (!streq(l->owner, "vmlinux"))
		return;
	state_add_vmlinux_export(k->st, l->sym, l->ns, l->gpl);
	suggest_add_vmlinux_export(k->sg, l->sym, l->ns, l->gpl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sinks k = { state_new(), suggest_new() };
	char *err = NULL;

	symvers_read(fuzz_file(data, size), on_line, &k, &err);
	free(err);
	suggest_free(k.sg);
	state_free(k.st);
	return 0;
}
