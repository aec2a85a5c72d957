#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each briefly from seed corpora made
# from the repository's own data (CI calls this after the test suites).
set -euo pipefail
cd "$(dirname "$0")/.."

make -j2 fuzz
# Seed corpora come from the repository's own data, in a scratch folder.
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$corpus"/{fuzz_fen,fuzz_san,fuzz_explain,fuzz_pgn,fuzz_frontmatter,fuzz_uci,fuzz_xboard,fuzz_wasm,fuzz_route}
i=0
grep -hv '^#' tests/data/perft/*.epd | cut -d';' -f2 | while read -r fen; do
  i=$((i + 1)); printf '%s' "$fen" > "$corpus/fuzz_fen/$i"
done
for m in e4 Nf3 exd5 O-O O-O-O e8=Q d12 exc12 Bc11 e1g1 b7b8q Nbd7 R1a3; do
  printf '%s' "$m" > "$corpus/fuzz_san/$m"
done
for m in e4 nf3 E4 i9 Nd5 Bc4 Kh1 O-O e1g1 b8 Ke2=Q e3e4 exd3 g1-f3 Ng1f3; do
  printf '%s' "$m" > "$corpus/fuzz_explain/$m"
done
cp tests/data/pgn/*.pgn "$corpus/fuzz_pgn/" 2>/dev/null || true
# The wasm export layer: a preset byte, then lines (FEN, moves, ...) or a page.
cp variants/*.md tests/data/pgn/*.pgn "$corpus/fuzz_wasm/" 2>/dev/null || true
cp variants/*.md tests/data/seeds/* "$corpus/fuzz_frontmatter/" 2>/dev/null || true
# Protocol transcripts: the first byte picks the preset (0 chess, 1 cylinder, 3 torus, 4 mobius).
printf '\000uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nstop\nquit\n' > "$corpus/fuzz_uci/chess"
printf '\001setoption name Hash value 8\nposition startpos moves a2a4\ngo wtime 1000 btime 1000 winc 10 binc 10\nd\neval\n' > "$corpus/fuzz_uci/clock"
printf '\003ucinewgame\nposition startpos moves d2d4\ngo perft 2\ngo infinite\nstop\n' > "$corpus/fuzz_uci/torus"
printf '\004setoption name UCI_Variant value chess\nsetoption name Skill Level value 3\ngo movetime 50\nisready\n' > "$corpus/fuzz_uci/option"
printf '\000xboard\nprotover 2\nnew\nvariant cylinder\nusermove e2e4\ngo\nlift e2\nundo\nquit\n' > "$corpus/fuzz_xboard/cylinder"
printf '\000xboard\nnew\nforce\nsetboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nlevel 40 5 0\ntime 30000\notim 30000\ngo\nping 1\nremove\nquit\n' > "$corpus/fuzz_xboard/setboard"
printf '\004xboard\nprotover 2\nvariant mobius\npost\nst 1\nsd 3\nusermove e2e4\n?\nlift d2\nresult 1-0 {x}\n' > "$corpus/fuzz_xboard/mobius"
# Request targets for the web router: the first byte picks the method.
for t in / /v/klein-bottle "/play?variant=mobius&fen=8/8/8/8/8/8/8/8/8/8/8/8/8/8+w&engine=white&level=3" \
         "/analysis?variant=torus" /api/variants /api/variants/folding /v/%2e%2e/x /assets/chess.md; do
  printf '\000%s' "$t" > "$corpus/fuzz_route/$(printf '%s' "$t" | cksum | cut -d' ' -f1)"
done
for target in build/fuzz/*; do
  name=$(basename "$target")
  echo "== $name, 20 s"
  "$target" -max_total_time=20 -rss_limit_mb=2048 "$corpus/$name" 2>&1 | tail -n 2
done
