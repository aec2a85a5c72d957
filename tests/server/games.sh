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
. tests/server/lib.sh
lib_begin hosted-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/games.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac

start() { server_start "$1" --pages variants "${@:2}"; } # NAME [options]: sets $port and $pid

start main --db "$DB" --create-per-minute 1000
U=http://127.0.0.1:$port
echo "hosted-test: $mode, server on port $port"

# ---- a game between two people, timed
post_is "create: status" 201 "$U/api/games" '{"variant":"klein-bottle","clock":{"kind":"fischer","initial_ms":300000,"increment_ms":2000}}'
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

post_is "move by coordinates" 200 "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"d2d3\"}"
is "move: SAN stored" "$(body "$r" | jq -r '.moves[0].san')" d3
post_is "out of turn: 409" 409 "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}"
is "out of turn: message" "$(body "$r" | jq -r .error)" "it is not your turn: Black to move"
post_is "wrong token: 403" 403 "$U/api/games/$id/move" "{\"token\":\"$(printf '%032d' 0)\",\"move\":\"e11\"}"
post_is "no token: 403" 403 "$U/api/games/$id/move" '{"move":"e11"}'
post_is "illegal move: 400" 400 "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e2\"}"
is "illegal move: the library's reason" "$(body "$r" | jq -r '.error | split(";")[0]')" "illegal move 'e2': no black pawn can reach e2"
post_is "black's move by SAN" 200 "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e11\"}"
until_ok 10 grep -q '^id: 3$' "$tmp/watch1" || bad "the watcher did not get the second move"
is "watcher: the state after two moves" \
  "$(grep '^data: ' "$tmp/watch1" | tail -n 1 | cut -c7- | jq -c '[.moves[].san]')" '["d3","e11"]'

# ---- bad input
post_is "malformed JSON: 400" 400 "$U/api/games/$id/move" '{"token":'
is "malformed JSON: error is JSON" "$(body "$r" | jq -r '.error | startswith("malformed JSON")')" true
post_is "not an object: 400" 400 "$U/api/games/$id/move" '[1,2]'
post_is "unknown field: 400" 400 "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\",\"extra\":1}"
post_is "move not a string: 400" 400 "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":5}"
post_is "duplicate field: 400" 400 "$U/api/games/$id/move" "{\"token\":\"$W\",\"token\":\"$W\",\"move\":\"e3\"}"
head -c 70000 /dev/zero | tr '\0' ' ' > "$tmp/huge"
r=$("${C[@]}" -w '\n%{http_code}' -X POST --data-binary @"$tmp/huge" "$U/api/games/$id/move")
is "huge body: 413" "$(status "$r")" 413
post_is "unknown variant: 404" 404 "$U/api/games" '{"variant":"no-such-board"}'
post_is "bad FEN: 400" 400 "$U/api/games" '{"variant":"torus","fen":"not a fen"}'
post_is "bad clock: 400" 400 "$U/api/games" '{"variant":"torus","clock":{"kind":"fischer","initial_ms":5}}'
post_is "bad level: 400" 400 "$U/api/games" '{"variant":"torus","level":99,"engine":"white"}'
is "unknown game: 404" "$(http_code "$U/api/games/0123456789abcdef")" 404
is "bad game id: 404" "$(http_code "$U/api/games/..%2f..")" 404
is "unknown action: 404" "$(status "$(post "$U/api/games/$id/fly" "{\"token\":\"$W\"}")")" 404
is "PUT: 405" "$(http_code -X PUT "$U/api/games")" 405
is "no CORS unless configured" "$("${C[@]}" -D - -o /dev/null "$U/api/games/$id" | grep -ci '^access-control')" 0

# ---- draw offers, takebacks
post_is "accept without an offer: 409" 409 "$U/api/games/$id/draw" "{\"token\":\"$W\",\"action\":\"accept\"}"
r=$(post "$U/api/games/$id/draw" "{\"token\":\"$W\",\"action\":\"offer\"}")
is "draw offered" "$(body "$r" | jq -r .draw_offer)" white
r=$(post "$U/api/games/$id/draw" "{\"token\":\"$B\",\"action\":\"decline\"}")
is "draw declined" "$(body "$r" | jq -r .draw_offer)" null
r=$(post "$U/api/games/$id/takeback" "{\"token\":\"$B\",\"action\":\"request\"}")
is "takeback requested" "$(body "$r" | jq -r .takeback_offer)" black
r=$(post "$U/api/games/$id/takeback" "{\"token\":\"$W\",\"action\":\"accept\"}")
is "takeback accepted: black's move undone" "$(body "$r" | jq -c '[.moves[].san]')" '["d3"]'
post_is "black plays again" 200 "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e11\"}"

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
post_is "the game goes on after the restart" 200 "$U/api/games/$id/move" "{\"token\":\"$W\",\"move\":\"e3\"}"

