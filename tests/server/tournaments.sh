#!/usr/bin/env bash
# Tournaments end to end (docs/tournaments.md, issue 31): eight accounts,
# each a scripted client playing legal moves through the API (the legal
# moves from `topochess moves`), play two short arenas at once, one on a
# preset (torus) and one on a published custom variant (a page written,
# submitted and published in the test), then four of them a round-robin
# to the end. Checked: the standings equal a recomputation from the games'
# own results (GET /api/games/ID, with the arena's streak rule written out
# here); nobody meets the same opponent twice in a row; in the
# round-robin everyone met everyone once; the winners on the player
# pages; the PGN's Event tag and the archive's link to the tournament; the forms' refusals (CSRF, limits, bad
# fields). Two server processes share the database; the pairer runs on the
# one holding the lease, and the one that holds it is killed mid-arena
# (kill -9) so that the other takes over.
#
# On SQLite by default; TG_TEST_DB=postgresql://... under
# tools/with-postgres (make tournaments-pg-test). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin tournaments-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/t.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac
sql() {
  if [ $mode = postgresql ]; then "${TG_PG_BIN:-/usr/bin}/psql" -X -q -t -A "$DB" -c "$1"; else sqlite3 "$DB" "$1"; fi
}
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
is() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
has() { if [[ "$2" == *"$3"* ]]; then ok; else bad "$1: '$3' not in '${2:0:300}'"; fi; }

# wait_for SECONDS COMMAND...: as until_ok, polling every half second (the
# checks here run curl and jq: polling faster would load the machine)
wait_for() {
  local end=$((SECONDS + $1))
  shift
  while ! "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.5
  done
}
start() { server_start "$1" --pages variants --db "$DB" --trusted-proxy 127.0.0.1; }
# process one starts first and takes the pairer's lease at its first beat;
# two starts once it is held, and waits
start one
U=http://127.0.0.1:$port; one=$pid
held() { [ -n "$(sql "SELECT owner FROM tournament_lease")" ]; }
wait_for 15 held || bad "process one took no lease"
holder=$(sql "SELECT owner FROM tournament_lease")
start two
U2=http://127.0.0.1:$port
echo "tournaments-test: $mode, servers on ${U##*:} and ${U2##*:}"

token() { "${C[@]}" -b "$1" "$U/api/account" | jq -r .csrf; }
signup() { # JAR NAME ADDRESS
  form "$1" "$U/signup" "name=$2&password=tourney+pw+$2&password2=tourney+pw+$2" -H "X-Forwarded-For: $3" > /dev/null
}
apost() { # JAR PATH [FORM [curl options]]: a form to an /api/ route with the session's token; the answer, then the status
  "${C[@]}" -b "$1" -w '\n%{http_code}' -H "X-CSRF-Token: $(token "$1")" -H 'Content-Type: application/x-www-form-urlencoded' \
    --data-binary "${3:-}" "${@:4}" "$U$2"
}

names=(Ann Bob Cy Dee Eve Fay Gus Hal)
for i in "${!names[@]}"; do signup "$tmp/${names[i]}.jar" "${names[i]}" "198.51.100.$((i + 1))"; done
signup "$tmp/ed.jar" Eda 198.51.100.20
"$BIN" admin editor Eda --db "$DB" > /dev/null 2>&1 || bad "admin editor Eda"

# ---- a custom variant: Ann writes a page, Eda publishes it
slug=tstrip-$RANDOM
printf -- '---\ntitle: "Tourney strip"\nslug: %s\ndescription: "6x10, ranks joined with a half-twist"\nengine:\n  topology:\n    type: grid\n    rows: 10\n    cols: 6\n    wrap: mobius\n    ranks: twist\n    seam: 9\n  setup: "PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR"\n---\n\n## A strip\n' "$slug" > "$tmp/$slug.md"
r=$("${C[@]}" -b "$tmp/Ann.jar" -w '\n%{http_code}' -H 'Content-Type: text/markdown' -H "X-CSRF-Token: $(token "$tmp/Ann.jar")" \
  --data-binary "@$tmp/$slug.md" "$U/api/pages/$slug?base=0")
is "the custom page is saved" "$(code "$r")" 200
r=$("${C[@]}" -b "$tmp/Ann.jar" -w '\n%{http_code}' -H "X-CSRF-Token: $(token "$tmp/Ann.jar")" -X POST "$U/api/pages/$slug/submit")
is "submitted" "$(code "$r")" 200
r=$("${C[@]}" -b "$tmp/ed.jar" -w '\n%{http_code}' -H "X-CSRF-Token: $(token "$tmp/ed.jar")" -X POST "$U/api/pages/$slug/publish")
is "published" "$(code "$r")" 200

