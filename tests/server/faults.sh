#!/usr/bin/env bash
# Faults an operator meets and a hostile client causes (issue 17), each
# against real `topochess serve` processes on loopback ports sharing a
# throwaway PostgreSQL cluster (run under tools/with-postgres, which
# exports TG_TEST_DB and the cluster's TG_PG_* so this script can stop,
# restart and probe it): the database stopped and restarted, the change
# listener's backend terminated, SIGTERM and SIGINT with live streams,
# custom pages posing as hub variants, rate limits, and the small limits
# of the API. Every wait is a poll with a deadline. Ends with
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-./topochess}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
for t in curl jq; do command -v $t >/dev/null || { echo "faults-test: $t is missing (deps/hosted.apt)"; exit 1; }; done
if [ -z "${TG_TEST_DB:-}" ] || [ -z "${TG_PG_BIN:-}" ]; then
  echo "faults-test: run under tools/with-postgres (make faults-test)"; exit 1
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT

passed=0 failed=0
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
ok() { passed=$((passed + 1)); }
is() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }

read -r -a AS <<< "${TG_PG_AS:-}"
pgctl() { "${AS[@]}" "$TG_PG_BIN/pg_ctl" -D "$TG_PG_DATA" "$@" >/dev/null 2>&1; }
psql_do() { "$TG_PG_BIN/psql" -X -q -t -A "$TG_TEST_DB" -c "$1" 2>/dev/null; }
pg_start() {
  pgctl -l "$TG_PG_DATA/../log" -w -t 30 -o "-p $TG_PG_PORT -k $TG_PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off" start
}

# start NAME [options]: a server on a free port; sets $port and $pid.
start() {
  local name=$1; shift
  "$BIN" serve --port 0 --pages variants "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pid=$!
  pids+=($pid)
  port=
  for _ in $(seq 1 200); do
    port=$(sed -n 's|^topochess serve: http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/$name.out" 2>/dev/null)
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "faults-test: server $name did not start:"; cat "$tmp/$name.err"; exit 1
}

C=(curl -s --max-time 10)
post() { "${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "$2" "$1"; }
status() { tail -n 1 <<< "$1"; }
body() { sed '$d' <<< "$1"; }
until_ok() {
  local end=$((SECONDS + $1)); shift
  while ! "$@"; do [ $SECONDS -ge $end ] && return 1; sleep 0.05; done
}
# exits PID SECONDS: sets $ex to the process's exit status, or "running"
# after the deadline
exits() {
  local end=$((SECONDS + $2))
  ex=running
  while kill -0 "$1" 2>/dev/null; do [ $SECONDS -ge $end ] && return; sleep 0.05; done
  wait "$1"; ex=$?
}

start A --db "$TG_TEST_DB" --create-per-minute 1000
A=http://127.0.0.1:$port
start B --db "$TG_TEST_DB" --create-per-minute 1000
B=http://127.0.0.1:$port
echo "faults-test: servers on ${A##*:} and ${B##*:}, $TG_TEST_DB"

r=$(post "$A/api/games" '{"variant":"torus"}')
id=$(body "$r" | jq -r .id); W=$(body "$r" | jq -r .white.token); K=$(body "$r" | jq -r .black.token)
is "setup: create" "$(status "$r")" 201

# ---- 1. the database stops: 503 with Retry-After, never the driver's text
pgctl -m fast -w stop
"${C[@]}" -D "$tmp/h1" -o "$tmp/b1" -w '%{http_code}' "$A/api/games/$id" > "$tmp/s1"
is "db down: read answers 503" "$(cat "$tmp/s1")" 503
is "db down: Retry-After" "$(grep -ci '^retry-after: [0-9]' "$tmp/h1")" 1
is "db down: no driver text" "$(grep -ciE 'postgres|connection|server' "$tmp/b1")" 0
r=$(post "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}")
is "db down: move answers 503" "$(status "$r")" 503
is "db down: list answers 503" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$A/api/games")" 503
pg_start || { echo "faults-test: PostgreSQL did not start again"; exit 1; }
got() { [ "$("${C[@]}" -o /dev/null -w '%{http_code}' "$1")" = 200 ]; }
until_ok 20 got "$A/api/games/$id" && ok || bad "db back: A does not read again"
until_ok 20 got "$B/api/games/$id" && ok || bad "db back: B does not read again"
r=$(post "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}")
is "db back: move accepted" "$(status "$r")" 200

# ---- 1b. a fast restart while serving: no 500 at any point
pgctl -m fast -w -t 30 restart -o "-p $TG_PG_PORT -k $TG_PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off"
codes=""
for _ in $(seq 1 40); do codes+="$("${C[@]}" -o /dev/null -w '%{http_code}' "$B/api/games/$id") "; sleep 0.05; done
is "restart: no 500 (only 200 or 503)" "$(tr ' ' '\n' <<< "$codes" | grep -cvE '^(200|503|)$')" 0
until_ok 20 got "$B/api/games/$id" && ok || bad "restart: B does not read again"

# ---- 2. the change listener's backend terminated: LISTEN again, resync
until_ok 20 got "$A/api/games/$id" || true
"${C[@]}" "$B/api/games/$id" > /dev/null # B caches the state
"${C[@]}" --max-time 60 -N "$B/api/games/$id/events" > "$tmp/watchB" &
pids+=($!)
until_ok 10 grep -q '^id: 2$' "$tmp/watchB" || bad "listener: B's stream did not start"
n=$(psql_do "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
[ "${n:-0}" -ge 2 ] && ok || bad "listener: expected both listeners' backends terminated, got '$n'"
r=$(post "$A/api/games/$id/move" "{\"token\":\"$K\",\"move\":\"e6\"}")
is "listener: move on A" "$(status "$r")" 200
until_ok 15 grep -q '^id: 3$' "$tmp/watchB" && ok || bad "listener: B's watcher missed the move made on A"
v3() { [ "$("${C[@]}" "$B/api/games/$id" | jq -r .version)" = 3 ]; }
until_ok 15 v3 && ok || bad "listener: B's reads stay at the old version"
# and notifications flow again afterwards
r=$(post "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"d3\"}")
until_ok 10 grep -q '^id: 4$' "$tmp/watchB" && ok || bad "listener: no notification after the reconnect"

# ---- 3. SIGTERM and SIGINT with live streams: a final event, exit 0
for sig in TERM INT; do
  start S$sig --db "$TG_TEST_DB"
  S=http://127.0.0.1:$port spid=$pid
  for k in 1 2 3; do "${C[@]}" --max-time 30 -N "$S/api/games/$id/events" > "$tmp/w$sig$k" & pids+=($!); done
  for k in 1 2 3; do until_ok 10 grep -q '^event: state' "$tmp/w$sig$k" || bad "$sig: stream $k did not start"; done
  sleep 0.3 # the streams are idle (suspended) now
  kill -$sig $spid
  exits $spid 10
  is "SIG$sig with live streams: exit status" "$ex" 0
  for k in 1 2 3; do
    is "SIG$sig: stream $k got the final event" "$(grep -c '^event: shutdown' "$tmp/w$sig$k")" 1
  done
  is "SIG$sig: no abort message" "$(grep -c 'suspended' "$tmp/S$sig.err")" 0
done

echo "faults-test: $passed passed, $failed failed"
[ $failed = 0 ]
