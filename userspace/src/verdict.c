// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - the patched 6.1 loader's decisions
 */

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "nsallow.h"
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

struct requester {
	const struct kernel *k;
	const struct nsmod *m;
	const struct object *self;
	bool proprietary;	/* TAINT_PROPRIETARY_MODULE, or inherited */
	bool trusted;		/* signed with the built-in key */
	bool using_gplonly;
	struct findings *out;
	/* For the missing-import pass: listed in a moved namespace. */
	struct moved {
		const struct export *e;
		const char *sym;
	} *moved;
	size_t n_moved, cap_moved;
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

/*
 * ns_allow_check(): rows 4 to 6 (a module: list names R or not), then,
 * for a listed R, the signature rule and the GPL rule. A livepatch module
 * is listed by every owner (ns_allow_judge()): *lp says it was so.
 */
static bool allowed(struct requester *r, const struct export *e,
		    const char *sym, bool gplok, bool *lp)
{
	const struct object *x = NULL;
	struct finding *f;
	bool listed;

	if (ns_is_module_list(e->ns))
		listed = ns_module_list_match(r->m->name,
					      e->ns + strlen(MODULE_NS_PREFIX));
	else
		listed = kernel_lists(r->k, e->owner, e->ns, r->m->name);
	*lp = !listed && r->m->livepatch;
	if (*lp)
		listed = true;
	if (!listed) {
		if (!ns_is_module_list(e->ns))
			x = kernel_other_lister(r->k, e->ns, r->m->name,
						e->owner, r->self);
		if (x)
			f = add(r, F_WRONG_MODULE, sym);
		else if (ns_is_module_list(e->ns) ||
			 kernel_declares(r->k, e->owner, e->ns))
			f = add(r, F_NOT_ALLOWED, sym);
		else
			f = add(r, F_UNDECLARED, sym);
		f->row = x ? 4 : f->kind == F_NOT_ALLOWED ? 5 : 6;
		f->ns = e->ns;
		f->owner = e->owner->name;
		f->owner_obj = e->owner;
		f->declarer = x ? x->name : NULL;
		return false;
	}
	/* A trusted owner's grants hold for trusted modules alone. */
	if (r->k->sig_rule && !r->trusted && e->owner->trusted) {
		f = add(r, F_NOT_SIGNED, sym);
		f->row = 3;
		f->ns = e->ns;
		f->owner = e->owner->name;
		f->owner_obj = e->owner;
		f->livepatch = *lp;
		return false;
	}
	if (!gplok && !e->gpl) {
		f = add(r, F_NOT_GPL, sym);
		f->row = 3;
		f->ns = e->ns;
		f->owner = e->owner->name;
		f->livepatch = *lp;
		return false;
	}
	return true;
}

/*
 * The missing-import pass, nscheck's own finding after the kernel's
 * (--overlay): R is listed in the namespace a reader moved the symbol
 * into (the series'), and was built without its import. Not a refusal:
 * the series must add the import. One finding per namespace, in the
 * order of first use, with whether the build's module of R's name
 * imports it.
 */
static void missing_imports(struct requester *r)
{
	size_t n0 = r->out->n, i, j;
	struct finding *f;

	for (i = 0; i < r->n_moved; i++) {
		const struct export *e = r->moved[i].e;

		for (j = n0; j < r->out->n; j++) {
			f = &r->out->f[j];
			if (streq(f->ns, e->ns)) {
				f->count++;
				break;
			}
		}
		if (j < r->out->n)
			continue;
		f = add(r, F_MISSING_IMPORT, r->moved[i].sym);
		f->row = 3;
		f->ns = e->ns;
		f->was_ns = e->was_ns;
		f->owner = e->owner->name;
		f->count = 1;
		f->build_imports = r->m->rebuilt ?
				   imports(r->m->rebuilt, e->ns) : -1;
	}
}

/* resolve_symbol(): find_symbol(), inherit_taint(), then namespaces. */
static void resolve(struct requester *r, const struct ns_undef *u)
{
	/* As fsa.gplok: a taint inherited below counts from the next one. */
	bool gplok = !r->proprietary;
	const struct export *e;
	bool restricted, lp = false;
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
	/* A module: list is always restricted, and is its own import. */
	restricted = ns_is_module_list(e->ns) ||
		     kernel_restricted(r->k, e->ns, r->self);
	if (restricted && !allowed(r, e, u->sym, gplok, &lp))
		return;
	if (ns_is_module_list(e->ns) || imports(r->m, e->ns))
		return;
	if (restricted && e->was_ns) {
		/* Not the kernel's to say: the missing-import pass. */
		*VEC_PUSH(r->moved, r->n_moved, r->cap_moved) =
			(struct moved){ .e = e, .sym = u->sym };
		return;
	}
	f = add(r, F_NOT_IMPORTED, u->sym);
	f->row = restricted ? 3 : 2;
	f->ns = e->ns;
	f->owner = e->owner->name;
	f->owner_obj = e->owner;
	f->livepatch = lp;
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
		.trusted = m->sig == SIG_TRUSTED,
		.out = out,
	};
	size_t i, n0 = out->n;
	struct finding *f;

