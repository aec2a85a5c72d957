#!/usr/bin/env bash
# Hosted-games API suite: starts real `topochess serve` processes on free
# loopback ports and drives the API of docs/api.md with curl: games made,
# moves by SAN and coordinates, wrong tokens, moves out of turn and after
# the end, malformed JSON, unknown fields, huge bodies, the rate limit,
# draws, takebacks, rematches, PGN, the archive, engine games, the live
# stream, slow clients, flag falls, and kill -9 of the server mid-game
# followed by a restart that resumes the game with every acknowledged move.
#
# On SQLite by default. With TG_TEST_DB=postgresql://... (make
# hosted-pg-test runs it under tools/with-postgres) every server uses that
# database, and two server processes share it: a move posted to one
# reaches a live watcher connected to the other.
#
# Waits are polls with a deadline (never a fixed sleep that a slow machine
# could outrun). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-./topochess}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
for t in curl jq; do command -v $t >/dev/null || { echo "hosted-test: $t is missing (deps/hosted.apt)"; exit 1; }; done

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT

passed=0 failed=0
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
is() { # name got expected
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else bad "$1: got '$2', expected '$3'"; fi
}

DB=${TG_TEST_DB:-$tmp/games.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac

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
  echo "hosted-test: server $name did not start:"; cat "$tmp/$name.err"; exit 1
}

C=(curl -s --max-time 10)
# post URL JSON: prints the body then the status on its own last line.
post() { "${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "$2" "$1"; }
status() { tail -n 1 <<< "$1"; }
body() { sed '$d' <<< "$1"; }
# until SECONDS COMMAND...: polls until the command succeeds.
until_ok() {
  local end=$((SECONDS + $1)); shift
  while ! "$@"; do [ $SECONDS -ge $end ] && return 1; sleep 0.05; done
}

start main --db "$DB" --create-per-minute 1000
U=http://127.0.0.1:$port
echo "hosted-test: $mode, server on port $port"

# ---- a game between two people, timed
r=$(post "$U/api/games" '{"variant":"klein-bottle","clock":{"kind":"fischer","initial_ms":300000,"increment_ms":2000}}')
is "create: status" "$(status "$r")" 201
g=$(body "$r")
id=$(jq -r .id <<< "$g"); W=$(jq -r .white.token <<< "$g"); B=$(jq -r .black.token <<< "$g")
is "create: id is 16 hex" "$(grep -cE '^[0-9a-f]{16}$' <<< "$id")" 1
is "create: tokens are 32 hex and differ" "$(grep -cE '^[0-9a-f]{32}$' <<< "$W"$'\n'"$B")" 2
[ "$W" != "$B" ] || bad "the two tokens are equal"
is "create: white link" "$(jq -r .white.url <<< "$g")" "/game/$id#token=$W"
is "create: clock" "$(jq -c .state.clocks <<< "$g")" '{"white":300000,"black":300000}'
is "create: variant" "$(jq -r .state.variant <<< "$g")" klein-bottle

# a watcher follows the game live from the start
"${C[@]}" --max-time 60 -N "$U/api/games/$id/events" > "$tmp/watch1" &
watch_pid=$!
pids+=($watch_pid)
until_ok 10 grep -q '^id: 1$' "$tmp/watch1" || bad "the stream did not send the game's first state"

r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"d2d3\"}")
is "move by coordinates" "$(status "$r")" 200
is "move: SAN stored" "$(body "$r" | jq -r '.moves[0].san')" d3
r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}")
is "out of turn: 409" "$(status "$r")" 409
is "out of turn: message" "$(body "$r" | jq -r .error)" "it is not your turn: Black to move"
r=$(post "$U/api/games/$id/move" "{\"token\":\"$(printf '%032d' 0)\",\"move\":\"e11\"}")
is "wrong token: 403" "$(status "$r")" 403
r=$(post "$U/api/games/$id/move" '{"move":"e11"}')
is "no token: 403" "$(status "$r")" 403
r=$(post "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e2\"}")
is "illegal move: 400" "$(status "$r")" 400
is "illegal move: the library's reason" "$(body "$r" | jq -r '.error | split(";")[0]')" "no black pawn can reach e2"
r=$(post "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e11\"}")
is "black's move by SAN" "$(status "$r")" 200
until_ok 10 grep -q '^id: 3$' "$tmp/watch1" || bad "the watcher did not get the second move"
is "watcher: the state after two moves" \
  "$(grep '^data: ' "$tmp/watch1" | tail -n 1 | cut -c7- | jq -c '[.moves[].san]')" '["d3","e11"]'

