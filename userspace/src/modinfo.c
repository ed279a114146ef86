// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module's .modinfo strings
 */

#include <stdlib.h>

#include "modinfo.h"

struct info_vecs {
	size_t cap_imports, cap_values, cap_softdeps;
};

static void add_info(struct nsmod *m, struct arena *a, struct info_vecs *v,
		     const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len), *value;
	size_t klen, vlen;

	if (!eq)
		return;
	klen = eq - s;
	value = eq + 1;
	vlen = len - klen - 1;
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(s, k, klen))
	/* The first name= and license=, as the kernel's get_modinfo(). */
	if (KEY("name")) {
		if (!m->info_name)
			m->info_name = arena_strndup(a, value, vlen);
	} else if (KEY("license")) {
		if (!m->license)
			m->license = arena_strndup(a, value, vlen);
	} else if (KEY("import_ns")) {
		*VEC_PUSH(m->imports, m->n_imports, v->cap_imports) =
			arena_strndup(a, value, vlen);
	} else if (KEY("softdep")) {
		*VEC_PUSH(m->softdeps, m->n_softdeps, v->cap_softdeps) =
			arena_strndup(a, value, vlen);
	} else if (KEY("livepatch")) {
		/* check_modinfo_livepatch(): get_modinfo() found it. */
		m->livepatch = true;
	} else if (KEY("intree")) {
		m->intree = vlen == 1 && value[0] == 'Y';
	} else if (KEY("allow_ns")) {
		/* Raw: the loader compares them with the records. */
		*VEC_PUSH(m->allow_values, m->n_allow_values, v->cap_values) =
			arena_strndup(a, value, vlen);
	}
#undef KEY
}

/* A malloc'd vector of n elements of size sz into the arena. */
static void *settle(struct arena *a, void *p, size_t n, size_t sz)
{
	void *q = arena_memdup(a, p, n * sz);

	free(p);
	return q;
}

void modinfo_parse(struct nsmod *m, struct arena *a, const char *data,
		   size_t size)
{
	struct info_vecs v = { 0 };
	size_t off, len, n;

	/* Empty strings (padding) are skipped, as next_string() does. */
	for (off = 0; off < size; off += len + 1) {
		len = strnlen(data + off, size - off);
		if (!len)
			continue;
		n = m->n_allow_values;
		add_info(m, a, &v, data + off, len);
		if (off + len == size && m->n_allow_values > n)
			m->allow_unterminated = true;
	}
	m->imports = settle(a, m->imports, m->n_imports, sizeof(*m->imports));
	m->softdeps = settle(a, m->softdeps, m->n_softdeps,
			     sizeof(*m->softdeps));
	m->allow_values = settle(a, m->allow_values, m->n_allow_values,
				 sizeof(*m->allow_values));
}
