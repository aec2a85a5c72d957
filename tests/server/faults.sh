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
if [ -z "${TG_TEST_DB:-}" ] || [ -z "${TG_PG_BIN:-}" ]; then
  echo "faults-test: run under tools/with-postgres (make faults-test)"; exit 1
fi
. tests/server/lib.sh
lib_begin faults-test "${1:-}" curl jq python3

read -r -a AS <<< "${TG_PG_AS:-}"
pgctl() { "${AS[@]}" "$TG_PG_BIN/pg_ctl" -D "$TG_PG_DATA" "$@" >/dev/null 2>&1; }
psql_do() { "$TG_PG_BIN/psql" -X -q -t -A "$TG_TEST_DB" -c "$1" 2>/dev/null; }
pg_start() {
  pgctl -l "$TG_PG_DATA/../log" -w -t 30 -o "-p $TG_PG_PORT -k $TG_PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off" start
}

start() { server_start "$1" --pages variants "${@:2}"; } # NAME [options]: sets $port and $pid
# exits PID SECONDS: sets $ex to the process's exit status, or "running"
# after the deadline
exits() {
  local end=$((SECONDS + $2))
  ex=running
  while kill -0 "$1" 2>/dev/null; do [ $SECONDS -ge $end ] && return; sleep 0.05; done
  wait "$1"; ex=$?
}

# (the analysis workers off: 8a counts the timer's transactions on an idle database)
start A --db "$TG_TEST_DB" --create-per-minute 1000 --analysis-threads 0
A=http://127.0.0.1:$port
start B --db "$TG_TEST_DB" --create-per-minute 1000 --analysis-threads 0
B=http://127.0.0.1:$port
echo "faults-test: servers on ${A##*:} and ${B##*:}, $TG_TEST_DB"

r=$(post "$A/api/games" '{"variant":"torus"}')
id=$(body "$r" | jq -r .id); W=$(body "$r" | jq -r .white.token); K=$(body "$r" | jq -r .black.token)
is "setup: create" "$(status "$r")" 201

# SKIP_DB=1 leaves out the database's faults (1 and 2), so that the other
# points can be shown failing on a build that never reconnects.
if [ -z "${SKIP_DB:-}" ]; then
# ---- 1. the database stops: 503 with Retry-After, never the driver's text
pgctl -m fast -w stop
"${C[@]}" -D "$tmp/h1" -o "$tmp/b1" -w '%{http_code}' "$A/api/games/$id" > "$tmp/s1"
is "db down: read answers 503" "$(cat "$tmp/s1")" 503
is "db down: Retry-After" "$(grep -ci '^retry-after: [0-9]' "$tmp/h1")" 1
is "db down: no driver text" "$(grep -ciE 'postgres|connection|server' "$tmp/b1")" 0
post_is "db down: move answers 503" 503 "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}"
is "db down: list answers 503" "$(http_code "$A/api/games")" 503
pg_start || { echo "faults-test: PostgreSQL did not start again"; exit 1; }
until_ok 20 is_code 200 "$A/api/games/$id" && ok || bad "db back: A does not read again"
until_ok 20 is_code 200 "$B/api/games/$id" && ok || bad "db back: B does not read again"
post_is "db back: move accepted" 200 "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}"

# ---- 1b. a fast restart while serving: no 500 at any point
pgctl -m fast -w -t 30 restart -o "-p $TG_PG_PORT -k $TG_PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off"
codes=""
for _ in $(seq 1 40); do codes+="$(http_code "$B/api/games/$id") "; sleep 0.05; done
is "restart: no 500 (only 200 or 503)" "$(tr ' ' '\n' <<< "$codes" | grep -cvE '^(200|503|)$')" 0
until_ok 20 is_code 200 "$B/api/games/$id" && ok || bad "restart: B does not read again"

