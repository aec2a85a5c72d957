#!/usr/bin/env bash
# docs/api.md, checked from outside: every row of its status table has its
# cases here (a status the table lists without a function row_NNN below
# fails the suite, so the table and the tests cannot drift apart), each
# case asserting the status and that the answer is JSON {"error": ...};
# and the fields the page documents are the fields the API answers: a
# game made, its state, the list's entries and their players.
#
# On SQLite by default; with TG_TEST_DB=postgresql://... under
# tools/with-postgres (make api-docs-pg-test) on that database, where the
# 503 row stops and restarts it. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin api-docs-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/api.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac
start() { server_start "$1" --pages variants --db "$DB" "${@:2}"; }
start main --create-per-minute 1000
U=http://127.0.0.1:$port
echo "api-docs-test: $mode, server on port $port"

# want WHAT STATUS [curl arguments]: the status, and a JSON error body
want() {
  local out
  out=$("${C[@]}" -w '\n%{http_code}' "${@:3}")
  is "$1" "$(status "$out")" "$2"
  [ "$2" -lt 400 ] || jq -e '.error | type == "string"' <<< "$(body "$out")" > /dev/null ||
    bad "$1: the body is not {\"error\": ...}: $(body "$out" | head -c 200)"
}
J=(-H 'Content-Type: application/json')
newgame() { # [JSON]: sets id, W, B
  local r g=${1:-}
  [ -n "$g" ] || g='{"variant":"torus"}'
  r=$(post "$U/api/games" "$g")
  id=$(body "$r" | jq -r .id); W=$(body "$r" | jq -r '.white.token // empty'); B=$(body "$r" | jq -r '.black.token // empty')
}
move() { "${C[@]}" -o /dev/null -X POST "${J[@]}" -d "{\"token\":\"$1\",\"move\":\"$3\"}" "$U/api/games/$2/move"; }

row_400() {
  want "400: malformed JSON" 400 -X POST "${J[@]}" -d '{"variant":' "$U/api/games"
  want "400: an unknown field" 400 -X POST "${J[@]}" -d '{"variant":"torus","colour":"white"}' "$U/api/games"
  want "400: a field of the wrong type" 400 -X POST "${J[@]}" -d '{"variant":5}' "$U/api/games"
  want "400: a duplicate key" 400 -X POST "${J[@]}" -d '{"variant":"torus","variant":"torus"}' "$U/api/games"
  want "400: a bad FEN" 400 -X POST "${J[@]}" -d '{"variant":"torus","fen":"xx"}' "$U/api/games"
  want "400: a bad clock" 400 -X POST "${J[@]}" -d '{"variant":"torus","clock":{"kind":"fischer","initial_ms":10,"increment_ms":0}}' "$U/api/games"
  newgame
  want "400: an illegal move" 400 -X POST "${J[@]}" -d "{\"token\":\"$W\",\"move\":\"e2e6\"}" "$U/api/games/$id/move"
}
row_403() {
  newgame
  want "403: no token" 403 -X POST "${J[@]}" -d '{"move":"e3"}' "$U/api/games/$id/move"
  want "403: a token of no side" 403 -X POST "${J[@]}" -d "{\"token\":\"$(printf '%032d' 7)\",\"move\":\"e3\"}" "$U/api/games/$id/move"
  local other=$W
  newgame '{"variant":"torus","engine":"black","level":1}'
  want "403: the engine's side has no token (another game's)" 403 -X POST "${J[@]}" -d "{\"token\":\"$other\",\"move\":\"e3\"}" "$U/api/games/$id/move"
}
row_404() {
  want "404: no such game" 404 "$U/api/games/0123456789abcdef"
  want "404: no such variant (to play)" 404 -X POST "${J[@]}" -d '{"variant":"nope"}' "$U/api/games"
  want "404: no such variant (to read)" 404 "$U/api/variants/nope"
  want "404: no such route" 404 "$U/api/nothing"
}
row_405() {
  newgame
  want "405: DELETE a game" 405 -X DELETE "$U/api/games/$id"
  want "405: GET an action" 405 "$U/api/games/$id/move"
}
row_409() {
  newgame '{"variant":"torus","clock":{"kind":"fischer","initial_ms":60000,"increment_ms":0}}'
  want "409: not your turn" 409 -X POST "${J[@]}" -d "{\"token\":\"$B\",\"move\":\"e6\"}" "$U/api/games/$id/move"
  want "409: nothing to accept" 409 -X POST "${J[@]}" -d "{\"token\":\"$B\",\"action\":\"accept\"}" "$U/api/games/$id/draw"
  want "409: a rematch before the end" 409 -X POST "${J[@]}" -d "{\"token\":\"$W\"}" "$U/api/games/$id/rematch"
  move "$W" "$id" e3; move "$B" "$id" e6
  want "409: an abort after the first two plies" 409 -X POST "${J[@]}" -d "{\"token\":\"$W\"}" "$U/api/games/$id/abort"
  "${C[@]}" -o /dev/null -X POST "${J[@]}" -d "{\"token\":\"$W\"}" "$U/api/games/$id/resign"
  want "409: the game is over" 409 -X POST "${J[@]}" -d "{\"token\":\"$B\",\"move\":\"d6\"}" "$U/api/games/$id/move"
}
row_413() {
  head -c 70000 /dev/zero | tr '\0' ' ' > "$tmp/big.json"
  want "413: a body over 64 KB" 413 -X POST "${J[@]}" --data-binary "@$tmp/big.json" "$U/api/games"
}
row_414() {
  want "414: a target over 4 KB" 414 "$U/api/games?$(head -c 5000 /dev/zero | tr '\0' a)"
}
row_429() {
  local keep=$U
  start limited --create-per-minute 2
  U=http://127.0.0.1:$port
  newgame; newgame
  want "429: too many games from one address" 429 -X POST "${J[@]}" -d '{"variant":"torus"}' "$U/api/games"
  is "429: with Retry-After" "$("${C[@]}" -D - -o /dev/null -X POST "${J[@]}" -d '{"variant":"torus"}' "$U/api/games" | grep -ci '^retry-after: [0-9]')" 1
  for i in 1 2 3 4 5; do "${C[@]}" -o /dev/null -X POST "${J[@]}" -d "{\"token\":\"$W\",\"text\":\"line $i\"}" "$U/api/games/$id/chat"; done
  want "429: chat lines too fast (5 in 10 s)" 429 -X POST "${J[@]}" -d "{\"token\":\"$W\",\"text\":\"line 6\"}" "$U/api/games/$id/chat"
  U=$keep
}
row_503() {
  if [ "$mode" != postgresql ]; then
    echo "api-docs-test: 503 needs PostgreSQL (make api-docs-pg-test)"
    return
  fi
  newgame
  local AS=(${TG_PG_AS:-})
  "${AS[@]}" "$TG_PG_BIN/pg_ctl" -D "$TG_PG_DATA" -m fast -w stop > /dev/null 2>&1
  want "503: the database is down" 503 "$U/api/games/$id"
  is "503: with Retry-After" "$("${C[@]}" -D - -o /dev/null "$U/api/games/$id" | grep -ci '^retry-after: [0-9]')" 1
  "${AS[@]}" "$TG_PG_BIN/pg_ctl" -D "$TG_PG_DATA" -l "$TG_PG_DATA/../log" -w -t 30 \
    -o "-p $TG_PG_PORT -k $TG_PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off" start > /dev/null 2>&1
  until_ok 20 is_code 200 "$U/api/games/$id" && ok || bad "503: the server did not read again after the restart"
}

