#!/usr/bin/env bash
# Speed of the learned evaluation (docs/nnue.md): nodes per second of the
# search with a random net (H 256) beside the hand-written evaluation,
# natively (build/nnue_bench: also evaluations per second per SIMD level)
# and in wasm under Node and in headless Chromium (bench/nnue-wasm.mjs,
# beside the native searches). Prints figures; asserts nothing.
#   bench/nnue.sh            depth 9 native (DEPTH), depth 8 wasm (WASM_DEPTH), every preset
#   SMOKE=1 bench/nnue.sh    depth 5 native, 4 wasm, two presets (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
make -s -j2 nnue-bench
if [ "${SMOKE:-0}" = 1 ]; then
    nice ./build/nnue_bench --smoke
else
    nice ./build/nnue_bench --depth "${DEPTH:-9}"
fi
echo
if command -v node >/dev/null && make -s -j2 wasm; then
    SMOKE=${SMOKE:-0} nice node bench/nnue-wasm.mjs ${WASM_DEPTH:+--depth "$WASM_DEPTH"}
else
    echo "wasm: skipped (node or the wasm toolchain missing)"
fi