# ---- refusals
r=$("${C[@]}" -w '\n%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' --data-binary 'name=x' "$U/api/tournaments")
is "not signed in: 401" "$(code "$r")" 401
r=$("${C[@]}" -b "$tmp/Ann.jar" -w '\n%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
  --data-binary 'name=Nope&variant=torus&clock=3%2B2&minutes=5' "$U/api/tournaments")
is "no CSRF token: 403" "$(code "$r")" 403
r=$("${C[@]}" -b "$tmp/Ann.jar" -w '\n%{http_code}' -H "X-CSRF-Token: $(token "$tmp/Ann.jar")" -X POST "$U/api/tournaments")
is "no form: 415" "$(code "$r")" 415
has "no form: a JSON error" "$r" '{"error":"send the form as application/x-www-form-urlencoded"}'
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Nope&variant=torus&clock=3%2B2&minutes=5' -H 'Origin: http://evil.test')
is "another site's Origin: 403" "$(code "$r")" 403
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Bad&variant=nowhere&clock=3%2B2&minutes=5')
is "an unknown variant: 400" "$(code "$r")" 400
has "an unknown variant: message" "$r" "no variant 'nowhere'"
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Bad&variant=torus&clock=corr3&minutes=5')
is "an arena by correspondence: 400" "$(code "$r")" 400
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Bad&variant=torus&clock=3%2B2&minutes=999')
is "an arena too long: 400" "$(code "$r")" 400
has "too long: message" "$r" "1 to 360"
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Bad&kind=round-robin&variant=torus&clock=3%2B2&max_players=17')
is "a round-robin of 17: 400" "$(code "$r")" 400
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=x&variant=torus&clock=3%2B2&minutes=5')
is "a name too short: 400" "$(code "$r")" 400
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Bad&kind=swiss&variant=torus&clock=3%2B2&minutes=5')
is "an unknown kind: 400" "$(code "$r")" 400
is "a bad id: 404" "$(http_code "$U/api/tournament/zzzz")" 404
is "no such tournament: 404" "$(http_code "$U/api/tournament/0123456789ab")" 404

# ---- two arenas, one minute each, both made by Ann (her limit is 2)
arena() { # NAME VARIANT: the id
  local r
  r=$(apost "$tmp/Ann.jar" /api/tournaments "name=$1&variant=$2&clock=3%2B2&minutes=1&starts_in=0&rated=1")
  [ "$(code "$r")" = 201 ] || bad "making $1: $r"
  body "$r" | jq -r .id
}
A1=$(arena 'Torus+arena' torus)
A2=$(arena 'Strip+%3Cb%3Earena%3C%2Fb%3E' "$slug")
# a watcher of the custom arena's page stream, on process two (which
# lives to the end): it must get each change pushed (the joins, the
# pairings, the results), and the stream must end by itself once the
# arena is over
curl -sN --max-time 300 "$U2/api/tournament/$A2/events" > "$tmp/live.A2" & live=$!
is "a stream of no tournament: 404" "$(curl -s -o /dev/null -w '%{http_code}' "$U2/api/tournament/0123456789ab/events")" 404
r=$(apost "$tmp/Ann.jar" /api/tournaments 'name=Third&variant=torus&clock=3%2B2&minutes=5')
is "a third of Ann's: 429" "$(code "$r")" 429
for n in "${names[@]}"; do
  for t in "$A1" "$A2"; do
    r=$(apost "$tmp/$n.jar" "/api/tournament/$t/join")
    is "$n joins $t" "$(code "$r")" 200
  done
  # a second watcher that comes while the joins go on: its first state
  # and the beat's next ones race, and its versions too must only grow
  [ "$n" = Cy ] && { curl -sN --max-time 300 "$U2/api/tournament/$A2/events" > "$tmp/live2.A2" & live2=$!; }
done
r=$(apost "$tmp/Ann.jar" "/api/tournament/$A1/join")
is "joining twice: 409" "$(code "$r")" 409
page=$("${C[@]}" "$U/tournament/$A2")
has "the page escapes the name" "$page" "Strip &lt;b&gt;arena&lt;/b&gt;"
has "the list links it" "$("${C[@]}" "$U/tournaments")" "/tournament/$A2"

