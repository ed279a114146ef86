// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a module's exports, undefined symbols, modinfo and __ns_allow
 * records
 */

#include <errno.h>
#include <stdlib.h>

#include <gelf.h>

#include "modelf.h"
#include "modinfo.h"
#include "nsallow.h"

#define KSYMTAB "__ksymtab_"
#define KSTRTABNS "__kstrtabns_"

struct sections {
	size_t symtab, nsymtab;
	size_t this_module, nthis_module;
	size_t ksymtab, ksymtab_gpl, kstrtab, modinfo, build_id;
	size_t ns_allow, n_ns_allow;	/* whatever their flags */
};

struct nsref {
	const char *sym;
	uint64_t value;
};

struct reader {
	Elf *elf;
	const struct image *img;
	struct nsmod *m;
	struct arena *a;
	struct sections s;
	const char *kstr;	/* __ksymtab_strings */
	size_t kstr_size;
	struct nsref *nsrefs;
	size_t n_nsrefs, cap_nsrefs;
	size_t cap_exports, cap_undefs, cap_grants;
};

static int fail(struct reader *r, char *msg)
{
	if (!r->m->error)
		r->m->error = msg;
	else
		free(msg);
	return -ENOEXEC;
}

static Elf_Data *section_data(struct reader *r, size_t idx)
{
	Elf_Scn *scn = elf_getscn(r->elf, idx);

	return scn ? elf_getdata(scn, NULL) : NULL;
}

static void first(size_t *idx, size_t i)
{
	if (!*idx)
		*idx = i;
}

/* Bounds of every section, and where the ones nscheck reads are. */
static int find_sections(struct reader *r)
{
	size_t shnum, shstrndx, i;
	GElf_Ehdr eh;

	if (r->img->size < gelf_fsize(r->elf, ELF_T_EHDR, 1, EV_CURRENT))
		return fail(r, xasprintf("truncated: %zu bytes, shorter than "
					 "an ELF header", r->img->size));
	if (!gelf_getehdr(r->elf, &eh))
		return fail(r, xasprintf("corrupt ELF header: %s",
					 elf_errmsg(-1)));
	if (eh.e_type != ET_REL)
		return fail(r, xasprintf("ELF type %u is not a relocatable "
					 "object: not a kernel module",
					 eh.e_type));
	r->m->machine = eh.e_machine;
	/* The section headers come last: a file cut short loses them. */
	if (eh.e_shoff > r->img->size ||
	    (eh.e_shnum && eh.e_shentsize &&
	     eh.e_shnum > (r->img->size - eh.e_shoff) / eh.e_shentsize))
		return fail(r, xasprintf("truncated: the section header table "
					 "(at byte %llu) ends past the end of "
					 "the file (%zu bytes)",
					 (unsigned long long)eh.e_shoff,
					 r->img->size));
	if (elf_getshdrnum(r->elf, &shnum) < 0 ||
	    elf_getshdrstrndx(r->elf, &shstrndx) < 0)
		return fail(r, xasprintf("corrupt section header table: %s",
					 elf_errmsg(-1)));
	if (eh.e_shentsize != gelf_fsize(r->elf, ELF_T_SHDR, 1, EV_CURRENT))
		return fail(r, xasprintf("corrupt section header table: "
					 "entries of %u bytes",
					 eh.e_shentsize));
	if (shnum > (r->img->size - eh.e_shoff) / eh.e_shentsize)
		return fail(r, xasprintf("truncated: the section header table "
					 "(at byte %llu) ends past the end of "
					 "the file (%zu bytes)",
					 (unsigned long long)eh.e_shoff,
					 r->img->size));
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum)
		return fail(r, xstrdup("corrupt section header table: "
				       "no section name table"));

	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(r->elf, i);
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			return fail(r, xasprintf("corrupt section header %zu",
						 i));
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > r->img->size ||
		     sh.sh_size > r->img->size - sh.sh_offset))
			return fail(r, xasprintf("corrupt section header %zu: "
						 "the section ends past the "
						 "end of the file (%zu bytes)",
						 i, r->img->size));
		name = elf_strptr(r->elf, shstrndx, sh.sh_name);
		if (!name)
			return fail(r, xasprintf("corrupt name of section %zu",
						 i));
		if (sh.sh_type == SHT_SYMTAB) {
			r->s.symtab = i;
			r->s.nsymtab++;
			continue;
		}
		/* module_ns_allow_prepare() counts them all. */
		if (streq(name, "__ns_allow")) {
			first(&r->s.ns_allow, i);
			r->s.n_ns_allow++;
			continue;
		}
		/* As the kernel's find_sec(): the first allocated one. */
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (streq(name, ".gnu.linkonce.this_module")) {
			r->s.this_module = i;
			r->s.nthis_module++;
		} else if (streq(name, "__ksymtab")) {
			first(&r->s.ksymtab, i);
		} else if (streq(name, "__ksymtab_gpl")) {
			first(&r->s.ksymtab_gpl, i);
		} else if (streq(name, "__ksymtab_strings")) {
			first(&r->s.kstrtab, i);
		} else if (streq(name, ".note.gnu.build-id") &&
			   sh.sh_type == SHT_NOTE) {
			first(&r->s.build_id, i);
		} else if (streq(name, ".modinfo")) {
			first(&r->s.modinfo, i);
		}
	}
	if (r->s.nsymtab != 1)
		return fail(r, xstrdup(r->s.nsymtab ?
				       "more than one symbol table" :
				       "no symbol table (stripped?)"));
	if (r->s.nthis_module != 1)
		return fail(r, xstrdup(r->s.nthis_module ?
				       "more than one "
				       ".gnu.linkonce.this_module section" :
				       "no .gnu.linkonce.this_module section: "
				       "not a kernel module"));
	return 0;
}

