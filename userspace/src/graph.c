// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --graph - the model's allow-lists as Graphviz DOT
 *
 *	"EXPORTER" -> "ns:NS" [label="N symbols"];	exports into NS
 *	"LISTER" -> "ns:NS" [style=dashed, label="lists"];	only declares
 *	"ns:NS" -> "MODULE";	lets MODULE in ([label="GRANTER"] when more
 *				than one object declares NS)
 *
 * A namespace no declaring object exports into is not restricted: its
 * node is dashed. A grant that ends in '*' is a dashed node of its own.
 */

#include <stdio.h>
#include <stdlib.h>

#include "graph.h"
#include "log.h"
#include "nsallow.h"

/* An edge into the modules side: mod let in by granter. */
struct allow {
	const char *mod;
	const char *granter;	/* NULL for a module: list */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* vmlinux first, then by name. */
static int obj_order(const struct object *a, const struct object *b)
{
	if (a->vmlinux != b->vmlinux)
		return a->vmlinux ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int cmp_member(const void *a, const void *b)
{
	return obj_order((*(const struct ns_member *const *)a)->o,
			 (*(const struct ns_member *const *)b)->o);
}

static int cmp_allow(const void *a, const void *b)
{
	const struct allow *x = a, *y = b;
	int c = strcmp(x->mod, y->mod);

	if (c || !x->granter || !y->granter)
		return c;
	if (streq(x->granter, "vmlinux") != streq(y->granter, "vmlinux"))
		return streq(x->granter, "vmlinux") ? -1 : 1;
	return strcmp(x->granter, y->granter);
}

/* A DOT string: names have no quote, but a bad input must not break it. */
static void dot_str(const char *prefix, const char *s)
{
	putchar('"');
	fputs(prefix, stdout);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static size_t symbols_in(const struct kernel *k, const char *ns,
			 const struct object *o)
{
	size_t i, n = 0;

	for (i = 0; i < k->n_exports; i++) {
		const struct export *e = k->exports[i];

		n += e->owner == o && streq(e->ns, ns);
	}
	return n;
}

static bool wanted(const char *ns, const char *const *only, size_t n_only)
{
	size_t i;

	for (i = 0; only && i < n_only; i++) {
		if (streq(only[i], ns))
			return true;
	}
	return !only;
}

/* Someone declares ns, or it is a module: list someone exports into. */
static bool shown(const struct kernel *k, const char *ns)
{
	const struct ns_member *m;

	for (m = kernel_namespace(k, ns); m; m = m->next) {
		if (m->declares || (m->exports && ns_is_module_list(ns)))
			return true;
	}
	return false;
}

static void module_list(struct allow **v, size_t *n, size_t *cap,
			const char *ns)
{
	const char *p = ns + strlen(MODULE_NS_PREFIX), *end;
	struct allow *a;

	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (end == p)
			continue;
		a = VEC_PUSH(*v, *n, *cap);
		a->mod = strndup(p, end - p);
		a->granter = NULL;
	}
}

static void write_ns(const struct kernel *k, const char *ns)
{
	const struct ns_member **mem = NULL, *m;
	size_t n_mem = 0, cap_mem = 0, n_decl = 0, i, n_al = 0, cap_al = 0;
	bool list = ns_is_module_list(ns), restricted = list;
	struct allow *al = NULL;

	for (m = kernel_namespace(k, ns); m; m = m->next) {
		if (!m->exports && !m->declares)
			continue;
		*VEC_PUSH(mem, n_mem, cap_mem) = m;
		n_decl += m->declares;
		restricted |= m->exports && m->declares;
	}
	if (n_mem)
		qsort(mem, n_mem, sizeof(*mem), cmp_member);

	printf("\n\t");
	dot_str("ns:", ns);
	printf(" [label=");
	dot_str("", ns);
	printf(", shape=ellipse%s];\n", restricted ? "" : ", style=dashed");
	for (i = 0; i < n_mem; i++) {
		size_t syms;

		putchar('\t');
		dot_str("", mem[i]->o->name);
		fputs(" -> ", stdout);
		dot_str("ns:", ns);
		if (mem[i]->exports) {
			syms = symbols_in(k, ns, mem[i]->o);
			printf(" [label=\"%zu symbol%s\"];\n", syms,
			       syms == 1 ? "" : "s");
		} else {
			puts(" [style=dashed, label=\"lists\"];");
		}
	}

	if (list) {
		module_list(&al, &n_al, &cap_al, ns);
	} else {
		for (i = 0; i < k->n_grant_list; i++) {
			const struct kgrant *g = &k->grant_list[i];

			if (!streq(g->ns, ns))
				continue;
			*VEC_PUSH(al, n_al, cap_al) = (struct allow){
				.mod = xstrdup(g->mod),
				.granter = g->o->name,
			};
		}
	}
	if (n_al)
		qsort(al, n_al, sizeof(*al), cmp_allow);
	for (i = 0; i < n_al; i++) {
		if (ns_allow_is_prefix(al[i].mod) &&
		    (!i || !streq(al[i - 1].mod, al[i].mod))) {
			putchar('\t');
			dot_str("", al[i].mod);
			puts(" [style=dashed];");
		}
		putchar('\t');
		dot_str("ns:", ns);
		fputs(" -> ", stdout);
		dot_str("", al[i].mod);
		if (n_decl > 1 && al[i].granter) {
			fputs(" [label=", stdout);
			dot_str("", al[i].granter);
			putchar(']');
		}
		puts(";");
	}
	for (i = 0; i < n_al; i++)
		free((char *)al[i].mod);
	free(al);
	free(mem);
}

size_t graph_write(const struct kernel *k, const char *const *only,
		   size_t n_only)
{
	const char **nss = NULL;
	size_t n = 0, cap = 0, i, missing = 0;

	for (i = 0; i < k->n_ns_names; i++) {
		if (wanted(k->ns_names[i], only, n_only) &&
		    shown(k, k->ns_names[i]))
			*VEC_PUSH(nss, n, cap) = k->ns_names[i];
	}
	if (n)
		qsort(nss, n, sizeof(*nss), cmp_str);
	for (i = 0; only && i < n_only; i++) {
		if (!kernel_namespace(k, only[i]) || !shown(k, only[i])) {
			WRN("namespace %s: no object declares it\n", only[i]);
			missing++;
		}
	}

	puts("// nscheck --graph: exporters -> namespaces -> allowed modules");
	puts("digraph namespaces {");
	puts("\trankdir=LR;");
	puts("\tnode [shape=box, fontname=\"sans-serif\"];");
	puts("\tedge [fontname=\"sans-serif\", fontsize=10];");
	for (i = 0; i < n; i++)
		write_ns(k, nss[i]);
	puts("}");
	free(nss);
	return missing;
}
