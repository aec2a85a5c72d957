#!/usr/bin/env bash
# People on the hub over HTTP: starts real `topochess serve` processes on
# free loopback ports and drives /signup, /login, /logout, /account and
# /@/NAME with curl as a browser would (a cookie jar, forms): the cookie's
# flags, wrong passwords, unknown users, CSRF and cross-origin refusals,
# log out everywhere, stolen and garbage cookies, the trusted proxy's
# X-Forwarded-Proto, and (on PostgreSQL) a session opened on one process
# that works on another. Every refusal is checked to change nothing.
#
# On SQLite by default; with TG_TEST_DB=postgresql://... (make
# people-http-pg-test) on that database, with two processes. Ends with
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin people-test "${1:-}" curl jq
has() { if grep -q -- "$3" <<< "$2"; then ok; else bad "$1: no '$3' in: $(head -c 300 <<< "$2")"; fi; }

DB=${TG_TEST_DB:-$tmp/people.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac

start() { server_start "$1" --pages variants --db "$DB" "${@:2}"; } # NAME [options]: sets $port
csrf() { get "$1" "$U/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }

start main
U=http://127.0.0.1:$port
echo "people-test: $mode, server on port $port"
r=$(get /dev/null "$U/signup")
[ "$(code "$r")" = 200 ] || { echo "people-test: /signup answers $(code "$r"): the people routes are not wired into http.c"; exit 1; }
has "sign-up page: no e-mail" "$r" "No e-mail address is asked for"

A=$tmp/alice.jar B=$tmp/bob.jar T=$tmp/thief.jar
r=$(form "$A" "$U/signup" 'name=Alice&password=klein+bottle&password2=klein+bottle')
is "sign-up: 303" "$(code "$r")" 303
has "sign-up: to the player page" "$r" "Location: /@/Alice"
has "sign-up: cookie flags" "$r" "Set-Cookie: tc_session=[A-Za-z0-9_-]\{43\}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"
grep -q "Secure" <<< "$(grep -i '^Set-Cookie' <<< "$r")" && bad "a Secure cookie over plain HTTP"
is "account with the cookie" "$(code "$(get "$A" "$U/account")")" 200
is "account without" "$(code "$(get /dev/null "$U/account")")" 401
r=$(get /dev/null "$U/@/alice")
is "player page" "$(code "$r")" 200
has "player page: name" "$r" "<h1>Alice</h1>"

r=$(form "$B" "$U/signup" 'name=aLiCe&password=other+pass&password2=other+pass')
is "a taken name in another case: 409" "$(code "$r")" 409
has "taken: message" "$r" "is taken"
r=$(form "$B" "$U/signup" 'name=api&password=other+pass&password2=other+pass')
is "a reserved name: 400" "$(code "$r")" 400
has "reserved: message" "$r" "reserved for the site"

r=$(form "$B" "$U/login" 'name=alice&password=wrong+password')
is "wrong password: 401" "$(code "$r")" 401
has "wrong password: message" "$r" "wrong user name or password"
grep -qi '^Set-Cookie' <<< "$r" && bad "a cookie after a wrong password"
r=$(form "$B" "$U/login" 'name=nobody&password=klein+bottle')
is "unknown user: 401" "$(code "$r")" 401

old=$(awk '$6 == "tc_session" {print $7}' "$A")
r=$(form "$A" "$U/login" 'name=ALICE&password=klein+bottle')
is "login: 303" "$(code "$r")" 303
new=$(awk '$6 == "tc_session" {print $7}' "$A")
[ -n "$new" ] && [ "$new" != "$old" ] || bad "login did not give a new session id"
is "the old id ended" "$(code "$(get /dev/null "$U/account" -H "Cookie: tc_session=$old")")" 401

# a thief holds a copy of Alice's cookie
cp "$A" "$T"
tok=$(csrf "$A")
is "csrf token length" "${#tok}" 43
r=$(form "$T" "$U/account/logout-all" 'x=1')
is "no CSRF token: 403" "$(code "$r")" 403
r=$(form "$T" "$U/account/logout-all" "csrf=$tok" -H 'Origin: https://evil.test')
is "cross-origin with the token: 403" "$(code "$r")" 403
has "cross-origin: message" "$r" "another site"
r=$(form "$T" "$U/logout" "csrf=$tok" -H 'Sec-Fetch-Site: cross-site')
is "Sec-Fetch-Site cross-site: 403" "$(code "$r")" 403
is "after the refusals the session is kept" "$(code "$(get "$A" "$U/account")")" 200
r=$(form "$T" "$U/signup" 'name=Mallory&password=evil+password&password2=evil+password' -H 'Origin: http://evil.test')
is "cross-origin sign-up: 403" "$(code "$r")" 403
is "no Mallory" "$(code "$(get /dev/null "$U/@/mallory")")" 404
r=$(form "$T" "$U/signup" 'name=Mallory&password=evil+password&password2=evil+password' -H 'Origin: null' -H 'Sec-Fetch-Site: cross-site')
is "Origin null from another site: 403" "$(code "$r")" 403
# finding 7 (issue 29): Origin null is no origin of the hub's (its pages'
# Referrer-Policy is same-origin, so their forms send their own origin);
# an older browser sends no Sec-Fetch-Site: login CSRF was let through
r=$(form "$tmp/n.jar" "$U/login" 'name=Alice&password=klein+bottle' -H 'Origin: null')
is "login with Origin null and no Sec-Fetch-Site: 403" "$(code "$r")" 403
grep -qi '^Set-Cookie' <<< "$r" && bad "a cookie for a login with Origin null"
r=$(form "$tmp/n.jar" "$U/signup" 'name=Nora&password=fold+queen&password2=fold+queen' -H 'Origin: null' -H 'Sec-Fetch-Site: same-origin')
is "Origin null, even with Sec-Fetch-Site same-origin: 403" "$(code "$r")" 403
has "the hub's pages: Referrer-Policy same-origin" "$("${C[@]}" -D - -o /dev/null "$U/login")" "Referrer-Policy: same-origin"
# what a browser sends for the hub's own form under that policy
r=$(form "$tmp/n.jar" "$U/signup" 'name=Nora&password=fold+queen&password2=fold+queen' -H "Origin: $U" -H 'Sec-Fetch-Site: same-origin')
is "the hub's own origin: 303" "$(code "$r")" 303

r=$(form "$A" "$U/account/logout-all" "csrf=$tok" -H "Origin: $U")
is "log out everywhere: 303" "$(code "$r")" 303
has "log out everywhere: cookie cleared" "$r" "Set-Cookie: tc_session=; Path=/; Max-Age=0"
is "the stolen copy opens nothing" "$(code "$(get "$T" "$U/account")")" 401
r=$(form "$T" "$U/logout" "csrf=$tok")
is "the stolen copy logs nothing out: 401" "$(code "$r")" 401
is "garbage cookie: 401" "$(code "$(get /dev/null "$U/account" -H 'Cookie: tc_session=AAAA')")" 401

r=$("${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' --data '{}' "$U/login")
is "JSON body: 415" "$(code "$r")" 415
r=$("${C[@]}" -w '\n%{http_code}' -X DELETE "$U/account")
is "DELETE /account: 405" "$(code "$r")" 405

# ---- the lobby: live list, accept, the owner's start event, seeks gone with their owner's stream
until_ok() { local end=$((SECONDS + $1)); shift; while ! "$@"; do [ $SECONDS -ge $end ] && return 1; sleep 0.1; done; }
stream() { # JAR FILE [URL]: a lobby stream in the background; sets $spid
  : > "$2"
  curl -s -N --max-time 60 -b "$1" "${3:-$U}/api/lobby/events" > "$2" &
  spid=$!
  pids+=($spid)
}
D=$tmp/dan.jar E=$tmp/eve.jar
form "$D" "$U/signup" 'name=Dan&password=lobby+password&password2=lobby+password' > /dev/null
form "$E" "$U/signup" 'name=Eve&password=lobby+password&password2=lobby+password' > /dev/null
stream /dev/null "$tmp/watch.sse"; watch_pid=$spid
stream "$D" "$tmp/dan.sse"; dan_pid=$spid
until_ok 10 grep -q '^event: seeks' "$tmp/watch.sse" || bad "the lobby stream sent no list"
home=$(get /dev/null "$U/")
has "home: no seeks yet" "$home" '<span class="tc-seek-count">0</span> open seeks'
has "home: no games being played" "$home" '<span class="tc-live-count">0</span> games being played'
has "home: the lobby's link" "$home" '<h2><a href="/lobby">Lobby</a></h2>'
r=$(form "$D" "$U/lobby/seek" "csrf=$(csrf "$D")&variant=klein-bottle&clock=5%2B3&rated=1&color=black")
is "seek: 303" "$(code "$r")" 303
until_ok 10 grep -q '"name":"Dan"' "$tmp/watch.sse" || bad "a watcher did not see Dan's seek"
home=$(get /dev/null "$U/")
has "home: one open seek" "$home" '<span class="tc-seek-count">1</span> open seek '
has "home: the seek, escaped and linked" "$home" 'href="/@/Dan">Dan</a> (1500?): Klein Bottle Chess, 5+3, rated</li>'
sid=$(curl -s "$U/api/lobby" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
is "seek id" "${#sid}" 12
r=$(form "$D" "$U/lobby/seek/$sid/accept" "csrf=$(csrf "$D")")
is "own seek: 409" "$(code "$r")" 409
r=$(form /dev/null "$U/lobby/seek" 'variant=torus&clock=5%2B3&rated=1')
is "an anonymous seek: 401" "$(code "$r")" 401
r=$(form "$E" "$U/lobby/seek/$sid/accept" "csrf=$(csrf "$E")")
is "accept: 303" "$(code "$r")" 303
eve_url=$(sed -n 's/^Location: \(.*\)\r$/\1/p' <<< "$r")
until_ok 10 grep -q '^event: start' "$tmp/dan.sse" || bad "Dan's stream got no start event"
dan_url=$(sed -n 's/^data: {"url":"\(.*\)"}.*/\1/p' "$tmp/dan.sse" | head -n 1)
game=${eve_url#/game/}; game=${game%%#*}
is "both in one game" "${dan_url%%#*}" "/game/$game"
[ "${dan_url#*#token=}" != "${eve_url#*#token=}" ] || bad "both players got the same token"
st=$("${C[@]}" "$U/api/games/$game")
has "the game is Klein-bottle chess" "$st" '"variant":"klein-bottle"'
r=$("${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' \
  --data "{\"token\":\"${eve_url#*#token=}\",\"move\":\"d2d3\"}" "$U/api/games/$game/move")
is "Eve (White: Dan asked for Black) moves first" "$(code "$r")" 200
home=$(get /dev/null "$U/")
has "home: the seek went once taken" "$home" '<span class="tc-seek-count">0</span> open seeks'
has "home: one game being played" "$home" '<span class="tc-live-count">1</span> game being played'
# the archive: players and ratings from the lobby, filters, pages, bad queries
anon=$("${C[@]}" -X POST -H 'Content-Type: application/json' --data '{"variant":"torus"}' "$U/api/games" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')
r=$(get /dev/null "$U/games")
is "archive: 200" "$(code "$r")" 200
row=$(grep "data-game=\"$game\"" <<< "$r")
has "archive: White's name and rating" "$row" 'class="tc-game-white"><a class="tc-player" href="/@/Eve">Eve</a> <span class="tc-rating">(1500?)</span>'
has "archive: Black's name" "$row" 'href="/@/Dan">Dan</a>'
has "archive: the variant's title, rated" "$row" 'Klein Bottle Chess <span class="tc-rated">rated</span>'
has "archive: unfinished in words" "$row" '>Playing<'
has "archive: an anonymous game" "$(grep "data-game=\"$anon\"" <<< "$r")" 'tc-game-white"><span class="tc-player-anon">Anonymous</span>'
has "archive: linked from the home page" "$(get /dev/null "$U/")" 'href="/games"'
r=$(get /dev/null "$U/games?player=EVE")
has "archive: a player's games (any case)" "$r" "data-game=\"$game\""
grep -q "data-game=\"$anon\"" <<< "$r" && bad "archive: the player filter kept an anonymous game"
is "archive: a player with no games" "$(get /dev/null "$U/games?player=nobody" | grep -c 'data-game=')" 0
has "archive: none match, in words" "$(get /dev/null "$U/games?player=nobody")" "No games match."
is "archive: a variant filter" "$(get /dev/null "$U/games?variant=torus" | grep -c "data-game=\"$game\"")" 0
has "archive: result filter" "$(get /dev/null "$U/games?result=*&variant=klein-bottle")" "data-game=\"$game\""
is "archive: finished games only" "$(get /dev/null "$U/games?result=1-0" | grep -c "data-game=\"$game\"")" 0
r=$(get /dev/null "$U/games?variant=nope")
is "archive: an unknown variant: 404" "$(code "$r")" 404
has "archive: an unknown variant, in words" "$r" "no variant &#39;nope&#39; on this hub\|no variant 'nope' on this hub"
is "archive: a bad result: 400" "$(code "$(get /dev/null "$U/games?result=win")")" 400
is "archive: page 0: 400" "$(code "$(get /dev/null "$U/games?page=0")")" 400
is "archive: a page past the end" "$(get /dev/null "$U/games?page=2" | grep -c 'No more games.')" 1
j=$("${C[@]}" "$U/api/games?player=dan")
has "API list: the players" "$j" '"white":{"name":"Eve","rating":1500,"provisional":true}'
has "API list: rated" "$j" '"rated":true'
is "API list: a bad result: 400" "$("${C[@]}" -o /dev/null -w '%{http_code}' "$U/api/games?result=2-0")" 400
# an aborted rated game (one ply played) counts for nobody's rating
r=$("${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' \
  --data "{\"token\":\"${dan_url#*#token=}\"}" "$U/api/games/$game/abort")
is "Dan aborts the rated game after one ply" "$(code "$r")" 200
has "aborted: no result" "$r" '"result":"-"'
has "the game page names the players" "$(get /dev/null "$U/game/$game")" '"players":{"white":{"name":"Eve","rating":1500,"provisional":true},"black":{"name":"Dan"'
sleep 1.5 # the lobby's thread looks at ended games every 0.3 s
has "aborted: Dan still unrated" "$(get /dev/null "$U/@/Dan")" "No rated games yet"
has "aborted: Eve still unrated" "$(get /dev/null "$U/@/Eve")" "No rated games yet"
r=$(form "$tmp/t2.jar" "$U/lobby/seek/$sid/accept" "csrf=x")
is "a taken seek, anonymous: 401" "$(code "$r")" 401
form "$tmp/f.jar" "$U/signup" 'name=Fay&password=lobby+password&password2=lobby+password' > /dev/null
form "$tmp/f.jar" "$U/login" 'name=Fay&password=lobby+password' > /dev/null
r=$(form "$tmp/f.jar" "$U/lobby/seek/$sid/accept" "csrf=$(csrf "$tmp/f.jar")")
is "a seek taken (its owner told) answers 409, as docs/accounts.md says" "$(code "$r")" 409
has "a taken seek: message" "$r" "taken by someone else first"
r=$(form "$D" "$U/lobby/seek" "csrf=$(csrf "$D")&variant=torus&clock=10%2B5")
is "a second seek" "$(code "$r")" 303
has "listed" "$(curl -s "$U/api/lobby")" '"variant":"torus"'
r=$(form "$D" "$U/lobby/seek" "csrf=$(csrf "$D")&variant=mobius&clock=corr3")
is "a correspondence seek" "$(code "$r")" 303
kill $dan_pid 2>/dev/null; wait $dan_pid 2>/dev/null
until_ok 10 bash -c "! curl -s '$U/api/lobby' | grep -q '\"variant\":\"torus\"'" || bad "Dan's seek outlived his stream"
has "a correspondence seek stays without its owner's stream (docs/correspondence.md)" "$(curl -s "$U/api/lobby")" '"variant":"mobius"'
r=$(form "$D" "$U/lobby/seek/$(curl -s "$U/api/lobby" | jq -r '.seeks[] | select(.variant == "mobius") | .id')/cancel" "csrf=$(csrf "$D")")
is "withdrawn by its owner" "$(code "$r")" 303
until_ok 10 grep -q '"seeks":\[\]' "$tmp/watch.sse" || bad "the watcher did not see the seek go"
# a challenge reaches its player's stream; accepting it sends the challenger in
stream "$E" "$tmp/eve.sse"; eve_pid=$spid
stream "$D" "$tmp/dan2.sse"; dan_pid=$spid
until_ok 10 grep -q '^event: seeks' "$tmp/eve.sse" || bad "Eve's stream sent no list"
r=$(form "$D" "$U/@/eve/challenge" "csrf=$(csrf "$D")&variant=torus&clock=corr3&rated=1")
is "Dan challenges Eve" "$(code "$r")" 303
until_ok 10 grep -q '"to_you":1' "$tmp/eve.sse" || bad "Eve's stream did not hear of the challenge"
cid=$(get "$E" "$U/lobby" | sed -n 's|.*action="/lobby/seek/\([0-9a-f]*\)/accept".*|\1|p' | head -n 1)
r=$(form "$E" "$U/lobby/seek/$cid/accept" "csrf=$(csrf "$E")")
is "Eve accepts" "$(code "$r")" 303
until_ok 10 grep -q '^event: start' "$tmp/dan2.sse" || bad "Dan's stream got no start for his challenge"
# the rated challenge ends; the archive and the player pages keep the
# ratings the players had when it began, while their ratings move on
eve_url=$(sed -n 's/^Location: \(.*\)\r$/\1/p' <<< "$r")
cgame=${eve_url#/game/}; cgame=${cgame%%#*}
# the players act as their signed-in selves, without the link's token:
# the session's CSRF token and a same-origin request, as forms need
act() { # JAR ACTION JSON [curl options]
  local jar=$1 action=$2 data=$3; shift 3
  "${C[@]}" -b "$jar" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' --data "$data" "$@" "$U/api/games/$cgame/$action"
}
dan_side=$(get "$D" "$U/api/games/$cgame" | sed -n 's/.*"you":"\([a-z]*\)".*/\1/p')
eve_side=$(get "$E" "$U/api/games/$cgame" | sed -n 's/.*"you":"\([a-z]*\)".*/\1/p')
is "the players' sessions know their sides" "$dan_side$eve_side" "$([ "$dan_side" = white ] && echo whiteblack || echo blackwhite)"
is "a watcher's state names no side" "$(get "$tmp/f.jar" "$U/api/games/$cgame" | grep -c '"you"')" 0
if [ "$dan_side" = white ]; then WJ=$D BJ=$E; else WJ=$E BJ=$D; fi
r=$(act "$WJ" move '{"move":"e3"}')
is "a session's move without the CSRF token: 403" "$(code "$r")" 403
has "no CSRF: message" "$r" "no CSRF token"
r=$(act "$WJ" move '{"move":"e3"}' -H "X-CSRF-Token: $(csrf "$WJ")" -H 'Origin: https://evil.test')
is "a session's move from another site: 403" "$(code "$r")" 403
r=$(act "$WJ" move '{"move":"e3"}' -H "X-CSRF-Token: $(csrf "$BJ")")
is "another session's CSRF token: 403" "$(code "$r")" 403
r=$(act "$tmp/f.jar" move '{"move":"e3"}' -H "X-CSRF-Token: $(csrf "$tmp/f.jar")")
is "a signed-in non-player: 403" "$(code "$r")" 403
has "a non-player: message" "$r" "logged in as Fay, who plays neither side of this game"
r=$(act "$tmp/f.jar" chat '{"text":"hi"}' -H "X-CSRF-Token: $(csrf "$tmp/f.jar")")
is "a non-player's chat: 403" "$(code "$r")" 403
is "nothing was played by the refused requests" "$("${C[@]}" "$U/api/games/$cgame" | grep -c '"moves":\[\]')" 1
r=$(act "$WJ" move '{"move":"e3"}' -H "X-CSRF-Token: $(csrf "$WJ")")
is "White's move by session" "$(code "$r")" 200
r=$(act "$BJ" move "{\"move\":\"e6\",\"csrf\":\"$(csrf "$BJ")\"}")
is "Black's move by session (the token in the body)" "$(code "$r")" 200
r=$(act "$BJ" draw "{\"action\":\"offer\",\"csrf\":\"$(csrf "$BJ")\"}")
is "Black's draw offer by session" "$(code "$r")" 200
r=$(act "$WJ" draw "{\"action\":\"decline\",\"csrf\":\"$(csrf "$WJ")\"}")
is "White declines by session" "$(code "$r")" 200
r=$(act "$BJ" chat "{\"text\":\"good game\",\"csrf\":\"$(csrf "$BJ")\"}")
is "Black's chat by session" "$(code "$r")" 201
is "the chat read by White's session" "$(get "$WJ" "$U/api/games/$cgame/chat" | grep -c 'good game')" 1
is "the chat refused to a signed-in watcher" "$(code "$(get "$tmp/f.jar" "$U/api/games/$cgame/chat")")" 403
r=$("${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' \
  --data "{\"token\":\"${eve_url#*#token=}\"}" "$U/api/games/$cgame/resign")
is "Eve resigns the rated challenge" "$(code "$r")" 200
until_ok 10 bash -c "curl -s '$U/@/Eve' | grep -q 'class=\"tc-ratings\"'" || bad "Eve's loss was not counted"
eve_now=$(get /dev/null "$U/@/Eve" | sed -n 's|.*<td class="tc-rating">\([0-9]*\).*|\1|p' | head -n 1)
[ -n "$eve_now" ] && [ "$eve_now" -lt 1500 ] || bad "Eve's rating after a loss: '$eve_now', expected below 1500"
row=$(get /dev/null "$U/games?player=eve" | grep "data-game=\"$cgame\"")
has "archive: Eve's rating as the game began" "$row" 'href="/@/Eve">Eve</a> <span class="tc-rating">(1500?)</span>'
has "archive: Dan's rating as the game began" "$row" 'href="/@/Dan">Dan</a> <span class="tc-rating">(1500?)</span>'
has "API list: Eve's rating as the game began (docs/api.md), not today's $eve_now" "$("${C[@]}" "$U/api/games?player=eve" | jq -c ".[] | select(.id == \"$cgame\") | [.white.name, .white.rating, .black.name, .black.rating]")" '1500,.*1500\]'
has "player page: the game with the ratings it began with" "$(get /dev/null "$U/@/Dan")" 'href="/@/Eve">Eve</a> <span class="tc-rating">(1500?)</span>'
# a rematch by session: offered by Dan, accepted by Eve; both play it as themselves
r=$(act "$D" rematch "{\"csrf\":\"$(csrf "$D")\"}")
is "Dan offers a rematch by session" "$(code "$r")" 200
r=$(act "$E" rematch "{\"action\":\"accept\",\"csrf\":\"$(csrf "$E")\"}")
is "Eve accepts it by session" "$(code "$r")" 201
rgame=$(sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p' <<< "$r")
is "Dan's side in the rematch, by session" "$(get "$D" "$U/api/games/$rgame" | grep -o '"you":"[a-z]*"')" "\"you\":\"$eve_side\""
dan_now=$(get /dev/null "$U/@/Dan" | sed -n 's|.*<td class="tc-rating">\([0-9]*\).*|\1|p' | head -n 1)
[ -n "$dan_now" ] && [ "$dan_now" -gt 1500 ] || bad "Dan's rating after a win: '$dan_now'"
has "the rematch began with Dan's rating after the win" "$(get /dev/null "$U/games?player=dan" | grep "data-game=\"$rgame\"")" "href=\"/@/Dan\">Dan</a> <span class=\"tc-rating\">($dan_now?)</span>"
r=$(form "$E" "$U/@/Eve/challenge" "csrf=$(csrf "$E")&variant=torus&clock=corr3")
is "a challenge to oneself: 400" "$(code "$r")" 400
kill $eve_pid $dan_pid 2>/dev/null
kill $watch_pid 2>/dev/null; wait $watch_pid 2>/dev/null

# ---- Secure cookies
start secure --secure-cookies
r=$(form "$tmp/s.jar" "http://127.0.0.1:$port/login" 'name=alice&password=klein+bottle')
has "--secure-cookies: Secure" "$r" "SameSite=Lax; Secure"
start proxied --trusted-proxy 127.0.0.1
UP=http://127.0.0.1:$port
r=$(form "$tmp/p.jar" "http://127.0.0.1:$port/login" 'name=alice&password=klein+bottle' -H 'X-Forwarded-Proto: https')
has "trusted proxy over HTTPS: Secure" "$r" "SameSite=Lax; Secure"
r=$(form "$tmp/p2.jar" "$U/login" 'name=alice&password=klein+bottle' -H 'X-Forwarded-Proto: https')
grep -q "Secure" <<< "$(grep -i '^Set-Cookie' <<< "$r")" && bad "X-Forwarded-Proto believed from an untrusted peer"
is "untrusted X-Forwarded-Proto ignored" "$(code "$r")" 303

# ---- seeks per address (behind the trusted proxy: the address it names)
G=$tmp/gus.jar H=$tmp/hal.jar
form "$G" "$UP/signup" 'name=Gus&password=lobby+password&password2=lobby+password' -H 'X-Forwarded-For: 198.51.100.20' > /dev/null
form "$H" "$UP/signup" 'name=Hal&password=lobby+password&password2=lobby+password' -H 'X-Forwarded-For: 198.51.100.21' > /dev/null
seek_from() { form "$1" "$UP/lobby/seek" "csrf=$(csrf "$1")&variant=torus&clock=corr3" -H "X-Forwarded-For: $2"; }
for i in 1 2 3; do is "Gus's seek $i" "$(code "$(seek_from "$G" 203.0.113.7)")" 303; done
r=$(seek_from "$G" 203.0.113.8)
is "a 4th seek of one account: 429" "$(code "$r")" 429
has "per account: message" "$r" "you have 3 open seeks"
is "Hal's seek 1 from Gus's address" "$(code "$(seek_from "$H" 203.0.113.7)")" 303
is "Hal's seek 2 from Gus's address" "$(code "$(seek_from "$H" 203.0.113.7)")" 303
r=$(seek_from "$H" 203.0.113.7)
is "a 6th seek from one address: 429" "$(code "$r")" 429
has "per address: message" "$r" "5 open seeks and challenges come from your address already (203.0.113.7): at most 5 per address"
is "Hal from another address" "$(code "$(seek_from "$H" 203.0.113.8)")" 303
is "the refused seeks were not stored" "$(curl -s "$U/api/lobby" | grep -o '"name":"\(Gus\|Hal\)"' | wc -l)" 6

# ---- a lobby watcher that reads nothing: its backlog is dropped, it is
# told with an overflow event, its stream ends (sse_stall.py: a socket with a
# small receive buffer that reads nothing while the list changes)
for k in $(seq 1 12); do
  j=$tmp/many$k.jar
  form "$j" "$UP/signup" "name=Many$k&password=lobby+password&password2=lobby+password" -H "X-Forwarded-For: 198.51.100.$((40 + k))" > /dev/null
  for i in 1 2 3; do seek_from "$j" "203.0.113.$((40 + k))" > /dev/null; done
done
python3 tests/server/sse_stall.py "${UP##*:}" /api/lobby/events "$tmp/lobby-read-now" seeks > "$tmp/lobby-stalled" &
spy=$!; pids+=($spy)
until_ok 5 grep -qs '^open' "$tmp/lobby-stalled" || bad "stalled lobby watcher: did not connect"
sleep 0.5
gtok=$(csrf "$G")
for k in $(seq 1 30); do
  gid=$(curl -s "$U/api/lobby" | grep -o '"id":"[0-9a-f]*","name":"Gus"' | head -n 1 | sed 's/"id":"\([0-9a-f]*\)".*/\1/')
  form "$G" "$UP/lobby/seek/$gid/cancel" "csrf=$gtok" -H 'X-Forwarded-For: 203.0.113.7' > /dev/null
  form "$G" "$UP/lobby/seek" "csrf=$gtok&variant=torus&clock=corr$((1 + k % 2 * 2))" -H 'X-Forwarded-For: 203.0.113.7' > /dev/null
done
touch "$tmp/lobby-read-now"
until_ok 15 grep -qs 'ended\|open [0-9]' "$tmp/lobby-stalled" || true
read -r told ended nlists < <(tail -n 1 "$tmp/lobby-stalled")
is "stalled lobby watcher: told with an overflow event" "$told" overflow
is "stalled lobby watcher: its stream ended" "$ended" ended
[ "${nlists:-61}" -lt 61 ] && passed=$((passed + 1)) || bad "stalled lobby watcher: all $nlists lists kept for it"

# ---- a second process on the same database
if [ $mode = postgresql ]; then
  start second
  U2=http://127.0.0.1:$port
  r=$(form "$tmp/c.jar" "$U/signup" 'name=Carol&password=torus+knight&password2=torus+knight')
  is "a 6th sign-up from one address in an hour: 429" "$(code "$r")" 429
  # through the trusted proxy, from another client address
  r=$(form "$tmp/c.jar" "$UP/signup" 'name=Carol&password=torus+knight&password2=torus+knight' -H 'X-Forwarded-For: 198.51.100.9')
  is "sign-up through the proxy" "$(code "$r")" 303
  r=$(form "$tmp/c.jar" "$U/login" 'name=Carol&password=torus+knight')
  is "login on process 1" "$(code "$r")" 303
  is "the session on process 2" "$(code "$(get "$tmp/c.jar" "$U2/account")")" 200
  tok=$(csrf "$tmp/c.jar")
  is "log out on process 2" "$(code "$(form "$tmp/c.jar" "$U2/logout" "csrf=$tok")")" 303
  cp "$tmp/c.jar" "$tmp/c2.jar"
  r=$(form "$tmp/c.jar" "$U2/login" 'name=carol&password=torus+knight')
  is "login on process 2" "$(code "$r")" 303
  is "ended everywhere, then a fresh one on process 1" "$(code "$(get "$tmp/c.jar" "$U/account")")" 200
  # the lobby across processes: a watcher and the owner on process 2, the seek and its taker on process 1
  stream /dev/null "$tmp/w2.sse" "$U2"; w2=$spid
  stream "$tmp/c.jar" "$tmp/c2.sse" "$U2"; c2=$spid
  until_ok 10 grep -q '^event: seeks' "$tmp/c2.sse" || bad "process 2: no list"
  r=$(form "$tmp/c.jar" "$U/lobby/seek" "csrf=$(csrf "$tmp/c.jar")&variant=mobius&clock=10%2B5")
  is "seek on process 1" "$(code "$r")" 303
  until_ok 10 grep -q '"variant":"mobius"' "$tmp/w2.sse" || bad "process 2's watcher did not see it"
  sid=$(curl -s "$U/api/lobby" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
  r=$(form "$E" "$U/lobby/seek/$sid/accept" "csrf=$(csrf "$E")")
  is "accepted on process 1" "$(code "$r")" 303
  until_ok 10 grep -q '^event: start' "$tmp/c2.sse" || bad "the owner on process 2 got no start event"
  # a quiet lobby asks the database little: changes come by NOTIFY, only
  # the beat (every 3 s: sweep, keep-alive) reads the seeks; the fewest
  # reads of the seeks table in two windows of 3 s, with a watcher and an
  # owner on process 2 (statistics reach pg_stat_user_tables late)
  psql_do() { "$TG_PG_BIN/psql" -X -q -t -A "$TG_TEST_DB" -c "$1" 2>/dev/null; }
  scans() { psql_do "SELECT COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'seeks'"; }
  d=1000000
  for _ in 1 2; do s0=$(scans); sleep 3; s1=$(scans); [ $((s1 - s0)) -lt $d ] && d=$((s1 - s0)); done
  [ "$d" -lt 15 ] && passed=$((passed + 1)) || bad "lobby: $d reads of the seeks in 3 s with nothing changing (polling?)"
  echo "people-test: seeks read $d times in 3 s by a quiet lobby on 4 processes"
  kill $w2 $c2 2>/dev/null
fi

# ---- password change (docs/accounts.md): the current password, CSRF, a common password refused, every session ended
P1=$tmp/pat1.jar P2=$tmp/pat2.jar PA=198.51.100.77 # behind the trusted proxy: sign-ups are counted per address
r=$(form "$P1" "$UP/signup" 'name=Pat&password=password1&password2=password1' -H "X-Forwarded-For: $PA")
is "sign-up with a common password: 400" "$(code "$r")" 400
has "common password: message" "$r" "one of the most common ones"
r=$(form "$P1" "$UP/signup" 'name=Pat&password=Pat+pawn+storm&password2=Pat+pawn+storm' -H "X-Forwarded-For: $PA")
is "sign-up Pat" "$(code "$r")" 303
form "$P2" "$UP/login" 'name=pat&password=Pat+pawn+storm' > /dev/null
has "the account page has the change form" "$(get "$P1" "$UP/account")" 'action="/account/password"'
pw() { form "$1" "$UP/account/password" "$2" -H "X-Forwarded-For: $PA"; }
r=$(pw "$P1" "current=Pat+pawn+storm&password=new+pawn+storm&password2=new+pawn+storm")
is "change without the CSRF token: 403" "$(code "$r")" 403
r=$(pw /dev/null "csrf=x&current=Pat+pawn+storm&password=new+pawn+storm&password2=new+pawn+storm")
is "change without a session: 401" "$(code "$r")" 401
r=$(pw "$P1" "csrf=$(csrf "$P1")&current=wrong+password&password=new+pawn+storm&password2=new+pawn+storm")
is "change with a wrong current password: 401" "$(code "$r")" 401
has "wrong current: message" "$r" "the current password is wrong"
r=$(pw "$P1" "csrf=$(csrf "$P1")&current=Pat+pawn+storm&password=qwerty123&password2=qwerty123")
is "change to a common password: 400" "$(code "$r")" 400
has "change to a common password: message" "$r" "one of the most common ones"
r=$(pw "$P1" "csrf=$(csrf "$P1")&current=Pat+pawn+storm&password=PAT&password2=PAT")
is "change to a short password: 400" "$(code "$r")" 400
r=$(pw "$P1" "csrf=$(csrf "$P1")&current=Pat+pawn+storm&password=new+pawn+storm&password2=other+pawn+storm")
is "change with differing new passwords: 400" "$(code "$r")" 400
is "the refused changes kept the other session" "$(code "$(get "$P2" "$UP/account")")" 200
r=$(pw "$P1" "csrf=$(csrf "$P1")&current=Pat+pawn+storm&password=new+pawn+storm&password2=new+pawn+storm")
is "change: 303" "$(code "$r")" 303
has "change: back to the account page" "$r" "Location: /account?password=changed"
has "change: a new session cookie" "$r" "Set-Cookie: tc_session=[A-Za-z0-9_-]\{43\}"
has "change: said on the account page" "$(get "$P1" "$UP/account?password=changed")" "Your password was changed"
is "change: the other session is ended" "$(code "$(get "$P2" "$UP/api/account")")" 401
is "change: the old password logs in no more" "$(code "$(form "$tmp/pat3.jar" "$UP/login" 'name=Pat&password=Pat+pawn+storm')")" 401
is "change: the new one does" "$(code "$(form "$tmp/pat3.jar" "$UP/login" 'name=Pat&password=new+pawn+storm')")" 303

# ---- a clean stop (SIGTERM) with a lobby stream open on every server; no
# sanitizer report (when BIN is a sanitized build) on any server's stderr
stream /dev/null "$tmp/last.sse"
until_ok 10 grep -q '^event: seeks' "$tmp/last.sse" || bad "no stream before the stop"
main_pid=${pids[0]}
kill -TERM "$main_pid"; wait "$main_pid"; rc=$?
is "stop with a lobby stream open: exit status" "$rc" 0
is "no fatal error or sanitizer report" "$(cat "$tmp"/*.err | grep -c -E 'Fatal|Sanitizer|runtime error')" 0

echo "people-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
