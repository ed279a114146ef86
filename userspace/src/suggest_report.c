// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck --suggest - the proposals as paste-ready lines, or as JSON
 * (schema in README.md), and the summary
 */

#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "suggest.h"

static const char *const bucket_names[SG_BUCKETS] = {
	"0", "1", "2", "3", "4-10", ">10",
};

static char *export_line(const struct export *e, const char *ns)
{
	return xasprintf("EXPORT_SYMBOL_NS%s(%s, %s);", e->gpl ? "_GPL" : "",
			 e->sym, ns);
}

static char *allow_line(const char *ns, const char *user)
{
	return xasprintf("MODULE_NAMESPACE_ALLOW(%s, %s);", ns, user);
}

static char *import_line(const char *ns)
{
	return xasprintf("MODULE_IMPORT_NS(%s);", ns);
}

static void print_where(const char *name, const char *file)
{
	if (file)
		printf("/* in %s (%s): */\n", name, file);
	else
		printf("/* in %s: */\n", name);
}

static void text_group(const struct suggest *sg, const struct sg_group *g)
{
	const char *xname = sg->k->objects[g->exporter]->name;
	const char *xfile = sg->files[g->exporter];
	char *line;
	size_t i;

	printf("/* %s: namespace %s (%s%s): %zu export%s, %zu user%s:", xname,
	       g->ns, g->existing ? "existing" : "new",
	       g->declared ? ", already declared" : "", g->n_exports,
	       g->n_exports == 1 ? "" : "s", g->n_users,
	       g->n_users == 1 ? "" : "s");
	for (i = 0; i < g->n_users; i++)
		printf("%s %s", i ? "," : "", sg->users[g->users[i]].name);
	puts(" */");
	if (g->n_others) {
		fputs("/* note: also exported into by", stdout);
		for (i = 0; i < g->n_others; i++)
			printf("%s %s", i ? "," : "",
			       sg->k->objects[g->others[i]]->name);
		puts(": each exporter must declare it */");
	}
	for (i = 0; i < g->n_users; i++) {
		const struct sg_user *u = &sg->users[g->users[i]];

		if (u->proprietary)
			printf("/* note: %s is not GPL-compatible: a "
			       "restricted namespace refuses it */\n", u->name);
	}

	print_where(xname, xfile);
	for (i = 0; i < g->n_exports; i++) {
		line = export_line(g->exports[i], g->ns);
		puts(line);
		free(line);
	}
	for (i = 0; i < g->n_users; i++) {
		line = allow_line(g->ns, sg->users[g->users[i]].name);
		puts(line);
		free(line);
	}
	line = import_line(g->ns);
	for (i = 0; i < g->n_users; i++) {
		const struct sg_user *u = &sg->users[g->users[i]];

		print_where(u->name, u->file);
		puts(line);
	}
	free(line);
	putchar('\n');
}

static void text_summary(const struct suggest *sg,
			 const struct suggest_opts *o)
{
	const struct suggest_summary *s = &sg->sum;
	unsigned int b;

	printf("/*\n * summary: %zu exports from %zu exporters; %zu modules",
	       s->exports, s->exporters, s->modules);
	if (s->unreadable)
		printf(" (%zu unreadable, left out)", s->unreadable);
	puts("\n * exports by number of module users:");
	for (b = 0; b < SG_BUCKETS; b++)
		printf(" *   %-5s %8zu\n", bucket_names[b], s->buckets[b]);
	printf(" * proposed (at most %u users): %zu namespaces, %zu exports\n",
	       o->max_users, s->groups, s->grouped);
	if (s->over)
		printf(" * not proposed: %zu namespace%s with more than %u "
		       "users (the most: %s of %s, %zu user%s)\n", s->over,
		       s->over == 1 ? "" : "s", o->max_users, s->largest->ns,
		       sg->k->objects[s->largest->exporter]->name,
		       s->largest->n_users,
		       s->largest->n_users == 1 ? "" : "s");
	puts(" */");
}

