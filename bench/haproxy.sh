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
for t in wrk curl jq haproxy python3; do command -v $t >/dev/null || { echo "bench/haproxy.sh: $t is missing"; exit 1; }; done
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; wait $p 2>/dev/null || true; done; rm -rf "$tmp"' EXIT

serve() { # NAME: sets $port
  nice -n 10 "$BIN" serve --port 0 --pages variants --db "$TG_TEST_DB" --max-connections 5000 --max-per-ip 5000 \
    --create-per-minute 1000000 --trusted-proxy 127.0.0.1 > "$tmp/$1.out" 2> "$tmp/$1.err" &
  pids+=($!)
  port=
  for _ in $(seq 1 200); do
    port=$(sed -n 's|^topochess serve: http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/$1.out" 2>/dev/null || true)
    [ -n "$port" ] && return
    sleep 0.05
  done
  echo "bench/haproxy.sh: a server did not start"; cat "$tmp/$1.err"; exit 1
}
serve a; PA=$port
serve b; PB=$port
PH=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
sed -e "s/127\.0\.0\.1:8080/127.0.0.1:$PH/" -e "s/127\.0\.0\.1:8081/127.0.0.1:$PA/" \
    -e "s/127\.0\.0\.1:8082/127.0.0.1:$PB/" -e 's/^\( *log stdout.*\)/#\1/' deploy/haproxy.cfg > "$tmp/haproxy.cfg"
nice -n 10 haproxy -db -f "$tmp/haproxy.cfg" > "$tmp/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PH/api/games?limit=1")" = 200 ] && break
  sleep 0.1
done

# wrk's figures: requests/s, p50, p99, and the 2xx answers per second
figures() {
  awk '/Requests\/sec/ {r=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /requests in/ {n=$1} /Non-2xx/ {bad=$5}
    END {printf "%s req/s (%.0f 2xx/s), p50 %s, p99 %s%s\n", r, n ? r * (n - bad) / n : 0, p50, p99, bad ? ", " bad " non-2xx" : ""}'
}

cat > "$tmp/moves.lua" <<'LUA'
-- game n % N gets ply n / N: a game's next move goes out long after its last
local games, n = {}, 0
local plies = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "d7d6"}
local nthreads = 0
function setup(thread) thread:set("tid", nthreads); nthreads = nthreads + 1 end
function init(args)
  local f = io.open(args[1])
  local k = 0
  for line in f:lines() do
    if k % 2 == tonumber(tid) then
      local id, w, b = line:match("(%S+) (%S+) (%S+)")
      games[#games + 1] = {id, w, b}
    end
    k = k + 1
  end
  f:close()
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  local g = games[(n % #games) + 1]
  local p = math.floor(n / #games) % #plies + 1
  n = n + 1
  local side = (p % 2 == 1) and g[2] or g[3]
  return wrk.format(nil, "/api/games/" .. g[1] .. "/move", nil,
    '{"token":"' .. side .. '","move":"' .. plies[p] .. '"}')
end
LUA

run() { # LABEL URL
  local U=$2 ngames
  id=$(curl -s -X POST -d '{"variant":"klein-bottle"}' "http://127.0.0.1:$PA/api/games" | jq -r .id)
  echo "$1:"
  echo -n "  state reads (one game, 32 connections): "
  nice -n 10 wrk -t2 -c32 -d"${DUR}s" --latency "$U/api/games/$id" | figures
  ngames=$((DUR * 400)); [ $ngames -gt 4000 ] && ngames=4000
  # made on process a directly: the proxy's per-source connection rate
  # (300 per 10 s) would refuse this many new connections, and every
  # process sees every game
  seq 1 $ngames | xargs -P 4 -I{} curl -s -X POST -d '{"variant":"chess"}' "http://127.0.0.1:$PA/api/games" |
    jq -r '.id + " " + .white.token + " " + .black.token' > "$tmp/games"
  echo -n "  moves ($ngames games, 32 connections): "
  nice -n 10 wrk -t2 -c32 -d"${DUR}s" --latency -s "$tmp/moves.lua" "$U" -- "$tmp/games" | figures
}
echo "PostgreSQL ($TG_TEST_DB), ${DUR} s a run, wrk -t2 on the same 2 cores as the servers"
run "one process, directly" "http://127.0.0.1:$PA"
run "HAProxy, two processes" "http://127.0.0.1:$PH"
