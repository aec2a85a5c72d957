#!/usr/bin/env bash
# Strength measurements of the issue "Engine": run by hand, they take long.
#   bench/elo.sh nodes [GAMES]     full engine vs material-only, no-pruning
#                                  engine at fixed nodes, on every 8x14 preset
#                                  and folding
#   bench/elo.sh fairymax [GAMES]  topochess vs Debian's fairymax at the same
#                                  time per move, on chess and cylinder
# Games come in pairs from random 4-ply openings; PGN files go to bench/out/.
# SMOKE=1: 2 games at 200 nodes (or 20 ms) on one variant, PGN to a scratch
# folder (make bench-smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
TC=${TC:-./topochess}
mode=${1:-nodes}
OUT=${BENCH_OUT:-bench/out}
if [ "${SMOKE:-0}" = 1 ]; then
  OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT
  games=2 NODES=200 MOVETIME=20 VARIANTS_NODES=torus VARIANTS_FM=cylinder
else
  games=${2:-200}
fi
nodes=${NODES:-4000}
movetime=${MOVETIME:-200}
mkdir -p "$OUT"

case "$mode" in
nodes)
  for v in ${VARIANTS_NODES:-monteiro-cylinder torus mobius klein-bottle folding}; do
    echo "== $v: full vs material-only, no pruning; $nodes nodes a move, $games games"
    "$TC" match --variant "$v" engine1=self engine2=self name1=full name2=material-nopruning \
      option2=Evaluation=material option2=Pruning=false nodes="$nodes" games="$games" \
      openings=$((games / 2)) plies=4 seed=7 concurrency=2 pgn="$OUT/nodes-$v.pgn" |
      tail -n 2
  done
  ;;
fairymax)
  fm=$(command -v fairymax || echo /usr/games/fairymax)
  [ -x "$fm" ] || { echo "bench/elo.sh: fairymax is not installed (apt-get install fairymax)"; [ "${SMOKE:-0}" = 1 ] && exit 0; exit 1; }
  for v in ${VARIANTS_FM:-chess cylinder}; do
    echo "== $v: topochess vs fairymax, $movetime ms a move, $games games"
    "$TC" match --variant "$v" engine1=self engine2="$fm" proto2=cecp movetime="$movetime" \
      games="$games" openings=$((games / 2)) plies=4 seed=11 concurrency=2 \
      pgn="$OUT/fairymax-$v.pgn" | tail -n 2
  done
  ;;
*)
  echo "usage: bench/elo.sh nodes|fairymax [GAMES]" >&2
  exit 1
  ;;
esac