static void text_report(const struct suggest *sg,
			const struct suggest_opts *o)
{
	size_t i;

	printf("/* nscheck --suggest: exports with 1 to %u module users; "
	       "weak references count */\n\n", o->max_users);
	for (i = 0; i < sg->n_groups; i++) {
		if (sg->groups[i].shown)
			text_group(sg, &sg->groups[i]);
	}
	text_summary(sg, o);
}

static void json_lines(const struct suggest *sg, const struct sg_group *g)
{
	char *line;
	size_t i;

	fputs(",\"lines\":{\"exporter\":[", stdout);
	for (i = 0; i < g->n_exports + g->n_users; i++) {
		if (i < g->n_exports)
			line = export_line(g->exports[i], g->ns);
		else
			line = allow_line(g->ns, sg->users[
					  g->users[i - g->n_exports]].name);
		if (i)
			putchar(',');
		json_str(line);
		free(line);
	}
	fputs("],\"user\":", stdout);
	line = import_line(g->ns);
	json_str(line);
	free(line);
	putchar('}');
}

static void json_group(const struct suggest *sg, const struct sg_group *g)
{
	size_t i;

	fputs("{\"exporter\":", stdout);
	json_str(sg->k->objects[g->exporter]->name);
	fputs(",\"exporter_file\":", stdout);
	json_str(sg->files[g->exporter]);
	fputs(",\"namespace\":", stdout);
	json_str(g->ns);
	printf(",\"existing\":%s,\"declared\":%s,\"users\":[",
	       g->existing ? "true" : "false", g->declared ? "true" : "false");
	for (i = 0; i < g->n_users; i++) {
		const struct sg_user *u = &sg->users[g->users[i]];

		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		json_str(u->name);
		fputs(",\"file\":", stdout);
		json_str(u->file);
		printf(",\"gpl_compatible\":%s}",
		       u->proprietary ? "false" : "true");
	}
	fputs("],\"symbols\":[", stdout);
	for (i = 0; i < g->n_exports; i++) {
		const struct export *e = g->exports[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		json_str(e->sym);
		printf(",\"gpl\":%s,\"users\":%zu}", e->gpl ? "true" : "false",
		       sg->uses[e->id].n);
	}
	fputs("],\"also_exported_by\":[", stdout);
	for (i = 0; i < g->n_others; i++) {
		if (i)
			putchar(',');
		json_str(sg->k->objects[g->others[i]]->name);
	}
	putchar(']');
	json_lines(sg, g);
	putchar('}');
}

static void json_report(const struct suggest *sg,
			const struct suggest_opts *o)
{
	const struct suggest_summary *s = &sg->sum;
	size_t i, n = 0;
	unsigned int b;

	printf("{\"version\":1,\"max_users\":%u,\"weak_users\":true,"
	       "\"exporter\":", o->max_users);
	json_str(o->exporter);
	fputs(",\"user\":", stdout);
	json_str(o->user);
	fputs(",\"groups\":[", stdout);
	for (i = 0; i < sg->n_groups; i++) {
		if (!sg->groups[i].shown)
			continue;
		fputs(n++ ? ",\n" : "\n", stdout);
		json_group(sg, &sg->groups[i]);
	}
	printf("\n],\"summary\":{\"exports\":%zu,\"exporters\":%zu,"
	       "\"modules\":%zu,\"unreadable\":%zu,\"by_users\":{",
	       s->exports, s->exporters, s->modules, s->unreadable);
	for (b = 0; b < SG_BUCKETS; b++)
		printf("%s\"%s\":%zu", b ? "," : "", bucket_names[b],
		       s->buckets[b]);
	printf("},\"groups\":%zu,\"grouped_exports\":%zu,"
	       "\"over_max_users\":%zu}}\n", s->groups, s->grouped, s->over);
}

void suggest_report(const struct suggest *sg, const struct suggest_opts *o)
{
	if (o->quiet)
		return;
	if (o->json)
		json_report(sg, o);
	else
		text_report(sg, o);
}
