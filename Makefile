# ppr - hand-written GNU Makefile.
#
#   make                 build ./ppr
#   make test            unit, golden and validation tests (installs deps)
#   make demo            run the main job on a built-in default (installs deps)
#   make bench           benchmarks, printing figures
#   make DEVELOPER=1     warnings are errors
#   make SANITIZE=address,undefined test
#   make BUILD=dir       build somewhere else than build/
#
# Each module folder builds its own archive; a test links only the modules
# its name says it needs (tests/test_<module>*.c), so one module's broken
# build does not break another module's tests.

BUILD ?= build
# The module archives' rules come before 'all'; plain `make` builds ppr.
.DEFAULT_GOAL := all
CC ?= cc
OPT ?= -O2
CFLAGS ?= $(OPT) -g
CSTD := -std=c11
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wwrite-strings -Wvla \
	-fno-common
# CI builds with warnings as errors.
ifeq ($(CI),true)
DEVELOPER ?= 1
endif
ifeq ($(DEVELOPER),1)
WARN += -Werror
endif
PPR_CPPFLAGS := -I. -I$(BUILD) -D_GNU_SOURCE -include common/banned.h
PPR_LDLIBS := -lcjson -lpfm -lz -lm -lpthread
# bind every symbol at start-up (full RELRO, as Debian's hardening does):
# a lazy binding costs 5-20 us at the first call on the test guest, which
# a fresh `ppr bcsr` paid inside its timed selection
LDFLAGS += -Wl,-z,relro,-z,now
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif

