#!/usr/bin/env bash
# Games through HAProxy (deploy/haproxy.cfg, two `topochess serve`
# processes on one PostgreSQL) beside the same load on one process
# directly, on loopback with wrk (figures, never timed tests):
#   - state reads of one game: requests/s, p50 and p99 latency;
#   - moves posted in many concurrent games: stored moves/s (the 2xx
#     answers: each one committed), p50 and p99 latency.
# Usage: bench/haproxy.sh [./topochess] [seconds per wrk run, default 10]
# Starts a throwaway PostgreSQL with tools/with-postgres when TG_TEST_DB is
# not set. Runs under nice; prints the figures.
# SMOKE=1: 1 second a wrk run, 200 games (make bench-smoke runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-./topochess}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
for t in haproxy wrk; do command -v $t >/dev/null || { echo "bench/haproxy.sh: $t is not installed (deps/*.apt): skipped"; exit 0; }; done
if [ -z "${TG_TEST_DB:-}" ]; then
  ls -d /usr/lib/postgresql/*/bin > /dev/null 2>&1 || { echo "bench/haproxy.sh: no PostgreSQL server: skipped"; exit 0; }
  exec tools/with-postgres bash "$0" "$BIN" "${2:-}"
fi
if [ "${SMOKE:-0}" = 1 ]; then DUR=1; else DUR=${2:-10}; fi
DUR=${DUR:-10}
. bench/lib.sh
SERVE_NICE=10
lib_begin bench/haproxy.sh "$BIN" wrk curl jq haproxy python3

serve() { # NAME: sets $port
  server_start "$1" --pages variants --db "$TG_TEST_DB" --max-connections 5000 --max-per-ip 5000 \
    --create-per-minute 1000000 --trusted-proxy 127.0.0.1
}
serve a; PA=$port
serve b; PB=$port
PH=$(free_port)
haproxy_cfg "$PH" "$PA" "$PB" -e 's/^\( *log stdout.*\)/#\1/' > "$tmp/haproxy.cfg"
nice -n 10 haproxy -db -f "$tmp/haproxy.cfg" > "$tmp/haproxy.log" 2>&1 &
pids+=($!)
until_ok 10 is_code 200 "http://127.0.0.1:$PH/api/games?limit=1" || true

run() { # LABEL URL
  local U=$2 ngames
  id=$(curl -s -X POST -d '{"variant":"klein-bottle"}' "http://127.0.0.1:$PA/api/games" | jq -r .id)
  echo "$1:"
  echo -n "  state reads (one game, 32 connections): "
  nice -n 10 wrk -t2 -c32 -d"${DUR}s" --latency "$U/api/games/$id" | wrk_figures
  ngames=$((DUR * 400)); [ $ngames -gt 4000 ] && ngames=4000
  # made on process a directly: the proxy's per-source connection rate
  # (300 per 10 s) would refuse this many new connections, and every
  # process sees every game
  make_games "http://127.0.0.1:$PA" $ngames > "$tmp/games"
  echo -n "  moves ($ngames games, 32 connections): "
  wrk_moves "$U" "$tmp/games" -t2 -c32 -d"${DUR}s" | wrk_figures
}
echo "PostgreSQL ($TG_TEST_DB), ${DUR} s a run, wrk -t2 on the same 2 cores as the servers"
run "one process, directly" "http://127.0.0.1:$PA"
run "HAProxy, two processes" "http://127.0.0.1:$PH"
