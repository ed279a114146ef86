# SPDX-License-Identifier: GPL-2.0
#
# The whole chain: Debian's linux-source-6.1 + kernel-patch/ -> a guest
# kernel, the test modules, nscheck, a dracut image, QEMU.
#
#   make          build everything, boot the guest, show allowed and
#                 refused loads (the demo)
#   make check    every test: nscheck's host tests, then the guest suites
#   make shell    the same guest, an interactive shell
#   make bench    load-time benchmark, patched against pristine 6.1
#   make check-pristine  the guest suites on pristine 6.1: must fail
#
# Everything built lands in build/ (ignored by git).

B := $(CURDIR)/build
KSRC := $(B)/kernel/src
KOBJ := $(B)/kernel/obj
KSTAGE := $(B)/kernel/stage
KSTAMP := $(KOBJ)/.built
PSRC := $(B)/pristine/src
POBJ := $(B)/pristine/obj
PSTAMP := $(POBJ)/.prepared
FRAGMENTS := vm/config/guest.config vm/config/net.config vm/config/test.config
PATCHES := kernel-patch/series $(wildcard kernel-patch/*.patch)
PAYLOAD := $(B)/payload
IMAGE := $(B)/initrd.img
SUITE ?=

all: demo

deps:
	@vm/deps.sh

# --- the patched guest kernel ------------------------------------------
kernel: $(KSTAMP)
$(KSTAMP): $(PATCHES) $(FRAGMENTS) vm/build-kernel.sh | deps
	vm/build-kernel.sh $(KSRC) $(KOBJ) $(KSTAGE) kernel-patch $(FRAGMENTS)
	touch $@

# --- a pristine 6.1 tree, prepared for external modules only -----------
# Same configuration, no series: modules built against it see the 6.1
# headers as every module built before this series did.
pristine: $(PSTAMP)
$(PSTAMP): $(KSTAMP) vm/prepare-pristine.sh
	vm/prepare-pristine.sh $(PSRC) $(POBJ) $(KOBJ)/.config
	touch $@

# --- test modules --------------------------------------------------------
modules: $(B)/modules/.built
$(B)/modules/.built: $(KSTAMP) $(PSTAMP) $(shell find modules -type f)
	$(MAKE) -C modules KDIR=$(KOBJ) PRISTINE_KDIR=$(POBJ) OUT=$(B)/modules
	touch $@

# --- nscheck -------------------------------------------------------------
userspace: | deps
	$(MAKE) -C userspace O=$(B)/userspace

# --- the guest image -----------------------------------------------------
image: $(IMAGE)
$(IMAGE): $(B)/modules/.built userspace $(shell find bats vm -type f)
	rm -rf $(PAYLOAD)
	mkdir -p $(PAYLOAD)/bats $(PAYLOAD)/bin
	cp -r bats/* $(PAYLOAD)/bats/
	bats/gen-cases.sh run_case modules/cases.tsv > $(PAYLOAD)/bats/020-cases.bats
	bats/gen-cases.sh run_differential modules/cases.tsv > $(PAYLOAD)/bats/030-nscheck.bats
	cp -r $(B)/modules/ko modules/cases.tsv $(PAYLOAD)/
	cp $(KOBJ)/kernelrelease $(KOBJ)/Module.symvers $(PAYLOAD)/
	cp $(B)/userspace/nscheck $(PAYLOAD)/bin/
	cp vm/guest-demo.sh $(PAYLOAD)/bin/nsa-demo
	vm/mkimage.sh $@ $$(cat $(KOBJ)/kernelrelease) $(KSTAGE) $(PAYLOAD)

# --- running it ----------------------------------------------------------
check: image
	$(MAKE) -C userspace O=$(B)/userspace check
	$(MAKE) -C userspace O=$(B)/userspace audit-debian
	vm/run.sh check $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) $(B)/run $(SUITE)

# The same guest on a pristine 6.1 kernel (same config, no series). It
# must FAIL: the restricted-namespace cases pass only with the series.
PKSTAMP := $(B)/pristine-kernel/obj/.built
$(PKSTAMP): $(FRAGMENTS) vm/build-kernel.sh | deps
	vm/build-kernel.sh $(B)/pristine-kernel/src $(B)/pristine-kernel/obj \
		$(B)/pristine-kernel/stage none $(FRAGMENTS)
	touch $@
check-pristine: image $(PKSTAMP)
	vm/mkimage.sh $(B)/pristine-kernel/initrd.img \
		$$(cat $(B)/pristine-kernel/obj/kernelrelease) \
		$(B)/pristine-kernel/stage $(PAYLOAD)
	vm/run.sh check $(B)/pristine-kernel/obj/arch/x86/boot/bzImage \
		$(B)/pristine-kernel/initrd.img $(B)/pristine-run $(SUITE)

# The load-time benchmark (bench/), patched against pristine: not part
# of 'make check'. Writes bench/RESULTS.md and bench/load-time.svg.
bench: $(KSTAMP) $(PKSTAMP)
	bench/run.sh $(KOBJ) $(KSTAGE) $(B)/pristine-kernel/obj \
		$(B)/pristine-kernel/stage $(B)/bench

demo: image
	vm/run.sh demo $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) $(B)/demo

shell: image
	vm/run.sh shell $(KOBJ)/arch/x86/boot/bzImage $(IMAGE) $(B)/shell

clean:
	rm -rf $(B)

.PHONY: all deps kernel pristine modules userspace image check check-pristine \
	bench demo shell clean
