#!/usr/bin/env bash
# Correspondence games and the inbox (docs/correspondence.md) with two
# `topochess serve` processes behind HAProxy on one PostgreSQL (run under
# tools/with-postgres), the day shortened to DAY_MS (serve --day-ms): a
# correspondence seek that outlives its owner's lobby page, taken by
# another player; each move tells the other player in their inbox (one
# "turn" note a game, gone once they moved); the live count over
# /api/inbox/events; marking read; the "your turn" lists (API, home page,
# account page). Then one process is killed and started again while the
# player to move lets the time run out: the game is adjudicated exactly
# once (one "ended" note each, one version step), lost on time, and a
# flag against a bare king is a draw. Loopback only; every wait is a poll
# with a deadline. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -n "${TG_TEST_DB:-}" ] || { echo "correspondence-test: run under tools/with-postgres (make correspondence-test)"; exit 1; }
. tests/server/lib.sh
lib_begin correspondence-test "${1:-}" curl jq haproxy
DAY_MS=4000
start() { server_start "$1" --pages variants --db "$TG_TEST_DB" --trusted-proxy 127.0.0.1 --max-per-ip 2000 \
  --create-per-minute 1000 --day-ms $DAY_MS "${@:2}"; }

start A; PA=$port; pidA=$pid; A=http://127.0.0.1:$PA
start B; PB=$port; B=http://127.0.0.1:$PB
PH=$(free_port)
haproxy_cfg "$PH" "$PA" "$PB" > "$tmp/haproxy.cfg"
haproxy -db -f "$tmp/haproxy.cfg" > "$tmp/haproxy.log" 2>&1 &
pids+=($!)
H=http://127.0.0.1:$PH
until_ok 20 is_code 200 "$H/api/lobby" || { echo "correspondence-test: HAProxy does not answer"; cat "$tmp/haproxy.log"; exit 1; }