# The scripted player (on process two: process one is killed mid-arena): for each of its tournaments, its game in progress;
# on its turn a random legal move (until its tournaments are over), and from ply K on (2 to 4, from the
# game's id) the game ends: a draw offered and accepted for ids whose
# first digit is below 5, else the side to move resigns.
player() { # NAME DEADLINE TOURNAMENT...
  local n=$1 jar=$tmp/$1.jar deadline=$2 csrf t j g st turn you fen plies k var mv offer over U=$U2
  shift 2
  csrf=$(token "$jar")
  while [ $SECONDS -lt "$deadline" ]; do
    over=0
    for t in "$@"; do
      j=$("${C[@]}" "$U/api/tournament/$t")
      case $(jq -r .state <<< "$j") in finished | cancelled) over=$((over + 1)); continue ;; esac
      g=$(jq -r --arg n "$n" '.standings[] | select(.name == $n) | .playing // empty' <<< "$j")
      [ -n "$g" ] || continue
      st=$("${C[@]}" -b "$jar" "$U/api/games/$g")
      [ "$(jq -r .status <<< "$st")" = active ] || continue
      turn=$(jq -r .turn <<< "$st") you=$(jq -r .you <<< "$st")
      offer=$(jq -r '.draw_offer // empty' <<< "$st")
      if [ -n "$offer" ] && [ "$offer" != "$you" ]; then
        "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' \
          -d '{"action":"accept"}' "$U/api/games/$g/draw"
        continue
      fi
      [ "$turn" = "$you" ] || continue
      plies=$(jq '.moves | length' <<< "$st")
      k=$((2 + 0x${g:1:1} % 3))
      if [ "$plies" -ge "$k" ]; then
        if [ $((0x${g:0:1})) -lt 5 ]; then
          [ -n "$offer" ] || "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' \
            -d '{"action":"offer"}' "$U/api/games/$g/draw"
        else
          "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' -d '{}' "$U/api/games/$g/resign"
        fi
        continue
      fi
      fen=$(jq -r .fen <<< "$st") var=$(jq -r .variant <<< "$st")
      if [ "$var" = "$slug" ]; then var=(--variant-file "$tmp/$slug.md"); else var=(--variant "$var"); fi
      mv=$("$BIN" moves "${var[@]}" --fen "$fen" --uci 2> /dev/null | shuf -n 1)
      [ -n "$mv" ] && "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' \
        -d "{\"move\":\"$mv\"}" "$U/api/games/$g/move"
    done
    [ $over -lt $# ] || return 0 # all its tournaments are over
    sleep 0.3
  done
}

# ---- a round-robin of four, played at the same time as the arenas
# (made to start in a minute; once its four have joined, the test moves
# the start to now in the database rather than wait)
r=$(apost "$tmp/Bob.jar" /api/tournaments 'name=Four+torus&kind=round-robin&variant=torus&clock=5%2B3&starts_in=1&max_players=4')
is "a round-robin made" "$(code "$r")" 201
R=$(body "$r" | jq -r .id)
for n in Bob Cy Dee Eve Fay; do apost "$tmp/$n.jar" "/api/tournament/$R/join" > "$tmp/join.$n"; done
is "a fifth player: full (409)" "$(code "$(cat "$tmp/join.Fay")")" 409
sql "UPDATE tournaments SET starts_ms = 0 WHERE id = '$R'" > /dev/null

# the arenas start at the next beat, the round-robin too; the players
# play until all three end
deadline=$((SECONDS + 160))
for n in "${names[@]}"; do player "$n" "$deadline" "$A1" "$A2" "$R" & pids+=($!); done
state() { "${C[@]}" "$U/api/tournament/$1" | jq -r .state; }
running() { [ "$(state "$A1")" = running ]; }
wait_for 10 running || bad "the torus arena did not start"
# Eve pauses the torus arena and comes back
sleep 8
r=$(apost "$tmp/Eve.jar" "/api/tournament/$A1/withdraw")
is "Eve pauses" "$(code "$r")" 200
is "process one still holds the lease" "$(sql "SELECT owner FROM tournament_lease")" "$holder"
sleep 3
r=$(apost "$tmp/Eve.jar" "/api/tournament/$A1/join")
is "Eve comes back" "$(code "$r")" 200
# the lease holder dies (kill -9: no lease given up): process two takes
# the lease once it lapses (10 s) and pairs from then on
kill -KILL "$one"; wait "$one" 2> /dev/null
U=$U2
lease_moved() { [ "$(sql "SELECT owner FROM tournament_lease")" != "$holder" ]; }
wait_for 20 lease_moved && ok || bad "process two did not take the lease over"
finished() { [ "$(state "$A1")" = finished ] && [ "$(state "$A2")" = finished ] && [ "$(state "$R")" = finished ]; }
if ! wait_for 150 finished; then
  bad "not all finished: $(state "$A1") $(state "$A2") $(state "$R")"
  for t in "$A1" "$A2" "$R"; do # what is still going on
    for g in $("${C[@]}" "$U/api/tournament/$t" | jq -r '.games[] | select(.counted | not) | .id'); do
      echo "  $t: $("${C[@]}" "$U/api/games/$g" | jq -c '{id, status, turn, plies: (.moves | length), draw_offer}')"
    done
  done
fi

# ---- the checks: standings against the games
check_arena() { # ID LABEL
  local t=$1 j games recomputed standings pairs
  j=$("${C[@]}" "$U/api/tournament/$t")
  games=$(jq -c '[.games[] | select(.counted)]' <<< "$j")
  local ng
  ng=$(jq length <<< "$games")
  [ "$ng" -ge 6 ] && ok || bad "$2: only $ng games counted"
  # each game's result from the game itself
  local res='{}'
  for g in $(jq -r '.[].id' <<< "$games"); do
    res=$(jq -c --arg g "$g" --arg r "$("${C[@]}" "$U/api/games/$g" | jq -r .result)" '. + {($g): $r}' <<< "$res")
  done
  recomputed=$(jq -c --argjson res "$res" '
    [.[] | . as $g | ($res[$g.id]) as $r |
      {p: $g.white, o: $g.black, t: $g.created_ms, r: (if $r == "1-0" then "w" elif $r == "0-1" then "l" elif $r == "1/2-1/2" then "d" else "-" end)},
      {p: $g.black, o: $g.white, t: $g.created_ms, r: (if $r == "1-0" then "l" elif $r == "0-1" then "w" elif $r == "1/2-1/2" then "d" else "-" end)}]
    | group_by(.p) | map(sort_by(.t) | .[0].p as $p | reduce .[] as $x ({name: $p, score: 0, streak: 0};
        if $x.r == "-" then . else
        (if $x.r == "w" then 2 elif $x.r == "d" then 1 else 0 end) as $base |
        .score += (if .streak >= 2 then 2 * $base else $base end) |
        .streak = (if $x.r == "w" then .streak + 1 else 0 end) end) | {name, score})
    | map(select(.score > 0)) | sort_by(.name)' <<< "$games")
  standings=$(jq -c '[.standings[] | select(.score > 0) | {name, score}] | sort_by(.name)' <<< "$j")
  is "$2: the standings equal the recomputation from the games" "$standings" "$recomputed"
  # nobody met the same opponent twice in a row
  pairs=$(jq -r '[.[] | {p: .white, o: .black, t: .created_ms}, {p: .black, o: .white, t: .created_ms}]
    | group_by(.p) | map(sort_by(.t) | [range(1; length) as $i | select(.[$i].o == .[$i - 1].o) | .[$i].p]) | flatten | join(" ")' \
    <<< "$(jq -c '.games' <<< "$j")")
  is "$2: nobody paired twice in a row" "$pairs" ""
  local top
  top=$(jq -r '.standings[0].name' <<< "$j")
  is "$2: the winner is the leader" "$(jq -r .winner <<< "$j")" "$top"
  local pp
  pp=$("${C[@]}" "$U/@/$top")
  has "$2: the winner's page lists it won" "$pp" "Tournaments won</h2>
<ul class=\"tc-tourney-wins\"><li><a href=\"/tournament/"
  has "$2: the winner's page links it" "$pp" "href=\"/tournament/$t\""
  has "$2: the winner's games name it" "$pp" "class=\"tc-game-tournament\" href=\"/tournament/$t\""
  local g1
  g1=$(jq -r '.[0].id' <<< "$games")
  has "$2: the PGN's Event" "$("${C[@]}" "$U/api/games/$g1/pgn")" "[Event \"$(jq -r .name <<< "$j")\"]"
  has "$2: the archive names the tournament" "$("${C[@]}" "$U/games?player=$top")" "href=\"/tournament/$t\""
  local gt
  gt=$(jq -r --arg p "$top" '[.[] | select(.white == $p or .black == $p)][0].id' <<< "$games")
  is "$2: the games' list names it" "$("${C[@]}" "$U/api/games?player=$top&limit=200" | jq -r --arg g "$gt" '.[] | select(.id == $g) | .tournament.id')" "$t"
  echo "tournaments-test: $2: $ng games, standings $standings"
}
check_arena "$A1" "torus arena"
check_arena "$A2" "custom arena"

# ---- the custom arena's stream: every change pushed, in order, to the end
end=$((SECONDS + 15))
while kill -0 "$live" 2> /dev/null && [ $SECONDS -lt $end ]; do sleep 0.5; done
if kill -0 "$live" 2> /dev/null; then bad "the finished arena's stream did not end"; kill "$live"; else ok; fi
wait "$live" 2> /dev/null
states=$(sed -n 's/^data: //p' "$tmp/live.A2" | jq -c '[.version, .state]' | jq -sc .)
n_ev=$(jq length <<< "$states")
[ "$n_ev" -ge 5 ] && ok || bad "the stream sent only $n_ev states: $states"
grows='[range(1; length) as $i | select(.[$i][0] <= .[$i - 1][0])] | length'
is "the stream's versions only grow" "$(jq "$grows" <<< "$states")" 0
while kill -0 "$live2" 2> /dev/null && [ $SECONDS -lt $end ]; do sleep 0.5; done
kill "$live2" 2> /dev/null
wait "$live2" 2> /dev/null
states2=$(sed -n 's/^data: //p' "$tmp/live2.A2" | jq -c '[.version, .state]' | jq -sc .)
is "the second stream's versions only grow" "$(jq "$grows" <<< "$states2")" 0
is "the second stream ends as the first" "$(jq -c '.[-1]' <<< "$states2")" "$(jq -c '.[-1]' <<< "$states")"
has "the stream began before the games" "upcoming running" "$(jq -r '.[0][1]' <<< "$states")"
is "the stream showed the joins as they came" "$(sed -n 's/^data: //p' "$tmp/live.A2" | jq -s '(.[0].standings | length) < (.[-1].standings | length)')" true
has "the stream showed it running" "$(jq -r '[.[][1]] | join(" ")' <<< "$states")" running
is "the stream's last state is the end" "$(jq -r '.[-1][1]' <<< "$states")" finished
is "the stream's last standings are the page's" \
  "$(sed -n 's/^data: //p' "$tmp/live.A2" | tail -n 1 | jq -c '.standings')" \
  "$("${C[@]}" "$U/api/tournament/$A2" | jq -c '.standings')"
is "the stream was pinged" "$(grep -c '^: ping' "$tmp/live.A2" | awk '{print ($1 > 0)}')" 1

# ---- the round-robin, played to the end
j=$("${C[@]}" "$U/api/tournament/$R")
is "six games" "$(jq '[.games[] | select(.counted)] | length' <<< "$j")" 6
is "everyone met everyone once" "$(jq -c '[.games[] | [.white, .black] | sort | join("-")] | unique | length' <<< "$j")" 6
is "three rounds" "$(jq -c '[.games[].round] | unique' <<< "$j")" "[1,2,3]"
res='{}'
for g in $(jq -r '.games[].id' <<< "$j"); do
  res=$(jq -c --arg g "$g" --arg r "$("${C[@]}" "$U/api/games/$g" | jq -r .result)" '. + {($g): $r}' <<< "$res")
done
want=$(jq -c --argjson res "$res" '[.games[] | ($res[.id]) as $r |
    {n: .white, s: (if $r == "1-0" then 2 elif $r == "1/2-1/2" then 1 else 0 end)},
    {n: .black, s: (if $r == "0-1" then 2 elif $r == "1/2-1/2" then 1 else 0 end)}]
  | group_by(.n) | map({name: .[0].n, score: (map(.s) | add)}) | sort_by(.name)' <<< "$j")
is "round-robin: standings from the games" "$(jq -c '[.standings[] | {name, score}] | sort_by(.name)' <<< "$j")" "$want"
is "round-robin: colours (two have White twice, two once)" \
  "$(jq -c '[.games[].white] | group_by(.) | map(length) | sort' <<< "$j")" "[1,1,2,2]"
is "round-robin: the winner is the leader" "$(jq -r .winner <<< "$j")" "$(jq -r '.standings[0].name' <<< "$j")"

echo "tournaments-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