	/* add_unformed_module(): -EEXIST, before any symbol. */
	if (!self && kernel_find_name(k, m->name)) {
		add(&r, F_ALREADY_LOADED, NULL);
		return false;
	}
	/* setup_modinfo(): the first import of a module: list, -EPERM. */
	for (i = 0; i < m->n_imports; i++) {
		if (ns_is_module_list(m->imports[i])) {
			f = add(&r, F_IMPORTS_MODULE_NS, NULL);
			f->ns = m->imports[i];
			return false;
		}
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
	missing_imports(&r);
	free(r.moved);
	for (i = n0; i < out->n; i++) {
		if (finding_refuses(&out->f[i]))
			return false;
	}
	duplicates(&r);
	return out->n == n0 || !finding_refuses(&out->f[out->n - 1]);
}

void verdict_records(const struct nsmod *m, struct findings *out)
{
	static const enum finding_kind kinds[] = {
		[NSREC_TWO_SECTIONS] = F_TWO_SECTIONS,
		[NSREC_NOT_ALLOC] = F_NOT_ALLOC,
		[NSREC_WRITABLE] = F_WRITABLE,
		[NSREC_RELOCATED] = F_RELOCATED,
		[NSREC_MALFORMED] = F_MALFORMED,
		[NSREC_MODINFO] = F_MODINFO,
	};
	struct finding *f;

	if (m->records == NSREC_OK)
		return;
	f = VEC_PUSH(out->f, out->n, out->cap);
	*f = (struct finding){ .kind = kinds[m->records],
			       .offset = m->bad_offset };
}

bool finding_refuses(const struct finding *f)
{
	return f->kind != F_MISSING_IMPORT;
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
	case F_NOT_SIGNED:
		return -EACCES;
	case F_ALREADY_LOADED:
		return -EEXIST;
	case F_IMPORTS_MODULE_NS:
		return -EPERM;
	case F_MISSING_IMPORT:
		return 0;
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
		[F_NOT_SIGNED] = "not-signed",
		[F_IMPORTS_MODULE_NS] = "imports-module-namespace",
		[F_TWO_SECTIONS] = "duplicate-section",
		[F_NOT_ALLOC] = "section-not-allocated",
		[F_WRITABLE] = "section-writable",
		[F_RELOCATED] = "section-relocated",
		[F_MALFORMED] = "malformed-records",
		[F_MODINFO] = "modinfo-mismatch",
		[F_MISSING_IMPORT] = "missing-import",
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
	case F_NOT_SIGNED:
	case F_PROPRIETARY_OWNER:
		/* simplify_symbols(), after resolve_symbol() refused. */
		return xasprintf("%s: Unknown symbol %s (err %d)", r, f->sym,
				 finding_errno(f));
	default:
		return NULL;
	}
}

/* nscheck's own line for --overlay's finding: no kernel prints it. */
static char *missing_import_line(const struct finding *f, const char *r)
{
	char more[40] = "";
	const char *build = f->build_imports > 0 ? ", as its build does" :
			    f->build_imports == 0 ?
			    ", which its build does not" : "";

	if (f->count > 1)
		snprintf(more, sizeof(more), " and %zu more", f->count - 1);
	if (f->was_ns && *f->was_ns)
		return xasprintf("%s: listed for namespace %s by %s, without "
				 "MODULE_IMPORT_NS(%s): the series must add "
				 "it%s (%s%s, in %s before)", r, f->ns,
				 f->owner, f->ns, build, f->sym, more,
				 f->was_ns);
	return xasprintf("%s: listed for namespace %s by %s, without "
			 "MODULE_IMPORT_NS(%s): the series must add it%s "
			 "(%s%s)", r, f->ns, f->owner, f->ns, build, f->sym,
			 more);
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
	case F_NOT_SIGNED:
		return xasprintf("module %s is not signed with a built-in key, "
				 "required for namespace `%s' (%s)", r, f->ns,
				 f->sym);
	case F_IMPORTS_MODULE_NS:
		return xasprintf("%s: module tries to import module "
				 "namespace: %s", r, f->ns);
	case F_TWO_SECTIONS:
		return xasprintf("%s: %s", r,
				 ns_records_message(NSREC_TWO_SECTIONS));
	case F_NOT_ALLOC:
		return xasprintf("%s: %s", r,
				 ns_records_message(NSREC_NOT_ALLOC));
	case F_WRITABLE:
		return xasprintf("%s: %s", r,
				 ns_records_message(NSREC_WRITABLE));
	case F_RELOCATED:
		return xasprintf("%s: %s", r,
				 ns_records_message(NSREC_RELOCATED));
	case F_MODINFO:
		return xasprintf("%s: %s", r,
				 ns_records_message(NSREC_MODINFO));
	case F_MISSING_IMPORT:
		return missing_import_line(f, r);
	default:
		return xasprintf("%s: malformed namespace allow record at "
				 "offset %zu", r, f->offset);
	}
}