# ---- bad input
r=$(post "$U/api/games/$id/move" '{"token":')
is "malformed JSON: 400" "$(status "$r")" 400
is "malformed JSON: error is JSON" "$(body "$r" | jq -r '.error | startswith("malformed JSON")')" true
r=$(post "$U/api/games/$id/move" '[1,2]')
is "not an object: 400" "$(status "$r")" 400
r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\",\"extra\":1}")
is "unknown field: 400" "$(status "$r")" 400
r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":5}")
is "move not a string: 400" "$(status "$r")" 400
r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"token\":\"$W\",\"move\":\"e3\"}")
is "duplicate field: 400" "$(status "$r")" 400
head -c 70000 /dev/zero | tr '\0' ' ' > "$tmp/huge"
r=$("${C[@]}" -w '\n%{http_code}' -X POST --data-binary @"$tmp/huge" "$U/api/games/$id/move")
is "huge body: 413" "$(status "$r")" 413
r=$(post "$U/api/games" '{"variant":"no-such-board"}')
is "unknown variant: 404" "$(status "$r")" 404
r=$(post "$U/api/games" '{"variant":"torus","fen":"not a fen"}')
is "bad FEN: 400" "$(status "$r")" 400
r=$(post "$U/api/games" '{"variant":"torus","clock":{"kind":"fischer","initial_ms":5}}')
is "bad clock: 400" "$(status "$r")" 400
r=$(post "$U/api/games" '{"variant":"torus","level":99,"engine":"white"}')
is "bad level: 400" "$(status "$r")" 400
is "unknown game: 404" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games/0123456789abcdef")" 404
is "bad game id: 404" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games/..%2f..")" 404
is "unknown action: 404" "$(status "$(post "$U/api/games/$id/fly" "{\"token\":\"$W\"}")")" 404
is "PUT: 405" "$("${C[@]}" -o /dev/null -w '%{http_code}' -X PUT "$U/api/games")" 405
is "no CORS unless configured" "$("${C[@]}" -D - -o /dev/null "$U/api/games/$id" | grep -ci '^access-control')" 0

# ---- draw offers, takebacks
r=$(post "$U/api/games/$id/draw" "{\"token\":\"$W\",\"action\":\"accept\"}")
is "accept without an offer: 409" "$(status "$r")" 409
r=$(post "$U/api/games/$id/draw" "{\"token\":\"$W\",\"action\":\"offer\"}")
is "draw offered" "$(body "$r" | jq -r .draw_offer)" white
r=$(post "$U/api/games/$id/draw" "{\"token\":\"$B\",\"action\":\"decline\"}")
is "draw declined" "$(body "$r" | jq -r .draw_offer)" null
r=$(post "$U/api/games/$id/takeback" "{\"token\":\"$B\",\"action\":\"request\"}")
is "takeback requested" "$(body "$r" | jq -r .takeback_offer)" black
r=$(post "$U/api/games/$id/takeback" "{\"token\":\"$W\",\"action\":\"accept\"}")
is "takeback accepted: black's move undone" "$(body "$r" | jq -c '[.moves[].san]')" '["d3"]'
r=$(post "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e11\"}")
is "black plays again" "$(status "$r")" 200