# ---- the fields docs/api.md documents
keys() { jq -c "$1 | keys" <<< "$2"; }
r=$(post "$U/api/games" '{"variant":"torus","clock":{"kind":"fischer","initial_ms":60000,"increment_ms":0}}')
made=$(body "$r")
is "create: the answer's fields" "$(keys . "$made")" '["black","id","state","url","white"]'
is "create: a side's fields" "$(keys .white "$made")" '["token","url"]'
is "state: the fields of docs/api.md" "$(keys .state "$made")" \
  '["check","clock","clocks","created_ms","draw_offer","engine","fen","id","moves","now_ms","rematch_offer","result","running","start_fen","status","takeback_offer","termination","title","turn","turn_started_ms","updated_ms","variant","version"]'
id=$(jq -r .id <<< "$made"); W=$(jq -r .white.token <<< "$made")
move "$W" "$id" e3
is "a move's fields" "$(jq -c '.moves[0] | keys' <<< "$("${C[@]}" "$U/api/games/$id")")" '["at_ms","clock_ms","san","uci"]'
is "with a token: \"you\"" "$("${C[@]}" -H "Authorization: Bearer $W" "$U/api/games/$id" | jq -r .you)" white
is "list: an entry's fields" "$("${C[@]}" "$U/api/games?limit=1" | jq -c '.[0] | keys')" \
  '["black","created_ms","engine","id","moves","rated","result","termination","tournament","updated_ms","url","variant","white"]'
is "list: a side without an account is null" "$("${C[@]}" "$U/api/games?limit=1" | jq -c '[.[0].white, .[0].black, .[0].rated]')" '[null,null,false]'
newgame '{"variant":"torus"}'
"${C[@]}" -o /dev/null -X POST "${J[@]}" -d "{\"token\":\"$W\"}" "$U/api/games/$id/resign"
is "a resignation before both sides moved aborts (docs/api.md, resign)" \
  "$("${C[@]}" "$U/api/games/$id" | jq -r '.result + " " + .termination')" "- White aborted the game"
# an account's side: name, rating when the game began, provisional (a lobby game)
A=$tmp/a.jar Bj=$tmp/b.jar
form "$A" "$U/signup" 'name=Ada&password=rated+torus+games&password2=rated+torus+games' > /dev/null
form "$Bj" "$U/signup" 'name=Bo&password=rated+torus+games&password2=rated+torus+games' > /dev/null
tok() { get "$1" "$U/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }
form "$A" "$U/lobby/seek" "csrf=$(tok "$A")&variant=torus&clock=5%2B3&rated=1&color=white" > /dev/null
sid=$("${C[@]}" "$U/api/lobby" | jq -r '.seeks[0].id')
form "$Bj" "$U/lobby/seek/$sid/accept" "csrf=$(tok "$Bj")" > /dev/null
is "list: an account's side: its name, its rating when the game began, provisional" \
  "$("${C[@]}" "$U/api/games?player=ada" | jq -c '.[0] | [.white, .rated]')" '[{"name":"Ada","rating":1500,"provisional":true},true]'
is "a seek taken answers 409 to a late taker" "$(code "$(form "$Bj" "$U/lobby/seek/$sid/accept" "csrf=$(tok "$Bj")")")" 409

# the rows last: the 503 row stops and restarts the database
# ---- the table's rows, as docs/api.md lists them
rows=$(sed -n 's/^| \([1-5][0-9][0-9]\) |.*/\1/p' docs/api.md)
is "docs/api.md's status table has its rows" "$(wc -w <<< "$rows")" 9
for s in $rows; do
  if declare -F "row_$s" > /dev/null; then "row_$s"; else bad "docs/api.md lists status $s, which no case here tests"; fi
done

echo "api-docs-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
