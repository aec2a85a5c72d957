#!/usr/bin/env bash
# The server's analysis of finished games (docs/analysis.md), figures only
# (never a timed test): how long `topochess serve` takes to analyse a
# 60-move chess game (120 plies, the same game every run: tests/server/lib.sh's
# chess_game), from the request to the stored result, at the default budget
# (100,000 nodes a position) with one analysis thread; then two such games
# at once with --analysis-threads 2 (both cores).
# Usage: bench/analysis.sh [./topochess] [nodes a position]
# Runs under nice; prints the figures.
# SMOKE=1: a 10-ply game at 5,000 nodes (make bench-smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SMOKE:-0}" = 1 ]; then PLIES=10 NODES=5000; else PLIES=120 NODES=${2:-100000}; fi
. bench/lib.sh
SERVE_NICE=10
lib_begin bench/analysis.sh "${1:-}" curl jq

# ask GAME...: queues each game's analysis (a player's token), waits for all
# to be done; prints the seconds from the first request to the last result
ask() {
  local t0 g w left
  t0=$(date +%s.%N)
  for g in "$@"; do
    w=${g#*:}
    curl -s --noproxy '*' -o /dev/null -X POST -H "Authorization: Bearer $w" "$U/api/games/${g%%:*}/analysis"
  done
  while :; do
    left=0
    for g in "$@"; do
      [ "$(curl -s --noproxy '*' "$U/api/games/${g%%:*}/analysis" | jq -r .state)" = done ] || left=1
    done
    [ $left = 1 ] || break
    sleep 0.2
  done
  awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN {print a - b}'
}

for threads in 1 2; do
  server_start analysis --db "$tmp/a$threads.db" --analysis-threads "$threads" --analysis-nodes "$NODES"
  U=http://127.0.0.1:$port
  games=()
  for ((k = 0; k < threads; k++)); do
    read -r id wt _ <<< "$(chess_game "$U" "$PLIES")"
    games+=("$id:$wt")
  done
  plies=$(curl -s --noproxy '*' "$U/api/games/${games[0]%%:*}" | jq '.moves | length')
  secs=$(ask "${games[@]}")
  cpu=$(awk '{print ($14 + $15) / 100}' /proc/"$pid"/stat)
  echo "analysis: $threads game(s) of $plies plies at $NODES nodes a position, --analysis-threads $threads:" \
    "$(printf '%.1f' "$secs") s wall, $(printf '%.1f' "$cpu") s CPU of the server (load $(cut -d' ' -f1 /proc/loadavg))"
  grep -h "done by" "$tmp/analysis.err" | sed 's/^topochess serve: /  /'
  stop_procs "$pid" || true
done
