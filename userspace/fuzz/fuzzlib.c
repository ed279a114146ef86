// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck fuzzing - the glue the targets share
 */

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <gelf.h>

#include "fuzz.h"
#include "filecache.h"
#include "log.h"
#include "report.h"
#include "kernel.h"
#include "suggest.h"
#include "util.h"
#include "verdict.h"

void fuzz_init(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		abort();
	log_priority = -1;
	if (!freopen("/dev/null", "w", stdout))
		abort();
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("nscheck-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0)
		abort();
	while (done < size) {
		ssize_t r = pwrite(fd, data + done, size - done, done);

		if (r <= 0)
			abort();
		done += r;
	}
	return path;
}

/* The module's sections, in this order; then the section headers. */
enum {
	S_MODINFO = 1, S_NSALLOW, S_THIS, S_SYMTAB, S_STRTAB, S_SHSTRTAB,
	S_NUM
};

static const char shstrtab[] = "\0.modinfo\0__ns_allow\0"
	".gnu.linkonce.this_module\0.symtab\0.strtab\0.shstrtab";
static const char strtab[] = "\0printk\0__this_module";
#define THIS_MODULE_SIZE 0x380

static size_t put(uint8_t *buf, size_t off, const void *p, size_t len,
		  size_t align, Elf64_Shdr *sh)
{
	off = (off + align - 1) & ~(align - 1);
	if (len)
		memcpy(buf + off, p, len);
	sh->sh_offset = off;
	sh->sh_size = len;
	sh->sh_addralign = align;
	return off + len;
}

void *fuzz_mkko(const uint8_t *modinfo, size_t modinfo_size,
		const uint8_t *records, size_t records_size, size_t *size)
{
	Elf64_Sym syms[3] = {
		{ 0 },
		{ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE) },
		{ .st_name = 8, .st_shndx = S_THIS,
		  .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
		  .st_size = THIS_MODULE_SIZE },
	};
	uint8_t this_module[THIS_MODULE_SIZE] = { 0 };
	Elf64_Shdr sh[S_NUM] = { { 0 } };
	Elf64_Ehdr *eh;
	size_t off = sizeof(*eh), total;
	uint8_t *buf;

	total = off + modinfo_size + records_size + sizeof(this_module) +
		sizeof(syms) + sizeof(strtab) + sizeof(shstrtab) +
		sizeof(sh) + 256;
	buf = xcalloc(1, total);
	memcpy(this_module + 24, "fuzz", 4);
	off = put(buf, off, modinfo, modinfo_size, 1, &sh[S_MODINFO]);
	off = put(buf, off, records, records ? records_size : 0, 1,
		  &sh[S_NSALLOW]);
	off = put(buf, off, this_module, sizeof(this_module), 64,
		  &sh[S_THIS]);
	off = put(buf, off, syms, sizeof(syms), 8, &sh[S_SYMTAB]);
	off = put(buf, off, strtab, sizeof(strtab), 1, &sh[S_STRTAB]);
	off = put(buf, off, shstrtab, sizeof(shstrtab), 1, &sh[S_SHSTRTAB]);

	sh[S_MODINFO].sh_name = 1;
	sh[S_MODINFO].sh_type = SHT_PROGBITS;
	sh[S_MODINFO].sh_flags = SHF_ALLOC;
	/* Without records, a section no one reads, so the indices stay. */
	sh[S_NSALLOW].sh_name = records ? 10 : 0;
	sh[S_NSALLOW].sh_type = SHT_PROGBITS;
	sh[S_NSALLOW].sh_flags = records ? SHF_ALLOC : 0;
	sh[S_THIS].sh_name = 21;
	sh[S_THIS].sh_type = SHT_PROGBITS;
	sh[S_THIS].sh_flags = SHF_ALLOC | SHF_WRITE;
	sh[S_SYMTAB].sh_name = 47;
	sh[S_SYMTAB].sh_type = SHT_SYMTAB;
	sh[S_SYMTAB].sh_entsize = sizeof(Elf64_Sym);
	sh[S_SYMTAB].sh_link = S_STRTAB;
	sh[S_SYMTAB].sh_info = 1;
	sh[S_STRTAB].sh_name = 55;
	sh[S_STRTAB].sh_type = SHT_STRTAB;
	sh[S_SHSTRTAB].sh_name = 63;
	sh[S_SHSTRTAB].sh_type = SHT_STRTAB;

	off = (off + 7) & ~(size_t)7;
	memcpy(buf + off, sh, sizeof(sh));
	eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = off;
	eh->e_ehsize = sizeof(*eh);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = S_NUM;
	eh->e_shstrndx = S_SHSTRTAB;
	*size = off + sizeof(sh);
	return buf;
}

