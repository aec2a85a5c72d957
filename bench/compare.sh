#!/usr/bin/env bash
# Perft speed of topochess beside Debian's stockfish and fairy-stockfish on
# the same standard positions, measured in one run on this machine.
# Usage: bench/compare.sh [path/to/topochess]
# SMOKE=1: perft 3 and 2 only, no search bench (make bench-smoke).
set -euo pipefail
TC=${1:-./topochess}
PATH="$PATH:/usr/games"
SMOKE=${SMOKE:-0}

positions=(
  "start|startpos|6|119060324"
  "kiwipete|fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
)
[ "$SMOKE" = 1 ] && positions=("start|startpos|3|8902" "kiwipete|fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|2|2039")

now() { date +%s.%N; }

# Runs `go perft` over UCI; prints "nodes seconds".
uci_perft() {
  local engine=$1 pos=$2 depth=$3 t0 t1 out
  t0=$(now)
  out=$(printf 'uci\nisready\nposition %s\ngo perft %s\nquit\n' "$pos" "$depth" | "$engine" 2>/dev/null)
  t1=$(now)
  echo "$(echo "$out" | awk '/Nodes searched/ {print $3}') $(echo "$t1 - $t0" | bc -l)"
}

tc_perft() {
  local pos=$1 depth=$2 fen t0 t1 n
  if [ "$pos" = startpos ]; then fen=(); else fen=(--fen "${pos#fen }"); fi
  t0=$(now)
  n=$("$TC" perft "$depth" "${fen[@]}" 2>/dev/null | awk '/^nodes:/ {print $2}')
  t1=$(now)
  echo "$n $(echo "$t1 - $t0" | bc -l)"
}

printf '%-10s %-16s %12s %8s %8s %s\n' position engine nodes seconds Mnps "topochess/engine"
for entry in "${positions[@]}"; do
  IFS='|' read -r label pos depth expect <<<"$entry"
  read -r tn tt < <(tc_perft "$pos" "$depth")
  [ "$tn" = "$expect" ] || { echo "topochess: $label perft $depth gave $tn, expected $expect" >&2; exit 1; }
  tm=$(echo "$tn / $tt / 1000000" | bc -l)
  printf '%-10s %-16s %12s %8.3f %8.1f\n' "$label" topochess "$tn" "$tt" "$tm"
  for engine in stockfish fairy-stockfish; do
    if ! command -v "$engine" >/dev/null; then
      printf '%-10s %-16s (not installed: apt-get install %s)\n' "$label" "$engine" "$engine"
      continue
    fi
    read -r en et < <(uci_perft "$engine" "$pos" "$depth")
    [ "$en" = "$expect" ] || echo "warning: $engine gave $en nodes" >&2
    em=$(echo "$en / $et / 1000000" | bc -l)
    printf '%-10s %-16s %12s %8.3f %8.1f %8.2f\n' "$label" "$engine" "$en" "$et" "$em" \
      "$(echo "$tm / $em" | bc -l)"
  done
done

# Search speed: topochess's search bench beside Fairy-Stockfish's own bench
# (different positions and depths: nodes per second is what compares).
[ "$SMOKE" = 1 ] && { echo "search bench: skipped (smoke mode)"; exit 0; }
echo
printf '%-16s %12s %10s\n' "search bench" nodes nps
tcout=$("$TC" bench 2>/dev/null)
echo "$tcout" | awk '/^search total:/ {printf "%-16s %12s %10s\n", "topochess", $3, $7}'
if command -v fairy-stockfish >/dev/null; then
  fsout=$(fairy-stockfish bench 2>&1)
  printf '%-16s %12s %10s\n' fairy-stockfish \
    "$(echo "$fsout" | awk -F: '/Nodes searched/ {gsub(/ /, "", $2); print $2}')" \
    "$(echo "$fsout" | awk -F: '/Nodes\/second/ {gsub(/ /, "", $2); print $2}')"
fi