# ---- kill -9 mid-game, restart: every acknowledged move and the clocks
before=$("${C[@]}" "$U/api/games/$id")
kill -9 "$pid"; wait "$pid" 2>/dev/null
start main2 --db "$DB" --create-per-minute 1000
U=http://127.0.0.1:$port
after=$("${C[@]}" "$U/api/games/$id")
is "after kill -9: the moves" "$(jq -c '[.moves[].uci]' <<< "$after")" "$(jq -c '[.moves[].uci]' <<< "$before")"
is "after kill -9: the stored clocks" "$(jq -c '[.moves[].clock_ms]' <<< "$after")" "$(jq -c '[.moves[].clock_ms]' <<< "$before")"
is "after kill -9: the version" "$(jq -r .version <<< "$after")" "$(jq -r .version <<< "$before")"
is "after kill -9: black's clock kept" "$(jq -r .clocks.black <<< "$after")" "$(jq -r .clocks.black <<< "$before")"
# white's clock runs (white to move): it can only have gone down
wb=$(jq -r .clocks.white <<< "$before"); wa=$(jq -r .clocks.white <<< "$after")
[ "$wa" -le "$wb" ] && [ "$wa" -gt 0 ] || bad "after kill -9: white's clock $wb -> $wa"
r=$(post "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}")
is "the game goes on after the restart" "$(status "$r")" 200

# ---- the end, and moves after it
r=$(post "$U/api/games/$id/resign" "{\"token\":\"$B\"}")
is "resign" "$(body "$r" | jq -r '.result + " " + .termination')" "1-0 Black resigned"
r=$(post "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e10\"}")
is "move after the end: 409" "$(status "$r")" 409
pgn=$("${C[@]}" "$U/api/games/$id/pgn")
is "PGN: Variant tag" "$(grep -c '^\[Variant "klein-bottle"\]' <<< "$pgn")" 1
is "PGN: TimeControl tag" "$(grep -c '^\[TimeControl "300+2"\]' <<< "$pgn")" 1
is "PGN: moves and result" "$(grep -c '^1\. d3 e11 2\. e3 1-0' <<< "$pgn")" 1
printf '%s\n' "$pgn" > "$tmp/g.pgn"
"$BIN" pgn "$tmp/g.pgn" > "$tmp/pgn.out" 2>&1 || { bad "the CLI cannot read the PGN"; cat "$tmp/pgn.out"; }
# rematch: an offer, then the other side accepts; both land in the same new game, colours swapped
r=$(post "$U/api/games/$id/rematch" "{\"token\":\"$B\",\"action\":\"accept\"}")
is "rematch: nothing to accept yet: 409" "$(status "$r")" 409
r0=$(post "$U/api/games/$id/rematch" "{\"token\":\"$W\"}")
is "rematch: the offer" "$(status "$r0")" 200
is "rematch: the offer in the state" "$(body "$r0" | jq -r '.rematch_offer + " " + (.draw_offer|tostring)')" "white null"
is "rematch: offering twice: 409" "$(status "$(post "$U/api/games/$id/rematch" "{\"token\":\"$W\"}")")" 409
is "rematch: the offer stands in a read" "$("${C[@]}" "$U/api/games/$id" | jq -r .rematch_offer)" white
"${C[@]}" --max-time 20 -N "$U/api/games/$id/events" > "$tmp/rematch.sse" & pids+=($!)
until_ok 10 grep -qs '^event: state' "$tmp/rematch.sse" || bad "rematch: the stream did not start"
r1=$(post "$U/api/games/$id/rematch" "{\"token\":\"$B\",\"action\":\"accept\"}")
r2=$(post "$U/api/games/$id/rematch" "{\"token\":\"$W\"}")
is "rematch: accepted, created" "$(status "$r1")" 201
is "rematch: the offerer finds it" "$(status "$r2")" 200
is "rematch: one new game" "$(body "$r2" | jq -r .id)" "$(body "$r1" | jq -r .id)"
is "rematch: colours swap" "$(body "$r1" | jq -r .side)$(body "$r2" | jq -r .side)" whiteblack
until_ok 10 grep -q '^event: rematch' "$tmp/rematch.sse" || bad "rematch: the watchers got no rematch event"
rid=$(body "$r1" | jq -r .id)
r=$(post "$U/api/games/$rid/move" "{\"token\":\"$B\",\"move\":\"e3\"}")
is "rematch: the old black token now moves white" "$(status "$r")" 200
# a declined offer: gone from the state, no game made
r=$(post "$U/api/games" '{"variant":"torus"}'); did=$(body "$r" | jq -r .id)
dw=$(body "$r" | jq -r .white.token); db=$(body "$r" | jq -r .black.token)
is "rematch before the end: 409" "$(status "$(post "$U/api/games/$did/rematch" "{\"token\":\"$dw\"}")")" 409
post "$U/api/games/$did/resign" "{\"token\":\"$dw\"}" > /dev/null
post "$U/api/games/$did/rematch" "{\"token\":\"$dw\"}" > /dev/null
r=$(post "$U/api/games/$did/rematch" "{\"token\":\"$db\",\"action\":\"decline\"}")
is "rematch: declined" "$(status "$r"):$(body "$r" | jq -r .rematch_offer)" "200:null"
is "rematch: a bad action: 400" "$(status "$(post "$U/api/games/$did/rematch" "{\"token\":\"$db\",\"action\":\"maybe\"}")")" 400

