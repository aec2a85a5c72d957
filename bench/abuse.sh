#!/usr/bin/env bash
# The hosted games under abuse, on loopback (figures printed, nothing
# asserted): the server's resident memory, the kernel's TCP buffers (the
# whole machine's, from /proc/net/sockstat) and the latency of an ordinary
# client's requests (a game's state, a move) beside
#   - an idle server,
#   - N slow clients sending their request heads a byte a second,
#   - N stalled watchers (live streams that read nothing) while the game
#     they watch changes C times, and after they leave.
# N is 1000 and C 600 by default; SMOKE=1 (CI) runs N=50, C=60. The slow
# and stalled clients come from 127.0.0.2.., 25 per address (the server
# bounds streams per address). Then, each on a server of its own (issue 29):
#   - a login storm: L logins at once from one address (16 parallel
#     loops' worth), with an ordinary client's reads beside them;
#   - a lobby-stream storm: 120 /api/lobby/events from one address;
#   - the three-address slow-header attack: --max-connections 300, 100
#     connections from each of 127.0.0.2, .3 and .4 sending heads a byte a
#     second and reconnecting, while a fourth address (127.0.0.1) asks
#     (tests/server/slow_heads.py): its median and p99.
# L is 64 (SMOKE: 32), the attack lasts ATTACK_S = 15 s (SMOKE: 6 s).
# Bounded: every phase has a deadline.
# Usage: [SMOKE=1] [N=...] bench/abuse.sh [./topochess]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SMOKE:-}" ]; then N=${N:-50} CHANGES=${CHANGES:-60} SLOW_S=${SLOW_S:-5}
else N=${N:-1000} CHANGES=${CHANGES:-600} SLOW_S=${SLOW_S:-5}; fi
. bench/lib.sh
SERVE_NICE=10
lib_begin bench/abuse.sh "${1:-}" curl python3
ulimit -n 8192 2>/dev/null || true

server_start abuse --pages variants --db "$tmp/a.db" --max-connections $((3 * N + 100)) --create-per-minute 100000
echo "bench/abuse.sh: N=$N, $CHANGES changes, $(nproc) cores shared, server pid $pid on port $port"

timeout $((120 + N / 5)) python3 - "$port" "$pid" "$N" "$CHANGES" "$SLOW_S" <<'PY'
import asyncio, json, os, socket, sys, time, urllib.request
port, pid, N, CHANGES, SLOW_S = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
U = f"http://127.0.0.1:{port}"
PER_ADDR = 25

def rss():
    return int(open(f"/proc/{pid}/status").read().split("VmRSS:")[1].split()[0]) // 1024

