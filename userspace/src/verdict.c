// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - the patched 6.1 loader's decisions
 */

#include <elf.h>
#include <errno.h>
#include <stdlib.h>

#include "util.h"
#include "verdict.h"

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

bool verdict_proprietary(const struct nsmod *m)
{
	/* driverloader was caught wrongly pretending to be under GPL. */
	return !license_gpl_compatible(m->license) ||
	       streq(m->name, "driverloader");
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

bool verdict_grants_differ(const struct nsmod *m)
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

struct requester {
	const struct kernel *k;
	const struct nsmod *m;
	const struct object *self;
	bool proprietary;	/* TAINT_PROPRIETARY_MODULE, or inherited */
	bool using_gplonly;
	struct findings *out;
};

static struct finding *add(struct requester *r, enum finding_kind kind,
			   const char *sym)
{
	struct findings *o = r->out;
	struct finding *f = VEC_PUSH(o->f, o->n, o->cap);

	*f = (struct finding){ .kind = kind, .sym = sym };
	return f;
}

static bool imports(const struct nsmod *m, const char *ns)
{
	size_t i;

	for (i = 0; i < m->n_imports; i++) {
		if (streq(m->imports[i], ns))
			return true;
	}
	return false;
}

/* Rows 4 to 6 and the GPL rule, for a restricted namespace. */
static bool allowed(struct requester *r, const struct export *e,
		    const char *sym, bool gplok)
{
	const struct object *x;
	struct finding *f;

	if (!kernel_lists(r->k, e->owner, e->ns, r->m->name)) {
		x = kernel_other_lister(r->k, e->ns, r->m->name, e->owner,
				       r->self);
		if (x)
			f = add(r, F_WRONG_MODULE, sym);
		else if (kernel_declares(r->k, e->owner, e->ns))
			f = add(r, F_NOT_ALLOWED, sym);
		else
			f = add(r, F_UNDECLARED, sym);
		f->row = x ? 4 : f->kind == F_NOT_ALLOWED ? 5 : 6;
		f->ns = e->ns;
		f->owner = e->owner->name;
		f->declarer = x ? x->name : NULL;
		return false;
	}
	if (!gplok && !e->gpl) {
		f = add(r, F_NOT_GPL, sym);
		f->row = 3;
		f->ns = e->ns;
		f->owner = e->owner->name;
		return false;
	}
	return true;
}

/* resolve_symbol(): find_symbol(), inherit_taint(), then namespaces. */
static void resolve(struct requester *r, const struct ns_undef *u)
{
	/* As fsa.gplok: a taint inherited below counts from the next one. */
	bool gplok = !r->proprietary;
	const struct export *e;
	bool restricted;
	struct finding *f;

	e = kernel_find_symbol(r->k, u->sym, gplok, r->self);
	if (!e) {
		if (u->weak || !r->k->vmlinux_known)
			return;
		if ((r->m->machine == EM_X86_64 || r->m->machine == EM_386) &&
		    streq(u->sym, "_GLOBAL_OFFSET_TABLE_"))
			return;
		add(r, F_UNKNOWN_SYMBOL, u->sym);
		return;
	}
	if (e->gpl)
		r->using_gplonly = true;
	if (!e->owner->vmlinux && e->owner->proprietary) {
		if (r->using_gplonly) {
			if (!u->weak) {
				f = add(r, F_PROPRIETARY_OWNER, u->sym);
				f->owner = e->owner->name;
			}
			return;
		}
		r->proprietary = true;
	}
	if (!*e->ns)
		return;		/* row 1 */
	restricted = kernel_restricted(r->k, e->ns, r->self);
	if (restricted && !allowed(r, e, u->sym, gplok))
		return;
	if (imports(r->m, e->ns))
		return;
	f = add(r, F_NOT_IMPORTED, u->sym);
	f->row = restricted ? 3 : 2;
	f->ns = e->ns;
	f->owner = e->owner->name;
}

/* verify_exported_symbols(): the first duplicate ends the check. */
static void duplicates(struct requester *r)
{
	size_t i;

	for (i = 0; i < r->m->n_exports; i++) {
		const char *sym = r->m->exports[i].sym;
		const struct export *e;
		struct finding *f;

		e = kernel_find_symbol(r->k, sym, true, r->self);
		if (!e)
			continue;
		f = add(r, F_DUPLICATE, sym);
		f->owner = e->owner->vmlinux ? "kernel" : e->owner->name;
		return;
	}
}

bool verdict_check(const struct kernel *k, const struct nsmod *m,
		   const struct object *self, struct findings *out)
{
	struct requester r = {
		.k = k,
		.m = m,
		.self = self,
		.proprietary = verdict_proprietary(m),
		.out = out,
	};
	size_t i, n0 = out->n;

	/* add_unformed_module(): -EEXIST, before any symbol. */
	if (!self && kernel_find_name(k, m->name)) {
		add(&r, F_ALREADY_LOADED, NULL);
		return false;
	}
	/* simplify_symbols() reports every failing symbol. */
	for (i = 0; i < m->n_undefs; i++) {
		const struct ns_undef *u = &m->undefs[i];

		if (u->common) {
			if (!strstartswith(u->sym, "__gnu_lto"))
				add(&r, F_COMMON, u->sym);
			continue;
		}
		resolve(&r, u);
	}
	if (out->n == n0)
		duplicates(&r);
	return out->n == n0;
}

void verdict_malformed(const struct nsmod *m, struct findings *out)
{
	struct finding *f = VEC_PUSH(out->f, out->n, out->cap);

	*f = (struct finding){ .kind = F_MALFORMED, .offset = m->bad_offset };
}

int finding_errno(const struct finding *f)
{
	switch (f->kind) {
	case F_UNKNOWN_SYMBOL:
	case F_PROPRIETARY_OWNER:
		return -ENOENT;
	case F_NOT_IMPORTED:
		return -EINVAL;
	case F_WRONG_MODULE:
	case F_NOT_ALLOWED:
	case F_UNDECLARED:
	case F_NOT_GPL:
		return -EACCES;
	case F_ALREADY_LOADED:
		return -EEXIST;
	default:
		return -ENOEXEC;
	}
}

const char *finding_name(const struct finding *f)
{
	static const char *const names[] = {
		[F_UNKNOWN_SYMBOL] = "unknown-symbol",
		[F_NOT_IMPORTED] = "not-imported",
		[F_WRONG_MODULE] = "wrong-module",
		[F_NOT_ALLOWED] = "not-allowed",
		[F_UNDECLARED] = "undeclared-namespace",
		[F_NOT_GPL] = "not-gpl-compatible",
		[F_PROPRIETARY_OWNER] = "proprietary-owner",
		[F_COMMON] = "common-symbol",
		[F_DUPLICATE] = "duplicate-export",
		[F_ALREADY_LOADED] = "already-loaded",
		[F_MALFORMED] = "malformed-records",
	};

	return names[f->kind];
}

char *finding_unknown_line(const struct finding *f, const char *r)
{
	switch (f->kind) {
	case F_NOT_IMPORTED:
	case F_WRONG_MODULE:
	case F_NOT_ALLOWED:
	case F_UNDECLARED:
	case F_NOT_GPL:
	case F_PROPRIETARY_OWNER:
		/* simplify_symbols(), after resolve_symbol() refused. */
		return xasprintf("%s: Unknown symbol %s (err %d)", r, f->sym,
				 finding_errno(f));
	default:
		return NULL;
	}
}

char *finding_line(const struct finding *f, const char *r)
{
	switch (f->kind) {
	case F_UNKNOWN_SYMBOL:
		return xasprintf("%s: Unknown symbol %s (err %d)", r, f->sym,
				 -ENOENT);
	case F_NOT_IMPORTED:
		return xasprintf("%s: module uses symbol (%s) from namespace "
				 "%s, but does not import it.", r, f->sym,
				 f->ns);
	case F_WRONG_MODULE:
		return xasprintf("namespace `%s' for symbol `%s' defined in "
				 "wrong module `%s'", f->ns, f->sym,
				 f->declarer);
	case F_NOT_ALLOWED:
		return xasprintf("module %s not allowed to reference "
				 "namespace `%s' for %s", r, f->ns, f->sym);
	case F_UNDECLARED:
		return xasprintf("%s referencing undeclared namespace `%s' "
				 "for %s", r, f->ns, f->sym);
	case F_NOT_GPL:
		return xasprintf("%s: module is not GPL-compatible and cannot "
				 "use %s from restricted namespace `%s'", r,
				 f->sym, f->ns);
	case F_PROPRIETARY_OWNER:
		return xasprintf("%s: module using GPL-only symbols uses "
				 "symbols %s from proprietary module %s.", r,
				 f->sym, f->owner);
	case F_COMMON:
		return xasprintf("%s: please compile with -fno-common", r);
	case F_DUPLICATE:
		return xasprintf("%s: exports duplicate symbol %s (owned by "
				 "%s)", r, f->sym, f->owner);
	case F_ALREADY_LOADED:
		return xasprintf("%s: module is already loaded (err %d)", r,
				 -EEXIST);
	default:
		return xasprintf("%s: malformed namespace allow record at "
				 "offset %zu", r, f->offset);
	}
}