# ---- 2. the change listener's backend terminated: LISTEN again, resync
until_ok 20 is_code 200 "$A/api/games/$id" || true
"${C[@]}" "$B/api/games/$id" > /dev/null # B caches the state
"${C[@]}" --max-time 60 -N "$B/api/games/$id/events" > "$tmp/watchB" &
pids+=($!)
until_ok 10 grep -q '^id: 2$' "$tmp/watchB" || bad "listener: B's stream did not start"
n=$(psql_do "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
[ "${n:-0}" -ge 2 ] && ok || bad "listener: expected both listeners' backends terminated, got '$n'"
post_is "listener: move on A" 200 "$A/api/games/$id/move" "{\"token\":\"$K\",\"move\":\"e6\"}"
until_ok 15 grep -q '^id: 3$' "$tmp/watchB" && ok || bad "listener: B's watcher missed the move made on A"
v3() { [ "$("${C[@]}" "$B/api/games/$id" | jq -r .version)" = 3 ]; }
until_ok 15 v3 && ok || bad "listener: B's reads stay at the old version"
# and notifications flow again afterwards
r=$(post "$A/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"d3\"}")
until_ok 10 grep -q '^id: 4$' "$tmp/watchB" && ok || bad "listener: no notification after the reconnect"
fi


# ---- 6. a custom page cannot pose as a hub variant; PGN has size and FEN
page=$'---\ntitle: Klein Bottle Chess\nslug: klein-bottle\nengine:\n  topology:\n    type: grid\n    rows: 8\n    cols: 8\n    wrap: none\n  setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n---\n'
post_is "custom page: create" 201 "$A/api/games" "$(jq -n --arg p "$page" '{page:$p}')"
cid=$(body "$r" | jq -r .id)
cv=$(body "$r" | jq -r .state.variant)
[ "$cv" != klein-bottle ] && ok || bad "custom page: its variant is the hub's slug '$cv'"
is "custom page: identity outside the slugs' alphabet" "$(grep -c '^custom:[0-9a-f]\{16\}$' <<< "$cv")" 1
is "custom page: not listed under the hub's variant" \
  "$("${C[@]}" "$A/api/games?variant=klein-bottle&limit=200" | jq --arg id "$cid" '[.[] | select(.id == $id)] | length')" 0
pgn=$("${C[@]}" "$A/api/games/$cid/pgn")
is "custom page: PGN has a FEN" "$(grep -c '^\[FEN "' <<< "$pgn")" 1
is "custom page: PGN has the board's size" "$(grep -c '^\[Board "8x8"\]' <<< "$pgn")" 1
is "custom page: PGN names no hub variant" "$(grep -c '^\[Variant "klein-bottle"\]' <<< "$pgn")" 0
pgn=$("${C[@]}" "$A/api/games/$id/pgn")
is "preset game: PGN has a FEN too" "$(grep -c '^\[FEN "' <<< "$pgn")" 1

# ---- 7. rate limits: rematches count; two addresses never share a bucket
start R --db "$TG_TEST_DB" --create-per-minute 3
R=http://127.0.0.1:$port
mk() { post "$R/api/games" '{"variant":"torus"}'; }
r=$(mk); g1=$(body "$r" | jq -r .id); t1=$(body "$r" | jq -r .white.token); t2=$(body "$r" | jq -r .black.token)
post "$R/api/games/$g1/resign" "{\"token\":\"$t1\"}" > /dev/null
mk > /dev/null; mk > /dev/null
is "rate: the 4th create is refused" "$(status "$(mk)")" 429
post_is "rate: a rematch offer makes no game" 200 "$R/api/games/$g1/rematch" "{\"token\":\"$t1\"}"
post_is "rate: a rematch (accepted) past the limit is refused" 429 "$R/api/games/$g1/rematch" "{\"token\":\"$t2\"}"
# FNV-1a of an address, as the old table hashed it: find a loopback
# address that shared 127.0.0.1's slot of 1024
fnv() { local h=2166136261 i c; for ((i = 0; i < ${#1}; i++)); do printf -v c '%d' "'${1:i:1}"; h=$(( ((h ^ c) * 16777619) & 0xffffffff )); done; echo $((h % 1024)); }
want=$(fnv 127.0.0.2) other=
for a in $(seq 3 250); do for b in 0 1 2 3; do
  ip=127.0.$b.$a; [ "$(fnv $ip)" = "$want" ] && { other=$ip; break 2; }
done; done
if [ -n "$other" ]; then
  codes=""
  for _ in 1 2 3 4 5; do
    for ip in 127.0.0.2 "$other"; do
      codes+="$("${C[@]}" --interface "$ip" -o /dev/null -w '%{http_code}' -X POST --data-binary '{"variant":"torus"}' "$R/api/games") "
    done
  done
  is "rate: two addresses sharing a hash slot, 5 creates each: 6 made" "$(tr ' ' '\n' <<< "$codes" | grep -c '^201$')" 6
else
  bad "rate: no colliding loopback address found"
fi

# ---- 9. the small limits
is "limit=5abc: 400" "$(http_code "$A/api/games?limit=5abc")" 400
long=$(head -c 5000 /dev/zero | tr '\0' a)
is "5 KB target under /api/games/<id>: 414" "$(http_code "$A/api/games/$id?$long")" 414
head -c 70000 /dev/zero | tr '\0' ' ' > "$tmp/huge"
is "chunked body over 64 KB: 413" "$(http_code -H 'Transfer-Encoding: chunked' \
  -X POST --data-binary @"$tmp/huge" "$A/api/games")" 413
"${C[@]}" --max-time 30 -N "$B/api/games/$g1/events" > "$tmp/rematchB" & pids+=($!)
until_ok 10 grep -qs '^event: state' "$tmp/rematchB" || bad "rematch: B's stream did not start"
# t1's offer stands (above): t2 accepts on A, t1 finds the game on B
r=$(post "$A/api/games/$g1/rematch" "{\"token\":\"$t2\"}")
r2=$(post "$B/api/games/$g1/rematch" "{\"token\":\"$t1\"}")
is "rematch on two processes: one 201, one 200" "$(printf '%s\n%s\n' "$(status "$r")" "$(status "$r2")" | sort | tr '\n' ' ')" "200 201 "
until_ok 10 grep -q '^event: rematch' "$tmp/rematchB" && ok || bad "rematch: the event made on A did not reach B's watcher"
is "rematch: the event comes once" "$(grep -c '^event: rematch' "$tmp/rematchB")" 1

# ---- 4. streams bounded per address
for k in $(seq 1 32); do "${C[@]}" --max-time 30 -N "$A/api/games/$id/events" > "$tmp/many$k" & pids+=($!); done
until_ok 10 bash -c "grep -l '^event: state' $tmp/many* | wc -l | grep -qx 32" || bad "streams: 32 did not open"
is "streams: the 33rd from one address gets 429" "$(http_code "$A/api/games/$id/events")" 429
is "streams: another address still gets one" \
  "$("${C[@]}" --max-time 2 --interface 127.0.0.3 "$A/api/games/$id/events" | grep -c '^event: state')" 1

# ---- 5. a watcher that does not read: its backlog is dropped, it is told,
# its stream ends (sse_stall.py: a socket that reads nothing, with a small
# receive buffer, while 400 changes are made)
r=$(post "$A/api/games" '{"variant":"torus"}')
sid=$(body "$r" | jq -r .id); SW=$(body "$r" | jq -r .white.token); SB=$(body "$r" | jq -r .black.token)
python3 tests/server/sse_stall.py "${A##*:}" "/api/games/$sid/events" "$tmp/read-now" state 127.0.0.8 > "$tmp/stalled" & # from an address of its own (the streams above fill 127.0.0.1's)
spy=$!
pids+=($spy)
until_ok 5 grep -qs '^open' "$tmp/stalled" || bad "stalled watcher: did not connect"
sleep 0.3
for k in $(seq 1 200); do
  post "$A/api/games/$sid/draw" "{\"token\":\"$SW\",\"action\":\"offer\"}" > /dev/null
  post "$A/api/games/$sid/draw" "{\"token\":\"$SB\",\"action\":\"decline\"}" > /dev/null
done
touch "$tmp/read-now"
until_ok 15 grep -qs 'ended\|open [0-9]' "$tmp/stalled" || true
read -r told ended nstates < <(tail -n 1 "$tmp/stalled")
is "stalled watcher: told with an overflow event" "$told" overflow
is "stalled watcher: its stream ended" "$ended" ended
[ "${nstates:-401}" -lt 401 ] && ok || bad "stalled watcher: all $nstates states kept for it"

# ---- 8a. the timer loads no untimed game: 20 watched untimed games, 3 s
for k in $(seq 1 20); do
  gid=$(post "$A/api/games" '{"variant":"torus"}' | sed '$d' | jq -r .id)
  "${C[@]}" --max-time 20 --interface 127.0.0.4 -N "$A/api/games/$gid/events" > /dev/null & pids+=($!)
done
# the fewest transactions in three windows of 2 s (statistics reach
# pg_stat_database late: the creates above may land in the first)
xacts() { psql_do "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"; }
d=1000000
for _ in 1 2 3; do x0=$(xacts); sleep 2; x1=$(xacts); [ $((x1 - x0)) -lt $d ] && d=$((x1 - x0)); done
[ "$d" -lt 30 ] && ok || bad "timer: $d transactions in 2 s with 20 idle untimed watched games (each load is one)"

# ---- 8b. a restart finds every game waiting for the engine, however old
cols="id, white_token, black_token, variant, title, description, width, height, files, ranks, seam, setup, start_fen, clock_kind, initial_ms, increment_ms, days, engine_side, engine_level, white_ms, black_ms, turn_started_ms, draw_offer, takeback_offer, result, termination, nmoves, version, created_ms, updated_ms"
eid=ffff0000ffff0000
psql_do "INSERT INTO games ($cols) SELECT '$eid', white_token, black_token, variant, title, description, width, height, files, ranks, seam, setup, start_fen, clock_kind, initial_ms, increment_ms, days, 0, 3, white_ms, black_ms, turn_started_ms, -1, -1, '*', '', 0, 1, created_ms, 1 FROM games WHERE id = '$id'" > /dev/null
psql_do "INSERT INTO games ($cols) SELECT substr(md5(i::text), 1, 16), white_token, black_token, variant, title, description, width, height, files, ranks, seam, setup, start_fen, clock_kind, initial_ms, increment_ms, days, -1, 3, white_ms, black_ms, turn_started_ms, -1, -1, '*', '', 0, 1, created_ms, (extract(epoch from now()) * 1000)::bigint FROM games, generate_series(1, 210) i WHERE id = '$id'" > /dev/null
is "engine rescan: the old game is stored" "$("${C[@]}" "$A/api/games/$eid" | jq -r '.moves | length')" 0
start E --db "$TG_TEST_DB"
E=http://127.0.0.1:$port
moved() { [ "$("${C[@]}" "$E/api/games/$eid" | jq -r '.moves | length')" = 1 ]; }
until_ok 25 moved && ok || bad "engine rescan: an engine game older than 200 others never got its move"

# ---- 8c. fair engine scheduling: one client's ten slow games do not delay another's
# (on a database of its own: the other servers' rescans would serve its games too)
"$TG_PG_BIN/createdb" -h 127.0.0.1 -p "$TG_PG_PORT" -U topochess tc_fair
start F --db "${TG_TEST_DB%/*}/tc_fair" --create-per-minute 1000 --engine-threads 1
F=http://127.0.0.1:$port
for k in $(seq 1 10); do
  "${C[@]}" --interface 127.0.0.5 -o /dev/null -X POST --data-binary '{"variant":"torus","engine":"white","level":20}' "$F/api/games"
done
fid=$("${C[@]}" --interface 127.0.0.6 -X POST --data-binary '{"variant":"torus","engine":"white","level":1}' "$F/api/games" | jq -r .id)
fmoved() { [ "$("${C[@]}" "$F/api/games/$fid" | jq -r '.moves | length')" = 1 ]; }
until_ok 5 fmoved && ok || bad "engine fairness: another client's engine move waited behind ten level-20 searches"

# ---- 4. deadlines for the request head and body, however slowly sent
start D --db "$TG_TEST_DB" --head-timeout 2 --body-timeout 3 --max-per-ip 10
D=http://127.0.0.1:$port dport=$port
# trickle PORT FIRST LINE SECONDS: sends FIRST, then LINE every 0.25 s;
# prints the seconds until the server closed the connection, or "open"
trickle() {
  ( trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit
    printf "$2" >&3; start=$SECONDS
    for _ in $(seq 1 $(($4 * 4))); do printf "$3" >&3 2>/dev/null || { echo $((SECONDS - start)); exit; }; sleep 0.25; done
    echo open )
}
t=$(trickle $dport 'GET / HTTP/1.1\r\nHost: x\r\n' 'X-A: b\r\n' 8)
[ "$t" != open ] && [ "$t" -le 5 ] && ok || bad "head deadline: a trickled head held its connection ($t)"
t=$(trickle $dport 'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n' ' ' 9)
[ "$t" != open ] && [ "$t" -le 6 ] && ok || bad "body deadline: a trickled body held its connection ($t)"
# ten trickling heads fill the address's slots; they are freed by the deadline
for k in $(seq 1 10); do trickle $dport 'GET / HTTP/1.1\r\nHost: x\r\n' 'X-A: b\r\n' 12 > /dev/null & pids+=($!); done
sleep 0.5
code=$(http_code --max-time 2 "$D/")
[ "$code" != 200 ] && ok || bad "slow heads: the per-address bound did not hold (got $code with 10 of 10 slots taken)"
until_ok 6 is_code 200 --max-time 2 "$D/" && ok || bad "slow heads: the address's slots stayed taken past the head deadline"

# ---- 3. SIGTERM and SIGINT with live streams: a final event, exit 0
for sig in TERM INT; do
  start S$sig --db "$TG_TEST_DB"
  S=http://127.0.0.1:$port spid=$pid
  for k in 1 2 3; do "${C[@]}" --max-time 30 -N "$S/api/games/$id/events" > "$tmp/w$sig$k" & pids+=($!); done
  for k in 1 2 3; do until_ok 10 grep -qs '^event: state' "$tmp/w$sig$k" || bad "$sig: stream $k did not start"; done
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
