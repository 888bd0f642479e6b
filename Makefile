# SPDX-License-Identifier: GPL-2.0
#
# tagger: PFC deadlock prevention (Tagger) for Linux switches.
# `make help` lists the targets (their "## " comments); V=1 shows commands.

OUTPUT   := build
PREFIX   ?= /usr/local
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
FUZZ_SECONDS ?= 5
# make fuzz runs FUZZ_LONG_SECONDS per target, or FUZZ_SECONDS when given
FUZZ_LONG_SECONDS ?= 120
UNITDIR  ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc

# Libraries with a pkg-config file; GLPK (libglpk-dev) and CaDiCaL
# (libcadical-dev, a static C++ library behind a C API) have none. GLPK
# is loaded when first called (userspace/lib/glpk_load.c), and libstdc++
# (CaDiCaL's) linked in: each cost every process about 0.8 ms of start-up
# in the dynamic loader.
PKGS     := jansson libbpf libmnl zlib
PKG_CONFIG ?= pkg-config
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	    -D_GNU_SOURCE -MMD -MP -Iuserspace -Ibpf -I$(OUTPUT) \
	    $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LDLIBS   += $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || \
		echo -ljansson -lbpf -lmnl -lz) -lcadical -Wl,-Bstatic -lstdc++ \
		-Wl,-Bdynamic -static-libgcc -ldl -lm

# The BPF target's architecture and the multiarch include dir (asm/types.h)
# come from the toolchain, not from a fixed x86.
ARCH      ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
		-e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/')
MULTIARCH ?= $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_$(ARCH) -Wall \
	      $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH)) -Ibpf

ifeq ($(V),1)
Q   :=
msg :=
else
Q   := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