/*
 * The kernel the module is checked against, as the test modules make it:
 * vmlinux with a plain, a GPL-only and two namespaced exports; nsa_exp,
 * which restricts NSA_RESTR; nsa_lister, which lists modules for it and
 * for NSA_OPEN; a proprietary exporter.
 */
static const struct ns_export exp_exports[] = {
	{ .sym = "nsa_fn", .ns = "NSA_RESTR", .gpl = true },
	{ .sym = "nsa_fn_nongpl", .ns = "NSA_RESTR", .pos = 12 },
	{ .sym = "nsa_open_fn", .ns = "NSA_OPEN", .gpl = true, .pos = 24 },
};
static const struct ns_grant exp_grants[] = {
	{ "NSA_RESTR", "nsa_user" },
	{ "NSA_RESTR", "nsa_nongpl" },
	{ "NSA_RESTR", "fuzz" },
};
static const struct ns_grant lister_grants[] = {
	{ "NSA_RESTR", "nsa_wrong" },
	{ "NSA_OPEN", "nsa_nobody" },
};
static const struct ns_export prop_exports[] = {
	{ .sym = "prop_fn", .ns = "" },
};
static const struct nsmod world[] = {
	{ .path = "nsa_exp.ko", .name = "nsa_exp", .license = "GPL",
	  .exports = (struct ns_export *)exp_exports,
	  .n_exports = ARRAY_SIZE(exp_exports),
	  .grants = (struct ns_grant *)exp_grants,
	  .n_grants = ARRAY_SIZE(exp_grants) },
	{ .path = "nsa_lister.ko", .name = "nsa_lister", .license = "GPL",
	  .grants = (struct ns_grant *)lister_grants,
	  .n_grants = ARRAY_SIZE(lister_grants) },
	{ .path = "nsa_prop.ko", .name = "nsa_prop",
	  .license = "Proprietary",
	  .exports = (struct ns_export *)prop_exports,
	  .n_exports = ARRAY_SIZE(prop_exports) },
};
#define NWORLD ARRAY_SIZE(world)

/* The model: vmlinux and the world above. */
static struct kernel *fuzz_kernel(bool world_too)
{
	struct kernel *k = kernel_new();
	size_t i;

	kernel_add_vmlinux_export(k, "printk", "", NULL, false);
	kernel_add_vmlinux_export(k, "v_gpl_fn", "", NULL, true);
	kernel_add_vmlinux_export(k, "v_ns_fn", "VNS", NULL, false);
	kernel_add_vmlinux_export(k, "v_res_fn", "VRES", NULL, true);
	kernel_add_vmlinux_grant(k, "VRES", 4, "fuzz");
	for (i = 0; world_too && i < NWORLD; i++)
		kernel_load(k, &world[i], verdict_proprietary(&world[i]));
	return k;
}

/* --suggest on the world and m: m's uses make groups. */
static void fuzz_suggest(struct nsmod *m)
{
	struct suggest_opts so = { .max_users = 2, .json = true };
	struct kernel *k = fuzz_kernel(false);
	struct suggest *sg = suggest_new(k);
	struct nsmod mods[NWORLD], *ptrs[NWORLD + 1];
	const char *files[NWORLD + 1];
	size_t i;

	for (i = 0; i < NWORLD; i++) {
		mods[i] = world[i];
		ptrs[i] = &mods[i];
		files[i] = world[i].path;
	}
	ptrs[i] = m;
	files[i] = m->path;
	suggest_build(sg, ptrs, files, NWORLD + 1, &so);
	suggest_report(sg, &so);
	suggest_free(sg);
	kernel_free(k);
}

void fuzz_check(const char *path)
{
	struct report rep = { .json = true };
	enum status status = STATUS_UNREADABLE;
	struct findings fs = { 0 };
	struct kernel *k;
	struct filecache l;
	struct nsmod *m;

	filecache_init(&l);
	m = filecache_get(&l, path);
	k = fuzz_kernel(true);
	if (m->error) {
		if (m->name)
			verdict_records(m, &fs);
	} else {
		status = verdict_check(k, m, NULL, &fs) ? STATUS_LOADS :
			 STATUS_REFUSED;
		/* Then as --all checks it: already in the model. */
		verdict_check(k, m, kernel_load(k, m, verdict_proprietary(m)),
			      &fs);
	}
	report_begin(&rep);
	report_module(&rep, m, status, "given", &fs);
	report_end(&rep);
	fuzz_suggest(m);

	kernel_free(k);
	free(fs.f);
	filecache_free(&l);
}

/* Every target's libFuzzer entry for set-up: the same one for all. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	return 0;
}
