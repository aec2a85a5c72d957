#!/bin/sh
# The wasm module does not grow with nets/ (mk/wasm.mk links an empty net
# table; the browser fetches its net, docs/nnue.md): built with a net in
# NETS_DIR it is byte for byte the module built with none. Run from the top
# directory by `make wasm-test`.
set -eu
make=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/none" "$tmp/one"
# tools/embed-nets copies the bytes without reading them: any 300 KB will do
head -c 300000 /dev/urandom > "$tmp/one/chess.tcnn"
$make -s wasm NETS_DIR="$tmp/none" >/dev/null
cp build/wasm/topochess.wasm "$tmp/none.wasm"
touch "$tmp/one/chess.tcnn"
$make -s wasm NETS_DIR="$tmp/one" >/dev/null
if ! cmp -s "$tmp/none.wasm" build/wasm/topochess.wasm; then
    echo "wasm-nets: FAIL: the wasm module changed with a 300 KB net in NETS_DIR ($(wc -c < "$tmp/none.wasm") -> $(wc -c < build/wasm/topochess.wasm) bytes)" >&2
    exit 1
fi
# the same net in the native build's table (the generator the wasm skips)
tools/embed-nets "$tmp/native.c" "$tmp/one/chess.tcnn"
grep -q '{"chess", net_0, sizeof net_0}' "$tmp/native.c"
echo "wasm-nets: ok, the module is $(wc -c < build/wasm/topochess.wasm) bytes with or without a net in NETS_DIR"
