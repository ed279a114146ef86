// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - an __ns_allow section: ns_allow_walk() on the bytes,
 * then the same bytes as the section of a module, read by modelf.c and
 * checked against its modinfo.
 */

#include <stdlib.h>

#include "fuzz.h"
#include "nsallow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char modinfo[] = "license=GPL\0name=fuzz\0allow_ns=VRES:fuzz";

static void on_record(const char *rec, size_t colon, void *arg)
{
	(void)rec, (void)colon;
	(*(size_t *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t kosize, bad, records = 0;
	void *ko;

	ns_allow_walk((const char *)data, size, &bad, on_record, &records);
	ko = fuzz_mkko((const uint8_t *)modinfo, sizeof(modinfo), data, size,
		       &kosize);
	fuzz_check(fuzz_file(ko, kosize));
	free(ko);
	return 0;
}
