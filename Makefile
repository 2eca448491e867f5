# SPDX-License-Identifier: GPL-2.0-only
#
# zbewalgo top-level Makefile.
#
# User space (the same lib/zbewalgo sources the kernel builds, compiled
# against the stub headers in tools/zbewalgo/shim):
#   make                 build/zbewalgo, the command-line tool; first, as
#                        every target does, the Debian packages it needs
#                        (make deps: installed when root, else one line
#                        naming them)
#   make SANITIZE=1      the same with ASan+UBSan, in build/san/
#   make check           unit and tool tests under ASan+UBSan
#
# Kernel modules are built by Kbuild; see Kbuild in this directory.

CC		?= gcc
CFLAGS		?= -O2 -g
WARN		:= -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter \
		   -Wno-missing-field-initializers -Wstrict-prototypes
CPPFLAGS	+= -Iinclude -Itools/zbewalgo/shim

SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer

# ZBW_LEAN=1: the kernel's build without CONFIG_ZBEWALGO_CLASSIC_STEPS
# (make test-lean).
ifeq ($(ZBW_LEAN),1)
BUILD		?= build/lean
CPPFLAGS	+= -DZBW_LEAN
endif

ifeq ($(SANITIZE),1)
BUILD		?= build/san
CFLAGS		+= $(SAN_FLAGS)
LDFLAGS		+= $(SAN_FLAGS)
else
BUILD		?= build
endif

# The algorithm: the core and the classic steps (the core alone with
# ZBW_LEAN=1), as lib/zbewalgo/Makefile lists them for Kbuild too.
include lib/zbewalgo/Makefile
LIB_SRCS	:= $(addprefix lib/zbewalgo/,$(patsubst %.o,%.c,$(ZBEWALGO_CORE) \
		   $(if $(filter 1,$(ZBW_LEAN)),,$(ZBEWALGO_CLASSIC))))
LIB_HDRS	:= include/linux/zbewalgo.h \
		   $(wildcard lib/zbewalgo/core/*.h lib/zbewalgo/classic/*.h) \
		   $(wildcard tools/zbewalgo/shim/*/*.h)
LIB_OBJS	:= $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))

TOOL		:= $(BUILD)/zbewalgo
TEST		:= $(BUILD)/zbewalgo_test

.PHONY: all check check-user test-unit test-cli test-golden golden testdata \
	corpus clean deps run test-s390x

# Debian packages the user-space build and tests need.
DEPS		:= build-essential liblz4-dev libzstd-dev liblzo2-dev zlib1g-dev \
		   python3
.DELETE_ON_ERROR:

# The packages first (install-deps.sh: nothing to do when they are there),
# then the tool, which needs their headers.
all: deps
	@$(MAKE) --no-print-directory $(TOOL)

deps:
	@scripts/install-deps.sh $(DEPS)

$(BUILD)/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/libzbewalgo.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

BENCH_OBJS	:= $(patsubst %,$(BUILD)/tools/zbewalgo/%.o,bench bench_algos \
		   bench_report bench_recompress)
TUNE_OBJS	:= $(patsubst %,$(BUILD)/tools/zbewalgo/%.o,tune tune_input \
		   tune_search tune_report train_dict)
TOOL_OBJS	:= $(BUILD)/tools/zbewalgo/zbewalgo.o $(BENCH_OBJS) \
		   $(TUNE_OBJS) $(BUILD)/tools/zbewalgo/common.o
$(TOOL_OBJS): tools/zbewalgo/zbewalgo_tool.h
$(BENCH_OBJS): tools/zbewalgo/bench.h
$(TUNE_OBJS): tools/zbewalgo/tune.h
# bench's lzo-rle: the kernel's lib/lzo, vendored (tools/zbewalgo/lzo-rle/
# README), built against its own stand-in headers and renamed so it does
# not clash with liblzo2.  Like all kernel code it assumes
# -fno-strict-aliasing (with gcc 12 -O2 the decoder breaks without it).
LZORLE_OBJS	:= $(BUILD)/tools/zbewalgo/lzo-rle/lzo1x_compress.o \
		   $(BUILD)/tools/zbewalgo/lzo-rle/lzo1x_decompress_safe.o
