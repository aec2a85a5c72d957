#!/usr/bin/env bash
# Two `topochess serve` processes behind HAProxy on one PostgreSQL (run
# under tools/with-postgres): HAProxy runs deploy/haproxy.cfg itself, its
# three addresses replaced by free loopback ports. Through the proxy: a
# signed-in session used on both processes, a lobby seek posted and
# accepted, a game between the two players with two watchers; then one
# process is killed with SIGKILL mid-game and the game, the lobby and the
# watchers (three pages in Chromium, web/tests/e2e/proxy_watch.mjs, and
# tests/server/sse_watch.py, which reconnects as the pages' EventSource
# does) go on through the other. Then the per-address limits
# behind a trusted proxy: X-Forwarded-For keys the create rate and the
# stream limit only when the peer is --trusted-proxy. Loopback only; every
# wait is a poll with a deadline. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -n "${TG_TEST_DB:-}" ] || { echo "haproxy-test: run under tools/with-postgres (make haproxy-test)"; exit 1; }
. tests/server/lib.sh
lib_begin haproxy-test "${1:-}" curl jq python3 haproxy
start() { server_start "$1" --pages variants "${@:2}"; } # NAME [options]: sets $port and $pid

# ---- the two processes and the proxy, from the shipped configuration
start A --db "$TG_TEST_DB" --trusted-proxy 127.0.0.1 --max-per-ip 2000 --create-per-minute 1000
PA=$port; pidA=$pid; A=http://127.0.0.1:$PA
start B --db "$TG_TEST_DB" --trusted-proxy 127.0.0.1 --max-per-ip 2000 --create-per-minute 1000
PB=$port; B=http://127.0.0.1:$PB
PH=$(free_port)
haproxy_cfg "$PH" "$PA" "$PB" > "$tmp/haproxy.cfg"
is "the shipped configuration names the three test ports" \
  "$(grep -v "^ *#" "$tmp/haproxy.cfg" | grep -cE "127\.0\.0\.1:($PH|$PA|$PB)\b")" 3
haproxy -c -q -f "$tmp/haproxy.cfg" || { echo "haproxy-test: the generated configuration is not valid"; exit 1; }
haproxy -db -f "$tmp/haproxy.cfg" > "$tmp/haproxy.log" 2>&1 &
pids+=($!)
H=http://127.0.0.1:$PH
until_ok 20 is_code 200 "$H/api/games?limit=1" || { echo "haproxy-test: HAProxy does not answer:"; cat "$tmp/haproxy.log"; exit 1; }
echo "haproxy-test: HAProxy on $PH, servers on $PA and $PB, $TG_TEST_DB"