def tcp_mem():
    """The kernel's TCP buffer memory, all sockets of the machine (MB)."""
    for line in open("/proc/net/sockstat"):
        if line.startswith("TCP:"):
            f = line.split()
            return int(f[f.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    return -1

def fds():
    return len(os.listdir(f"/proc/{pid}/fd"))

def call(path, body=None):
    req = urllib.request.Request(U + path, json.dumps(body).encode() if body is not None else None,
                                 method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None
    except Exception:
        return 0, None

def latency(gid, k=40):
    """Median and worst ms of k state reads, and the status codes seen."""
    ts, codes = [], set()
    for _ in range(k):
        t0 = time.monotonic()
        code, _ = call(f"/api/games/{gid}")
        ts.append(1000 * (time.monotonic() - t0))
        codes.add(code)
    ts.sort()
    return f"median {ts[len(ts)//2]:.1f} ms, p95 {ts[int(len(ts)*0.95)]:.1f} ms, max {ts[-1]:.1f} ms, status {sorted(codes)}"

def report(label, gid):
    print(f"{label:34s} rss {rss():5d} MB, kernel TCP {tcp_mem():5d} MB, fds {fds():5d}; reads: {latency(gid)}", flush=True)

def src(i):
    a = 2 + i // PER_ADDR
    return f"127.0.{a // 250}.{2 + a % 250}"

_, g = call("/api/games", {"variant": "torus"})
gid, W, B = g["id"], g["white"]["token"], g["black"]["token"]
report("idle", gid)

# ---- slow clients: a request head a byte a second
async def slow(i, cut):
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(src(i), 0))
    except OSError:
        cut.append("refused"); return
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4096
    t0 = time.monotonic()
    try:
        for b in head:
            w.write(bytes([b]))
            await w.drain()
            try:
                d = await asyncio.wait_for(r.read(1), 1.0)
                if d == b"":
                    cut.append(time.monotonic() - t0); break
            except asyncio.TimeoutError:
                pass
            if time.monotonic() - t0 > SLOW_S + 12:
                break
    except (ConnectionError, OSError):
        cut.append(time.monotonic() - t0)
    w.close()

async def slow_phase():
    cut = []
    tasks = [asyncio.create_task(slow(i, cut)) for i in range(N)]
    await asyncio.sleep(SLOW_S)
    await asyncio.to_thread(report, f"{N} slow heads, after {SLOW_S} s", gid)
    await asyncio.gather(*tasks)
    times = sorted(t for t in cut if t != "refused")
    refused = sum(1 for t in cut if t == "refused")
    med = f"{times[len(times)//2]:.1f} s" if times else "-"
    print(f"{'':34s} cut by the server: {len(times)} of {N} (median after {med}), refused at connect: {refused}", flush=True)
asyncio.run(slow_phase())
report("after the slow clients", gid)

# ---- stalled watchers: live streams that read nothing
def stalled(i):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((src(i), 0))
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s
socks = []
for i in range(N):
    try:
        socks.append(stalled(i))
    except OSError:
        pass
time.sleep(1)
report(f"{len(socks)} stalled watchers", gid)
t0 = time.monotonic()
ok = 0
for k in range(CHANGES):
    tok, what = (W, "offer") if k % 2 == 0 else (B, "decline")
    code, _ = call(f"/api/games/{gid}/draw", {"token": tok, "action": what})
    ok += code == 200
dt = time.monotonic() - t0
print(f"{'':34s} {ok} of {CHANGES} changes in {dt:.1f} s ({1000*dt/max(CHANGES,1):.1f} ms each)", flush=True)
report(f"... after {CHANGES} changes", gid)
for s in socks:
    s.close()
t0 = time.monotonic()
while fds() > 30 and time.monotonic() - t0 < 15:
    time.sleep(0.1)
print(f"{'':34s} their connections closed {time.monotonic() - t0:.1f} s after they left", flush=True)
report("after the watchers left", gid)
PY

# ---- issue 29: a login storm, a lobby-stream storm, slow heads from three addresses
if [ -n "${SMOKE:-}" ]; then L=${L:-32} ATTACK_S=${ATTACK_S:-6}; else L=${L:-64} ATTACK_S=${ATTACK_S:-15}; fi
stop_procs "$pid"
server_start storm --pages variants --db "$tmp/storm.db" --trusted-proxy 127.0.0.1
S=http://127.0.0.1:$port
curl -s --noproxy '*' -o /dev/null --max-time 10 -H 'X-Forwarded-For: 198.51.100.1' \
  --data 'name=Storm&password=klein+bottle&password2=klein+bottle' "$S/signup"
t0=$(date +%s.%N) logins=()
for i in $(seq 1 "$L"); do
  curl -s --noproxy '*' -o /dev/null -w '%{http_code}\n' --max-time 60 -H 'X-Forwarded-For: 192.0.2.200' \
    --data 'name=Storm&password=klein+bottle' "$S/login" > "$tmp/storm.$i" &
  logins+=($!)
done
reads=$(for i in $(seq 1 10); do curl -s --noproxy '*' -o /dev/null -w '%{time_total}\n' --max-time 30 "$S/api/variants"; sleep 0.1; done | sort -n)
wait "${logins[@]}"
t1=$(date +%s.%N)
in=$(cat "$tmp"/storm.* | grep -c '^303$' || true) refused=$(cat "$tmp"/storm.* | grep -c '^429$' || true)
echo "login storm: $L logins at once from one address: $in in, $refused refused (429) in $(python3 -c "print(f'{$t1 - $t0:.1f}')") s;" \
  "another client's reads meanwhile: median $(sed -n 5p <<< "$reads") s, max $(tail -n 1 <<< "$reads") s"
streams=()
for i in $(seq 1 120); do
  curl -s --noproxy '*' -o /dev/null -w '%{http_code}\n' --max-time 15 -H 'X-Forwarded-For: 198.51.100.60' \
    "$S/api/lobby/events" > "$tmp/lobby.$i" 2> /dev/null &
  streams+=($!)
done
wait "${streams[@]}"
echo "lobby-stream storm: 120 streams from one address: $(cat "$tmp"/lobby.* | grep -c '^200$' || true) opened, $(cat "$tmp"/lobby.* | grep -c '^429$' || true) refused (429)"
stop_procs "$pid"
server_start slow --pages variants --db "$tmp/slow.db" --max-connections 300
echo "slow heads: 3 addresses x 100 connections, a byte a second, for $ATTACK_S s; a fourth address asks every 0.25 s:"
timeout $((ATTACK_S + 30)) python3 tests/server/slow_heads.py "$port" "$ATTACK_S" 100
echo "(the same fourth address with no attack:)"
timeout 30 python3 tests/server/slow_heads.py "$port" 4 0
