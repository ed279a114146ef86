# SPDX-License-Identifier: GPL-2.0
#
# The whole chain: Debian's linux-source-6.1 + kernel-patch/ -> a guest
# kernel, the test modules, nscheck, a dracut image, QEMU.
#
#   make          build everything, boot the guest, show allowed and
#                 refused loads (the demo)
#   make check    every test: nscheck's host tests and Debian audits, the
#                 conversions' derivation, modpost against cases.tsv, then
#                 the guest suites
#   make shell    the same guest, an interactive shell
#   make bench    load-time benchmark, patched against pristine 6.1
#   make bench-memo  the same, the series with and without its memo
#   make bench-profile  where the loads of the bench spend their time
#   make fuzz     nscheck's libFuzzer targets for FUZZ_TIME s (default 300)
#   make check-debug     the guest suites on the debug kernel (KASAN,
#                        lockdep, kmemleak, ...), stress included
#   make check-debug-selftest  the debug kernel with a use-after-free
#                        put in: the stress suite must fail
#   make check-failslab-boot  the kernel booted with each allocation
#                        of vmlinux's grants failed in turn
#   make check-review-v2  the second review's tests on the series it
#                        read: each must fail there
#   make check-pristine  the guest suites on pristine 6.1: must fail
#   make check-selftests  6.1's own selftests/kmod and livepatch on the
#                        series and on pristine: the same results
#   make check-kunit-i386  the KUnit suite on a 32-bit kernel
#   make graph    nscheck --graph of the conversions and of the test
#                 modules, as DOT and SVG in build/graph/
#
# Everything built lands in build/ (ignored by git); the debug flavour's
# kernel, modules and image in build/debug/.

B := $(CURDIR)/build
FLAVOR ?= normal
# ccache, for every compiler the scripts run: the kernels' builds keep
# their sources beside their objects (build/kernel/src, .../obj), so the
# compiler sees absolute paths, and the debug kernel is built with -g,
# which makes ccache hash the working directory. base_dir makes the
# paths relative and hash_dir off drops the directory, so that a clone
# at another path (CI's, make check-review-v2's build/review-v2) reuses
# what any clone built (the figures: .ci/run's header). The price: a
# reused object's DWARF names the directory of the build that made it
# (no checker here reads it; BTF does not).
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
# The small guest: tinyconfig and these (vm/config/README.md).
SMALL_FRAGMENTS := vm/config/guest.config vm/config/net.config \
	vm/config/conversions.config \
	vm/config/test.config
# The debug guest: Debian's own configuration (its built-in options kept,
# its loadable drivers cut to vm/config/debian-guest.lsmod) with the
# guest's fragments and the checkers of debug.config, booted preemptible.
DEBUG_FRAGMENTS := vm/config/debian-guest.config vm/config/net.config \
	vm/config/test.config vm/config/debug.config
DEBUG_BASE := BASE_CONFIG=$(B)/debian.config \
	BASE_LSMOD=vm/config/debian-guest.lsmod
FRAGMENTS := $(SMALL_FRAGMENTS)
ifeq ($(FLAVOR),debug)
FB := $(B)/debug
BASE_CONFIG := $(B)/debian.config
BASE_LSMOD := vm/config/debian-guest.lsmod
FRAGMENTS := $(DEBUG_FRAGMENTS)
export BASE_CONFIG BASE_LSMOD
# The live differential's 500 checks take 4 minutes on the normal kernel;
# the debug kernel's run is there for its reports, so it makes about 120.
# Its suites take 40-50 minutes under TCG beside make check (the fault
# suite alone about 20): the timeout is an hour.
RUN_ENV := KERNEL_CMDLINE="panic_on_warn=1 preempt=full nsa.live_checks=120" \
	QEMU_MEM=$${QEMU_MEM:-2G} QEMU_TIMEOUT=$${QEMU_TIMEOUT:-3600}