USER_SRCS := $(wildcard userspace/*/*.c)
USER_OBJS := $(USER_SRCS:userspace/%.c=$(OUTPUT)/user/%.o)
LIB_OBJS  := $(filter-out $(OUTPUT)/user/cli/main.o,$(USER_OBJS))
BPF_SRCS  := $(wildcard bpf/*.bpf.c)
BPF_OBJS  := $(BPF_SRCS:bpf/%.bpf.c=$(OUTPUT)/%.bpf.o)
BPF_SKELS := $(BPF_OBJS:.bpf.o=.skel.h)
TEST_SRCS := $(wildcard tests/unit/*/*.c tests/bpf/*.c)
TEST_OBJS := $(TEST_SRCS:tests/%.c=$(OUTPUT)/tests/%.o)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(OUTPUT)/fuzz/%)
BENCH_LIB  := tests/bench/bench_harness.c
BENCH_SRCS := $(filter-out $(BENCH_LIB),$(wildcard tests/bench/*.c))
BENCH_OBJS := $(BENCH_LIB:tests/%.c=$(OUTPUT)/tests/%.o)
BENCH_BINS := $(BENCH_SRCS:tests/bench/%.c=$(OUTPUT)/bench/%)
# Test helpers: tests/helpers/X.c -> build/helpers/X (with the userspace
# objects), and the LD_PRELOAD of the DCB test as a shared object.
HELPER_BINS := $(OUTPUT)/helpers/dcb_tool $(OUTPUT)/helpers/dcb_fake.so

TAGGER    := $(OUTPUT)/tagger

.PHONY: all deps pkgs vm-kernel test check helpers check-layers lint format bench-ab unit shell-tests fuzz fuzz-smoke bench \
	demo install clean help
.DELETE_ON_ERROR:
.SECONDARY:

all: $(TAGGER) $(BPF_OBJS) ## build build/tagger and the BPF objects

help: ## this list
	@grep -hE '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | \
		sed -e 's/^\([a-z-]*\):.*## /  make \1\t/' | expand -t 20

deps: pkgs vm-kernel ## install the Debian packages and prepare the VM kernel

pkgs: ## install the Debian packages only
	$(Q)bash tools/install-deps.sh

# Debian's stock kernel for the VM tests (vmlab/vm.sh): fetched with apt-get
# download once (about 10 s), then cached; without it the tests of the
# mqprio-plug pause backend and of the data plane on 6.1 would only skip.
vm-kernel: pkgs ## fetch and prepare the VM tests' kernel (cached)
	$(Q)bash vmlab/vm.sh setup

$(OUTPUT)/user $(OUTPUT)/tests/unit $(OUTPUT)/tests/bpf $(OUTPUT)/fuzz:
	$(Q)mkdir -p $@

# BPF: %.bpf.c -> build/%.bpf.o -> build/%.skel.h
$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h bpf/lib/*.h) | $(OUTPUT)/user
	$(call msg,CLNG-BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The pause machinery uses fetch-and-add and compare-and-swap (BPF v3 ISA).
$(OUTPUT)/pfc.bpf.o: BPF_CFLAGS += -mcpu=v3

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# Userspace: every object may include a skeleton, so skeletons come first.
$(OUTPUT)/user/%.o: userspace/%.c | $(OUTPUT)/user $(BPF_SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(TAGGER): $(USER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# Unit and BPF test-run tests: one Check runner, suites registered from the
# file names (tests/<area>/test_<name>.c defines Suite *<name>_suite(void)).
$(OUTPUT)/tests/suites.h: $(TEST_SRCS) | $(OUTPUT)/tests/unit
	$(call msg,GEN,$@)
	$(Q)for f in $(sort $(notdir $(TEST_SRCS))); do \
		n=$${f#test_}; echo "SUITE($${n%.c})"; \
	done > $@.tmp && (cmp -s $@.tmp $@ || mv $@.tmp $@); rm -f $@.tmp

$(OUTPUT)/tests/%.o: tests/%.c | $(OUTPUT)/tests/unit $(OUTPUT)/tests/bpf $(BPF_SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests -c $< -o $@

$(OUTPUT)/tests/runner.o: tests/runner.c $(OUTPUT)/tests/suites.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Itests -c $< -o $@

$(OUTPUT)/test_runner: $(OUTPUT)/tests/runner.o $(TEST_OBJS) $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lglpk $(shell pkg-config --libs check)

# Fuzz targets: libFuzzer + ASan/UBSan over the parsers, built with clang
# against an archive of the userspace objects (the linker takes only what a
# target uses).
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -std=gnu11 \
	       -D_GNU_SOURCE -MMD -MP -Iuserspace -Ibpf -I$(OUTPUT)
FUZZ_OBJS := $(LIB_OBJS:$(OUTPUT)/user/%.o=$(OUTPUT)/fuzz/obj/%.o)

$(OUTPUT)/fuzz/obj/%.o: userspace/%.c | $(BPF_SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,FUZZ-CC,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(OUTPUT)/fuzz/libtagger.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/fuzz/%: tests/fuzz/%.c $(OUTPUT)/fuzz/libtagger.a tests/fuzz/fuzz_common.h | $(OUTPUT)/fuzz
	$(call msg,FUZZ-LD,$@)
	$(Q)mkdir -p $(OUTPUT)/fuzz/obj
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -MF $(OUTPUT)/fuzz/obj/$*.d -fsanitize=fuzzer \
		$(filter-out %.h,$^) -o $@ $(LDLIBS)

test: deps ## deps, then everything `make check` runs
	$(Q)$(MAKE) --no-print-directory check

# No installing: what needs a missing package or root skips and says so.
check: check-layers all $(OUTPUT)/test_runner $(FUZZ_BINS) $(HELPER_BINS) ## build, unit, BPF, namespace, lab and VM tests, fuzz smoke
	$(Q)bash tests/run.sh

check-layers: ## no file of userspace/ includes a folder above its layer, nor its folder in a circle
	$(Q)bash tools/check-layers.sh

# shellcheck at warning level over every script (tests/lint.sh).
lint: ## shellcheck over every script, clang-format check, layer check
	$(Q)bash tests/lint.sh

format: ## format every tracked C file as .clang-format says (kernel style)
	$(Q)git ls-files '*.c' '*.h' | xargs clang-format -i

unit: all $(OUTPUT)/test_runner ## the Check suites only
	$(Q)$(OUTPUT)/test_runner

fuzz: $(FUZZ_BINS) ## longer fuzzing of every parser (FUZZ_SECONDS per target)
	$(Q)FUZZ_SECONDS=$(if $(filter command line environment,$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),$(FUZZ_LONG_SECONDS)) \
		bash tests/fuzz/run.sh $(FUZZ_BINS)

fuzz-smoke: $(FUZZ_BINS)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh $(FUZZ_BINS)

# Benchmark helpers: tests/bench/X.c -> build/bench/X, with their shared
# harness (bench_harness.c) and the userspace objects (as the test runner
# links them).
$(OUTPUT)/bench/%: tests/bench/%.c $(BENCH_OBJS) $(LIB_OBJS) | $(BPF_SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $< $(BENCH_OBJS) $(LIB_OBJS) -o $@ $(LDLIBS)

$(OUTPUT)/helpers/%: tests/helpers/%.c $(LIB_OBJS) | $(BPF_SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $< $(LIB_OBJS) -o $@ $(LDLIBS)

$(OUTPUT)/helpers/%.so: tests/helpers/%.c
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -fPIC -shared $< -o $@ -lmnl -ljansson -ldl

helpers: $(HELPER_BINS) ## the test helpers (build/helpers/)

bench: pkgs ## benchmarks (ratios measured in one run)
	$(Q)$(MAKE) --no-print-directory all $(BENCH_BINS)
	$(Q)bash tests/bench/run.sh

bench-ab: ## before/after in one run: this tree against REV=<commit> (tools/bench-ab.sh)
	$(Q)bash tools/bench-ab.sh $(REV)

# Not in `make test`: half an hour of lossless traffic under agent freezes,
# kills, restarts and rule updates (tests/soak/soak.sh, SOAK_SECONDS, SOAK_SEED).
.PHONY: soak
soak: all ## lossless soak: every sent packet received or counted (SOAK_SECONDS=1800)
	$(Q)bash tests/soak/soak.sh

demo: pkgs ## the Clos deadlock of the paper, without and with Tagger
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash vmlab/demo.sh

# The units name the installed binary and configuration; the examples go to
# the doc directory and, as NAME.conf.example, to SYSCONFDIR/tagger, never
# over a file already there (the operator's edits survive a reinstall).
install: $(TAGGER) ## tagger, its systemd units and examples under DESTDIR/PREFIX
	install -D -m 0755 $(TAGGER) $(DESTDIR)$(PREFIX)/sbin/tagger
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(PREFIX)/share/doc/tagger/examples
	for u in systemd/*.service.in; do \
		sed -e 's|@SBINDIR@|$(PREFIX)/sbin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
			-e 's|@DOCDIR@|$(PREFIX)/share/doc/tagger|g' $$u \
			> $(DESTDIR)$(UNITDIR)/$$(basename $$u .in) || exit 1; \
	done
	install -m 0644 README.md systemd/netns.conf $(DESTDIR)$(PREFIX)/share/doc/tagger/
	cp -R etc/tagger/. $(DESTDIR)$(PREFIX)/share/doc/tagger/examples/
	for f in $$(cd etc && find tagger -type f); do \
		d=$(DESTDIR)$(SYSCONFDIR)/$$f; install -d -m 0755 $$(dirname $$d) && \
		{ [ -e $$d ] || install -m 0644 etc/$$f $$d; } || exit 1; \
	done

clean: ## remove build/
	$(Q)rm -rf $(OUTPUT)

# Header dependencies, the fuzz objects' too: a changed struct must rebuild
# them, or a target links objects of two layouts.
-include $(USER_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(BENCH_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) \
	$(FUZZ_BINS:$(OUTPUT)/fuzz/%=$(OUTPUT)/fuzz/obj/%.d)

# ---- Documentation, completion, Debian package (Documentation/, bash-completion/, debian/)
#
#   make man        render Documentation/*.rst into build/man/ (rst2man)
#   make deb        build/deb/tagger_<version>_<arch>.deb (debhelper, out of tree)
#   make test-docs  help, man pages and completion agree; pages render cleanly;
#                   every option table agrees with its man page's OPTIONS
#   make test-deb   install the .deb, use it, purge it (root; changes the machine)

# The version: VERSION is the one place; tagger --version prints it.
TAGGER_VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)
$(OUTPUT)/user/cli/main.o: VERSION
$(OUTPUT)/user/cli/main.o: CFLAGS += -DTAGGER_VERSION='"$(TAGGER_VERSION)"'

RST2MAN    ?= rst2man
MAN_SRCS   := $(wildcard Documentation/*.[0-9].rst)
MAN_PAGES  := $(MAN_SRCS:Documentation/%.rst=$(OUTPUT)/man/%)
BASHCOMPDIR ?= /usr/share/bash-completion/completions
MANDIR     ?= $(PREFIX)/share/man

.PHONY: man install-docs install-ansible deb test-docs test-deb

# The Ansible collection tagger.fabric (ansible/tagger/fabric) where
# Debian's ansible-core looks for collections.
ANSIBLEDIR ?= $(PREFIX)/share/ansible/collections/ansible_collections

man: $(MAN_PAGES)

$(OUTPUT)/man/%: Documentation/%.rst VERSION
	$(Q)mkdir -p $(@D)
	$(call msg,RST2MAN,$@)
	$(Q)$(RST2MAN) --halt=warning --no-datestamp $< > $@.tmp && \
		sed -i 's/@VERSION@/$(TAGGER_VERSION)/g' $@.tmp && mv $@.tmp $@

install: install-docs install-ansible
install-docs: man
	$(Q)for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -D -m 0644 $$p $(DESTDIR)$(MANDIR)/man$$s/$${p##*/}; \
	done
	install -D -m 0644 bash-completion/tagger $(DESTDIR)$(BASHCOMPDIR)/tagger