/* The name in struct module: after state (int) and list (two pointers). */
static const char *this_module_name(struct reader *r)
{
	size_t off = gelf_getclass(r->elf) == ELFCLASS64 ? 24 : 12;
	Elf_Data *d = section_data(r, r->s.this_module);
	const char *p, *nul;

	if (!d || !d->d_buf || d->d_size <= off)
		return NULL;
	p = (const char *)d->d_buf + off;
	nul = memchr(p, '\0', d->d_size - off);
	if (!nul || nul == p)
		return NULL;
	return arena_strndup(r->a, p, nul - p);
}

/*
 * The modinfo; the name is name=, else the one in struct module, as the
 * kernel has it.
 */
static void read_modinfo(struct reader *r)
{
	Elf_Data *d = r->s.modinfo ? section_data(r, r->s.modinfo) : NULL;

	if (d && d->d_buf)
		modinfo_parse(r->m, r->a, d->d_buf, d->d_size);
	r->m->name = r->m->info_name ? r->m->info_name : this_module_name(r);
}

/* The build ID note, to tell a loaded module's file from a namesake. */
static void read_build_id(struct reader *r)
{
	Elf_Data *d = r->s.build_id ? section_data(r, r->s.build_id) : NULL;

	if (!d || !d->d_buf || !d->d_size || d->d_size > 256)
		return;
	r->m->build_id = arena_memdup(r->a, d->d_buf, d->d_size);
	r->m->build_id_len = d->d_size;
}

static void add_grant(const char *rec, size_t colon, void *arg)
{
	struct reader *r = arg;
	struct ns_grant *g = VEC_PUSH(r->m->grants, r->m->n_grants,
				      r->cap_grants);

	g->ns = arena_strndup(r->a, rec, colon);
	g->mod = arena_strdup(r->a, rec + colon + 1);
}

static int refuse(struct reader *r, enum ns_records why, char *msg)
{
	r->m->records = why;
	return fail(r, msg ? msg : xstrdup(ns_records_message(why)));
}

/*
 * Whether a SHT_REL or SHT_RELA section targets __ns_allow (its sh_info):
 * apply_relocations() would rewrite the records after they were checked,
 * read-only or not.
 */