/* The modules o lists for ns: "a, b and 3 more", or "no module". */
static char *grants_of(const struct kernel *k, const struct object *o,
		       const char *ns, bool all)
{
	const size_t shown = 4;
	char *s = NULL, *t;
	size_t i, n = 0;

	for (i = 0; o && i < k->n_grant_list; i++) {
		const struct kgrant *g = &k->grant_list[i];

		if (g->o != o || !streq(g->ns, ns))
			continue;
		if (all || n < shown) {
			t = xasprintf("%s%s%s", s ? s : "", s ? ", " : "",
				      g->mod);
			free(s);
			s = t;
		}
		n++;
	}
	if (!n)
		return xstrdup("no module");
	if (!all && n > shown) {
		t = xasprintf("%s and %zu more, -v lists all", s, n - shown);
		free(s);
		s = t;
	}
	return s;
}

char *finding_hint(const struct kernel *k, const struct finding *f,
		   const char *r, bool all_grants)
{
	const struct object *o = f->owner_obj;
	char *lists, *hint;

	switch (f->kind) {
	case F_NOT_ALLOWED:
		if (ns_is_module_list(f->ns))
			return xasprintf("%s exports %s only to the modules "
					 "its namespace names (%s), and %s is "
					 "not one of them", f->owner, f->sym,
					 f->ns + strlen(MODULE_NS_PREFIX), r);
		break;
	case F_WRONG_MODULE:
	case F_UNDECLARED:
	case F_NOT_IMPORTED:
	case F_NOT_SIGNED:
		break;
	default:
		return NULL;
	}
	if (f->livepatch && f->kind == F_NOT_IMPORTED)
		return xasprintf("%s is a livepatch module, which the loader "
				 "takes as listed by every owner (%s exports "
				 "%s into namespace %s): add "
				 "MODULE_IMPORT_NS(%s) to %s", r, f->owner,
				 f->sym, f->ns, f->ns, r);
	if (f->livepatch && f->kind == F_NOT_SIGNED)
		return xasprintf("%s is a livepatch module, which the loader "
				 "takes as listed by every owner, and %s binds "
				 "its grants to the kernel's signing key "
				 "(CONFIG_MODULE_NS_ALLOW_SIG): sign %s with a "
				 "built-in key (scripts/sign-file with the "
				 "kernel build's key)", r, f->owner, r);
	lists = grants_of(k, o, f->ns, all_grants);
	switch (f->kind) {
	case F_NOT_ALLOWED:
		hint = xasprintf("%s restricts namespace %s (it exports %s "
				 "there) to the modules it lists (%s), and %s "
				 "is not one of them: ask %s's maintainer for "
				 "MODULE_NAMESPACE_ALLOW(%s, %s)", f->owner,
				 f->ns, f->sym, lists, r, f->owner, f->ns, r);
		break;
	case F_WRONG_MODULE:
		hint = xasprintf("`%s' lists %s for namespace %s but does not "
				 "export into it, so its grant does not "
				 "count: %s is exported by %s, which lists %s; "
				 "ask %s's maintainer for "
				 "MODULE_NAMESPACE_ALLOW(%s, %s)", f->declarer,
				 r, f->ns, f->sym, f->owner, lists, f->owner,
				 f->ns, r);
		break;
	case F_UNDECLARED:
		hint = xasprintf("%s exports %s into namespace %s, which "
				 "another loaded object restricts, but lists "
				 "no module for it: ask %s's maintainer for "
				 "MODULE_NAMESPACE_ALLOW(%s, %s)", f->owner,
				 f->sym, f->ns, f->owner, f->ns, r);
		break;
	case F_NOT_IMPORTED:
		hint = f->row == 3 ?
		       xasprintf("%s lists %s for namespace %s: add "
				 "MODULE_IMPORT_NS(%s) to %s", f->owner, r,
				 f->ns, f->ns, r) :
		       xasprintf("%s exports %s into namespace %s: add "
				 "MODULE_IMPORT_NS(%s) to %s", f->owner,
				 f->sym, f->ns, f->ns, r);
		break;
	default:	/* F_NOT_SIGNED */
		hint = xasprintf("%s lists %s for namespace %s, and binds its "
				 "grants to the kernel's signing key "
				 "(CONFIG_MODULE_NS_ALLOW_SIG): sign %s with a "
				 "built-in key (scripts/sign-file with the "
				 "kernel build's key)", f->owner, r, f->ns, r);
		break;
	}
	free(lists);
	return hint;
}