ALL_CFLAGS = $(CSTD) $(WARN) $(PPR_CPPFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP

# Everything built depends on the flags it was built with: a change of
# OPT, CFLAGS, SANITIZE, DEVELOPER or the compiler rebuilds it (the flags
# are kept in $(BUILD)/.build-flags, rewritten only when they change).
FLAGS_FILE := $(BUILD)/.build-flags
FLAGS_NOW := $(CC) $(CSTD) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)
ifneq ($(file <$(FLAGS_FILE)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif

# Modules in link order (a module may use only those after it).
MODULES := model kernels matrix machines dag traces sim common
DEPS_common :=
DEPS_sim := common
DEPS_traces := common
DEPS_dag := common
DEPS_machines := sim dag common
DEPS_matrix := common
DEPS_kernels := matrix traces sim common
DEPS_model := kernels matrix machines dag traces sim common

define module_rules
SRC_$(1) := $$(wildcard $(1)/*.c)
OBJ_$(1) := $$(patsubst %.c,$(BUILD)/%.o,$$(SRC_$(1)))
LIB_$(1) := $(BUILD)/lib$(1).a
$$(LIB_$(1)): $$(OBJ_$(1))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(eval $(call module_rules,$(m))))

# Modules whose folder holds no .c yet produce no archive.
libs_of = $(foreach m,$(1),$(if $(SRC_$(m)),$(LIB_$(m))))

# (model/gen/bcsr_incore_gen.c: the built-in core models' BCSR in-core
# points, below)
INCORE_GEN := $(BUILD)/gen/bcsr_incore_gen
INCORE_OBJ := $(BUILD)/gen/bcsr_incore.o
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
CMD_SRC := $(wildcard cli/cmd_*.c)
ALL_LIBS := $(call libs_of,$(MODULES))

.PHONY: all test check check-full demo bench clean deps unit golden fuzz
all: ppr

$(BUILD)/ppr: $(CLI_OBJ) $(INCORE_OBJ) $(ALL_LIBS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(INCORE_OBJ) $(ALL_LIBS) $(PPR_LDLIBS)

ppr: $(BUILD)/ppr
	@cp -f $(BUILD)/ppr ppr

# The command table is generated from the PPR_COMMAND(...) line that each
# cli/cmd_<name>.c carries, so adding a command touches one file.
$(BUILD)/cmd_table.h: $(CMD_SRC) Makefile
	@mkdir -p $(dir $@)
	@{ for f in $(CMD_SRC); do \
	  sed -n 's/^PPR_COMMAND(\([a-z_]*\), *\(".*"\)) *$$/PPR_CMD_ENTRY(\1, \2)/p' $$f; \
	  done; } > $@.tmp && mv $@.tmp $@
$(BUILD)/cli/ppr.o: $(BUILD)/cmd_table.h

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Native kernels may need their own flags (set in kernels/kernels.mk).
-include kernels/kernels.mk

# The built-in core models' in-core points of the 64 BCSR kernels, computed
# at build time by a program linked with the modules (model/bcsr_select.c,
# model_bcsr_incore_builtin); linked into ppr, the tests and the benchmarks.
# Sanitizer builds get an empty table (the schedules would take minutes).
$(INCORE_GEN): model/gen/bcsr_incore_gen.c $(ALL_LIBS) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(ALL_LIBS) $(PPR_LDLIBS)
$(BUILD)/gen/bcsr_incore.c: $(INCORE_GEN)
	PPR_CACHE_DIR= $(INCORE_GEN) $(if $(SANITIZE),--empty) > $@.tmp && mv $@.tmp $@
$(INCORE_OBJ): $(BUILD)/gen/bcsr_incore.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# ---- tests ---------------------------------------------------------------
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# tests/test_<module>[_x].c links <module> and what it depends on; any other
# name links everything.
test_mod = $(firstword $(subst _, ,$(patsubst test_%,%,$(notdir $(1)))))
test_libs = $(if $(filter $(call test_mod,$(1)),$(MODULES)),$(call libs_of,$(call test_mod,$(1)) $(DEPS_$(call test_mod,$(1)))),$(ALL_LIBS))

.SECONDEXPANSION:
test_incore = $(if $(filter $(LIB_model),$(call test_libs,$(1))),$(INCORE_OBJ))
$(BUILD)/tests/%: tests/%.c $$(call test_libs,$$*) $$(call test_incore,$$*) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(call test_incore,$*) $(call test_libs,$*) $(PPR_LDLIBS)

tests: $(TEST_BIN)

deps:
	@scripts/install-deps.sh

test: deps
	@$(MAKE) --no-print-directory ppr tests fuzz-replay
	@$(MAKE) --no-print-directory test-fuzz-replay
	@BUILD=$(BUILD) VALGRIND=$(VALGRIND) scripts/run-tests.sh

check: test

check-full: deps
	@$(MAKE) --no-print-directory ppr tests
	@BUILD=$(BUILD) FULL=1 scripts/run-tests.sh

# ---- fuzzing (tests/fuzz, docs/robustness.md) ----------------------------
# Each tests/fuzz/fuzz_<parser>.c builds two ways: a replay program in
# $(BUILD)/fuzz/ (normal compiler, current SANITIZE flags) that `make test`
# runs over tests/fuzz/corpus/<t>/ and tests/fuzz/regress/<t>/, and a
# libFuzzer program built by `make fuzz` with clang in $(FUZZ_BUILD).
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES := $(patsubst tests/fuzz/%.c,%,$(FUZZ_SRC))
FUZZ_REPLAY := $(patsubst %,$(BUILD)/fuzz/%,$(FUZZ_NAMES))
FUZZ_LF := $(patsubst %,$(BUILD)/fuzz/lf/%,$(FUZZ_NAMES))
FUZZ_BUILD ?= build-fuzz-lf
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
FUZZ_TARGETS ?= $(FUZZ_NAMES)

# The readers of `ppr sweep`/`report` live in cli/: targets link the CLI
# objects too (all but main).
FUZZ_CLI_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))

$(BUILD)/fuzz/%: tests/fuzz/%.c $(wildcard tests/fuzz/*.h) $(FUZZ_CLI_OBJ) $(ALL_LIBS) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(FUZZ_CLI_OBJ) $(ALL_LIBS) $(PPR_LDLIBS)

$(BUILD)/fuzz/lf/%: tests/fuzz/%.c $(wildcard tests/fuzz/*.h) $(FUZZ_CLI_OBJ) $(ALL_LIBS) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DPPR_LIBFUZZER -fsanitize=fuzzer $(LDFLAGS) \
		-o $@ $< $(FUZZ_CLI_OBJ) $(ALL_LIBS) $(PPR_LDLIBS)

.PHONY: fuzz-replay test-fuzz-replay fuzz-build
fuzz-replay: $(FUZZ_REPLAY)

test-fuzz-replay: fuzz-replay
	@scripts/fuzz.sh replay $(BUILD)

# The libFuzzer build: clang, the libraries instrumented for coverage.
fuzz-build:
	@scripts/fuzz.sh deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
		SANITIZE=fuzzer-no-link,address,undefined \
		$(patsubst %,$(FUZZ_BUILD)/fuzz/lf/%,$(FUZZ_NAMES))

# make fuzz FUZZ_SECONDS=N [FUZZ_JOBS=2] [FUZZ_SEED=S] [FUZZ_TARGETS="fuzz_mm ..."]
fuzz: fuzz-build
	@FUZZ_SEED="$(FUZZ_SEED)" scripts/fuzz.sh run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS) \
		$(FUZZ_TARGETS)

# ---- benchmarks ----------------------------------------------------------
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
$(BUILD)/bench/%: bench/%.c $(INCORE_OBJ) $(ALL_LIBS) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O3 $(LDFLAGS) -o $@ $< $(INCORE_OBJ) $(ALL_LIBS) $(PPR_LDLIBS)

bench: deps
	@$(MAKE) --no-print-directory OPT=-O3 ppr $(BENCH_BIN)
	@BUILD=$(BUILD) scripts/run-bench.sh

demo: deps
	@$(MAKE) --no-print-directory ppr
	@scripts/demo.sh

clean:
	rm -rf $(BUILD) ppr

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- generated: native kernels' disassembly for the DAG (model/loops.c) ----
# scripts/extract-loops.sh embeds `objdump -d` of every kern_* function of
# the kernels' objects as C strings, compiled into libmodel.a.
# The objects are compiled again without sanitizers (same -O and per-file
# -m flags), so a SANITIZE build predicts the code a normal build runs.
KERNEL_ASM_OBJS := $(patsubst kernels/%.c,$(BUILD)/gen/kobj/%.o,$(SRC_kernels))
$(BUILD)/gen/kobj/%.o: kernels/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(PPR_CPPFLAGS) $(CPPFLAGS) $(OPT) -w $(if $(and $(filter conv_avx2,$*),$(filter x86_64 i686 i386,$(KERNELS_ARCH))),-mavx2 -mfma) -c -o $@ $<
$(BUILD)/gen/kernel_asm.c: $(KERNEL_ASM_OBJS) scripts/extract-loops.sh
	@mkdir -p $(dir $@)
	scripts/extract-loops.sh $(KERNEL_ASM_OBJS) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/kernel_asm.o: $(BUILD)/gen/kernel_asm.c
	$(CC) $(CSTD) $(PPR_CPPFLAGS) $(CPPFLAGS) $(CFLAGS) -w -c -o $@ $<
$(LIB_model): $(BUILD)/gen/kernel_asm.o
