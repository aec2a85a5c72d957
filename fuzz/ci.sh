#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for FUZZ_SECONDS (default 12: CI's whole run stays well under its 30 minutes)
# from its committed, minimised corpus (fuzz/corpus/<target>/) plus seeds
# made from the repository's own data, in a scratch folder (CI calls this
# after the test suites). A crash, leak or hang fails the script; the input
# that caused it is kept in build/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-12}

make -j2 fuzz
mkdir -p build/fuzz-artifacts
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
for target in build/fuzz/*; do
  name=$(basename "$target")
  mkdir -p "$corpus/$name"
  if [ -d "fuzz/corpus/$name" ]; then cp fuzz/corpus/"$name"/* "$corpus/$name/"; fi
done
i=0
grep -hv '^#' tests/data/perft/*.epd | cut -d';' -f2 | while read -r fen; do
  i=$((i + 1)); printf '%s' "$fen" > "$corpus/fuzz_fen/data$i"
done
for m in e4 Nf3 exd5 O-O O-O-O e8=Q d12 exc12 Bc11 e1g1 b7b8q Nbd7 R1a3; do
  printf '%s' "$m" > "$corpus/fuzz_san/data-$m"
done
for m in e4 nf3 E4 i9 Nd5 Bc4 Kh1 O-O e1g1 b8 Ke2=Q e3e4 exd3 g1-f3 Ng1f3; do
  printf '%s' "$m" > "$corpus/fuzz_explain/$m"
done
cp tests/data/pgn/*.pgn "$corpus/fuzz_pgn/" 2>/dev/null || true
# The wasm export layer: a preset byte, then lines (FEN, moves, ...) or a page.
cp variants/*.md tests/data/pgn/*.pgn "$corpus/fuzz_wasm/" 2>/dev/null || true
cp variants/*.md tests/data/seeds/* "$corpus/fuzz_frontmatter/" 2>/dev/null || true
cp tests/data/seeds/* "$corpus/fuzz_page/" 2>/dev/null || true
# Request targets for the web router: the first byte picks the method.
for t in / /v/klein-bottle "/play?variant=mobius&fen=8/8/8/8/8/8/8/8/8/8/8/8/8/8+w&engine=white&level=3" \
         "/analysis?variant=torus" /api/variants /api/variants/folding /v/%2e%2e/x /assets/chess.md; do
  printf '\000%s' "$t" > "$corpus/fuzz_route/$(printf '%s' "$t" | cksum | cut -d' ' -f1)"
done
# Bodies for the hosted-games API: the first byte picks the route (0 create,
# 1 move, 2 draw, 3 takeback, 4 resign, 5 rematch).
mkdir -p "$corpus/fuzz_games"
printf '\000{"variant":"klein-bottle","clock":{"kind":"fischer","initial_ms":60000,"increment_ms":1000}}' > "$corpus/fuzz_games/create"
printf '\000{"variant":"torus","engine":"white","level":3,"fen":"8/8/8/8/8/8/8/8/8/8/8/8/8/8 w - - 0 1"}' > "$corpus/fuzz_games/engine"
printf '\000{"page":"---\\ntitle: T\\nslug: t\\nengine:\\n  topology: {type: grid, rows: 6, cols: 6, wrap: cylinder}\\n  setup: \\"rnbkqr/pppppp/6/6/PPPPPP/RNBKQR\\"\\n---\\n"}' > "$corpus/fuzz_games/page"
printf '\001{"token":"00000000000000000000000000000000","move":"e2e4"}' > "$corpus/fuzz_games/move"
printf '\002{"token":"x","action":"offer"}' > "$corpus/fuzz_games/draw"
printf '\003{"token":"x","action":"request"}' > "$corpus/fuzz_games/takeback"
for target in build/fuzz/*; do
  name=$(basename "$target")
  echo "== $name, $seconds s"
  # -entropic=0: libFuzzer's entropic scheduling spends more time on its
  # feature bookkeeping than the targets spend running (5 to 7 times fewer
  # runs a second with it here)
  "$target" -entropic=0 -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build/fuzz-artifacts/$name-" "$corpus/$name" > "$corpus/$name.log" 2>&1 ||
    { tail -n 40 "$corpus/$name.log"; echo "fuzz/ci.sh: $name failed; input in build/fuzz-artifacts/" >&2; exit 1; }
  { grep -E '^#[0-9]+[[:space:]].*cov: ' "$corpus/$name.log" | tail -n 1 | sed -E 's/ (lim|exec\/s|rss|L|MS): .*//'
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$corpus/$name.log" | tr '\n' ' '; echo; } || true
done
