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
WATCHERS=${WATCHERS:-1000}
if [ "${SMOKE:-0}" = 1 ]; then DUR=1 WATCHERS=50; else DUR=${2:-10}; fi
. bench/lib.sh
SERVE_NICE=10
lib_begin bench/hosted.sh "${1:-}" wrk curl jq python3

serve() { # DB: a server on it; sets $U, $port and $pid
  server_start hosted --pages variants --db "$1" --max-connections 5000 --max-per-ip 5000 --create-per-minute 1000000
  U=http://127.0.0.1:$port
}
rss() { awk '/VmRSS/ {print int($2/1024) " MB"}' /proc/"$pid"/status; }

moves_bench() { # label DB
  serve "$2"
  local ngames=$((DUR * 400))
  [ $ngames -gt 8000 ] && ngames=8000
  make_games "$U" $ngames > "$tmp/games"
  # each game takes 8 plies: stop before any game runs out of them
  echo "moves ($1, $ngames games, 8 plies each, 32 connections):"
  wrk_moves "$U" "$tmp/games" -t2 -c32 -d"${DUR}s" | wrk_figures
  stored=$(curl -s "$U/api/games?limit=200" | jq '[.[].moves] | add')
  echo "  (the 200 latest games hold $stored stored plies)"
  stop_procs "$pid" || true
}
# the PostgreSQL run, started below under tools/with-postgres
if [ -n "${HOSTED_PG:-}" ]; then moves_bench PostgreSQL "$TG_TEST_DB"; exit 0; fi

# ---- reads
serve "$tmp/r.db"
id=$(curl -s -X POST -d '{"variant":"klein-bottle","clock":{"kind":"fischer","initial_ms":600000,"increment_ms":5000}}' "$U/api/games" | jq -r .id)
echo "state reads (one game, SQLite, 64 connections):"
nice -n 10 wrk -t2 -c64 -d"${DUR}s" --latency "$U/api/games/$id" | wrk_figures
stop_procs "$pid" || true

moves_bench SQLite "$tmp/m.db"
if [ "${SMOKE:-0}" != 1 ] && ls -d /usr/lib/postgresql/*/bin > /dev/null 2>&1; then
  HOSTED_PG=1 tools/with-postgres bash "$0" "$BIN" "$DUR" 2>&1 | grep -v '^with-postgres'
fi

# ---- 1,000 watchers (WATCHERS)
serve "$tmp/w.db"
g=$(curl -s -X POST -d '{"variant":"klein-bottle"}' "$U/api/games")
id=$(jq -r .id <<< "$g"); W=$(jq -r .white.token <<< "$g")
echo "$WATCHERS live watchers on one game:"
echo "  server before: $(rss)"
python3 - "$port" "$id" "$W" "$pid" "$WATCHERS" <<'PY'
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
stop_procs "$pid" || true
