#!/usr/bin/env bash
# Hosted-games figures on loopback (never in timed tests): with wrk,
#   - state reads of one game: requests/s and p99 latency;
#   - moves posted in many concurrent games, every one stored: moves/s and
#     p99 latency, on SQLite and (when a PostgreSQL server can be started
#     by tools/with-postgres) on PostgreSQL;
#   - 1,000 live connections (server-sent events) on one game: the
#     server's resident memory, and the time from posting a move until all
#     1,000 have received it.
# Usage: bench/hosted.sh [./topochess] [seconds per wrk run, default 10]
# Runs under nice; prints the figures.
# SMOKE=1: 1 second a wrk run, 50 watchers, no PostgreSQL (make bench-smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-./topochess}
WATCHERS=${WATCHERS:-1000}
if [ "${SMOKE:-0}" = 1 ]; then DUR=1 WATCHERS=50; else DUR=${2:-10}; fi
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
for t in wrk curl jq python3; do command -v $t >/dev/null || { echo "bench/hosted.sh: $t is missing"; exit 1; }; done
tmp=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT

serve() { # DB
  nice -n 10 "$BIN" serve --port 0 --pages variants --db "$1" --max-connections 5000 --max-per-ip 5000 \
    --create-per-minute 1000000 > "$tmp/out" 2> "$tmp/err" &
  spid=$!
  for _ in $(seq 1 200); do
    port=$(sed -n 's|^topochess serve: http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/out")
    [ -n "$port" ] && break
    sleep 0.05
  done
  U=http://127.0.0.1:$port
}
stop() { kill "$spid"; wait "$spid" 2>/dev/null || true; spid=; }
rss() { awk '/VmRSS/ {print int($2/1024) " MB"}' /proc/"$spid"/status; }

# wrk's lines: Requests/sec and the 99% latency
figures() { awk '/Requests\/sec/ {r=$2} /^ +99%/ {p=$2} /Non-2xx/ {n=$5} END {printf "%s/s, p99 %s%s\n", r, p, n ? ", " n " non-2xx" : ""}'; }

# moves: N games of chess, each given the same 8 plies; request n plays
# ply n / N of game n % N, so a game's next move goes out only long after
# its previous one was answered.
cat > "$tmp/moves.lua" <<'LUA'
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

moves_bench() { # label DB
  serve "$2"
  local ngames=$((DUR * 400))
  [ $ngames -gt 8000 ] && ngames=8000
  seq 1 $ngames | xargs -P 4 -I{} curl -s -X POST -d '{"variant":"chess"}' "$U/api/games" |
    jq -r '.id + " " + .white.token + " " + .black.token' > "$tmp/games"
  # each game takes 8 plies: stop before any game runs out of them
  echo "moves ($1, $ngames games, 8 plies each, 32 connections):"
  nice -n 10 wrk -t2 -c32 -d"${DUR}s" --latency -s "$tmp/moves.lua" "$U" -- "$tmp/games" | tee "$tmp/wrk" | figures
  stored=$(curl -s "$U/api/games?limit=200" | jq '[.[].moves] | add')
  echo "  (the 200 latest games hold $stored stored plies)"
  stop
}

# ---- reads
serve "$tmp/r.db"
id=$(curl -s -X POST -d '{"variant":"klein-bottle","clock":{"kind":"fischer","initial_ms":600000,"increment_ms":5000}}' "$U/api/games" | jq -r .id)
echo "state reads (one game, SQLite, 64 connections):"
nice -n 10 wrk -t2 -c64 -d"${DUR}s" --latency "$U/api/games/$id" | figures
stop

moves_bench SQLite "$tmp/m.db"
if [ "${SMOKE:-0}" != 1 ] && ls -d /usr/lib/postgresql/*/bin > /dev/null 2>&1; then
  export -f serve stop figures moves_bench
  export BIN DUR tmp
  tools/with-postgres bash -c 'moves_bench PostgreSQL "$TG_TEST_DB"' 2>&1 | grep -v '^with-postgres'
fi

# ---- 1,000 watchers (WATCHERS)
serve "$tmp/w.db"
g=$(curl -s -X POST -d '{"variant":"klein-bottle"}' "$U/api/games")
id=$(jq -r .id <<< "$g"); W=$(jq -r .white.token <<< "$g")
echo "$WATCHERS live watchers on one game:"
echo "  server before: $(rss)"
python3 - "$port" "$id" "$W" "$spid" "$WATCHERS" <<'PY'
import asyncio, json, sys, time, urllib.request
port, gid, tok, pid = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
N = int(sys.argv[5])
# The server allows 32 live streams an address: the watchers come from
# 127.0.0.1, 127.0.0.2, ... (32 each), as that many people would.
async def watch(i, ready, got):
    k = i // 32
    r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.{k // 250}.{1 + k % 250}", 0))
    w.write(f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await w.drain()
    buf = b""
    for want in (b"id: 1\n", b"id: 2\n"):
        while want not in buf:
            chunk = await r.read(65536)
            if not chunk:
                raise RuntimeError(f"watcher {i}: the stream ended: {buf[:300]!r}")
            buf += chunk
        (ready if want == b"id: 1\n" else got).append(time.monotonic())
    return w
async def main():
    ready, got = [], []
    tasks = [asyncio.create_task(watch(i, ready, got)) for i in range(N)]
    while len(ready) < N:
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()
        await asyncio.sleep(0.01)
    rss = open(f"/proc/{pid}/status").read().split("VmRSS:")[1].split()[0]
    print(f"  server with {N} streams open: {int(rss)//1024} MB resident")
    t0 = time.monotonic()
    body = json.dumps({"token": tok, "move": "e3"}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games/{gid}/move", body, method="POST")
    await asyncio.to_thread(lambda: urllib.request.urlopen(req).read())
    t1 = time.monotonic()
    while len(got) < N:
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()
        await asyncio.sleep(0.001)
    print(f"  move acknowledged in {1000*(t1-t0):.1f} ms; reached all {N} watchers in {1000*(max(got)-t0):.1f} ms (median {1000*(sorted(got)[N//2]-t0):.1f} ms)")
    for t in tasks:
        t.result().close()
asyncio.run(main())
PY
stop
