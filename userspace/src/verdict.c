// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - the patched 6.1 loader's decisions
 */

#include <elf.h>
#include <errno.h>

#include "modinfo.h"
#include "util.h"
#include "verdict.h"

struct requester {
	const struct state *st;
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
static bool allowed(struct requester *r, const struct export_ref *e,
		    const char *sym, bool gplok)
{
	const struct object *x;
	struct finding *f;

	if (!state_lists(r->st, e->owner, e->ns, r->m->name)) {
		x = state_other_lister(r->st, e->ns, r->m->name, e->owner,
				       r->self);
		if (x)
			f = add(r, F_WRONG_MODULE, sym);
		else if (state_declares(r->st, e->owner, e->ns))
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
	const struct export_ref *e;
	bool restricted;
	struct finding *f;

	e = state_find_symbol(r->st, u->sym, gplok, r->self);
	if (!e) {
		if (u->weak || !state_vmlinux_known(r->st))
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
	restricted = state_restricted(r->st, e->ns, r->self);
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
		const struct export_ref *e;
		struct finding *f;

		e = state_find_symbol(r->st, sym, true, r->self);
		if (!e)
			continue;
		f = add(r, F_DUPLICATE, sym);
		f->owner = e->owner->vmlinux ? "kernel" : e->owner->name;
		return;
	}
}

bool verdict_check(const struct state *st, const struct nsmod *m,
		   const struct object *self, struct findings *out)
{
	struct requester r = {
		.st = st,
		.m = m,
		.self = self,
		.proprietary = modinfo_proprietary(m),
		.out = out,
	};
	size_t i, n0 = out->n;

	/* add_unformed_module(): -EEXIST, before any symbol. */
	if (!self && state_find_name(st, m->name)) {
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
