# SPDX-License-Identifier: GPL-2.0-only
#
# zbewalgo top-level Makefile.
#
# User space (the same lib/zbewalgo sources the kernel builds, compiled
# against the stub headers in tools/zbewalgo/shim):
#   make                 build/zbewalgo, the command-line tool
#   make SANITIZE=1      the same with ASan+UBSan, in build/san/
#   make check           unit and tool tests under ASan+UBSan
#
# Kernel modules are built by Kbuild; see Kbuild in this directory.

CC		?= gcc
SHARED		?= $(CURDIR)/../shared
CFLAGS		?= -O2 -g
WARN		:= -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter \
		   -Wno-missing-field-initializers -Wstrict-prototypes
CPPFLAGS	+= -Iinclude -Itools/zbewalgo/shim

SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer

ifeq ($(SANITIZE),1)
BUILD		?= build/san
CFLAGS		+= $(SAN_FLAGS)
LDFLAGS		+= $(SAN_FLAGS)
else
BUILD		?= build
endif

# The algorithm core only: lib/zbewalgo/Makefile lists it for Kbuild too.
include lib/zbewalgo/Makefile
LIB_SRCS	:= $(addprefix lib/zbewalgo/,$(ZBEWALGO_CORE:.o=.c))
LIB_HDRS	:= include/linux/zbewalgo.h lib/zbewalgo/zbewalgo_internal.h \
		   $(wildcard tools/zbewalgo/shim/linux/*.h)
LIB_OBJS	:= $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))

TOOL		:= $(BUILD)/zbewalgo
TEST		:= $(BUILD)/zbewalgo_test

.PHONY: all check test-unit test-cli corpus clean deps run

# Debian packages the user-space build and tests need.
DEPS		:= build-essential liblz4-dev libzstd-dev python3
.DELETE_ON_ERROR:

all: $(TOOL)

deps:
	@scripts/install-deps.sh $(DEPS)

$(BUILD)/%.o: %.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/libzbewalgo.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

TOOL_OBJS	:= $(BUILD)/tools/zbewalgo/zbewalgo.o $(BUILD)/tools/zbewalgo/bench.o
$(TOOL_OBJS): tools/zbewalgo/zbewalgo_tool.h
$(TOOL): $(TOOL_OBJS) $(BUILD)/libzbewalgo.a
	$(CC) $(LDFLAGS) -o $@ $^ -llz4 -lzstd

$(TEST): $(BUILD)/tools/testing/zbewalgo/zbewalgo_test.o $(BUILD)/libzbewalgo.a
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# The public corpora, unpacked once; tests read every page of every file.
CORPUS		:= build/corpus
corpus: $(CORPUS)/.stamp
$(CORPUS)/.stamp: $(wildcard $(SHARED)/corpus/*/*.tar.gz)
	@test -n "$^" || { echo "corpus not found under $(SHARED)/corpus" >&2; exit 1; }
	@rm -rf $(CORPUS) && mkdir -p $(CORPUS)
	@for t in $^; do d=$(CORPUS)/$$(basename $$(dirname $$t)); \
		mkdir -p $$d && tar -xzf $$t -C $$d || exit 1; done
	@touch $@

# Tests always run under the sanitizers: a report is a failure.
check: deps
	$(MAKE) SANITIZE=1 test-unit test-cli

test-unit: $(TEST) corpus
	$(TEST) $(CORPUS)

test-cli: $(TOOL) corpus
	tools/testing/zbewalgo/cli_test.sh $(TOOL) $(CORPUS)

# Main job (user space for now): every corpus file, page by page, next to
# lz4 and zstd.
run: deps
	$(MAKE) $(TOOL) corpus
	$(TOOL) bench $$(find $(CORPUS) -type f ! -name '.*' | sort)

clean:
	rm -rf build

# Out-of-tree kernel module against a prepared tree or a headers package.
KDIR		?= /lib/modules/$(shell uname -r)/build
.PHONY: modules modules-clean
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
modules-clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