# ---- abort: only in the first two plies, without a result
r=$(post "$U/api/games" '{"variant":"torus","clock":{"kind":"fischer","initial_ms":60000,"increment_ms":0}}')
aid=$(body "$r" | jq -r .id); aw=$(body "$r" | jq -r .white.token); ab=$(body "$r" | jq -r .black.token)
post "$U/api/games/$aid/move" "{\"token\":\"$aw\",\"move\":\"e3\"}" > /dev/null
is "abort: without a token: 403" "$(status "$(post "$U/api/games/$aid/abort" '{}')")" 403
is "abort: unchanged" "$("${C[@]}" "$U/api/games/$aid" | jq -r .status)" active
r=$(post "$U/api/games/$aid/abort" "{\"token\":\"$ab\"}")
is "abort after one ply" "$(status "$r") $(body "$r" | jq -r '.status + " " + .result + " " + .termination')" "200 ended - Black aborted the game"
is "abort: PGN result *" "$("${C[@]}" "$U/api/games/$aid/pgn" | grep -c '^\[Result "\*"\]')" 1
is "archive: aborted in words" "$("${C[@]}" "$U/games?variant=torus" | grep "data-game=\"$aid\"" | grep -c '>Aborted<')" 1
r=$(post "$U/api/games" '{"variant":"torus"}')
aid=$(body "$r" | jq -r .id); aw=$(body "$r" | jq -r .white.token); ab=$(body "$r" | jq -r .black.token)
post "$U/api/games/$aid/move" "{\"token\":\"$aw\",\"move\":\"e3\"}" > /dev/null
post "$U/api/games/$aid/move" "{\"token\":\"$ab\",\"move\":\"e6\"}" > /dev/null
r=$(post "$U/api/games/$aid/abort" "{\"token\":\"$aw\"}")
is "abort after two plies: 409" "$(status "$r")" 409
grep -q "resign instead" <<< "$r" || bad "abort after two plies: no reason in '$r'"
is "abort refused: still on" "$("${C[@]}" "$U/api/games/$aid" | jq -r .status)" active