static bool relocated(struct reader *r)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn))) {
		if (gelf_getshdr(scn, &sh) &&
		    (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA) &&
		    sh.sh_info == r->s.ns_allow)
			return true;
	}
	return false;
}

/*
 * module_ns_allow_prepare()'s checks, in its order: one __ns_allow
 * section, allocated, read-only, no relocations into it, every record
 * well formed; then the
 * modinfo allow_ns= values are the records (also when there is none).
 */
static int read_grants(struct reader *r)
{
	Elf_Scn *scn;
	const char *data = NULL;
	GElf_Shdr sh;
	char *why;

	if (!r->s.ns_allow)
		goto modinfo;
	if (r->s.n_ns_allow > 1)
		return refuse(r, NSREC_TWO_SECTIONS, NULL);
	scn = elf_getscn(r->elf, r->s.ns_allow);
	if (!gelf_getshdr(scn, &sh))
		return fail(r, xstrdup("corrupt __ns_allow section header"));
	if (!(sh.sh_flags & SHF_ALLOC))
		return refuse(r, NSREC_NOT_ALLOC, NULL);
	if (sh.sh_flags & SHF_WRITE)
		return refuse(r, NSREC_WRITABLE, NULL);
	if (relocated(r))
		return refuse(r, NSREC_RELOCATED, NULL);
	if (sh.sh_type != SHT_NOBITS) {
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!d || (sh.sh_size && !d->d_buf))
			return fail(r, xstrdup("unreadable __ns_allow"));
		data = d->d_buf;
	}
	if (ns_allow_walk(data, sh.sh_size, &r->m->bad_offset, add_grant,
			  r) < 0)
		return refuse(r, NSREC_MALFORMED,
			      ns_allow_why(data, sh.sh_size,
					   r->m->bad_offset));
modinfo:
	why = ns_allow_disagree(r->m);
	if (why) {
		char *msg = xasprintf("%s: %s",
				      ns_records_message(NSREC_MODINFO), why);

		free(why);
		return refuse(r, NSREC_MODINFO, msg);
	}
	return 0;
}

static void add_symbol(struct reader *r, const GElf_Sym *sym,
		       const char *name)
{
	struct nsmod *m = r->m;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_COMMON) {
		struct ns_undef *u = VEC_PUSH(m->undefs, m->n_undefs,
					      r->cap_undefs);

		u->sym = arena_strdup(r->a, name);
		u->weak = GELF_ST_BIND(sym->st_info) == STB_WEAK;
		u->common = sym->st_shndx == SHN_COMMON;
		return;
	}
	if (strstartswith(name, KSYMTAB) && sym->st_shndx &&
	    (sym->st_shndx == r->s.ksymtab ||
	     sym->st_shndx == r->s.ksymtab_gpl)) {
		struct ns_export *e = VEC_PUSH(m->exports, m->n_exports,
					       r->cap_exports);

		e->sym = arena_strdup(r->a, name + strlen(KSYMTAB));
		e->gpl = sym->st_shndx == r->s.ksymtab_gpl;
		e->pos = sym->st_value;
		e->ns = "";
		e->was_ns = NULL;
		return;
	}
	if (strstartswith(name, KSTRTABNS) && r->s.kstrtab &&
	    sym->st_shndx == r->s.kstrtab) {
		struct nsref *n = VEC_PUSH(r->nsrefs, r->n_nsrefs,
					   r->cap_nsrefs);

		n->sym = name + strlen(KSTRTABNS);
		n->value = sym->st_value;
	}
}

static int read_symbols(struct reader *r)
{
	Elf_Scn *scn = elf_getscn(r->elf, r->s.symtab);
	Elf_Data *d, *strd;
	size_t n, i;
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh) ||
	    sh.sh_entsize != gelf_fsize(r->elf, ELF_T_SYM, 1, EV_CURRENT))
		return fail(r, xstrdup("corrupt symbol table"));
	d = elf_getdata(scn, NULL);
	strd = sh.sh_link ? section_data(r, sh.sh_link) : NULL;
	if (!d || !strd || !strd->d_size || !strd->d_buf ||
	    ((const char *)strd->d_buf)[strd->d_size - 1] != '\0')
		return fail(r, xstrdup("corrupt symbol table or its string "
				       "table"));

	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(d, i, &sym) || sym.st_name >= strd->d_size)
			return fail(r, xasprintf("corrupt symbol %zu", i));
		add_symbol(r, &sym, (const char *)strd->d_buf + sym.st_name);
	}
	return 0;
}

