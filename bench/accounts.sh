#!/usr/bin/env bash
# Login cost: ms per Argon2id hash and verification at the hub's parameters
# (bench/pwhash.c), then, when the server answers /login (the people
# routes wired in), the time of whole logins over loopback with curl.
#   bench/accounts.sh [BIN]   (RUNS=20 hashes per figure; SMOKE=1: 2)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-20}
[ -n "${SMOKE:-}" ] && RUNS=2
. bench/lib.sh
lib_begin bench/accounts.sh "${1:-}" curl
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude -Iserver -Igames -I"$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)" \
  -o "$tmp/pwhash" bench/pwhash.c -lsodium -lpthread
echo "$(nproc) cores, shared"
"$tmp/pwhash" "$RUNS"

server_start accounts --db "$tmp/bench.db"
U=http://127.0.0.1:$port
f=(-s -o /dev/null -H 'Content-Type: application/x-www-form-urlencoded')
if [ "$(curl "${f[@]}" -w '%{http_code}' "$U/signup")" != 200 ]; then
  echo "whole logins: skipped (the server has no /login)"
  exit 0
fi
curl "${f[@]}" --data 'name=Bencher&password=klein+bottle&password2=klein+bottle' "$U/signup"
total=0
for i in $(seq 1 "$RUNS"); do
  s=$(curl "${f[@]}" -w '%{time_total}' --data 'name=bencher&password=klein+bottle' "$U/login")
  total=$(awk -v a="$total" -v b="$s" 'BEGIN {print a + b}')
done
awk -v t="$total" -v n="$RUNS" 'BEGIN {printf "whole login over loopback (POST /login, 303): %8.1f ms\n", t * 1000 / n}'