else ifeq ($(FLAVOR),normal)
FB := $(B)
RUN_ENV :=
else
$(error FLAVOR=$(FLAVOR): normal or debug)
endif
KSRC := $(FB)/kernel/src
KOBJ := $(FB)/kernel/obj
KSTAGE := $(FB)/kernel/stage
KSTAMP := $(KOBJ)/.built
PSRC := $(B)/pristine/src
POBJ := $(FB)/pristine/obj
PSTAMP := $(POBJ)/.prepared
# The cover letter is no input of the build.
PATCHES := kernel-patch/series \
	$(filter-out %/0000-cover-letter.patch,$(wildcard kernel-patch/*.patch))
PAYLOAD := $(FB)/payload
IMAGE := $(FB)/initrd.img
MODS := $(FB)/modules
SUITE ?=

all: demo

deps:
	@vm/deps.sh

# --- the patched guest kernel ------------------------------------------
# $(FB)/fragments changes when the list of fragments does, so that adding
# one to FRAGMENTS rebuilds the kernels (build-kernel.sh reconfigures).
$(FB)/fragments: FORCE
	@mkdir -p $(@D)
	@echo '$(FRAGMENTS)' | cmp -s - $@ || echo '$(FRAGMENTS)' > $@

# A stamp takes the time its build started, not ended: an input changed
# during a long build is newer than the stamp, and the next make rebuilds.
STARTED = start=$$(date +%s.%N)
STAMP = touch -d "@$$start" $@

kernel: $(KSTAMP)
$(KSTAMP): $(PATCHES) $(FRAGMENTS) $(FB)/fragments vm/build-kernel.sh \
		$(BASE_CONFIG) $(BASE_LSMOD) | deps
	$(STARTED); \
	vm/build-kernel.sh $(KSRC) $(KOBJ) $(KSTAGE) kernel-patch $(FRAGMENTS) && \
	$(if $(BASE_CONFIG),vm/debian-diff.sh $(BASE_CONFIG) $(B)/debian-tree \
		$(KSRC) $(KOBJ) > $(FB)/config-vs-debian.txt &&) \
	$(STAMP)

# Debian's configuration, from its newest linux-image-6.1 package.
$(B)/debian.config: vm/debian-config.sh userspace/debian-tree.sh | deps
	vm/debian-config.sh $@

# --- a pristine 6.1 tree, prepared for external modules only -----------
# Same configuration, no series: modules built against it see the 6.1
# headers as every module built before this series did.
pristine: $(PSTAMP)
$(PSTAMP): $(KSTAMP) vm/prepare-pristine.sh
	$(STARTED); vm/prepare-pristine.sh $(PSRC) $(POBJ) $(KOBJ)/.config && \
	$(STAMP)

# --- test modules --------------------------------------------------------
modules: $(MODS)/.built
$(MODS)/.built: $(KSTAMP) $(PSTAMP) $(shell find modules -type f)
	$(STARTED); \
	$(MAKE) -C modules KDIR=$(KOBJ) PRISTINE_KDIR=$(POBJ) OUT=$(MODS) && \
	$(STAMP)

# --- nscheck -------------------------------------------------------------
# make -C userspace relinks nscheck only when one of its sources changed,
# and what depends on the binary (the image) is rebuilt only then.
NSCHECK := $(B)/userspace/nscheck
userspace: $(NSCHECK)
$(NSCHECK): FORCE | deps
	$(MAKE) -C userspace O=$(B)/userspace

# nscheck's libFuzzer targets, FUZZ_TIME seconds in all (userspace/README.md).
fuzz: | deps
	$(MAKE) -C userspace O=$(B)/userspace fuzz \
		$(if $(FUZZ_TIME),FUZZ_TIME=$(FUZZ_TIME))

# --- the guest image -----------------------------------------------------
image: $(IMAGE)
$(IMAGE): $(MODS)/.built $(NSCHECK) vm/failnth.c $(shell find bats vm -type f)
	rm -rf $(PAYLOAD)
	mkdir -p $(PAYLOAD)/bats $(PAYLOAD)/bin
	cp -r bats/* $(PAYLOAD)/bats/
	bats/gen-cases.sh run_case modules/cases.tsv > $(PAYLOAD)/bats/020-cases.bats
	bats/gen-cases.sh run_differential modules/cases.tsv > $(PAYLOAD)/bats/030-nscheck.bats
	bats/gen-malformed.sh userspace/tests/malformed/malformed.tsv > $(PAYLOAD)/bats/070-malformed.bats
	cp -r $(MODS)/ko modules/cases.tsv $(PAYLOAD)/
	cp $(KOBJ)/.config $(PAYLOAD)/kernel.config
	cp $(KOBJ)/kernelrelease $(KOBJ)/Module.symvers \
		$(KOBJ)/certs/signing_key.x509 $(PAYLOAD)/
	cp $(B)/userspace/nscheck $(PAYLOAD)/bin/
	$(CC) -O2 -Wall -Wextra -o $(PAYLOAD)/bin/nsa-failnth vm/failnth.c
	cp vm/guest-demo.sh $(PAYLOAD)/bin/nsa-demo
	cp vm/console-check.sh $(PAYLOAD)/bin/nsa-report-check
	userspace/tests/malformed/gen-malformed.py $(MODS)/ko/nsa_exp.ko \
		userspace/tests/malformed/malformed.tsv $(PAYLOAD)/malformed
	cp userspace/tests/malformed/malformed.tsv $(PAYLOAD)/
	mkdir -p $(PAYLOAD)/badcrc
	vm/bad-crc.py $(MODS)/ko/nsa_denied.ko nsa_fn $(PAYLOAD)/badcrc/nsa_denied.ko
	vm/mkimage.sh $@ $$(cat $(KOBJ)/kernelrelease) $(KSTAGE) $(PAYLOAD)

# --- running it ----------------------------------------------------------
# The host checks first: they need no kernel, and fail in minutes.
check: check-host
	$(MAKE) check-kernel

# nscheck's host tests and the conversions' derivation: no kernel build.
check-host: $(NSCHECK)
	$(MAKE) -C userspace O=$(B)/userspace check
	$(MAKE) -C conversions check SRC=$(PSRC)

# What needs the patched build: nscheck over Debian's tree as if built
# with the series, modpost against cases.tsv, then the guest suites.
check-kernel: image
	$(MAKE) -C userspace O=$(B)/userspace audit-debian
	modules/check-modpost.sh $(KOBJ) $(MODS) $(POBJ)
	$(MAKE) check-guest

# The guest suites alone, on this flavour's kernel.
check-guest: image
	$(if $(BASE_CONFIG),vm/modversions-check.sh $(PSRC) $(POBJ) $(KOBJ))
	vm/symvers-check.sh $(PSRC) $(POBJ) $(KOBJ)
	$(RUN_ENV) vm/run.sh check $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) \
		$(FB)/run $(SUITE)

# The debug kernel: the same suites, any KASAN, lockdep, RCU, list or
# kmemleak report fails the run.
check-debug:
	$(MAKE) FLAVOR=debug check-guest

# The debug run's self-test: the debug kernel with a use-after-free put
# into the grant index (vm/selftest/uaf-grant-lookup.patch), a full build
# of its own in build/debug-uaf (about 15 minutes). The run on it must
# FAIL: KASAN reports the read (KUnit's lifetime test, at boot, already
# walks the freed sets) and panic_on_warn ends the boot.
# series_plus DIR PATCH [SERIES]: the series (kernel-patch/, or the one
# in folder SERIES) with PATCH on top, in DIR/series, for
# vm/build-kernel.sh (the self-tests' and the memo bench's kernels).
define series_plus
	rm -rf $(1)/series
	mkdir -p $(1)/series
	cp $(or $(3),kernel-patch)/series $(or $(3),kernel-patch)/*.patch \
		$(2) $(1)/series/
	echo $(notdir $(2)) >> $(1)/series/series
endef

UAF := $(B)/debug-uaf
check-debug-selftest:
	$(MAKE) FLAVOR=debug image
	rm -rf $(UAF)
	$(call series_plus,$(UAF),vm/selftest/uaf-grant-lookup.patch)
	$(DEBUG_BASE) vm/build-kernel.sh $(UAF)/src $(UAF)/obj $(UAF)/stage \
		$(UAF)/series $(DEBUG_FRAGMENTS)
	! KERNEL_CMDLINE=panic_on_warn=1 vm/run.sh check \
		$(UAF)/obj/arch/x86/boot/bzImage $(B)/debug/initrd.img \
		$(UAF)/run 060-stress.bats
	@echo "check-debug-selftest: the use-after-free failed the run, as it must"

# The second review's tests (issue 23) on the series it read, v2: each
# row of vm/selftest/review-v2.tsv passes on today's series and must
# fail there. Builds v2's debug kernel (signing with the debug build's
# key) and a v2 failslab kernel in build/review-v2, boots the debug
# image's payload on the first, runs check-modpost.sh against it and
# failslab-boot.sh on the second. 22 minutes here with the ccache warm
# for those paths, some 45 cold (the debug kernel alone takes 27). Not
# part of 'make check'.
REVIEWED := 35cc313^
check-review-v2:
	$(MAKE) image
	$(MAKE) FLAVOR=debug image
	DEBUG_FRAGMENTS="$(DEBUG_FRAGMENTS)" $(DEBUG_BASE) \
		vm/selftest/review-v2.sh $(REVIEWED) $(B)/review-v2 $(B)

# vmlinux's grants when an allocation fails at boot: the small kernel
# with failslab (vm/config/failslab.config) and
# vm/selftest/grants-enomem.patch on top (fail-nth armed from the command
# line for their parse), booted with the 1st, 2nd, ... allocation failed:
# each must stop the boot with the series' panic line (patch 17), the one
# after the last must boot (vm/failslab-boot.sh). FAILSLAB_SERIES=DIR
# builds it from another series (make check-review-v2's v2).
FAILSLAB := $(B)/failslab-boot
FAILSLAB_SERIES :=
check-failslab-boot: image
	$(call series_plus,$(FAILSLAB),vm/selftest/grants-enomem.patch,$(FAILSLAB_SERIES))
	vm/build-kernel.sh $(FAILSLAB)/src $(FAILSLAB)/obj $(FAILSLAB)/stage \
		$(FAILSLAB)/series $(SMALL_FRAGMENTS) vm/config/failslab.config
	vm/failslab-boot.sh $(FAILSLAB)/obj/arch/x86/boot/bzImage $(IMAGE) \
		$(FAILSLAB)/run

# The same guest on a pristine 6.1 kernel (same config, no series). It
# must FAIL: the restricted-namespace cases pass only with the series.
PKSTAMP := $(B)/pristine-kernel/obj/.built
$(PKSTAMP): $(FRAGMENTS) $(FB)/fragments vm/build-kernel.sh | deps
	$(STARTED); \
	vm/build-kernel.sh $(B)/pristine-kernel/src $(B)/pristine-kernel/obj \
		$(B)/pristine-kernel/stage none $(FRAGMENTS) && \
	$(STAMP)
check-pristine: image $(PKSTAMP)
	vm/mkimage.sh $(B)/pristine-kernel/initrd.img \
		$$(cat $(B)/pristine-kernel/obj/kernelrelease) \
		$(B)/pristine-kernel/stage $(PAYLOAD)
	vm/run.sh check $(B)/pristine-kernel/obj/arch/x86/boot/bzImage \
		$(B)/pristine-kernel/initrd.img $(B)/pristine-run $(SUITE)

# The kernel's own module tests, 6.1's tools/testing/selftests/kmod and
# livepatch, run by its own run_kselftest.sh on the series and on
# pristine 6.1, both the small guest's configuration plus what the tests'
# config files ask (vm/config/selftests.config); vm/kselftest-compare.py
# fails unless both runs give the same results. Two kernels of their own
# in build/selftests: not part of 'make check'.
ST := $(B)/selftests
ST_FRAGMENTS := $(SMALL_FRAGMENTS) vm/config/selftests.config
ST_SERIES_patched := kernel-patch
ST_SERIES_pristine := none
# Both kernels' stamps are kept: make deletes a pattern rule's
# intermediate files.
.SECONDARY: $(ST)/patched/obj/.built $(ST)/pristine/obj/.built
$(ST)/%/obj/.built: $(ST_FRAGMENTS) vm/build-kernel.sh $(PATCHES) | deps
	$(STARTED); \
	vm/build-kernel.sh $(ST)/$*/src $(ST)/$*/obj $(ST)/$*/stage \
		$(ST_SERIES_$*) $(ST_FRAGMENTS) && \
	$(STAMP)
# The tests as 'make install' of the selftests lays them out, with three
# changes for TCG. Each of kmod.sh's 13 tests runs once, not 1 to 150
# times: the repetitions hunt races, and under TCG a round of the
# get_fs_type() tests (50 threads each loading xfs) takes 1 to 2 minutes,
# all of them about 6 hours a kernel. Test 0009 runs last: its 62
# threads wait for 50 loads of xfs, which take longer than
# request_module()'s 5 s under TCG, so it fails on either kernel, and
# kmod.sh stops at its first failure (with every test run once, the
# order of ALL_TESTS is free: kmod.sh looks up a test's count and flag
# by position). And the runner's 45 s limit is lifted for kmod.sh, as
# livepatch's own settings file lifts it.
$(ST)/payload/.built: $(ST)/pristine/obj/.built Makefile
	rm -rf $(@D)
	mkdir -p $(@D)/bin
	$(MAKE) -s -C $(ST)/pristine/src/tools/testing/selftests \
		TARGETS="kmod livepatch" INSTALL_PATH=$(@D)/kselftest install
	sed -i -E -e 's/([" ][0-9]{4}):[0-9]+:1"$$/\1:1:1"/' \
		-e '/ 0009:1:1"$$/{h;d}' -e '/ 0013:1:1"$$/G' \
		$(@D)/kselftest/kmod/kmod.sh
	grep '^ALL_TESTS=' $(@D)/kselftest/kmod/kmod.sh | tr -dc 0-9: | \
		grep -qx '0001:1:10002:1:1\(000[3-8]:1:1\)*0010:1:10011:1:10012:1:10013:1:10009:1:1'
	echo timeout=0 > $(@D)/kselftest/kmod/settings
	touch $@
$(ST)/%/initrd.img: $(ST)/%/obj/.built $(ST)/payload/.built vm/init \
		vm/mkimage.sh
	vm/mkimage.sh $@ $$(cat $(ST)/$*/obj/kernelrelease) $(ST)/$*/stage \
		$(ST)/payload
check-selftests: $(ST)/patched/initrd.img $(ST)/pristine/initrd.img
	pids=; for k in patched pristine; do \
		QEMU_TIMEOUT=$${QEMU_TIMEOUT:-5400} vm/run.sh kselftest \
			$(ST)/$$k/obj/arch/x86/boot/bzImage $(ST)/$$k/initrd.img \
			$(ST)/$$k/run > $(ST)/$$k/run.log 2>&1 & pids="$$pids $$!"; \
	done; \
	rc=0; for p in $$pids; do wait $$p || rc=1; done; \
	tail -n 3 $(ST)/patched/run.log $(ST)/pristine/run.log; \
	vm/kselftest-compare.py $(ST)/patched/run/results.tap \
		$(ST)/pristine/run/results.tap && [ $$rc = 0 ]

# The load-time benchmark (bench/), patched against pristine: not part
# of 'make check'. Writes bench/RESULTS.md and bench/load-time.svg.
bench: $(KSTAMP) $(PKSTAMP)
	bench/run.sh $(KOBJ) $(KSTAGE) $(B)/pristine-kernel/obj \
		$(B)/pristine-kernel/stage $(B)/bench

# Where the time of bench_imp's load (0 and 1,000 records) and of a
# 1,000-namespace exporter's load goes, sampled, on both kernels of
# 'make bench'. Writes bench/PROFILE.md.
bench-profile: $(KSTAMP) $(PKSTAMP)
	bench/profile.sh $(KOBJ) $(KSTAGE) $(B)/pristine-kernel/obj \
		$(B)/pristine-kernel/stage $(B)/bench-profile

# The KUnit suite on a 32-bit kernel (MODULE_NAME_LEN is 60 there, 56 on
# x86_64), built and run by the kernel's own kunit.py under
# qemu-system-i386, from the patched source. Not part of 'make check'.
check-kunit-i386: $(KSTAMP)
	$(KSRC)/tools/testing/kunit/kunit.py run --arch=i386 \
		--kunitconfig=$(KSRC)/kernel/module/.kunitconfig \
		--build_dir=$(B)/kunit-i386 --jobs=$$(nproc)

# The per-load memo's saving: the series against the series with
# bench/no-memo.patch on top (a kernel of its own in build/no-memo).
# Writes bench/RESULTS-memo.md and bench/load-time-memo.svg.
NOMEMO := $(B)/no-memo
bench-memo: $(KSTAMP)
	$(call series_plus,$(NOMEMO),bench/no-memo.patch)
	vm/build-kernel.sh $(NOMEMO)/src $(NOMEMO)/obj $(NOMEMO)/stage \
		$(NOMEMO)/series $(FRAGMENTS)
	BENCH_NAMES="memo no-memo" BENCH_RESULTS=bench/RESULTS-memo.md \
		BENCH_SVG=bench/load-time-memo.svg \
		bench/run.sh $(KOBJ) $(KSTAGE) $(NOMEMO)/obj $(NOMEMO)/stage \
		$(B)/bench-memo

# --- nscheck --graph, rendered -------------------------------------------
# The conversions: the namespaces of conversions/conversions.tsv, as the
# patched build's vmlinux exports (Module.symvers) and grants them
# (modules.builtin.modinfo). The test modules: every module of ko/ that
# nscheck can read (cases.tsv's nscheck column is not 2 for it).
GRAPH := $(B)/graph
CONV_NS = $(shell awk -F'\t' '$$1 == "-" && $$2 == "order" { print $$3 }' \
	conversions/conversions.tsv)
GRAPH_KO = $(filter-out $(shell awk -F'\t' '!/^\#/ && $$6 == 2 \
	{ print "$(MODS)/ko/" $$3 ".ko" }' modules/cases.tsv), \
	$(sort $(wildcard $(MODS)/ko/*.ko)))

graph: $(GRAPH)/conversions.svg $(GRAPH)/test-modules.svg

$(GRAPH)/conversions.dot: $(KSTAMP) conversions/conversions.tsv userspace
	@mkdir -p $(@D)
	$(B)/userspace/nscheck --graph --kdir $(KOBJ) \
		$(CONV_NS:%=--namespace %) > $@.tmp
	mv $@.tmp $@

$(GRAPH)/test-modules.dot: $(MODS)/.built modules/cases.tsv userspace
	@mkdir -p $(@D)
	$(B)/userspace/nscheck --graph --kdir $(KOBJ) $(GRAPH_KO) > $@.tmp
	mv $@.tmp $@

$(GRAPH)/%.svg: $(GRAPH)/%.dot | deps
	dot -Tsvg -o $@ $<

# The picture of README.md, committed (it is small): make graph-readme.
graph-readme: $(GRAPH)/conversions.svg
	cp $< conversions/graph.svg

demo: image
	$(RUN_ENV) vm/run.sh demo $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) $(B)/demo

shell: image
	$(RUN_ENV) vm/run.sh shell $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) $(B)/shell

clean:
	rm -rf $(B)

.PHONY: all deps kernel pristine modules userspace image check check-host \
	check-kernel check-guest \
	check-debug check-debug-selftest check-pristine check-kunit-i386 \
	check-selftests check-failslab-boot check-review-v2 \
	bench bench-memo bench-profile fuzz graph graph-readme \
	demo shell \
	clean FORCE