csrf() { "${C[@]}" -b "$1" "$2/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }
move() { # TOKEN MOVE: the status of a move through the proxy
  "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data "{\"token\":\"$1\",\"move\":\"$2\"}" "$H/api/games/$game/move"
}

# ---- a session made through the proxy works on both processes
AL=$tmp/alice.jar BO=$tmp/bob.jar
is "sign-up through the proxy" "$(code "$(form "$AL" "$H/signup" 'name=Alice&password=klein+bottle&password2=klein+bottle')")" 303
is "sign-up through the proxy" "$(code "$(form "$BO" "$H/signup" 'name=Bob&password=torus+knight&password2=torus+knight')")" 303
is "Alice's session on process A" "$("${C[@]}" -b "$AL" -o /dev/null -w '%{http_code}' "$A/account")" 200
is "Alice's session on process B" "$("${C[@]}" -b "$AL" -o /dev/null -w '%{http_code}' "$B/account")" 200
# the CSRF token read on one process is accepted by the other
tokA=$(csrf "$BO" "$A")
[ ${#tokA} -eq 43 ] && ok || bad "no CSRF token for Bob on A"

# ---- the lobby through the proxy: Alice seeks, Bob accepts, both land in the game
: > "$tmp/lobby.sse"; : > "$tmp/w1.sse"; : > "$tmp/w2.sse"
python3 tests/server/sse_watch.py "$H/api/lobby/events" "$tmp/lobby.sse" 40 & pids+=($!)
"${C[@]}" --max-time 40 -N -b "$AL" "$H/api/lobby/events" > "$tmp/alice.sse" & pids+=($!)
until_ok 10 grep -q '^event: seeks' "$tmp/lobby.sse" || bad "the lobby watcher got no list"
until_ok 10 grep -q '^event: seeks' "$tmp/alice.sse" || bad "Alice's lobby stream got no list"
r=$(form "$AL" "$H/lobby/seek" "csrf=$(csrf "$AL" "$H")&variant=klein-bottle&clock=5%2B3&color=white")
is "seek through the proxy" "$(code "$r")" 303
until_ok 10 grep -q '"name":"Alice"' "$tmp/lobby.sse" && ok || bad "the lobby watcher did not see Alice's seek"
sid=$("${C[@]}" "$H/api/lobby" | jq -r '.seeks[0].id // .[0].id // empty' 2>/dev/null)
[ -z "$sid" ] && sid=$("${C[@]}" "$H/api/lobby" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' | head -n 1)
r=$(form "$BO" "$H/lobby/seek/$sid/accept" "csrf=$tokA")
is "Bob accepts through the proxy (with A's CSRF token)" "$(code "$r")" 303
bob_url=$(sed -n 's/^[Ll]ocation: \(.*\)\r$/\1/p' <<< "$r")
until_ok 10 grep -q '^event: start' "$tmp/alice.sse" && ok || bad "Alice's stream got no start event"
alice_url=$(sed -n 's/^data: {"url":"\(.*\)"}.*/\1/p' "$tmp/alice.sse" | head -n 1)
game=${bob_url#/game/}; game=${game%%#*}
is "both players in one game" "${alice_url%%#*}" "/game/$game"
W=${alice_url#*#token=} K=${bob_url#*#token=}

# ---- the game with two watchers through the proxy (leastconn puts them on both processes)
python3 tests/server/sse_watch.py "$H/api/games/$game/events" "$tmp/w1.sse" 40 & pids+=($!)
python3 tests/server/sse_watch.py "$H/api/games/$game/events" "$tmp/w2.sse" 40 & pids+=($!)
until_ok 10 grep -q '^event: state' "$tmp/w1.sse" || bad "watcher 1 got no state"
until_ok 10 grep -q '^event: state' "$tmp/w2.sse" || bad "watcher 2 got no state"
# and three watchers in real Chromium, the page's own EventSource (web/dist, make web)
if [ -f web/dist/assets/app.js ] && [ -x /usr/bin/chromium ]; then
  (cd web && exec node tests/e2e/proxy_watch.mjs "$H/game/$game" 3 8 90) > "$tmp/browser.out" 2>&1 &
  bpid=$!; pids+=($bpid)
  until_ok 60 grep -q '^ready' "$tmp/browser.out" || bad "the browsers' pages did not go live: $(head -c 300 "$tmp/browser.out")"
else
  bpid=; bad "no web/dist or /usr/bin/chromium: the browsers' part cannot run (make web)"
fi
ver() { "${C[@]}" "$H/api/games/$game" | jq -r .version; }
v0=$(ver)
n=0
for m in e2e3:W e7e6:K d2d3:W d7d6:K; do
  t=${m#*:}; [ "$t" = W ] && t=$W || t=$K
  is "move ${m%:*} through the proxy" "$(move "$t" "${m%:*}")" 200
  n=$((n + 1))
done
v1=$((v0 + n))
is "the game's version after four moves" "$(ver)" $v1
seen() { grep -q "^id: $1\$" "$2"; }
until_ok 10 seen $v1 "$tmp/w1.sse" && ok || bad "watcher 1 did not see move 4"
until_ok 10 seen $v1 "$tmp/w2.sse" && ok || bad "watcher 2 did not see move 4"

# ---- kill -9 process A mid-game: everything goes on through B
kill -9 "$pidA"; wait "$pidA" 2>/dev/null
for m in c2c3:W c7c6:K b2b3:W b7b6:K; do
  t=${m#*:}; [ "$t" = W ] && t=$W || t=$K
  is "after the kill: move ${m%:*} through the proxy" "$(move "$t" "${m%:*}")" 200
  n=$((n + 1))
done
v2=$((v0 + n))
is "after the kill: the game's version" "$(ver)" $v2
until_ok 15 seen $v2 "$tmp/w1.sse" && ok || bad "after the kill: watcher 1 did not see the last move"
until_ok 15 seen $v2 "$tmp/w2.sse" && ok || bad "after the kill: watcher 2 did not see the last move"
if [ -n "$bpid" ]; then
  wait "$bpid" && ok || bad "browsers: $(tail -n 1 "$tmp/browser.out")"
  is "browsers: three pages show the eight moves" "$(tail -n 1 "$tmp/browser.out" | jq -c '[.[].plies]' 2>/dev/null)" "[8,8,8]"
  drops=$(tail -n 1 "$tmp/browser.out" | jq '[.[].dropped | select(. > 0)] | length' 2>/dev/null)
  [ "${drops:-0}" -ge 1 ] && ok || bad "browsers: no page's stream was on the killed process (drops: '$drops'), its reconnect is untested"
fi
recon=$(cat "$tmp/w1.sse" "$tmp/w2.sse" | grep -c '^connect 200')
[ "$recon" -ge 3 ] && ok || bad "no watcher was on the killed process (connections: $recon), the kill proved nothing"
is "no watcher got a refusal" "$(cat "$tmp/w1.sse" "$tmp/w2.sse" | grep -c '^connect [^2]')" 0
# the lobby goes on: Bob seeks, the reconnected watcher sees it, Alice accepts
r=$(form "$BO" "$H/lobby/seek" "csrf=$(csrf "$BO" "$H")&variant=torus&clock=5%2B3&color=black")
is "after the kill: Bob's seek" "$(code "$r")" 303
until_ok 15 grep -q '"name":"Bob"' "$tmp/lobby.sse" && ok || bad "after the kill: the lobby watcher did not see Bob's seek"
sid2=$("${C[@]}" "$H/api/lobby" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4 | grep -v "^$sid\$" | head -n 1)
r=$(form "$AL" "$H/lobby/seek/$sid2/accept" "csrf=$(csrf "$AL" "$H")")
is "after the kill: Alice accepts Bob's seek" "$(code "$r")" 303
is "after the kill: Alice's session still opens her account" "$("${C[@]}" -b "$AL" -o /dev/null -w '%{http_code}' "$H/account")" 200

# ---- per-address limits behind a trusted proxy (X-Forwarded-For)
create() { # URL [curl options]: the status of a create
  local u=$1; shift
  "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data '{"variant":"torus"}' "$@" "$u/api/games"
}
start T --db "$TG_TEST_DB" --trusted-proxy 127.0.0.1 --create-per-minute 2
T=http://127.0.0.1:$port
x1=(-H 'X-Forwarded-For: 10.0.0.1')
is "trusted: 10.0.0.1's 1st create" "$(create "$T" "${x1[@]}")" 201
is "trusted: 10.0.0.1's 2nd create" "$(create "$T" "${x1[@]}")" 201
is "trusted: 10.0.0.1's 3rd create is refused" "$(create "$T" "${x1[@]}")" 429
is "trusted: 10.0.0.2 has its own bucket" "$(create "$T" -H 'X-Forwarded-For: 10.0.0.2')" 201
is "trusted: the last hop is the key (10.0.0.1 forged first)" "$(create "$T" -H 'X-Forwarded-For: 10.0.0.1, 10.0.0.3')" 201
is "trusted: a forged first hop does not borrow 10.0.0.1's bucket" "$(create "$T" -H 'X-Forwarded-For: 10.0.0.9, 10.0.0.1')" 429
is "trusted: IPv6 last hop" "$(create "$T" -H 'X-Forwarded-For: 2001:db8::1')" 201
is "trusted: garbage falls back to the peer (1)" "$(create "$T" -H 'X-Forwarded-For: not-an-address')" 201
is "trusted: garbage falls back to the peer (2)" "$(create "$T" -H 'X-Forwarded-For: 10.0.0.1 x')" 201
is "trusted: the peer's bucket is then empty" "$(create "$T")" 429
start U --db "$TG_TEST_DB" --create-per-minute 2
U=http://127.0.0.1:$port
is "untrusted: 1st create" "$(create "$U" -H 'X-Forwarded-For: 10.0.1.1')" 201
is "untrusted: 2nd create" "$(create "$U" -H 'X-Forwarded-For: 10.0.1.2')" 201
is "untrusted: X-Forwarded-For is ignored, one bucket" "$(create "$U" -H 'X-Forwarded-For: 10.0.1.3')" 429
# live streams: 32 per address, keyed by the trusted proxy's X-Forwarded-For
gid=$("${C[@]}" -X POST -H 'Content-Type: application/json' -H 'X-Forwarded-For: 10.0.2.1' --data '{"variant":"torus"}' "$T/api/games" | jq -r .id)
for i in $(seq 1 32); do
  curl -s -N --max-time 20 -H 'X-Forwarded-For: 10.0.3.1' "$T/api/games/$gid/events" > "$tmp/s$i.sse" & pids+=($!)
done
full() { [ "$(grep -l '^event: state' "$tmp"/s*.sse 2>/dev/null | wc -l)" -eq 32 ]; }
until_ok 15 full || bad "trusted: 32 streams from 10.0.3.1 did not all open"
is "trusted: the 33rd stream from 10.0.3.1 gets 429" \
  "$("${C[@]}" -o /dev/null -w '%{http_code}' -H 'X-Forwarded-For: 10.0.3.1' "$T/api/games/$gid/events")" 429
is "trusted: a stream from 10.0.3.2 opens" \
  "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 -H 'X-Forwarded-For: 10.0.3.2' "$T/api/games/$gid/events")" 200

echo "haproxy-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
