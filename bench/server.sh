#!/usr/bin/env bash
# Requests per second of `topochess serve` on loopback, measured with wrk:
# a variant page, /api/variants, a /play page (one FEN check each) and the
# 53 KB app.js when web/dist is built. The server and wrk share the machine;
# each run is bounded (DURATION seconds, CONNS connections, 127.0.0.1 only).
#   bench/server.sh [BIN]   (DURATION=5 CONNS=32 THREADS=2 by default)
#   SMOKE=1 bench/server.sh (1 second a path, 4 connections: make bench-smoke)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SMOKE:-0}" = 1 ]; then DURATION=${DURATION:-1} CONNS=${CONNS:-4}; fi
DURATION=${DURATION:-5} CONNS=${CONNS:-32} THREADS=${THREADS:-2}
. bench/lib.sh
lib_begin bench/server.sh "${1:-}" wrk
server_start server
U=http://127.0.0.1:$port
echo "topochess serve on $U, wrk -t$THREADS -c$CONNS -d${DURATION}s, $(nproc) cores shared"
printf '%-44s %12s %10s %10s\n' path requests/s "avg ms" "p99 ms"
paths=(/v/klein-bottle /api/variants "/play?variant=klein-bottle&fen=PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+w+KQkq+-+0+1" /)
[ -f web/dist/assets/app.js ] && paths+=(/assets/app.js)
for p in "${paths[@]}"; do
  r=$(wrk --latency -t"$THREADS" -c"$CONNS" -d"${DURATION}s" "$U$p")
  rps=$(echo "$r" | awk '/Requests\/sec/ {print $2}')
  avg=$(echo "$r" | awk '/Latency/ && !/Distribution/ {print $2; exit}')
  p99=$(echo "$r" | awk '$1 == "99%" {print $2}')
  non2xx=$(echo "$r" | awk '/Non-2xx/ {print $NF}')
  printf '%-44s %12s %10s %10s %s\n' "${p:0:44}" "$rps" "$avg" "$p99" "${non2xx:+($non2xx non-2xx)}"
done
