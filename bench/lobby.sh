#!/usr/bin/env bash
# The lobby under load (bench/lobby.mjs): WATCHERS lobby streams and SEEKS
# open seeks on one `topochess serve` (SQLite in a scratch folder, loopback
# only); prints the server's resident memory and the time for a new seek
# to reach every watcher. Needs node.
#   bench/lobby.sh [BIN]   (WATCHERS=1000 SEEKS=199, the timed one makes 200, the
#   lobby's limit; SMOKE=1: 20 and 6)
set -euo pipefail
cd "$(dirname "$0")/.."
WATCHERS=${WATCHERS:-1000} SEEKS=${SEEKS:-199}
[ -n "${SMOKE:-}" ] && WATCHERS=20 SEEKS=6
. bench/lib.sh
lib_begin bench/lobby.sh "${1:-}" curl node
ulimit -n 8192 2>/dev/null || true
server_start lobby --db "$tmp/bench.db" --trusted-proxy 127.0.0.1 --max-connections $((WATCHERS + 500)) \
  --max-per-ip $((WATCHERS + 500))
U=http://127.0.0.1:$port
if ! is_code 200 "$U/lobby"; then
  echo "bench/lobby.sh: the server has no /lobby"; exit 1
fi
echo "$(nproc) cores, shared; server and clients on one machine"
node bench/lobby.mjs "$U" "$pid" "$WATCHERS" "$SEEKS"