$(BUILD)/tools/zbewalgo/lzo-rle/%.o: tools/zbewalgo/lzo-rle/%.c \
		$(wildcard tools/zbewalgo/lzo-rle/*.h tools/zbewalgo/lzo-rle/include/linux/*.h)
	@mkdir -p $(dir $@)
	$(CC) -Itools/zbewalgo/lzo-rle/include \
		-Dlzo1x_1_compress=kernel_lzo1x_1_compress \
		-Dlzorle1x_1_compress=kernel_lzorle1x_1_compress \
		-Dlzo1x_decompress_safe=kernel_lzo1x_decompress_safe \
		$(CFLAGS) -fno-strict-aliasing $(WARN) -c -o $@ $<
$(BUILD)/tools/zbewalgo/bench.o: \
	CPPFLAGS += -DZBEWALGO_BENCH_PLOT='"$(CURDIR)/tools/zbewalgo/bench-plot.py"'
$(BUILD)/tools/zbewalgo/tune.o: \
	CPPFLAGS += -DZBEWALGO_TUNE_PLOT='"$(CURDIR)/tools/zbewalgo/tune-plot.py"'
# zbewalgo --version: the release, dkms.conf's PACKAGE_VERSION
TOOL_VERSION	:= $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
$(BUILD)/tools/zbewalgo/zbewalgo.o: dkms.conf
$(BUILD)/tools/zbewalgo/zbewalgo.o: \
	CPPFLAGS += -DZBEWALGO_TOOL_VERSION='"$(TOOL_VERSION)"'
$(TOOL): $(TOOL_OBJS) $(LZORLE_OBJS) $(BUILD)/libzbewalgo.a
	$(CC) $(LDFLAGS) -o $@ $^ -llz4 -lzstd -llzo2 -lz -lm

# The unit tests: zbewalgo_test.c runs them, zbewalgo_test_*.c hold them,
# one file an area.
TEST_OBJS	:= $(addprefix $(BUILD)/tools/testing/zbewalgo/,zbewalgo_test.o \
		   zbewalgo_test_steps.o zbewalgo_test_ref.o zbewalgo_test_table.o \
		   zbewalgo_test_ctx.o zbewalgo_test_compress.o)
$(TEST_OBJS): tools/testing/zbewalgo/zbewalgo_test.h \
	$(wildcard lib/zbewalgo/tests/*.h)
$(BUILD)/tools/testing/zbewalgo/zbewalgo_test.o: tools/testing/zbewalgo/test_pages.h
# --wrap: the test counts the allocations of the library, and makes
# zstd refuse its workspace
$(TEST): $(TEST_OBJS) $(BUILD)/libzbewalgo.a
	$(CC) $(LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc \
		-Wl,--wrap=ZSTD_initStaticCCtx -o $@ $^ -lzstd -lm

# A file's pages, for zbewalgo_retry and zbewalgo_pagesizes
LOAD_PAGES	:= tools/testing/zbewalgo/load_pages.c \
		   tools/testing/zbewalgo/load_pages.h
RETRY		:= $(BUILD)/zbewalgo_retry
$(RETRY): tools/testing/zbewalgo/retry.c $(LOAD_PAGES) $(BUILD)/libzbewalgo.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) -lzstd -lm

# zram's dict= on the data sets: zstd with a dictionary trained on half of
# each set, and on a mix of all, next to zbewalgo (bench/dict.py).
.PHONY: bench-dict
bench-dict: $(TOOL) testdata
	python3 tools/testing/zbewalgo/gen-data.py $(BENCH_DATA) $(BENCH_KIB)
	tools/testing/zbewalgo/bench/dict.py $(TOOL) $(BENCH_DATA) \
		$(BENCH_RESULTS)/dict.txt 3 $(TESTDATA)

# Instructions of zbewalgo_compress() per generated set, this tree against
# commit BASE, under callgrind (bench/instr.sh; needs valgrind).
.PHONY: bench-instr
bench-instr: $(TOOL)
	@test -n "$(BASE)" || { echo "bench-instr: set BASE=COMMIT" >&2; exit 2; }
	python3 tools/testing/zbewalgo/gen-data.py $(BENCH_DATA) $(BENCH_KIB)
	tools/testing/zbewalgo/bench/instr.sh $(BASE) $(TOOL) $(BENCH_DATA)

# The longest a page takes to compress, presets and the costliest tables
# sysfs accepts, against zstd-3 in the same run (worst.c).
WORST		:= $(BUILD)/zbewalgo_worst
$(WORST): tools/testing/zbewalgo/worst.c $(BUILD)/libzbewalgo.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -o $@ $^ -lzstd -lm

.PHONY: worst
worst: $(WORST)
	{ echo "# tree:      $$(python3 $(RENDER) tree-id $(BENCH_RESULTS))"; \
	  echo "# code:      $$(python3 $(RENDER) code-id)"; \
	  $(WORST); } >$(BUILD)/worst.txt
	mv $(BUILD)/worst.txt $(BENCH_RESULTS)/worst.txt
	cat $(BENCH_RESULTS)/worst.txt

# Test data: real files (documentation, man pages, ELF executables and
# libraries, C and C++ source, float grids and signals) from Debian
# packages pinned in tools/testing/zbewalgo/testdata/manifest, downloaded
# once into $ZBW_CACHE/testdata (about 17 MiB of .deb) and unpacked
# into build/testdata (about 8 MiB).  Tests read every page of every file.
TESTDATA	:= build/testdata
TESTDATA_SRC	:= tools/testing/zbewalgo/testdata
testdata: $(TESTDATA)/.stamp
$(TESTDATA)/.stamp: $(TESTDATA_SRC)/manifest $(TESTDATA_SRC)/fetch.sh
	$(TESTDATA_SRC)/fetch.sh $(TESTDATA)

# The Calgary and Canterbury corpora are optional: not in Debian, so not
# fetched.  ZBW_EXTRA_CORPUS=DIR (calgary.tar.gz and cantrbry.tar.gz, or
# their unpacked calgary/ and canterbury/) adds them to the tests, the
# benchmark and the fuzz seeds; huffman-tables needs them.
ZBW_EXTRA_CORPUS ?=
CORPUS		:= build/corpus
EXTRA		:= $(if $(ZBW_EXTRA_CORPUS),corpus)
EXTRA_DIRS	:= $(if $(ZBW_EXTRA_CORPUS),$(CORPUS))
EXTRA_SKIP	= $(if $(ZBW_EXTRA_CORPUS),@:,@echo "$@: skipped: the \
		   Calgary and Canterbury corpora (set ZBW_EXTRA_CORPUS=DIR to include them)")
corpus:
	@test -n "$(ZBW_EXTRA_CORPUS)" || { echo "corpus: the Calgary and" \
		"Canterbury corpora are not in Debian: set ZBW_EXTRA_CORPUS=DIR" \
		"(calgary.tar.gz and cantrbry.tar.gz, or unpacked calgary/ and" \
		"canterbury/)" >&2; exit 1; }
	@tools/testing/zbewalgo/extra-corpus.sh "$(ZBW_EXTRA_CORPUS)" $(CORPUS)

# Tests always run under the sanitizers: a report is a failure; then the
# unit and golden tests again on big-endian s390x under qemu user mode
# (test-s390x, below; without sanitizers).  The fuzz smoke run replays the
# saved corpora and fuzzes each harness briefly.  Then the kernel side:
# KUnit under UML with KASAN, and the booted-kernel suite on 6.1, 6.12 and
# 7.2 (about an hour from nothing, 20 minutes on a warm cache; see
# tools/testing/kernel/README.md).  check-series: the upstream series as
# make patches writes it, applied and built (scripts/patches/series.sh).
# check-kconfig: the top-level Kconfig read by each kernel's parser.
# check-stack: the kernel code's stack frames (about 2 minutes, below).
# check-dkms: the install guide's DKMS and distribution commands on
# Debian's own 6.1 and 6.12 kernels (below), so that every documented
# command runs here.  check-user is the quick part alone.  check-tree:
# the sizes of the sources, no include circle, no kernel comment naming a
# file a kernel tree lacks (scripts/check-tree.py).
check:
	$(MAKE) check-user
	$(MAKE) check-series
	$(MAKE) check-kconfig
	$(MAKE) check-stack
	$(MAKE) check-kunit
	$(MAKE) check-kernel
	$(MAKE) check-dkms

check-user: deps
	$(MAKE) check-tree
	$(MAKE) SANITIZE=1 test-unit test-cli test-golden test-lean test-tune
	$(MAKE) test-s390x
	$(MAKE) fuzz-smoke
	$(MAKE) docs
	$(MAKE) doc-user
	python3 tools/testing/kernel/demo-progress_test.py
	python3 tools/testing/kernel/realprog-table_test.py

test-unit: $(TEST) testdata $(EXTRA)
	$(EXTRA_SKIP)
	$(TEST) $(TESTDATA) $(EXTRA_DIRS)

# files_test.py: the user's files (IN == OUT, an existing OUT, a killed
# run, every one-byte change of a compressed file, dictionaries, error
# messages); args_test.py: a table of odd command lines and files, each
# with its exit status and no crash or sanitizer report.
test-cli: $(TOOL) testdata $(EXTRA)
	$(EXTRA_SKIP)
	tools/testing/zbewalgo/cli_test.sh $(TOOL) $(TESTDATA) $(EXTRA_DIRS)
	python3 tools/testing/zbewalgo/files_test.py $(TOOL)
	python3 tools/testing/zbewalgo/args_test.py $(TOOL)

# tune's lines as a user pastes them, read by what reads them
# (tools/testing/zbewalgo/tune_test.sh).
.PHONY: test-tune
test-tune: $(TOOL) testdata
	tools/testing/zbewalgo/tune_test.sh $(TOOL) $(TESTDATA)

# Golden pages (tools/testing/zbewalgo/golden/RELEASE): every committed
# release's compressed pages must decode byte-exact in this build.
# "make golden" adds the set of the release in dkms.conf, made by this
# build; a committed set is never rewritten.
GOLDEN		:= tools/testing/zbewalgo/golden
test-golden: $(TOOL)
	python3 tools/testing/zbewalgo/golden.py check $(TOOL) $(GOLDEN)

# The kernel's build without CONFIG_ZBEWALGO_CLASSIC_STEPS: the tool built
# from the core without the classic steps' files, against the full build
# on one file of each kind of test data (lean_test.sh).
LEAN_TOOL	:= $(BUILD)/lean/zbewalgo
$(LEAN_TOOL): FORCE
	$(MAKE) ZBW_LEAN=1 BUILD=$(BUILD)/lean $@
.PHONY: test-lean FORCE
test-lean: $(TOOL) $(LEAN_TOOL) testdata
	tools/testing/zbewalgo/lean_test.sh $(TOOL) $(LEAN_TOOL) \
		$(shell for d in $(TESTDATA)/*/; do ls -d $$d* | head -n 1; done)
