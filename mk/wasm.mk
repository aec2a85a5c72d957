# The wasm module: the rules library, the report and the engine (built
# without threads, TC_NO_THREADS) plus the export layer in wasm/, compiled
# with clang for wasm32-wasi in reactor mode (no main; the host calls the
# exports). libyaml, which the front-matter reader needs, is built from
# Debian's own source package (deps/wasm.src), which tools/install-deps
# fetches with apt-get source and unpacks in build/debsrc/libyaml: Debian
# ships the library only for the host's architecture.
#   make wasm       -> build/wasm/topochess.wasm
#   make wasm-test  -> builds it, type-checks web/src/lib, then runs the
#                      TypeScript API's unit tests under Node (Vitest, web/)
WASM_CC     ?= clang
WASM_OUT    := build/wasm/topochess.wasm
WASM_B      := build/wasm/obj
WASM_FLAGS  := --target=wasm32-wasi -O3 -msign-ext \
               -mnontrapping-fptoint -mmutable-globals
WASM_DEFS   := -DTC_NO_THREADS -D_POSIX_C_SOURCE=200809L
YAML_DIR    := build/debsrc/libyaml
YAML_DEFS   := -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5 \
               -DYAML_VERSION_STRING='"0.2.5"' -DYAML_DECLARE_STATIC
WASM_SRC    := $(LIB_SRC) $(wildcard wasm/*.c)
YAML_SRC    := $(wildcard $(YAML_DIR)/src/*.c)
# The module links an empty net table: the page fetches the one net a game
# needs (make web ships nets/*.tcnn beside it; docs/nnue.md), so the
# module's size does not grow with nets/.
WASM_OBJ    := $(WASM_SRC:%.c=$(WASM_B)/%.o) $(YAML_SRC:%.c=$(WASM_B)/%.o) $(WASM_B)/gen/nnue_nets_none.o
# The export layer reads the report's figures, like the CLI.
INC_wasm    := -Isrc/rules -Isrc/report -Isrc/nnue -Isrc/engine
WASM_LDFLAGS := -Wl,-z,stack-size=2097152 -Wl,--strip-all -Wl,--gc-sections

.PHONY: wasm wasm-test
wasm: $(WASM_OUT)

$(YAML_DIR)/src/api.c:
	@echo "make wasm: libyaml's source is missing; run tools/install-deps (it unpacks Debian's libyaml source in $(YAML_DIR))" >&2
	@exit 1

$(WASM_OUT): $(YAML_DIR)/src/api.c $(WASM_OBJ)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) -mexec-model=reactor $(WASM_LDFLAGS) -o $@ $(WASM_OBJ)

$(WASM_B)/$(YAML_DIR)/%.o: $(YAML_DIR)/%.c $(wildcard $(YAML_DIR)/include/*.h $(YAML_DIR)/src/*.h)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(YAML_DEFS) -I$(YAML_DIR)/include -w -c $< -o $@

# The net's kernels use WebAssembly SIMD128 (src/nnue/kernels.c).
$(WASM_B)/src/nnue/%.o: WASM_SIMD := -msimd128

$(GEN)/nnue_nets_none.c: tools/embed-nets
	@mkdir -p $(dir $@)
	tools/embed-nets $@

$(WASM_B)/gen/nnue_nets_none.o: $(GEN)/nnue_nets_none.c src/nnue/builtin.h
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(WARN) -Isrc/nnue -c $< -o $@

$(WASM_B)/%.o: %.c $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_FLAGS) $(WASM_SIMD) $(WARN) $(WASM_DEFS) -Iinclude $(call layer_inc,$<) \
	    -I$(YAML_DIR)/include -c $< -o $@

# Unit tests of web/src/lib against this build (and the native CLI for the
# perft cross-check).
wasm-test: $(WASM_OUT) $(BIN)
	MAKE='$(MAKE)' tests/wasm-nets.sh
	cd web && node_modules/.bin/tsc -p src/lib
	cd web && TC_WASM=../$(WASM_OUT) TC_BIN=../$(BIN) npm run --silent test:unit

CHECKS += wasm-test

# The export layer, natively under the sanitizers (fuzz/fuzz_wasm.c, run by
# fuzz/ci.sh with the other targets).
$(B)/fuzz/fuzz_wasm: FUZZ_EXTRA := $(wildcard wasm/*.c)
$(B)/fuzz/fuzz_wasm: $(wildcard wasm/*.c wasm/*.h)