# ---- spectators: each stream opened or closed counts, the players' own not
"${C[@]}" --max-time 20 -N "$U/api/games/$aid/events?as=player" > "$tmp/player.sse" & pids+=($!)
until_ok 10 grep -qs '^data: {"spectators":0}' "$tmp/player.sse" || bad "spectators: a player's stream counted"
"${C[@]}" --max-time 20 -N "$U/api/games/$aid/events" > "$tmp/chat.sse" & spec=$!; pids+=($spec)
until_ok 10 grep -qs '^event: state' "$tmp/chat.sse" || bad "chat: the stream did not start"
until_ok 10 grep -qs '^data: {"spectators":1}' "$tmp/player.sse" || bad "spectators: a watcher not counted"
"${C[@]}" --max-time 20 -N "$U/api/games/$aid/events" > /dev/null & spec2=$!; pids+=($spec2)
until_ok 10 grep -qs '^data: {"spectators":2}' "$tmp/player.sse" || bad "spectators: a second watcher not counted"
kill $spec2
until_ok 10 bash -c "tail -n 3 '$tmp/player.sse' | grep -q '^data: {\"spectators\":1}'" || bad "spectators: a watcher who left still counted"
# ---- chat between the players: stored, streamed, bounded
r=$(post "$U/api/games/$aid/chat" "{\"token\":\"$aw\",\"text\":\"<b>hello</b> & good luck\"}")
is "chat: a line" "$(status "$r")" 201
is "chat: kept as written" "$(body "$r" | jq -r '.chat[-1].side + ": " + .chat[-1].text')" "white: <b>hello</b> & good luck"
until_ok 10 grep -q '^event: chat' "$tmp/chat.sse" || bad "chat: the watchers got no chat event"
grep -q 'good luck' "$tmp/chat.sse" && bad "chat: the text went out on the public stream"
is "chat: read back by a player" "$("${C[@]}" -H "Authorization: Bearer $aw" "$U/api/games/$aid/chat" | jq -r '.chat | length')" 1
# the chat is the players': watchers read it only once both open it to them
r=$("${C[@]}" -w '\n%{http_code}' "$U/api/games/$aid/chat")
is "chat: a watcher reads nothing: 403" "$(status "$r")" 403
has_text() { grep -q -- "$2" <<< "$1" && passed=$((passed + 1)) || bad "$3: no '$2' in $1"; }
has_text "$r" "only once both players open it" "chat: the watcher is told why"
grep -q 'good luck' <<< "$r" && bad "chat: a watcher read a line"
is "chat: a watcher may not open it: 403" "$(status "$(post "$U/api/games/$aid/chat-watchers" '{"action":"on"}')")" 403
is "chat: a bad switch: 400" "$(status "$(post "$U/api/games/$aid/chat-watchers" "{\"token\":\"$aw\",\"action\":\"yes\"}")")" 400
r=$(post "$U/api/games/$aid/chat-watchers" "{\"token\":\"$aw\",\"action\":\"on\"}")
is "chat: White opens it" "$(body "$r" | jq -c .watchers)" '{"white":true,"black":false}'
is "chat: one player is not enough: 403" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games/$aid/chat")" 403
post "$U/api/games/$aid/chat-watchers" "{\"token\":\"$ab\",\"action\":\"on\"}" > /dev/null
until_ok 10 grep -q '^data: {"lines":1,"watchers":true}' "$tmp/chat.sse" || bad "chat: the watchers were not told it opened"
is "chat: both opened: a watcher reads it" "$("${C[@]}" "$U/api/games/$aid/chat" | jq -r '.chat[0].text')" "<b>hello</b> & good luck"
post "$U/api/games/$aid/chat-watchers" "{\"token\":\"$ab\",\"action\":\"off\"}" > /dev/null
is "chat: closed again: 403" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games/$aid/chat")" 403
long=$(head -c 281 /dev/zero | tr '\0' x)
r=$(post "$U/api/games/$aid/chat" "{\"token\":\"$ab\",\"text\":\"$long\"}")
is "chat: 281 bytes: 400" "$(status "$r")" 400
grep -q "longer than 280 bytes" <<< "$r" || bad "chat: the over-long line's reason: $r"
is "chat: a watcher (no token): 403" "$(status "$(post "$U/api/games/$aid/chat" '{"text":"hi"}')")" 403
is "chat: another game's token: 403" "$(status "$(post "$U/api/games/$aid/chat" "{\"token\":\"$dw\",\"text\":\"hi\"}")")" 403
is "chat: a line break: 400" "$(status "$(post "$U/api/games/$aid/chat" "{\"token\":\"$ab\",\"text\":\"a\\nb\"}")")" 400
is "chat: empty: 400" "$(status "$(post "$U/api/games/$aid/chat" "{\"token\":\"$ab\",\"text\":\"\"}")")" 400
is "chat: nothing refused was kept" "$("${C[@]}" -H "Authorization: Bearer $aw" "$U/api/games/$aid/chat" | jq -r '.chat | length')" 1
codes=""
for k in 1 2 3 4 5 6; do codes+="$(status "$(post "$U/api/games/$aid/chat" "{\"token\":\"$ab\",\"text\":\"line $k\"}")") "; done
is "chat: 5 lines in 10 s, then 429" "$codes" "201 201 201 201 201 429 "
is "chat: the other side may still write" "$(status "$(post "$U/api/games/$aid/chat" "{\"token\":\"$aw\",\"text\":\"ok\"}")")" 201
is "chat: the lines" "$("${C[@]}" -H "Authorization: Bearer $aw" "$U/api/games/$aid/chat" | jq -r '.chat | length')" 7