golden: $(TOOL)
	python3 tools/testing/zbewalgo/golden.py make $(TOOL) \
		$(GOLDEN)/$(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

# Big-endian: the tool and the unit tests built for s390x by Debian's cross
# gcc, statically against bookworm's s390x zstd, lz4, lzo2 and zlib (fetched
# once into $ZBW_CACHE/s390x by cross-sysroot.sh, through a private apt
# state: the machine's architectures and sources stay as they are), and
# run under qemu user mode: the unit tests, the golden pages (written on
# x86_64) and cross_test.sh, the same bytes from both builds on the test
# data at levels 1, 2 and 3, each decoding the other's.
S390X_DEPS	:= gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user-static \
		   debian-archive-keyring
S390X_CACHE	:= $(or $(ZBW_CACHE),/var/cache/zbewalgo)/s390x
S390X_ROOT	:= $(S390X_CACHE)/root
S390X_BUILD	:= build/s390x
S390X_RUN	?= qemu-s390x-static
test-s390x: $(TOOL) testdata
	@scripts/install-deps.sh $(S390X_DEPS)
	@tools/testing/zbewalgo/cross-sysroot.sh s390x $(S390X_CACHE)
	CPPFLAGS='-isystem $(S390X_ROOT)/usr/include' \
	LDFLAGS='-static -L$(S390X_ROOT)/usr/lib/s390x-linux-gnu' \
		$(MAKE) BUILD=$(S390X_BUILD) SANITIZE= CC=s390x-linux-gnu-gcc \
		AR=s390x-linux-gnu-ar $(S390X_BUILD)/zbewalgo $(S390X_BUILD)/zbewalgo_test
	$(S390X_RUN) $(S390X_BUILD)/zbewalgo_test $(TESTDATA)
	python3 tools/testing/zbewalgo/golden.py check --runner '$(S390X_RUN)' \
		$(S390X_BUILD)/zbewalgo $(GOLDEN)
	tools/testing/zbewalgo/cross_test.sh '$(S390X_RUN)' $(S390X_BUILD)/zbewalgo \
		$(TOOL) $(TESTDATA)

# A refactor keeps the output: the tool of commit BASE and this tree's
# write the same bytes, and decode each other's, for every generated data
# set (as make bench makes them) and test data file at levels 1, 2 and 3
# and with 64 KiB pages (tools/testing/zbewalgo/same-output.sh).
.PHONY: same-output
same-output: $(TOOL) testdata
	@test -n "$(BASE)" || { echo "same-output: set BASE=COMMIT" >&2; exit 2; }
	python3 tools/testing/zbewalgo/gen-data.py $(BENCH_DATA) $(BENCH_KIB)
	tools/testing/zbewalgo/same-output.sh $(BASE) $(TOOL) $(BENCH_DATA) \
		$(TESTDATA)

# zram up to 6.14 may compress a page twice and trust the first length: a
# second compression must come out the same, on any context, whatever ran
# in between (tools/testing/zbewalgo/retry.sh; BASE=COMMIT adds that
# commit's figures before this tree's).
.PHONY: retry-check
retry-check: $(RETRY) testdata
	python3 tools/testing/zbewalgo/gen-data.py $(BENCH_DATA) $(BENCH_KIB)
	tools/testing/zbewalgo/retry.sh $(RETRY) $(BASE) -- \
		$(BENCH_DATA)/* $$(find $(TESTDATA) -type f ! -name .stamp | sort)

# Main job, in two boots of one 7.2 kernel with zbewalgo under qemu (KVM
# when a probe boot shows it works, else TCG; the kernel, built without
# debug options, and the Debian rootfs are cached under $ZBW_CACHE):
# first the in-kernel benchmark (run-demo: demo.sh) compares zram with
# zbewalgo, lz4, lzo-rle and zstd on the data sets (generated + test data
# files) through the block device, tables in build/kernel-bench/7.2.{txt,csv}
# (RUN_SWAP=1 adds demo.sh's swap workload, 384 MiB filled and verified per
# algorithm: under TCG on a busy machine that alone took longer than make
# run may, and the real programs measure swap); then real programs
# (realprog.sh):
# RUN_PROGS, each with swap on zram per RUN_CONFIGS, ending with a table per
# program (ratio, memory, wall time) in build/kernel-bench/realprog.{txt,csv}
# (tools/testing/kernel/README.md).  The full matrix of programs and
# configurations (dictionaries included) is make realprog; make run's
# real programs run in a directory of their own (ZBW_RP_RUN), so that a
# make realprog beside it is no bother.
RUN_PROGS	?= python-heap,postgres-pgbench
RUN_CONFIGS	?= lz4,zstd,zbewalgo
# RUN_REPEAT: live runs per program and configuration (make realprog: 3).
RUN_REPEAT	?= 1
RUN_SWAP	?= 0
.PHONY: run-demo
run: run-demo
	ZBW_CAPTURE=0 ZBW_PROGS=$(RUN_PROGS) ZBW_CONFIGS=$(RUN_CONFIGS) ZBW_LIVE_REPEAT=$(RUN_REPEAT) \
		ZBW_RP_RUN=$(or $(ZBW_CACHE),/var/cache/zbewalgo)/run/make-run \
		tools/testing/kernel/realprog.sh
run-demo: testdata
	ZBW_DEMO_KERNEL=run ZBW_SWAP=$(RUN_SWAP) tools/testing/kernel/demo.sh 7.2

clean:
	rm -rf build

# Out-of-tree kernel module against a prepared tree or a headers package.
KDIR		?= /lib/modules/$(shell uname -r)/build
.PHONY: modules modules_install modules-clean
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
# modules_install: Kbuild puts them under INSTALL_MOD_PATH (default /)
# lib/modules/RELEASE/, then depmod indexes them, so that "echo zbewalgo >
# comp_algorithm" loads both.  RELEASE is the modules' vermagic, the kernel's
# UTS_RELEASE (Debian's headers say 6.1.0-N-amd64 there but the upstream
# version in include/config/kernel.release).
KRELEASE	= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
			$(KDIR)/include/generated/utsrelease.h)
modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)
modules-clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# ---- Fuzzing (fuzz/README) ------------------------------------------------
# fuzz-smoke: CI-sized; replays fuzz/corpus through every harness and runs
# each briefly under libFuzzer, all with ASan+UBSan; fails on any finding.
# fuzz: an AFL++ campaign, FUZZ_TIME seconds per harness with FUZZ_JOBS
# instances each (FUZZ_HARNESSES picks harnesses), then corpus minimisation.
FUZZ_DEPS	:= build-essential clang libclang-rt-14-dev
SMOKE_JOBS	?= 2
.PHONY: fuzz fuzz-smoke
fuzz-smoke:
	@scripts/install-deps.sh $(FUZZ_DEPS)
	$(MAKE) -C fuzz -j$(SMOKE_JOBS) smoke
fuzz:
	@scripts/install-deps.sh $(FUZZ_DEPS) afl++
	$(MAKE) -C fuzz fuzz

# ---- Booted-kernel tests (tools/testing/kernel/README.md) ------------------
# check-kernel: builds debug kernels 6.1, 6.12 and 7.2 with zbewalgo (cached
# under $ZBW_CACHE, default /var/cache/zbewalgo), boots each under qemu and
# fails unless every guest check passed; KERNEL_VERSIONS picks a subset.
# demo: make run's in-kernel benchmark (its first half) on DEMO_VERSION.
KERNEL_VERSIONS	?=
DEMO_VERSION	?= 7.2
.PHONY: check-kernel check-kunit check-stack check-arch demo
# check-stack: every stack frame of the kernel code at most 512 bytes and the
# deepest call chain at most 1 KiB, on x86_64 and arm64 builds of 7.2
# (tools/testing/kernel/stack.sh; STACK_ARCHES picks).
STACK_ARCHES	?= x86_64 arm64
check-stack:
	tools/testing/kernel/stack.sh $(STACK_ARCHES)
check-kunit:
	tools/testing/kernel/kunit.sh
check-kernel:
	tools/testing/kernel/zbewalgo-tests.sh $(KERNEL_VERSIONS)
# check-arch: the same suite on arm64 kernels under qemu-system-aarch64 (TCG),
# with 4 KiB and then 64 KiB pages; ARCH_VERSIONS picks (6.12, 7.2).  Not in
# make check: two cross-built kernels and two slow boots (the 4 KiB guest took
# 32 minutes at load 11-18, so each boot may take 90).
ARCH_VERSIONS	?= 7.2
ARCH_TIMEOUT	?= 5400
check-arch:
	ZBW_ARCH=arm64 ZBW_TIMEOUT=$(ARCH_TIMEOUT) \
		tools/testing/kernel/zbewalgo-tests.sh $(ARCH_VERSIONS)
	ZBW_ARCH=arm64 ZBW_ARM64_PAGES=64 ZBW_TIMEOUT=$(ARCH_TIMEOUT) \
		tools/testing/kernel/zbewalgo-tests.sh $(ARCH_VERSIONS)
demo: testdata
	tools/testing/kernel/demo.sh $(DEMO_VERSION)
# realprog: real programs (Python, numpy/scipy, a JVM, gcc, PostgreSQL,
# Redis, R, scikit-learn) on a Debian userland under a cgroup memory
# limit: a capture boot logs each
# program's whole swap stream (dm-log-writes; logs, their provenance and
# host-trained dictionaries in $(ZBW_CACHE)/swap-logs, the pages cut from
# them in write order in swap-pages as zbewalgo bench inputs), then a run
# boot replays each log into zram once per configuration (lz4, lzo-rle,
# deflate, zstd 1/3/8, zbewalgo's levels, with and without the dictionary,
# lz4 recompressing with zstd or zbewalgo; a few twice, which must agree)
# and runs each program live with swap on zram per configuration, three
# times (ZBW_LIVE_REPEAT; tables with medians and spreads)
# (tools/testing/kernel/realprog.sh).  The second half of make run; not in
# make check: too slow for CI.
# realprog-replay: the replays alone, from the cached logs (no capture, no
# live runs).  After a change of zbewalgo alone, ZBW_REPLAY='zstd-3,zbewalgo,...'
# ZBW_REPLAY_KEEP=1 replays those and keeps the committed rows of the other
# compressors, once zstd-3 is shown unchanged.
.PHONY: realprog realprog-replay
realprog:
	tools/testing/kernel/realprog.sh
realprog-replay:
	ZBW_CAPTURE=0 ZBW_CONFIGS= ZBW_REPLAY=$${ZBW_REPLAY:-all} tools/testing/kernel/realprog.sh

# check-fresh: a fresh machine as a test.  In a minimal Debian 12 root
# (debootstrap, cached in $ZBW_CACHE/fresh) a clean clone of HEAD runs make,
# make check-user and make run-demo (the 7.2 kernel build and the first
# boot of make run), with nothing installed beforehand but git and make:
# whatever they call, the project's scripts must install
# (tools/testing/fresh/check-fresh.sh; FRESH_STEPS picks the commands).
# Not in make check: about 50 minutes at load 8-20 (tools/testing/CI-NOTES.md).
.PHONY: check-fresh
check-fresh:
	tools/testing/fresh/check-fresh.sh

# ---- User-space benchmark (tools/testing/zbewalgo/bench/README.md) --------
# bench: every algorithm (zbewalgo and its presets, lz4, lz4hc, lzo, lzo-rle,
# zstd, deflate, memcpy) page by page on the generated data sets and the
# test data (and the optional corpora, given ZBW_EXTRA_CORPUS); tables
# (txt, csv, json), plots (png) and a note of the machine go to BENCH_OUT.
# BENCH_KIB sizes each generated set, BENCH_REPS is the number of
# repetitions whose median is reported.  Into the default BENCH_OUT (the
# committed results) it also re-renders the figures of the docs (RENDER,
# below).
# bench-kernel: make run's in-kernel benchmark on DEMO_VERSION, then its
# table and records into BENCH_OUT as kernel-VERSION.{txt,csv} with a note
# of the tree (kernel-VERSION.machine.txt), for the cover letter.
BENCH_DEPS	:= python3-matplotlib
BENCH_KIB	?= 4096
BENCH_REPS	?= 5
BENCH_DATA	:= build/bench-data
BENCH_RESULTS	:= tools/testing/zbewalgo/bench/results
BENCH_OUT	?= $(BENCH_RESULTS)
RENDER		:= tools/testing/zbewalgo/bench/render.py
.PHONY: bench bench-kernel
bench: deps
	@scripts/install-deps.sh $(BENCH_DEPS)
	$(MAKE) $(TOOL) testdata $(EXTRA)
	$(EXTRA_SKIP)
	CC='$(CC)' CFLAGS='$(CFLAGS)' tools/testing/zbewalgo/bench/run.sh \
		$(TOOL) $(BENCH_DATA) $(TESTDATA) $(BENCH_OUT) $(BENCH_KIB) \
		$(BENCH_REPS) $(EXTRA_DIRS)
ifeq ($(BENCH_OUT),$(BENCH_RESULTS))
	python3 $(RENDER)
endif
# anchors: the pcodec anchor of issue 44: zbewalgo's default level, zram's
# zstd-3 and pcodec (PyPI, into a venv under $ZBW_CACHE) told the type and
# best of 8 types, page by page, with the ideal per-page chooser of
# zbewalgo and pcodec, on the sets, the test data and the captured real
# swap, into BENCH_OUT/anchors.{txt,csv} (bench/anchors.sh; targets.py
# reads the csv).  ANCHORS_JOBS, ANCHORS_MAX_PAGES (0: every page).
PAGESIZES	:= $(BUILD)/zbewalgo_pagesizes
$(PAGESIZES): tools/testing/zbewalgo/bench/pagesizes.c $(LOAD_PAGES) \
		$(BUILD)/libzbewalgo.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -o $@ \
		$(filter-out %.h,$^) -lzstd -lm
.PHONY: anchors
anchors: $(PAGESIZES) testdata
	@scripts/install-deps.sh python3-venv
	CC='$(CC)' CFLAGS='$(CFLAGS)' tools/testing/zbewalgo/bench/anchors.sh \
		$(PAGESIZES) $(BENCH_DATA) $(TESTDATA) $(BENCH_OUT) $(BENCH_KIB)
# numdec: decompression of the pages the num steps wrote against zram's
# zstd-3 on the same pages (issue 44's target), on the sets, the test data
# and the captured real swap, into BENCH_OUT/numdec.{txt,csv}
# (bench/numdec.sh; targets.py reads the csv).
.PHONY: numdec
numdec: $(PAGESIZES) testdata
	CC='$(CC)' CFLAGS='$(CFLAGS)' tools/testing/zbewalgo/bench/numdec.sh \
		$(PAGESIZES) $(BENCH_DATA) $(TESTDATA) $(BENCH_OUT) $(BENCH_KIB)
# pareto: the speed attempts of issue 21 side by side, each level's front
# (ratio against compression and decompression speed, over zstd's) into
# BENCH_RESULTS/pareto (bench/pareto.sh; 5 minutes with BENCH_REPS=3 at load 5).
.PHONY: pareto
pareto: deps testdata
	@scripts/install-deps.sh $(BENCH_DEPS)
	tools/testing/zbewalgo/bench/pareto.sh $(BENCH_DATA) $(TESTDATA) \
		$(BENCH_RESULTS)/pareto $(BENCH_REPS)
# bench-arm64: the tool cross-built for arm64 (statically, against bookworm's
# arm64 zstd, lz4, lzo2 and zlib, fetched once into $ZBW_CACHE/arm64 by
# cross-sysroot.sh) and its bench run under qemu-aarch64 in user mode (TCG),
# so that zbewalgo, lz4 and zstd are all arm64 code in one emulated run, on
# the generated sets and the pages real programs swapped (make realprog),
# with the algorithms of ARM64_ALGS, ARM64_REPS repetitions (make bench: 5)
# and, when ARM64_SWAP_PAGES is not 0, at most that many pages of each swap
# file; then the host's build on the same inputs, for reference.  Times are
# emulated: only their ratios within the run mean anything, which the
# summary gives as geometric means (bench/arm64.sh, bench/relspeed.py).
# Into BENCH_OUT/arm64.txt; about 6 minutes at load 6 on the 2 cores here
# (8.5 with ARM64_REPS=5).
ARM64_DEPS	:= gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static \
		   debian-archive-keyring
ARM64_CACHE	:= $(or $(ZBW_CACHE),/var/cache/zbewalgo)/arm64
ARM64_ROOT	:= $(ARM64_CACHE)/root
ARM64_BUILD	:= build/arm64
ARM64_RUN	?= qemu-aarch64-static -cpu cortex-a57
ARM64_REPS	?= 3
ARM64_SWAP_PAGES ?= 0
ARM64_ALGS	?= zbewalgo,zbewalgo-1,zbewalgo-3,lz4,lzo-rle,zstd-1,zstd-3
.PHONY: bench-arm64
bench-arm64: deps
	@scripts/install-deps.sh $(ARM64_DEPS)
	@tools/testing/zbewalgo/cross-sysroot.sh arm64 $(ARM64_CACHE)
	$(MAKE) $(TOOL)
	CPPFLAGS='-isystem $(ARM64_ROOT)/usr/include' \
	LDFLAGS='-static -L$(ARM64_ROOT)/usr/lib/aarch64-linux-gnu' \
		$(MAKE) BUILD=$(ARM64_BUILD) SANITIZE= CC=aarch64-linux-gnu-gcc \
		AR=aarch64-linux-gnu-ar $(ARM64_BUILD)/zbewalgo
	python3 tools/testing/zbewalgo/gen-data.py $(BENCH_DATA) $(BENCH_KIB)
	CC=aarch64-linux-gnu-gcc CFLAGS='$(CFLAGS)' \
		tools/testing/zbewalgo/bench/arm64.sh '$(ARM64_RUN)' \
		$(ARM64_BUILD)/zbewalgo $(ARM64_CACHE) $(BENCH_DATA) \
		$(BENCH_OUT)/arm64.txt $(ARM64_REPS) $(ARM64_ALGS) \
		$(ARM64_SWAP_PAGES) $(TOOL)
KBENCH		:= build/kernel-bench/$(DEMO_VERSION)
bench-kernel: testdata
	@mkdir -p build/kernel-bench
	{ echo "# tree:      $$(python3 $(RENDER) tree-id $(BENCH_OUT))"; \
	  echo "# code:      $$(python3 $(RENDER) code-id)"; \
	  echo "# date:      $$(date -u '+%Y-%m-%d %H:%M:%S UTC')"; \
	  echo "# load:      $$(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run started"; \
	} >$(KBENCH).machine.txt
	tools/testing/kernel/demo.sh $(DEMO_VERSION)
	for x in txt csv machine.txt; do \
		cp $(KBENCH).$$x $(BENCH_OUT)/kernel-$(DEMO_VERSION).$$x || exit 1; done

# results: every committed result measured again, as a change of
# lib/zbewalgo needs (each names the code it measured; make docs and the
# cover letter refuse others): the real programs' swap captured twice when
# ZBW_CACHE holds none, make realprog-replay of every configuration (and
# zbewalgo+tune, zbewalgo+classic), anchors, bench-dict, bench-kernel,
# numdec, worst and bench, one after the other (bench/results.sh;
# RESULTS_STEPS picks some).  About 80 minutes with the capture cached.
.PHONY: results
results:
	tools/testing/zbewalgo/bench/results.sh

# ---- DKMS and admin docs (Documentation/admin-guide/blockdev/zbewalgo.rst) -
# dkms-src: the module sources and dkms.conf in DKMS_SRCTREE/zbewalgo-VERSION,
# where dkms looks for them.  dkms-install: that, then dkms add, build and
# install for DKMS_KERNEL (default: the running one; needs its headers).
# dkms-remove undoes both.  DKMS_FLAGS goes to every dkms call (check-dkms
# uses it for private trees).  check-dkms: stock Debian kernels booted under
# qemu with the modules DKMS built against their headers packages, one
# after the other (DKMS_TARGETS): Debian 12's 6.1 runs swap on zram with
# zbewalgo, the zramctl/zram-tools/zram-generator examples and zswap;
# Debian 13's 6.12, whose zram takes no out-of-tree algorithm, zswap as the
# admin guide sets it up (tools/testing/kernel/README.md; last in make check).
# docs: every .rst under Documentation/ and docs/ parses without a warning
# (docutils, with the DOC: blocks that its kernel-doc directives include
# put in place: tools/testing/zbewalgo/kerneldoc_rst.py); every literal
# block of the guides (GUIDES) is tagged with where it runs
# (tools/testing/kernel/doc-blocks.py); the format document's step
# table matches lib/zbewalgo/core/steps.h, and each step's section
# includes a DOC: block of its source (spec-steps.py); the
# generated figures of README, the admin guide and fuzz/README are what
# the committed results render, and no measured figure stands in the
# prose of README and the guides outside them
# (tools/testing/zbewalgo/bench/render.py --check, after its tests), and
# those results were measured on HEAD's lib/zbewalgo.  ZBW_ALLOW_STALE=1
# accepts results of older code while it is being changed (not in CI).
DKMS_VERSION	:= $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRCTREE	?= /usr/src
DKMS_KERNEL	?= $(shell uname -r)
DKMS_FLAGS	?=
DKMS_DIR	= $(DKMS_SRCTREE)/zbewalgo-$(DKMS_VERSION)
DKMS		= dkms $(DKMS_FLAGS) --sourcetree $(DKMS_SRCTREE) -m zbewalgo -v $(DKMS_VERSION)
DKMS_TARGETS	?= 6.1 6.12
# The documents whose command blocks the tests run, in the order they run
# (tools/testing/kernel/common.sh lists the same).
GUIDES		:= Documentation/admin-guide/blockdev/zbewalgo.rst docs/user-guide.rst
DOC_BLOCKS	:= tools/testing/kernel/doc-blocks.py
KDOC_RST	:= tools/testing/zbewalgo/kerneldoc_rst.py
.PHONY: dkms-src dkms-install dkms-remove check-dkms docs doc-user
dkms-src:
	rm -rf $(DKMS_DIR) && mkdir -p $(DKMS_DIR)
	find Kbuild dkms.conf include compat lib/zbewalgo crypto/zbewalgo.c -type f \
		! -name '*.o' ! -name '*.ko' ! -name '*.cmd' ! -name '*.mod*' \
		! -name '*.d' | xargs cp -p --parents -t $(DKMS_DIR)
dkms-install: dkms-src
	-$(DKMS) remove --all >/dev/null 2>&1
	$(DKMS) add
	$(DKMS) build -k $(DKMS_KERNEL)
	$(DKMS) install -k $(DKMS_KERNEL)
dkms-remove:
	-$(DKMS) remove --all
	rm -rf $(DKMS_DIR)
check-dkms:
	set -e; for t in $(DKMS_TARGETS); do tools/testing/kernel/dkms.sh $$t; done
docs:
	@scripts/install-deps.sh python3-docutils
	@/usr/bin/python3 $(KDOC_RST) $$(find Documentation docs -name '*.rst' | sort)
	@python3 $(HUF_GEN) --check $(HUF_TABLES) $(HUF_SPEC)
	@python3 tools/testing/zbewalgo/spec-steps.py lib/zbewalgo/core/steps.h $(HUF_SPEC)
	@echo "docs: $(HUF_SPEC) lists the tables of $(HUF_TABLES)"
	@python3 tools/testing/zbewalgo/render_test.py
	@python3 $(RENDER) --check
	@python3 $(DOC_BLOCKS) check $(GUIDES)

# doc-user: the guides' blocks tagged "user" (the tool in user space), each
# a named check; the kernel-side ones run in check-kernel and check-dkms.
# Then systemd-analyze verify on every unit file of the guides (systemd;
# kmod for the units' modprobe).
doc-user: $(TOOL) testdata
	@scripts/install-deps.sh systemd kmod
	tools/testing/zbewalgo/doc-user.sh $(TOOL) $(TESTDATA) $(GUIDES)

# ---- Predefined Huffman tables (tools/testing/zbewalgo/huffman-tables) -------
# huffman-tables: rebuilds the tables of huffman's mode 3 from the lz
# sections of the Calgary and Canterbury files, less those the in-kernel
# benchmark used to take (ptt5 is pic), into the header and the format
# document; needs ZBW_EXTRA_CORPUS (see corpus above).  The tables are
# part of the page format: regenerate only for a new format version.
HUF_DIR		:= tools/testing/zbewalgo/huffman-tables
HUF_GEN		:= $(HUF_DIR)/gen.py
HUF_TABLES	:= lib/zbewalgo/classic/huffman_tables.h
HUF_SPEC	:= Documentation/staging/zbewalgo.rst
HUF_HELD_OUT	:= /(book1|geo|obj2|pic|kennedy\.xls|ptt5)$$
.PHONY: huffman-tables
huffman-tables: $(BUILD)/libzbewalgo.a corpus
	$(CC) $(CPPFLAGS) -Ilib/zbewalgo/core $(CFLAGS) $(WARN) \
		-o $(BUILD)/lz-sections $(HUF_DIR)/lz-sections.c $(BUILD)/libzbewalgo.a
	$(BUILD)/lz-sections $$(ls $(CORPUS)/calgary/* $(CORPUS)/canterbury/* | \
		grep -Ev '$(HUF_HELD_OUT)') >$(BUILD)/lz-sections.txt
	python3 $(HUF_GEN) $(BUILD)/lz-sections.txt $(HUF_TABLES) $(HUF_SPEC)

# ---- Upstream patch series (scripts/patches/) -------------------------------
# patches: the series against Debian's linux-source-7.2, made from this
# repository by scripts/kernel-integrate.py --upstream, one patch per stage
# (lib, crypto, zram, docs) plus a cover letter with the benchmark tables,
# into build/patches.  check-patches: make patches, then checkpatch
# --strict, git am and a W=1 and sparse build after every patch, kernel-doc,
# rst, KUnit under UML and a qemu boot (CHECK_BOOT=0 skips it); logs in
# build/patches-check.
# check-series (in make check): make patches, checkpatch --strict, git am
# without offsets, the result compared with kernel-integrate.py --upstream,
# and an x86_64 tinyconfig build of vmlinux and the series' modules, no
# boot; logs in build/patches-series.
.PHONY: patches check-patches check-series
patches:
	scripts/patches/make.sh
check-patches: patches
	scripts/patches/check.sh
check-series:
	scripts/patches/series.sh
# check-kconfig (in make check): the top-level Kconfig (the library, crypto
# and zram entries kernel-integrate.py copies) read by the Kconfig parser of
# 6.1, 6.12 and 7.2, which must accept it without a warning and give the
# expected symbols for allyesconfig, allnoconfig and 256 KiB pages (under a
# minute once the kernel sources are fetched).
.PHONY: check-kconfig check-tree
check-tree:
	python3 scripts/check-tree.py
check-kconfig:
	tools/testing/kernel/kconfig.sh