# ---- the end, and moves after it
r=$(post "$U/api/games/$id/resign" "{\"token\":\"$B\"}")
is "resign" "$(body "$r" | jq -r '.result + " " + .termination')" "1-0 Black resigned"
post_is "move after the end: 409" 409 "$U/api/games/$id/move" "{\"token\":\"$B\",\"move\":\"e10\"}"
pgn=$("${C[@]}" "$U/api/games/$id/pgn")
is "PGN: Variant tag" "$(grep -c '^\[Variant "klein-bottle"\]' <<< "$pgn")" 1
is "PGN: TimeControl tag" "$(grep -c '^\[TimeControl "300+2"\]' <<< "$pgn")" 1
is "PGN: moves and result" "$(grep -c '^1\. d3 e11 2\. e3 1-0' <<< "$pgn")" 1
printf '%s\n' "$pgn" > "$tmp/g.pgn"
"$BIN" pgn "$tmp/g.pgn" > "$tmp/pgn.out" 2>&1 || { bad "the CLI cannot read the PGN"; cat "$tmp/pgn.out"; }
# rematch: an offer, then the other side accepts; both land in the same new game, colours swapped
post_is "rematch: nothing to accept yet: 409" 409 "$U/api/games/$id/rematch" "{\"token\":\"$B\",\"action\":\"accept\"}"
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
post_is "rematch: the old black token now moves white" 200 "$U/api/games/$rid/move" "{\"token\":\"$B\",\"move\":\"e3\"}"
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
post_is "abort after two plies: 409" 409 "$U/api/games/$aid/abort" "{\"token\":\"$aw\"}"
grep -q "resign instead" <<< "$r" || bad "abort after two plies: no reason in '$r'"
is "abort refused: still on" "$("${C[@]}" "$U/api/games/$aid" | jq -r .status)" active

# ---- spectators: each stream opened or closed counts, the players' own not
"${C[@]}" --max-time 60 -N "$U/api/games/$aid/events?as=player" > "$tmp/player.sse" & pids+=($!)
until_ok 10 grep -qs '^data: {"spectators":0}' "$tmp/player.sse" || bad "spectators: a player's stream counted"
"${C[@]}" --max-time 60 -N "$U/api/games/$aid/events" > "$tmp/chat.sse" & spec=$!; pids+=($spec)
until_ok 10 grep -qs '^event: state' "$tmp/chat.sse" || bad "chat: the stream did not start"
until_ok 10 grep -qs '^data: {"spectators":1}' "$tmp/player.sse" || bad "spectators: a watcher not counted"
"${C[@]}" --max-time 20 -N "$U/api/games/$aid/events" > /dev/null & spec2=$!; pids+=($spec2)
until_ok 10 grep -qs '^data: {"spectators":2}' "$tmp/player.sse" || bad "spectators: a second watcher not counted"
kill $spec2
# the newest count, whatever pings came after it (a closed stream is found
# by the next write: the ping every 5 s)
until_ok 15 bash -c "grep '^data: {\"spectators\"' '$tmp/player.sse' | tail -n 1 | grep -q ':1}'" || bad "spectators: a watcher who left still counted"
# ---- chat between the players: stored, streamed, bounded
post_is "chat: a line" 201 "$U/api/games/$aid/chat" "{\"token\":\"$aw\",\"text\":\"<b>hello</b> & good luck\"}"
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
post_is "chat: 281 bytes: 400" 400 "$U/api/games/$aid/chat" "{\"token\":\"$ab\",\"text\":\"$long\"}"
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
is "list: bad limit" "$(http_code "$U/api/games?limit=0")" 400
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
post_is "engine game: an illegal move refused" 400 "$U/api/games/$eid/move" "{\"token\":\"$EW\",\"move\":\"e11\"}"
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
is "served beside 20 slow posters" "$(http_code "$U/api/games/$id")" 200
for fd in "${slow[@]}"; do exec {fd}>&-; done

# ---- 429: creation is limited per client address
start limited --db "$DB" --create-per-minute 3
L=http://127.0.0.1:$port
codes=""
for i in 1 2 3 4; do codes+="$(status "$(post "$L/api/games" '{"variant":"torus"}')") "; done
is "rate limit: 3 a minute" "$codes" "201 201 201 429 "
is "rate limit: reads still served" "$(http_code "$L/api/games/$id")" 200

