# topochess: `make` builds ./topochess and build/libtopochess.a;
# `make test` runs the suite; `make sanitize` runs it under ASan and UBSan;
# `make fuzz` builds the libFuzzer targets (clang).
#
# Layers, and the only direction their dependencies may run (each layer is
# compiled with the include paths of itself and the layers below it, so a
# wrong-way include does not compile):
#   src/rules   -> include/ only                (the rules library)
#   src/report  -> src/rules                    (the topology report)
#   src/endgame -> src/rules                    (solved pawnless endings)
#   src/nnue    -> src/rules                    (the learned evaluation)
#   src/engine  -> src/rules, src/endgame, src/nnue (search and evaluation)
#   protocol/   -> include/ (public API only)   (UCI and CECP loops)
#   match/      -> include/ (public API only)   (match runner, engine processes)
#   cli/        -> every layer above            (the topochess command)
CC      ?= cc
BIN     ?= topochess
OPT     ?= -O3 -march=native
WARN    := -std=c11 -Wall -Wextra -Wshadow -pedantic
CFLAGS  ?=
CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L
LDLIBS  := -lyaml -lpthread -lm

RULES_SRC   := $(wildcard src/rules/*.c)
REPORT_SRC  := $(wildcard src/report/*.c)
ENGINE_SRC  := $(wildcard src/engine/*.c)
# Every layer under src/ is part of the library (a new layer needs an INC_ line).
LIB_SRC     := $(sort $(wildcard src/*/*.c))
PROTO_SRC   := $(wildcard protocol/*.c)
MATCH_SRC   := $(wildcard match/*.c)
CLI_SRC     := $(wildcard cli/*.c)
TEST_SRC    := $(wildcard tests/*.c)
FUZZ_SRC    := $(wildcard fuzz/*.c)
ALL_HDR     := $(wildcard include/*.h src/*/*.h protocol/*.h match/*.h cli/*.h tests/*.h fuzz/*.h)

# Include paths by layer.
INC_rules    := -Isrc/rules
INC_report   := $(INC_rules) -Isrc/report
INC_endgame  := $(INC_rules) -Isrc/endgame
INC_nnue     := $(INC_rules) -Isrc/nnue
INC_engine   := $(INC_rules) -Isrc/endgame -Isrc/nnue -Isrc/engine
INC_protocol := -Iprotocol
INC_match    := -Imatch
INC_cli      := -Icli -Iprotocol -Imatch
# Tests and fuzz targets reach into every layer.
INC_all      := -Isrc/rules -Isrc/report -Isrc/endgame -Isrc/nnue -Isrc/engine -Iprotocol -Imatch -Icli -Itests
layer_inc = $(or $(INC_$(word 2,$(subst /, ,$(1)))),$(INC_$(word 1,$(subst /, ,$(1)))),$(INC_all))

B := build
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)

# Built-in nets: nets/<preset>.tcnn become a generated C array in the
# library (tools/embed-nets; build/gen is never committed). The list file
# changes only when the set of nets does, so that a removed net is noticed.
# NETS_DIR=DIR takes the nets from elsewhere (tests; make web ships them too).
NETS_DIR  ?= nets
NETS      := $(sort $(wildcard $(NETS_DIR)/*.tcnn))
GEN       := build/gen
NETS_C    := $(GEN)/nnue_nets.c
LIB_OBJ   += $(B)/gen/nnue_nets.o
ADAPT_OBJ := $(PROTO_SRC:%.c=$(B)/%.o) $(MATCH_SRC:%.c=$(B)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ  := $(TEST_SRC:%.c=$(B)/%.o)

# Fragments for the parts built beside the core (mk/*.mk): each may append
# to ADAPT_OBJ, LDLIBS and CHECKS and add its own targets.
.DEFAULT_GOAL := all
CHECKS :=
-include $(sort $(wildcard mk/*.mk))

S := build/san
SAN_FLAGS := -O1 -g -DTC_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all test sanitize check fuzz bench clean
all: $(BIN)

$(B)/%.o: %.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(CPPFLAGS) $(call layer_inc,$<) -MMD -c $< -o $@

$(GEN)/nets.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(NETS)' | cmp -s - $@ || echo '$(NETS)' > $@

$(NETS_C): $(GEN)/nets.list $(NETS) tools/embed-nets
	tools/embed-nets $@ $(NETS)

$(B)/gen/nnue_nets.o: $(NETS_C) src/nnue/builtin.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) -Isrc/nnue -c $< -o $@

.PHONY: FORCE
FORCE:

$(B)/libtopochess.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(ADAPT_OBJ) $(B)/libtopochess.a
	$(CC) $(OPT) $(CFLAGS) -o $@ $^ $(LDLIBS)

# Tests link the adapters and the command modules too, not main.
$(B)/run_tests: $(TEST_OBJ) $(filter-out $(B)/cli/main.o,$(CLI_OBJ)) $(ADAPT_OBJ) $(B)/libtopochess.a
	$(CC) $(OPT) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The library's example (docs/library.md) is built and run as part of the tests.
$(B)/examples/%: examples/%.c $(B)/libtopochess.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) -Iinclude -o $@ $< $(B)/libtopochess.a $(LDLIBS)

# The house rules: the rules library in layers, no circle between any two
# files of any folder (the wasm export layer is compiled natively for it),
# no file over 800 lines without a reason at its top.
HOUSE_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard wasm/*.c))
test: $(B)/run_tests $(BIN) $(B)/examples/replies $(HOUSE_OBJ)
	tools/check-layers $(B)
	tools/check-cycles $(B)
	tools/check-sizes
	./$(B)/examples/replies > /dev/null
	TC_BIN=./$(BIN) ./$(B)/run_tests

# The same suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) --no-print-directory B=$(S) BIN=$(S)/topochess OPT="$(SAN_FLAGS)" $(S)/run_tests $(S)/topochess
	TC_BIN=./$(S)/topochess TC_SANITIZE=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(S)/run_tests

# Every suite: the C tests, the same under the sanitizers, and each suite a
# fragment added to CHECKS, CHECK_JOBS at a time (docs/development.md,
# "make check and make quick"). The suites are independent: each starts its
# servers on free ports (--port 0) with its own scratch folder and
# database, and tools/with-postgres its own cluster. One make runs them, so
# every binary they share (topochess, run_tests, the wasm module, web/dist)
# is built once, before the suites start; the sanitizer and
# ThreadSanitizer trees (build/san, build/tsan) are built by their own
# targets only. The suites that drive Chromium (CHECK_LANE) run one after
# another, beside the rest, so that no two browsers share the two cores;
# three jobs by default, so that the lane and two other suites overlap
# their waits (servers starting, clusters made, browsers rendering).
# CHECK_SYNC=none shows the output as it comes (else each suite's output
# is printed whole when it ends).
CHECK_JOBS ?= 3
CHECK_SYNC ?= target
# e2e-test, the longest, first: in the measured run it ended the lane alone.
CHECK_LANE := $(filter e2e-test,$(CHECKS)) $(filter-out e2e-test,$(filter %e2e-test %e2e-pg-test haproxy-test,$(CHECKS)))
check:
	$(MAKE) --no-print-directory -j$(CHECK_JOBS) --output-sync=$(CHECK_SYNC) check-all

# The lane first (it is the longest chain), then the largest builds.
.PHONY: check-all
check-all: $(CHECK_LANE) sanitize tsan test $(filter-out $(CHECK_LANE) tsan,$(CHECKS))
# Only when check-all runs (a suite made alone runs alone): what the suites
# share, and what their scripts build with a make of their own (bench's
# tune and nnue_bench, docs-test's `make wasm`), is built first, by this
# make alone; then the lane's order.
CHECK_BUILD := $(BIN) $(B)/run_tests $(B)/examples/replies $(B)/examples/check_path $(HOUSE_OBJ) web \
               $(WASM_OUT) $(B)/nnue_bench $(B)/tune
.PHONY: check-build
check-build: $(CHECK_BUILD)
ifneq ($(filter check-all,$(MAKECMDGOALS)),)
sanitize tsan test $(CHECKS): | check-build
lane = $(if $(word 2,$(1)),$(eval $(word 2,$(1)): | $(word 1,$(1)))$(call lane,$(wordlist 2,$(words $(1)),$(1))))
$(call lane,$(CHECK_LANE))
endif
# The generated net table is shared by every tree: made before the
# sanitizer trees' own makes start, not by two makes at once.
sanitize tsan: $(NETS_C)

# The edit-test loop (docs/development.md): the binary, the house size
# check and the C suite without its slowest groups, in about a minute.
# QUICK_SKIP=... to choose; `make test` runs every group.
QUICK_SKIP ?= endgame mates differential perft datagen ponder match people symmetry
.PHONY: quick
quick: $(B)/run_tests $(BIN)
	tools/check-sizes
	TC_BIN=./$(BIN) ./$(B)/run_tests $(addprefix -,$(QUICK_SKIP))

# Each source is compiled once for every fuzz target (coverage without
# libFuzzer's main: fuzzer-no-link) into build/fuzzobj; a target links its
# own file with the library's objects and its FUZZ_EXTRA sources' objects.
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined
FUZZ_OBJ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined
fuzzobj = $(patsubst %.c,$(B)/fuzzobj/%.o,$(1))
fuzz: $(FUZZ_SRC:fuzz/%.c=$(B)/fuzz/%)
$(B)/fuzzobj/%.o: %.c $(ALL_HDR) $(wildcard server/*.h games/*.h wasm/*.h)
	@mkdir -p $(dir $@)
	clang $(WARN) $(FUZZ_OBJ_FLAGS) $(CPPFLAGS) $(INC_all) -c -o $@ $<
.SECONDEXPANSION:
$(B)/fuzz/%: fuzz/%.c $$(call fuzzobj,$$(LIB_SRC) $$(NETS_C) $$(FUZZ_EXTRA))
	@mkdir -p $(dir $@)
	clang $(WARN) $(FUZZ_FLAGS) $(CPPFLAGS) $(INC_all) -o $@ $< $(filter %.o,$^) $(LDLIBS)

# The protocol targets also link the protocol loops.
FUZZ_PROTO := $(B)/fuzz/fuzz_uci $(B)/fuzz/fuzz_xboard
$(FUZZ_PROTO): FUZZ_EXTRA := $(PROTO_SRC)
$(FUZZ_PROTO): $(PROTO_SRC)

bench: $(BIN)
	./$(BIN) bench

clean:
	# build/debsrc holds the Debian sources that tools/install-deps unpacked
	find build -mindepth 1 -maxdepth 1 ! -name debsrc -exec rm -rf {} + 2>/dev/null; rm -f topochess

-include $(shell find $(B) -name '*.d' 2>/dev/null)