# ---- lists and pages
is "list: the games" "$("${C[@]}" "$U/api/games?variant=klein-bottle" | jq -r --arg id "$id" 'map(.id) | index($id) != null')" true
is "list: other variant empty of it" "$("${C[@]}" "$U/api/games?variant=torus" | jq -r --arg id "$id" 'map(.id) | index($id) == null')" true
is "list: bad limit" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games?limit=0")" 400
page=$("${C[@]}" -D "$tmp/h" "$U/game/$id")
is "game page: data-page" "$(grep -c 'data-page="game"' <<< "$page")" 1
is "game page: CSP" "$(grep -ci '^content-security-policy:' "$tmp/h")" 1
is "game page: no token in it" "$(grep -c "$W" <<< "$page")" 0
arch=$("${C[@]}" "$U/games?variant=klein-bottle")
is "archive: the game listed" "$(grep -c "data-game=\"$id\"" <<< "$arch")" 1

# ---- engine games: the server's engine answers; takebacks accepted by it
r=$(post "$U/api/games" '{"variant":"torus","engine":"black","level":1}')
eid=$(body "$r" | jq -r .id); EW=$(body "$r" | jq -r .white.token)
is "engine game: only the person's token" "$(body "$r" | jq -r '.black')" null
post "$U/api/games/$eid/move" "{\"token\":\"$EW\",\"move\":\"e3\"}" > /dev/null
until_ok 30 sh -c "curl -s '$U/api/games/$eid' | jq -e '.moves | length == 2' > /dev/null" || bad "the engine did not answer"
r=$(post "$U/api/games/$eid/move" "{\"token\":\"$EW\",\"move\":\"e11\"}")
is "engine game: an illegal move refused" "$(status "$r")" 400
r=$(post "$U/api/games/$eid/takeback" "{\"token\":\"$EW\",\"action\":\"request\"}")
is "engine game: takeback accepted by the server" "$(body "$r" | jq -r '.moves | length')" 0
r=$(post "$U/api/games" '{"variant":"torus","engine":"white","level":1}')
eid2=$(body "$r" | jq -r .id)
until_ok 30 sh -c "curl -s '$U/api/games/$eid2' | jq -e '.moves | length == 1' > /dev/null" || bad "the engine did not open as white"

# ---- flag fall: the server ends the game on time
r=$(post "$U/api/games" '{"variant":"torus","clock":{"kind":"fischer","initial_ms":1000,"increment_ms":0}}')
fid=$(body "$r" | jq -r .id); FW=$(body "$r" | jq -r .white.token); FB=$(body "$r" | jq -r .black.token)
post "$U/api/games/$fid/move" "{\"token\":\"$FW\",\"move\":\"e3\"}" > /dev/null
post "$U/api/games/$fid/move" "{\"token\":\"$FB\",\"move\":\"e11\"}" > /dev/null
until_ok 20 sh -c "curl -s '$U/api/games/$fid' | jq -e '.status == \"ended\"' > /dev/null" || bad "no flag fall"
is "flag fall: result" "$("${C[@]}" "$U/api/games/$fid" | jq -r '.result + " " + .termination')" "0-1 White lost on time"

# ---- slow clients hold connections; the server keeps serving
slow=()
for i in $(seq 1 20); do
  exec {fd}<>/dev/tcp/127.0.0.1/"$port"
  printf 'POST /api/games/%s/move HTTP/1.1\r\nHost: slow\r\nContent-Length: 100\r\n\r\n{"tok' "$id" >&"$fd"
  slow+=("$fd")
done
is "served beside 20 slow posters" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games/$id")" 200
for fd in "${slow[@]}"; do exec {fd}>&-; done

# ---- 429: creation is limited per client address
start limited --db "$DB" --create-per-minute 3
L=http://127.0.0.1:$port
codes=""
for i in 1 2 3 4; do codes+="$(status "$(post "$L/api/games" '{"variant":"torus"}')") "; done
is "rate limit: 3 a minute" "$codes" "201 201 201 429 "
is "rate limit: reads still served" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$L/api/games/$id")" 200

