# topochess: `make` builds ./topochess and build/libtopochess.a;
# `make test` runs the suite; `make sanitize` runs it under ASan and UBSan;
# `make fuzz` builds the libFuzzer targets (clang).
CC      ?= cc
BIN     ?= topochess
OPT     ?= -O3 -march=native
WARN    := -std=c11 -Wall -Wextra -Wshadow -pedantic
CFLAGS  ?=
CPPFLAGS += -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
LDLIBS  := -lyaml -lpthread -lm

LIB_SRC  := $(wildcard src/*.c)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
FUZZ_SRC := $(wildcard fuzz/*.c)

B := build
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)

S := build/san
SAN_FLAGS := -O1 -g -DTC_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all test sanitize fuzz bench clean
all: $(BIN)

$(B)/%.o: %.c $(wildcard include/*.h src/*.h tests/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(CPPFLAGS) -MMD -c $< -o $@

$(B)/libtopochess.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(B)/libtopochess.a
	$(CC) $(OPT) $(CFLAGS) -o $@ $^ $(LDLIBS)

# Tests link the command modules too (protocol loops, drawing), not main.
$(B)/run_tests: $(TEST_OBJ) $(filter-out $(B)/cli/main.o,$(CLI_OBJ)) $(B)/libtopochess.a
	$(CC) $(OPT) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The README's library example is built and run as part of the tests.
$(B)/examples/%: examples/%.c $(B)/libtopochess.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) -Iinclude -o $@ $< $(B)/libtopochess.a $(LDLIBS)

test: $(B)/run_tests $(BIN) $(B)/examples/replies
	./$(B)/examples/replies > /dev/null
	TC_BIN=./$(BIN) ./$(B)/run_tests

# The same suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) --no-print-directory B=$(S) BIN=$(S)/topochess OPT="$(SAN_FLAGS)" $(S)/run_tests $(S)/topochess
	TC_BIN=./$(S)/topochess TC_SANITIZE=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(S)/run_tests

FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined
fuzz: $(FUZZ_SRC:fuzz/%.c=$(B)/fuzz/%)
$(B)/fuzz/%: fuzz/%.c $(LIB_SRC) $(wildcard include/*.h src/*.h fuzz/*.h)
	@mkdir -p $(dir $@)
	clang $(WARN) $(FUZZ_FLAGS) $(CPPFLAGS) $(FUZZ_CLI_FLAGS) -o $@ $< $(FUZZ_CLI) $(LIB_SRC) $(LDLIBS)

# The protocol targets also link the protocol loops (which need nothing
# from cli/main.c).
FUZZ_PROTO := $(B)/fuzz/fuzz_uci $(B)/fuzz/fuzz_xboard
$(FUZZ_PROTO): FUZZ_CLI := cli/uci.c cli/xboard.c cli/protocols.c
$(FUZZ_PROTO): FUZZ_CLI_FLAGS := -Icli
$(FUZZ_PROTO): cli/uci.c cli/xboard.c cli/protocols.c $(wildcard cli/*.h)

bench: $(BIN)
	./$(BIN) bench

clean:
	rm -rf build topochess

-include $(shell find $(B) -name '*.d' 2>/dev/null)
