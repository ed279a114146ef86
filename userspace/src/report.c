// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - findings as text or JSON
 */

#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "report.h"
#include "util.h"

static const char *const status_names[] = {
	[STATUS_LOADS] = "loads",
	[STATUS_REFUSED] = "refused",
	[STATUS_UNREADABLE] = "unreadable",
	[STATUS_MALFORMED] = "malformed",
};

void json_str(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_finding(const struct finding *f, const char *line,
			 const char *unknown)
{
	fputs("{\"verdict\":", stdout);
	json_str(finding_name(f));
	fputs(",\"row\":", stdout);
	if (f->row)
		printf("%d", f->row);
	else
		fputs("null", stdout);
	if (finding_errno(f))
		printf(",\"errno\":%d", finding_errno(f));
	else
		fputs(",\"errno\":null", stdout);
	fputs(",\"symbol\":", stdout);
	json_str(f->sym);
	fputs(",\"namespace\":", stdout);
	json_str(f->ns);
	fputs(",\"owner\":", stdout);
	json_str(f->owner);
	fputs(",\"declarer\":", stdout);
	json_str(f->declarer);
	fputs(",\"offset\":", stdout);
	if (f->kind == F_MALFORMED)
		printf("%zu", f->offset);
	else
		fputs("null", stdout);
	if (f->kind == F_MISSING_IMPORT) {
		fputs(",\"was_namespace\":", stdout);
		json_str(f->was_ns);
		printf(",\"symbols\":%zu", f->count);
	}
	fputs(",\"message\":", stdout);
	json_str(line);
	fputs(",\"lines\":[", stdout);
	json_str(line);
	if (unknown) {
		putchar(',');
		json_str(unknown);
	}
	fputs("]}", stdout);
}

/*
 * The hint after the kernel's lines, on stderr: stdout holds only the
 * kernel's lines, so that it can be compared with dmesg as it is.
 */
static void print_hint(const struct report *rep, const struct findings *fs,
		       size_t i, const char *modname)
{
	const struct finding *f = &fs->f[i];
	char *hint;
	size_t j;

	if (!rep->k)
		return;
	/* Once a module, kind and namespace: the symbols share the fix. */
	for (j = 0; j < i; j++) {
		if (fs->f[j].kind == f->kind && fs->f[j].ns && f->ns &&
		    streq(fs->f[j].ns, f->ns) &&
		    (!f->owner || (fs->f[j].owner &&
				   streq(fs->f[j].owner, f->owner))))
			return;
	}
	hint = finding_hint(rep->k, f, modname, log_priority >= LOG_INFO);
	if (!hint)
		return;
	fflush(stdout);
	fprintf(stderr, "  hint: %s\n", hint);
	free(hint);
}

/* "a, b, c" (malloc'd). */
static char *join_names(const char *const *v, size_t n)
{
	size_t i, len = 1;
	char *s, *p;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 2;
	p = s = xmalloc(len);
	*p = '\0';
	for (i = 0; i < n; i++)
		p = stpcpy(stpcpy(p, i ? ", " : ""), v[i]);
	return s;
}

/*
 * The wording is stable: the Debian audit and the tests match it. Every
 * grantee built in: the namespace's symbols are as good as unexported
 * for modules. Some: only those grants are void.
 */
char *builtin_grant_line(const struct builtin_grant *b)
{
	char *names = join_names(b->builtin, b->n_builtin), *line;

	if (!b->n_others)
		line = xasprintf("namespace %s: granted only to built-in %s: "
				 "it admits no loadable module; its %zu "
				 "exported symbol%s unexported for modules",
				 b->ns, names, b->symbols,
				 b->symbols == 1 ? " is" : "s are");
	else
		line = xasprintf("namespace %s: the grant%s to built-in %s "
				 "ha%s no effect; %zu other grantee%s remain%s",
				 b->ns, b->n_builtin == 1 ? "" : "s", names,
				 b->n_builtin == 1 ? "s" : "ve", b->n_others,
				 b->n_others == 1 ? "" : "s",
				 b->n_others == 1 ? "s" : "");
	free(names);
	return line;
}

static void json_names(const char *const *v, size_t n)
{
	size_t i;

	putchar('[');
	for (i = 0; i < n; i++) {
		if (i)
			putchar(',');
		json_str(v[i]);
	}
	putchar(']');
}

static void json_builtin_grant(const struct builtin_grant *b,
			       const char *line)
{
	fputs("{\"namespace\":", stdout);
	json_str(b->ns);
	fputs(",\"builtin\":", stdout);
	json_names(b->builtin, b->n_builtin);
	fputs(",\"others\":", stdout);
	json_names(b->others, b->n_others);
	printf(",\"admits_no_module\":%s,\"symbols\":%zu,\"message\":",
	       b->n_others ? "false" : "true", b->symbols);
	json_str(line);
	putchar('}');
}

/*
 * Findings about the kernel, not about a module: before the modules, on
 * stdout as the missing imports are (nscheck's own lines, no refusal).
 */
static void report_builtin(const struct report *rep)
{
	const struct builtin_grants *bg = rep->builtin;
	size_t i;

	if (rep->json)
		fputs("\"builtin_grants\":[", stdout);
	for (i = 0; i < bg->n; i++) {
		char *line = builtin_grant_line(&bg->v[i]);

		if (rep->json) {
			fputs(i ? ",\n" : "\n", stdout);
			json_builtin_grant(&bg->v[i], line);
		} else if (!rep->quiet) {
			puts(line);
		}
		free(line);
	}
	if (rep->json)
		fputs(bg->n ? "\n]," : "],", stdout);
}

void report_begin(struct report *rep)
{
	if (rep->json)
		fputs("{\"version\":1,", stdout);
	if (rep->builtin)
		report_builtin(rep);
	if (rep->json)
		fputs("\"modules\":[", stdout);
}

void report_module(struct report *rep, const struct nsmod *m,
		   enum status status, const char *as,
		   const struct findings *fs)
{
	size_t i;

	rep->count[status]++;
	for (i = 0; status == STATUS_LOADS && i < fs->n; i++) {
		if (fs->f[i].kind == F_MISSING_IMPORT) {
			rep->missing_import++;
			break;
		}
	}
	if (status == STATUS_UNREADABLE || status == STATUS_MALFORMED)
		ERR("%s: %s\n", m->path, m->error);
	else if (status == STATUS_LOADS)
		INF("%s: %s would load%s%s\n", m->path, m->name,
		    streq(as, "given") ? "" : " as a ",
		    streq(as, "given") ? "" : as);

	if (rep->json) {
		fputs(rep->nmods ? ",\n" : "\n", stdout);
		fputs("{\"file\":", stdout);
		json_str(m->path);
		fputs(",\"name\":", stdout);
		json_str(m->name);
		fputs(",\"status\":", stdout);
		json_str(status_names[status]);
		fputs(",\"as\":", stdout);
		json_str(as);
		fputs(",\"error\":", stdout);
		json_str(m->error);
		fputs(",\"findings\":[", stdout);
	}
	rep->nmods++;
	for (i = 0; i < fs->n; i++) {
		char *line = finding_line(&fs->f[i], m->name);
		char *unknown = finding_unknown_line(&fs->f[i], m->name);

		if (rep->json) {
			if (i)
				putchar(',');
			json_finding(&fs->f[i], line, unknown);
		} else if (!rep->quiet) {
			puts(line);
			if (unknown)
				puts(unknown);
			print_hint(rep, fs, i, m->name);
		}
		free(line);
		free(unknown);
	}
	if (rep->json)
		fputs("]}", stdout);
}

void report_end(struct report *rep)
{
	size_t n = 0, i;

	for (i = 0; i < N_STATUS; i++)
		n += rep->count[i];
	if (rep->json)
		printf("\n],\"summary\":{\"checked\":%zu,\"loads\":%zu,"
		       "\"refused\":%zu,\"unreadable\":%zu,"
		       "\"malformed\":%zu,\"missing_import\":%zu}}\n", n,
		       rep->count[STATUS_LOADS], rep->count[STATUS_REFUSED],
		       rep->count[STATUS_UNREADABLE],
		       rep->count[STATUS_MALFORMED], rep->missing_import);
	INF("checked %zu module%s: %zu would load, %zu refused, %zu "
	    "unreadable, %zu malformed\n", n, n == 1 ? "" : "s",
	    rep->count[STATUS_LOADS], rep->count[STATUS_REFUSED],
	    rep->count[STATUS_UNREADABLE], rep->count[STATUS_MALFORMED]);
}