csrf() { "${C[@]}" -b "$1" "$H/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }
inbox() { "${C[@]}" -b "$1" "$H/api/inbox"; } # JAR
move() { # TOKEN MOVE: the status of a move through the proxy
  "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data "{\"token\":\"$1\",\"move\":\"$2\"}" "$H/api/games/$game/move"
}
state() { "${C[@]}" "$H/api/games/$game"; }
result_is() { [ "$(state | jq -r .result)" = "$1" ]; }
notes_are() { [ "$(notes "$1" "$2")" = "$3" ]; } # JAR KIND N
# notes JAR KIND: how many of the player's notifications about $game are of KIND
notes() { inbox "$1" | jq --arg g "$game" --arg k "$2" '[.notifications[] | select(.game_id == $g and .kind == $k)] | length'; }

AL=$tmp/alice.jar BO=$tmp/bob.jar
for who in "Alice:$AL:klein bottle" "Bob:$BO:torus knight"; do
  IFS=: read -r name jar pw <<< "$who"
  r=$(form "$jar" "$H/signup" "name=$name&password=${pw// /+}&password2=${pw// /+}")
  is "sign-up $name" "$(code "$r")" 303
done
is "the inbox of a new player is empty" "$(inbox "$AL" | jq -c '[.unread, (.notifications | length)]')" "[0,0]"
is "the inbox needs a session" "$(http_code "$H/api/inbox")" 401
is "the inbox's stream needs a session" "$(http_code "$H/api/inbox/events")" 401
is "the inbox page needs a session" "$(http_code "$H/inbox")" 401

# ---- a correspondence seek waits for a taker with its owner gone
r=$(form "$AL" "$H/lobby/seek" "csrf=$(csrf "$AL")&variant=klein-bottle&clock=corr1&color=white&rated=1")
is "Alice posts a 1-day correspondence seek" "$(code "$r")" 303
seek=$("${C[@]}" "$H/api/lobby" | jq -r '.seeks[] | select(.name == "Alice") | .id')
[ -n "$seek" ] && ok || bad "the correspondence seek is not listed"
is "its clock in words" "$("${C[@]}" "$H/api/lobby" | jq -r '.seeks[0].clock + " " + .seeks[0].kind')" "1 day a move correspondence"
# Alice opens the lobby and leaves it: a live seek would go with her page
"${C[@]}" --max-time 2 -N -b "$AL" "$H/api/lobby/events" > "$tmp/alice-lobby.sse"
sleep 4 # a lobby beat and more
is "the seek outlives its owner's lobby page" "$("${C[@]}" "$H/api/lobby" | jq -r '.seeks | length')" 1
grep -q '^event: inbox' "$tmp/alice-lobby.sse" && ok || bad "the lobby stream carries no inbox count"
r=$(form "$AL" "$H/lobby/seek" "csrf=$(csrf "$AL")&variant=torus&clock=corr9" )
is "an unknown clock is refused" "$(code "$r")" 400
grep -q "corr14" <<< "$r" && ok || bad "the refusal does not list the clocks: $(body "$r" | tail -n 3)"

# Alice's inbox stream, from before Bob takes the seek
: > "$tmp/alice.sse"
"${C[@]}" --max-time 60 -N -b "$AL" "$H/api/inbox/events" > "$tmp/alice.sse" & pids+=($!)
until_ok 10 grep -q '"unread":0' "$tmp/alice.sse" || bad "the inbox stream sends no first count"
r=$(form "$BO" "$H/lobby/seek/$seek/accept" "csrf=$(csrf "$BO")")
is "Bob accepts" "$(code "$r")" 303
loc=$(sed -n 's/^[Ll]ocation: *\([^[:space:]]*\).*/\1/p' <<< "$r" | tr -d '\r')
game=${loc#*/game/}; game=${game%%#*}; tb=${loc#*#token=}
is "the game's clock" "$(state | jq -c '.clock')" "{\"kind\":\"correspondence\",\"days\":1,\"day_ms\":$DAY_MS}"
until_ok 10 grep -q '"unread":1' "$tmp/alice.sse" && ok || bad "Alice's stream did not hear her note: $(cat "$tmp/alice.sse")"
is "Alice is told her seek was taken and it is her move" "$(notes "$AL" turn)" 1
ta=$(inbox "$AL" | jq -r '.notifications[0].url' | sed 's/.*#token=//')
[ ${#ta} -ge 16 ] && ok || bad "the note's link has no token"
is "the your-turn list (API): Alice's turn" "$("${C[@]}" -b "$AL" "$H/api/account" | jq -c "[.games[] | select(.id == \"$game\") | .your_turn, .side, .correspondence]")" '[true,"white",true]'
is "the your-turn list (API): Bob waits" "$("${C[@]}" -b "$BO" "$H/api/account" | jq -c "[.games[] | select(.id == \"$game\") | .your_turn]")" '[false]'
# (pages are read whole before grep: grep -q leaving a pipe early fails curl under pipefail)
page=$("${C[@]}" -b "$AL" "$H/")
grep -q "tc-my-game tc-my-turn\" data-game=\"$game\"" <<< "$page" && ok || bad "the home page lists no game of Alice's turn"
page=$("${C[@]}" -b "$AL" "$H/account")
grep -q "data-game=\"$game\"" <<< "$page" && ok || bad "the account page lists no game"

# ---- moves: each tells the other player, the mover's own turn note goes
is "Alice: e4" "$(move "$ta" e4)" 200
until_ok 10 notes_are "$BO" turn 1 && ok || bad "Bob was not told of his move"
is "Alice's turn note went with her move" "$(notes "$AL" turn)" 0
inbox "$BO" | jq -r '.notifications[0].text' | grep -q "Your move against Alice in Klein Bottle Chess: they played e4" && ok ||
  bad "Bob's note says: $(inbox "$BO" | jq -r '.notifications[0].text')"
is "Bob: e5" "$(move "$tb" e5)" 200
is "Alice: Nf3" "$(move "$ta" Nf3)" 200
is "one turn note a game, however many moves" "$(notes "$BO" turn)" 1
# marking read: one by id, then all, through the JSON route and the form
nid=$(inbox "$BO" | jq -r '.notifications[0].id')
is "mark read without the CSRF token" "$("${C[@]}" -o /dev/null -w '%{http_code}' -b "$BO" -X POST -H 'Content-Type: application/json' -d "{\"id\":\"$nid\"}" "$H/api/inbox/read")" 403
is "mark one read" "$("${C[@]}" -b "$BO" -X POST -H 'Content-Type: application/json' -H "X-CSRF-Token: $(csrf "$BO")" -d "{\"id\":\"$nid\"}" "$H/api/inbox/read" | jq -c .)" '{"unread":0}'
is "a bad body is named" "$("${C[@]}" -b "$BO" -X POST -H 'Content-Type: application/json' -H "X-CSRF-Token: $(csrf "$BO")" -d '{"id":5}' "$H/api/inbox/read" | jq -r .error | cut -c1-25)" "id must be a notification"
r=$(form "$AL" "$H/inbox/read" "csrf=$(csrf "$AL")")
is "mark all read by the form" "$(code "$r")" 303
is "Alice has nothing unread" "$(inbox "$AL" | jq .unread)" 0
page=$("${C[@]}" -b "$BO" "$H/inbox")
grep -q "they played Nf3" <<< "$page" && ok || bad "the inbox page does not show the note"
is "Bob: Nc6" "$(move "$tb" Nc6)" 200
is "Alice: d4" "$(move "$ta" d4)" 200
is "Bob has an unread turn note again" "$(inbox "$BO" | jq .unread)" 1

# ---- the time runs out for Bob while process A is killed and started again
v=$(state | jq .version); [ "$v" != null ] || v=0
kill -9 "$pidA"; wait "$pidA" 2> /dev/null
start A2 --port "$PA"
# a whole day (DAY_MS) for Bob's move, then the timers' rescan (10 s)
until_ok 30 result_is 1-0 && ok || bad "the game was not adjudicated: $(state | jq -c '[.result, .termination]')"
is "lost on time" "$(state | jq -r .termination)" "Black lost on time"
is "adjudicated in one step" "$(state | jq .version)" $((v + 1))
sleep 3 # both processes' timers have seen the game by now
is "Alice told once that it ended" "$(notes "$AL" ended)" 1
is "Bob told once that it ended" "$(notes "$BO" ended)" 1
is "no unread turn note is left for an ended game" \
  "$(inbox "$BO" | jq --arg g "$game" '[.notifications[] | select(.game_id == $g and .kind == "turn" and (.read | not))] | length')" 0
inbox "$AL" | jq -r '.notifications[0].text' | grep -q "ended: you won (1-0, Black lost on time)" && ok ||
  bad "Alice's note says: $(inbox "$AL" | jq -r '.notifications[0].text')"
is "the ended game leaves the your-turn list" "$("${C[@]}" -b "$AL" "$H/api/account" | jq "[.games[] | select(.id == \"$game\")] | length")" 0
grep -q '1/86400' <<< "$("${C[@]}" "$H/api/games/$game/pgn")" && bad "the PGN's TimeControl ignores the day's length" || ok

# ---- a flag against a bare king draws (an API game: no accounts)
r=$(post "$H/api/games" "{\"variant\":\"chess\",\"fen\":\"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\",\"clock\":{\"kind\":\"correspondence\",\"days\":1}}")
is "an API game from a FEN" "$(status "$r")" 201
game=$(body "$r" | jq -r .id); tw=$(body "$r" | jq -r .white.token); tk=$(body "$r" | jq -r .black.token)
is "White: Qd2" "$(move "$tw" Qd2)" 200
is "Black: Ke7" "$(move "$tk" Ke7)" 200
until_ok 30 result_is 1/2-1/2 && ok || bad "no draw: $(state | jq -c '[.result, .termination]')"
is "the reason" "$(state | jq -r .termination)" "White ran out of time, Black has a bare king: draw"

echo "correspondence-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