# ---- CORS only when configured
start cors --db "$DB" --cors https://example.org
X=http://127.0.0.1:$port
is "--cors: the origin allowed" "$("${C[@]}" -D - -o /dev/null "$X/api/games/$id" | tr -d '\r' | sed -n 's/^[Aa]ccess-[Cc]ontrol-[Aa]llow-[Oo]rigin: //p')" https://example.org
is "--cors: preflight" "$("${C[@]}" -o /dev/null -w '%{http_code}' -X OPTIONS "$X/api/games")" 204

# ---- PostgreSQL: two processes on one database
if [ $mode = postgresql ]; then
  start second --db "$DB"
  U2=http://127.0.0.1:$port
  r=$(post "$U/api/games" '{"variant":"klein-bottle"}')
  pid2=$(body "$r" | jq -r .id); PW=$(body "$r" | jq -r .white.token); PB=$(body "$r" | jq -r .black.token)
  "${C[@]}" --max-time 60 -N "$U2/api/games/$pid2/events" > "$tmp/watch2" &
  pids+=($!)
  until_ok 10 grep -q '^id: 1$' "$tmp/watch2" || bad "stream on the second process"
  post "$U/api/games/$pid2/move" "{\"token\":\"$PW\",\"move\":\"e3\"}" > /dev/null
  until_ok 10 grep -q '^id: 2$' "$tmp/watch2" || bad "a move posted to one process did not reach a watcher of the other"
  r=$(post "$U2/api/games/$pid2/move" "{\"token\":\"$PB\",\"move\":\"e11\"}")
  is "the second process takes the next move" "$(status "$r")" 200
  is "the first process sees it" "$("${C[@]}" "$U/api/games/$pid2" | jq -c '[.moves[].san]')" '["e3","e11"]'
  # chat across processes: written on one, heard by a watcher of the other
  r=$(post "$U/api/games/$pid2/chat" "{\"token\":\"$PW\",\"text\":\"from process one\"}")
  is "chat on the first process" "$(status "$r")" 201
  until_ok 10 grep -q '^data: {"lines":1,' "$tmp/watch2" || bad "a chat line did not reach a watcher of the other process"
  is "the chat read on the second" "$("${C[@]}" -H "Authorization: Bearer $PB" "$U2/api/games/$pid2/chat" | jq -r '.chat[0].text')" "from process one"
  # spectators across processes: the watcher on the second counts on the
  # first; a process killed stops counting once its rows stop beating
  second_pid=$pid
  last_is() { tail -n 2 "$1" | grep -q "^data: {\"spectators\":$2}"; }
  "${C[@]}" --max-time 60 -N "$U/api/games/$pid2/events?as=player" > "$tmp/p2player" & pids+=($!)
  until_ok 10 last_is "$tmp/p2player" 1 || bad "spectators: the second process's watcher not counted on the first"
  "${C[@]}" --max-time 60 -N "$U/api/games/$pid2/events" > /dev/null & sp1=$!; pids+=($sp1)
  until_ok 10 last_is "$tmp/p2player" 2 || bad "spectators: one on each process: not 2"
  kill $sp1
  until_ok 10 last_is "$tmp/p2player" 1 || bad "spectators: a watcher who left the first process still counted"
  "${C[@]}" --max-time 60 -N "$U/api/games/$pid2/events" > /dev/null & sp1=$!; pids+=($sp1)
  until_ok 10 last_is "$tmp/p2player" 2 || bad "spectators: a second watcher on the first process not counted"
  kill -9 "$second_pid"
  until_ok 20 last_is "$tmp/p2player" 1 || bad "spectators: the killed process's watcher still counted"
fi

kill "$watch_pid" 2>/dev/null
# the servers stop cleanly on SIGTERM; under the sanitizers (make
# sanitize builds build/sanitize/topochess) their reports land in stderr
for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
pids=()
if grep -lE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/*.err > /dev/null 2>&1; then
  bad "sanitizer reports:"; grep -hE -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/*.err | head -n 60
fi
echo "hosted-test ($mode): $passed passed, $failed failed"
[ "$failed" = 0 ]