static int cmp_nsref(const void *a, const void *b)
{
	return strcmp(((const struct nsref *)a)->sym,
		      ((const struct nsref *)b)->sym);
}

static int cmp_export(const void *a, const void *b)
{
	const struct ns_export *x = a, *y = b;

	if (x->gpl != y->gpl)
		return x->gpl - y->gpl;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Each export's namespace: the string at __kstrtabns_<sym>. */
static int read_namespaces(struct reader *r)
{
	struct nsmod *m = r->m;
	size_t i;

	if (r->n_nsrefs) {
		Elf_Data *d = section_data(r, r->s.kstrtab);

		if (!d || !d->d_buf)
			return fail(r, xstrdup("unreadable __ksymtab_strings"));
		r->kstr = d->d_buf;
		r->kstr_size = d->d_size;
		qsort(r->nsrefs, r->n_nsrefs, sizeof(*r->nsrefs), cmp_nsref);
	}
	for (i = 0; i < m->n_exports; i++) {
		struct nsref key = { .sym = m->exports[i].sym }, *n;

		n = r->n_nsrefs ? bsearch(&key, r->nsrefs, r->n_nsrefs,
					  sizeof(key), cmp_nsref) : NULL;
		if (!n)
			continue;
		if (n->value >= r->kstr_size ||
		    !memchr(r->kstr + n->value, '\0', r->kstr_size - n->value))
			return fail(r, xasprintf("corrupt namespace string of "
						 "%s", key.sym));
		m->exports[i].ns = arena_strdup(r->a, r->kstr + n->value);
	}
	if (m->n_exports)
		qsort(m->exports, m->n_exports, sizeof(*m->exports),
		      cmp_export);
	return 0;
}

/* Move the vectors built with malloc into the arena: m outlives r. */
static void settle(struct reader *r)
{
	struct nsmod *m = r->m;
	void *p;

	p = m->exports;
	m->exports = arena_memdup(r->a, p, m->n_exports * sizeof(*m->exports));
	free(p);
	p = m->undefs;
	m->undefs = arena_memdup(r->a, p, m->n_undefs * sizeof(*m->undefs));
	free(p);
	p = m->grants;
	m->grants = arena_memdup(r->a, p, m->n_grants * sizeof(*m->grants));
	free(p);
}

int modelf_read(const struct image *img, struct nsmod *m, struct arena *a)
{
	struct reader r = { .img = img, .m = m, .a = a };
	int ret = -ENOEXEC;

	if (img->size < EI_NIDENT && img->size >= SELFMAG &&
	    !memcmp(img->data, ELFMAG, SELFMAG)) {
		fail(&r, xasprintf("truncated: %zu bytes, shorter than an ELF "
				   "header", img->size));
		goto done;
	}
	r.elf = elf_memory((char *)img->data, img->size);
	if (!r.elf || elf_kind(r.elf) != ELF_K_ELF) {
		fail(&r, xstrdup("not an ELF file"));
		goto done;
	}
	if (find_sections(&r) < 0)
		goto done;
	read_modinfo(&r);
	read_build_id(&r);
	if (read_grants(&r) < 0)
		goto done;
	if (!m->name || !*m->name) {
		fail(&r, xstrdup("no module name: neither name= in modinfo "
				 "nor one in .gnu.linkonce.this_module"));
		goto done;
	}
	if (read_symbols(&r) < 0 || read_namespaces(&r) < 0)
		goto done;
	ret = 0;
done:
	settle(&r);
	free(r.nsrefs);
	if (r.elf)
		elf_end(r.elf);
	return ret;
}
