// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - read many module files
 */

#include <stdlib.h>

#include <libkmod.h>

#include "image.h"
#include "log.h"
#include "loader.h"
#include "modelf.h"
#include "modinfo.h"

static void quiet_log(void *data, int priority, const char *file, int line,
		      const char *fn, const char *format, va_list args)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	(void)format, (void)args;
}

static void read_one(struct kmod_ctx *ctx, struct nsmod *m, struct arena *a)
{
	struct image img;
	char *elf_err;

	if (image_open(m->path, &img, &m->error) < 0)
		return;
	if (modelf_read(&img, m, a) < 0 && !m->bad_records)
		goto done;
	/* A malformed __ns_allow is reported with the name: read it too. */
	elf_err = m->error;
	m->error = NULL;
	modinfo_read(ctx, m, a, img.compression);
	if (elf_err) {
		free(m->error);
		m->error = elf_err;
	}
done:
	image_close(&img);
}

/*
 * One thread on purpose: libkmod and nscheck map each file, and unmapping
 * in a multi-threaded process costs a TLB shootdown on every CPU, which
 * made two threads slower than one on Debian's tree.
 */
int loader_read(struct nsmod *mods, size_t n, struct arena *a)
{
	const char *null_config = NULL;
	struct kmod_ctx *ctx;
	size_t i;

	ctx = kmod_new(NULL, &null_config);
	if (!ctx) {
		ERR("kmod_new() failed\n");
		return -1;
	}
	kmod_set_log_fn(ctx, quiet_log, NULL);
	for (i = 0; i < n; i++)
		read_one(ctx, &mods[i], a);
	kmod_unref(ctx);
	return 0;
}

static int cmp_grant(const void *a, const void *b)
{
	const struct ns_grant *x = a, *y = b;
	int r = strcmp(x->ns, y->ns);

	return r ? r : strcmp(x->mod, y->mod);
}

/* Sorted copy without duplicates; returns its length. */
static size_t unique(const struct ns_grant *g, size_t n,
		     struct ns_grant **out)
{
	size_t i, k = 0;

	*out = xmalloc((n ? n : 1) * sizeof(**out));
	if (!n)
		return 0;
	memcpy(*out, g, n * sizeof(*g));
	qsort(*out, n, sizeof(**out), cmp_grant);
	for (i = 0; i < n; i++) {
		if (!k || cmp_grant(&(*out)[k - 1], &(*out)[i]))
			(*out)[k++] = (*out)[i];
	}
	return k;
}

bool loader_grants_differ(const struct nsmod *m)
{
	struct ns_grant *a, *b;
	size_t na, nb, i;
	bool differ;

	na = unique(m->grants, m->n_grants, &a);
	nb = unique(m->info_grants, m->n_info_grants, &b);
	differ = na != nb;
	for (i = 0; !differ && i < na; i++)
		differ = cmp_grant(&a[i], &b[i]) != 0;
	free(a);
	free(b);
	return differ;
}
