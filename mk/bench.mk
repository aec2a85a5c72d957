# Every script in bench/ in its short smoke mode (SMOKE=1, see
# tools/bench-smoke and docs/development.md): figures printed, nothing about
# speed asserted, so that a bench broken by a change fails `make check`.
.PHONY: bench-smoke
bench-smoke: $(BIN) build/wasm/topochess.wasm web nnue-bench
	tools/bench-smoke

CHECKS += bench-smoke