install-ansible:
	$(Q)for f in $$(cd ansible && find tagger -type f ! -path '*/__pycache__/*' | sort); do \
		install -D -m 0644 ansible/$$f $(DESTDIR)$(ANSIBLEDIR)/$$f || exit 1; \
	done

# Built from a copy of the tracked and new files in build/deb/src, so the
# repository root stays clean; the .deb lands in build/deb/.
deb:
	$(Q)v=$$(cd debian && dpkg-parsechangelog -l changelog -S Version); \
	if [ "$$v" != "$(TAGGER_VERSION)" ]; then \
		echo "make deb: debian/changelog is at $$v but VERSION says $(TAGGER_VERSION):" \
		     "add a changelog entry (dch -v $(TAGGER_VERSION))" >&2; exit 1; fi
	$(Q)rm -rf $(OUTPUT)/deb && mkdir -p $(OUTPUT)/deb/src
	$(Q)git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C $(OUTPUT)/deb/src
	$(Q)cd $(OUTPUT)/deb/src && dpkg-buildpackage -us -uc -b
	$(Q)ls $(OUTPUT)/deb/*.deb
	$(Q)lintian --tag-display-limit 0 --fail-on error $(OUTPUT)/deb/*.changes

test-docs: $(TAGGER) man
	$(Q)bash tests/shell/test_docs.sh
	$(Q)bash tests/shell/test_man_options.sh

test-deb: deb
	$(Q)bash tests/shell/test_deb.sh
