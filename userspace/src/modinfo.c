// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module's .modinfo strings
 */

#include <stdlib.h>

#include "modinfo.h"
#include "nsallow.h"

struct info_vecs {
	size_t cap_imports, cap_grants, cap_softdeps;
};

static int add_info(struct nsmod *m, struct arena *a, struct info_vecs *v,
		    const char *s, size_t len, char **err)
{
	const char *eq = memchr(s, '=', len), *value;
	size_t klen, vlen, colon;

	if (!eq)
		return 0;
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
	} else if (KEY("allow_ns")) {
		struct ns_grant *g;

		if (!ns_allow_record_ok(value, vlen, &colon)) {
			char *raw = xasprintf("%.*s", (int)vlen, value);
			char *q = xquote(raw, 80);

			if (!*err)
				*err = xasprintf("bad allow_ns=%s in modinfo: "
						 "not <namespace>:<module> in "
						 "[A-Za-z0-9_]", q);
			free(q);
			free(raw);
			return -1;
		}
		g = VEC_PUSH(m->info_grants, m->n_info_grants, v->cap_grants);
		g->ns = arena_strndup(a, value, colon);
		g->mod = arena_strndup(a, value + colon + 1, vlen - colon - 1);
	}
#undef KEY
	return 0;
}

/* A malloc'd vector of n elements of size sz into the arena. */
static void *settle(struct arena *a, void *p, size_t n, size_t sz)
{
	void *q = arena_memdup(a, p, n * sz);

	free(p);
	return q;
}

int modinfo_parse(struct nsmod *m, struct arena *a, const char *data,
		  size_t size, char **err)
{
	struct info_vecs v = { 0 };
	size_t off, len;
	int ret = 0;

	/* Empty strings (padding) are skipped, as next_string() does. */
	for (off = 0; off < size; off += len + 1) {
		len = strnlen(data + off, size - off);
		if (len && add_info(m, a, &v, data + off, len, err) < 0)
			ret = -1;
	}
	m->imports = settle(a, m->imports, m->n_imports, sizeof(*m->imports));
	m->softdeps = settle(a, m->softdeps, m->n_softdeps,
			     sizeof(*m->softdeps));
	m->info_grants = settle(a, m->info_grants, m->n_info_grants,
				sizeof(*m->info_grants));
	return ret;
}
