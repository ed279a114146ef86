// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module's modinfo through libkmod
 */

#include <stdlib.h>

#include "modinfo.h"
#include "nsallow.h"

bool license_gpl_compatible(const char *license)
{
	static const char *const gpl[] = {
		"GPL",
		"GPL v2",
		"GPL and additional rights",
		"Dual BSD/GPL",
		"Dual MIT/GPL",
		"Dual MPL/GPL",
	};
	size_t i;

	if (!license)
		return false;
	for (i = 0; i < ARRAY_SIZE(gpl); i++) {
		if (streq(license, gpl[i]))
			return true;
	}
	return false;
}

bool modinfo_proprietary(const struct nsmod *m)
{
	/* driverloader was caught wrongly pretending to be under GPL. */
	return !license_gpl_compatible(m->license) ||
	       streq(m->name, "driverloader");
}

struct info_vecs {
	size_t cap_imports, cap_grants;
};

static int add_info(struct nsmod *m, struct arena *a, struct info_vecs *v,
		    const char *key, const char *value)
{
	size_t colon;

	if (streq(key, "license")) {
		/* The first one, as the kernel's get_modinfo(). */
		if (!m->license)
			m->license = arena_strdup(a, value);
	} else if (streq(key, "import_ns")) {
		*VEC_PUSH(m->imports, m->n_imports, v->cap_imports) =
			arena_strdup(a, value);
	} else if (streq(key, "allow_ns")) {
		struct ns_grant *g;

		if (!ns_allow_record_ok(value, strlen(value), &colon)) {
			char *q = xquote(value, 80);

			m->error = xasprintf("bad allow_ns=%s in modinfo: not "
					     "<namespace>:<module> in "
					     "[A-Za-z0-9_]", q);
			free(q);
			return -1;
		}
		g = VEC_PUSH(m->info_grants, m->n_info_grants, v->cap_grants);
		g->ns = arena_strndup(a, value, colon);
		g->mod = arena_strdup(a, value + colon + 1);
	}
	return 0;
}

int modinfo_read(struct kmod_ctx *ctx, struct nsmod *m, struct arena *a,
		 enum image_compression compression)
{
	struct kmod_list *list = NULL, *l;
	struct kmod_module *mod = NULL;
	struct info_vecs v = { 0 };
	bool have_name = false;
	int err, ret = -1;
	void *p;

	err = kmod_module_new_from_path(ctx, m->path, &mod);
	if (err < 0) {
		m->error = xstrdup(strerror(-err));
		goto done;
	}
	err = kmod_module_get_info(mod, &list);
	if (err < 0) {
		m->error = xasprintf("libkmod cannot read its modinfo: %s%s",
				     strerror(-err),
				     compression == IMAGE_GZIP ?
				     " (gzip-compressed: is libkmod built "
				     "without zlib?)" : "");
		goto done;
	}
	kmod_list_foreach(l, list) {
		const char *key = kmod_module_info_get_key(l);
		const char *value = kmod_module_info_get_value(l);

		if (!key || !value)
			continue;
		if (streq(key, "name")) {
			/* Else the name in struct module, as the kernel. */
			if (!have_name)
				m->name = arena_strdup(a, value);
			have_name = true;
			continue;
		}
		if (add_info(m, a, &v, key, value) < 0)
			goto done;
	}
	if (!m->name || !*m->name) {
		m->error = xstrdup("no module name: neither name= in modinfo "
				   "nor one in .gnu.linkonce.this_module");
		goto done;
	}
	ret = 0;
done:
	p = m->imports;
	m->imports = arena_memdup(a, p, m->n_imports * sizeof(*m->imports));
	free(p);
	p = m->info_grants;
	m->info_grants = arena_memdup(a, p, m->n_info_grants *
				      sizeof(*m->info_grants));
	free(p);
	kmod_module_info_free_list(list);
	if (mod)
		kmod_module_unref(mod);
	return ret;
}