# ---- CORS only when configured
start cors --db "$DB" --cors https://example.org
X=http://127.0.0.1:$port
is "--cors: the origin allowed" "$("${C[@]}" -D - -o /dev/null "$X/api/games/$id" | tr -d '\r' | sed -n 's/^[Aa]ccess-[Cc]ontrol-[Aa]llow-[Oo]rigin: //p')" https://example.org
is "--cors: preflight" "$(http_code -X OPTIONS "$X/api/games")" 204

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
  post_is "the second process takes the next move" 200 "$U2/api/games/$pid2/move" "{\"token\":\"$PB\",\"move\":\"e11\"}"
  is "the first process sees it" "$("${C[@]}" "$U/api/games/$pid2" | jq -c '[.moves[].san]')" '["e3","e11"]'
  # chat across processes: written on one, heard by a watcher of the other
  post_is "chat on the first process" 201 "$U/api/games/$pid2/chat" "{\"token\":\"$PW\",\"text\":\"from process one\"}"
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

# ---- every game replays from its own PGN alone (issue 28): a game on a
# custom page (one rook each side, ranks twisted at 3; White castles long)
# and then every game of the archive, read by the CLI in an empty folder
page=$'---\ntitle: One rook\nengine:\n  topology: {type: grid, rows: 8, cols: 11, wrap: mobius, seam: 3}\n  setup: 6k4/11/11/8p2/11/11/5P5/R3K6\n---\n'
post_is "custom board: create" 201 "$U/api/games" "$(jq -n --arg p "$page" '{page:$p}')"
cid=$(body "$r" | jq -r .id); CW=$(body "$r" | jq -r .white.token); CB=$(body "$r" | jq -r .black.token)
is "custom board: the start's castling rights" "$(body "$r" | jq -r '.state.start_fen | split(" ")[2]')" Q
post_is "custom board: O-O-O with the one rook" 200 "$U/api/games/$cid/move" "{\"token\":\"$CW\",\"move\":\"O-O-O\"}"
post_is "custom board: black answers" 200 "$U/api/games/$cid/move" "{\"token\":\"$CB\",\"move\":\"Kf8\"}"
cpgn=$("${C[@]}" "$U/api/games/$cid/pgn")
is "custom board: the PGN carries the board" \
  "$(grep -c '^\[Topology "{topology: {type: grid, rows: 8, cols: 11, wrap: none, files: open, ranks: twist, seam: 3}, setup: 6k4/11/11/8p2/11/11/5P5/R3K6}"\]' <<< "$cpgn")" 1
# a setup whose pawn could never move is refused with the reason (docs/rules.md section 3)
page=$'---\ntitle: Stuck\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: none}\n  setup: 4k3/8/8/8/8/8/4K3/2P5\n---\n'
post_is "custom board: a pawn with no direction: 400" 400 "$U/api/games" "$(jq -n --arg p "$page" '{page:$p}')"
is "custom board: the reason" "$(body "$r" | jq -r .error | cut -d'(' -f1)" "setup: the white pawn on c1 has no forward direction "
mkdir -p "$tmp/alone"
ids=$("${C[@]}" "$U/api/games?limit=200" | jq -r '.[].id')
replayed=0; mismatched=""
for gid in $ids; do
  "${C[@]}" "$U/api/games/$gid/pgn" > "$tmp/alone/$gid.pgn"
  want=$("${C[@]}" "$U/api/games/$gid" | jq -r .fen)
  got=$(cd "$tmp/alone" && "$BIN" pgn "$gid.pgn" --fen 2> "$gid.err" | sed -n 2p)
  if [ "$got" = "$want" ]; then replayed=$((replayed + 1)); else mismatched+=" $gid"; fi
done
[ -z "$mismatched" ] && ok || bad "PGN replay: the final FEN differs for$mismatched (first: $(for g in $mismatched; do cat "$tmp/alone/$g.err" "$tmp/alone/$g.pgn"; break; done))"
[ "$replayed" -gt 5 ] && grep -q "^$cid\$" <<< "$ids" && ok || bad "PGN replay: only $replayed games, or not the custom one"
echo "hosted-test: $replayed games replayed from their PGN alone"

# the servers stop cleanly on SIGTERM; under the sanitizers (make
# sanitize builds build/sanitize/topochess) their reports land in stderr
stop_procs "${pids[@]}"
pids=()
if grep -lE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/*.err > /dev/null 2>&1; then
  bad "sanitizer reports:"; grep -hE -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/*.err | head -n 60
fi
echo "hosted-test ($mode): $passed passed, $failed failed"
[ "$failed" = 0 ]
