#!/usr/bin/env bash
# The server's analysis of finished games (docs/analysis.md, issue 32):
# two `topochess serve` processes share one database; a long finished
# game (a deterministic game of legal moves through the API, then a
# resignation) is queued for analysis, the process whose worker holds the
# job's lease is killed mid-job (kill -9), and the other takes the job
# over once the lease expires. Checked: the job completes once (one
# "done" line in all the logs, two claims), the stored result is served
# by the survivor and by a process started afterwards, its review has a
# move a ply, the game's PGN carries an [%eval] after every move (none
# after a mate) and is read back by `topochess pgn` and by pgn-extract;
# fairness (another account's job is taken before one's second); and the
# refusals: an unknown game, a game not over, a game with no moves, no
# session, no CSRF token, another site's Origin, a wrong token, bad JSON,
# over the per-account limit, the analysis switched off.
#
# On SQLite by default; TG_TEST_DB=postgresql://... under
# tools/with-postgres (make analysis-pg-test). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin analysis-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/a.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac
sql() {
  if [ $mode = postgresql ]; then "${TG_PG_BIN:-/usr/bin}/psql" -X -q -t -A "$DB" -c "$1"; else sqlite3 "$DB" "$1"; fi
}
has() { if [[ "$2" == *"$3"* ]]; then ok; else bad "$1: '$3' not in '${2:0:300}'"; fi; }
wait_for() { # SECONDS COMMAND...: polls every half second
  local end=$((SECONDS + $1))
  shift
  while ! "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.5
  done
}
# NODES a position: enough that the long game takes seconds, so that the
# kill lands mid-job
NODES=${ANALYSIS_NODES:-30000}
start() { server_start "$1" --db "$DB" --trusted-proxy 127.0.0.1 --analysis-nodes "$NODES" "${@:2}"; }

# ---- games, made through the API
newgame() { game_new "$U" "$1"; }    # VARIANT: the create answer
move() { game_move "$U" "$@"; }       # ID TOKEN UCI: the status
played_game() { chess_game "$U" "$1"; } # PLIES: "ID WTOKEN BTOKEN" (lib.sh)
apost() { # ID [curl options]: POST /analysis; the answer, then the status
  "${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' "${@:2}" "$U/api/games/$1/analysis"
}
state() { "${C[@]}" "${2:-$U}/api/games/$1/analysis" | jq -r .state; }

# ---- accounts
token() { "${C[@]}" -b "$1" "$U/api/account" | jq -r .csrf; }
signup() { # JAR NAME ADDRESS
  form "$1" "$U/signup" "name=$2&password=analysis+pw+$2&password2=analysis+pw+$2" -H "X-Forwarded-For: $3" > /dev/null
}

# ======== part 1: one process with a slow budget (jobs stay queued), the refusals and the limits
server_start solo --db "$tmp/solo.db" --trusted-proxy 127.0.0.1 --analysis-nodes 2000000
U=http://127.0.0.1:$port
signup "$tmp/ann.jar" Ann 198.51.100.1
signup "$tmp/bob.jar" Bob 198.51.100.2
ann=$(token "$tmp/ann.jar") bob=$(token "$tmp/bob.jar")
[ -n "$ann" ] && [ "$ann" != null ] || bad "Ann signed up"

read -r g1 g1w _ <<< "$(played_game 6)"
read -r g2 _ _ <<< "$(played_game 4)"
read -r g3 _ _ <<< "$(played_game 4)"
read -r g4 _ _ <<< "$(played_game 4)"
read -r g5 _ _ <<< "$(played_game 4)"
live=$(newgame chess) lid=$(jq -r .id <<< "$live") lwt=$(jq -r .white.token <<< "$live")
move "$lid" "$lwt" e2e4 > /dev/null
empty=$(newgame chess) eid=$(jq -r .id <<< "$empty") ewt=$(jq -r .white.token <<< "$empty")
"${C[@]}" -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"token\":\"$ewt\"}" "$U/api/games/$eid/resign"

r=$(apost 0123456789abcdef -H "Authorization: Bearer $g1w")
is "an unknown game: 404" "$(code "$r")" 404
has "an unknown game: message" "$r" "no game '0123456789abcdef'"
r=$(apost "$lid" -H "Authorization: Bearer $lwt")
is "a game not over: 409" "$(code "$r")" 409
has "a game not over: message" "$r" "the game is not over yet"
r=$(apost "$eid" -H "Authorization: Bearer $ewt")
is "a game with no moves: 409" "$(code "$r")" 409
has "no moves: message" "$r" "no moves to analyse"
r=$(apost "$g1")
is "no session and no token: 401" "$(code "$r")" 401
has "no session: says what to do" "$r" "log in (or use a player's link)"
r=$(apost "$g1" -b "$tmp/ann.jar")
is "a session without its CSRF token: 403" "$(code "$r")" 403
r=$(apost "$g1" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann" -H 'Origin: http://evil.test')
is "another site's Origin: 403" "$(code "$r")" 403
r=$(apost "$g1" -H "Authorization: Bearer 0000")
is "a wrong token: 403" "$(code "$r")" 403
r=$(apost "$g1" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann" --data-binary '[1')
is "bad JSON: 400" "$(code "$r")" 400
is "GET of a game never asked: none" "$(state "$g1")" none
is "a route that is not: 404" "$(http_code "$U/api/games/$g1/analysis/x")" 404
is "PUT: 405" "$(http_code -X PUT "$U/api/games/$g1/analysis")" 405

# Ann asks for three (any signed-in account may: she plays none of them)
r=$(apost "$g1" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann")
is "Ann queues g1: 202" "$(code "$r")" 202
st=$(body "$r" | jq -r .state)
[ "$st" = queued ] || [ "$st" = running ] || bad "g1 neither queued nor running: $st"
r=$(apost "$g1" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann")
is "asked again: 200, the same job" "$(code "$r")" 200
r=$(apost "$g2" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann")
is "Ann queues g2" "$(code "$r")" 202
r=$(apost "$g3" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann")
is "Ann queues g3" "$(code "$r")" 202
r=$(apost "$g4" -b "$tmp/ann.jar" -H "X-CSRF-Token: $ann")
is "Ann's fourth: 429" "$(code "$r")" 429
has "the limit: message" "$r" "at most 3 at a time"
# Bob's first goes before Ann's second and third (round-robin)
r=$(apost "$g5" -b "$tmp/bob.jar" -H "X-CSRF-Token: $bob")
is "Bob queues g5" "$(code "$r")" 202
wait_for 10 eval '[ "$(state "$g1")" = running ]' || bad "g1 never ran"
pos5=$("${C[@]}" "$U/api/games/$g5/analysis" | jq -r .position)
pos2=$("${C[@]}" "$U/api/games/$g2/analysis" | jq -r .position)
pos3=$("${C[@]}" "$U/api/games/$g3/analysis" | jq -r .position)
is "fairness: Bob's first is next" "$pos5" 1
is "fairness: then Ann's second" "$pos2" 2
is "fairness: then Ann's third" "$pos3" 3
stop_procs "$pid"
# a stopped worker gave its job back
is "a stopped process gives its job back" "$(sqlite3 "$tmp/solo.db" "SELECT state FROM analysis WHERE game_id = '$g1'")" 1
server_start off --db "$tmp/solo.db" --analysis-threads 0
U=http://127.0.0.1:$port
signup "$tmp/cy.jar" Cy 198.51.100.3
r=$(apost "$g4" -b "$tmp/cy.jar" -H "X-CSRF-Token: $(token "$tmp/cy.jar")")
is "analysis off: 503" "$(code "$r")" 503
has "analysis off: says to review in the browser" "$r" "review the game in your browser"
is "analysis off: GET tells threads 0" "$("${C[@]}" "$U/api/games/$g4/analysis" | jq -r .server.threads)" 0
stop_procs "$pid"

# ======== part 2: two processes, one killed mid-job
start one
U=http://127.0.0.1:$port one=$pid
start two
U2=http://127.0.0.1:$port two=$pid
echo "analysis-test: $mode, servers on ${U##*:} and ${U2##*:}"
read -r long lw _ <<< "$(played_game 120)"
plies=$("${C[@]}" "$U/api/games/$long" | jq -r '.moves | length')
[ "$plies" -ge 40 ] || bad "the long game has $plies plies"
r=$(apost "$long" -H "Authorization: Bearer $lw")
is "a player's token queues the long game: 202" "$(code "$r")" 202
running() { [ "$(sql "SELECT state FROM analysis WHERE game_id = '$long'")" = 2 ] &&
  [ "$(sql "SELECT done FROM analysis WHERE game_id = '$long'")" -ge 5 ]; }
wait_for 30 running || bad "the long game's analysis never got going"
progress=$("${C[@]}" "$U2/api/games/$long/analysis")
is "running: told" "$(jq -r .state <<< "$progress")" running
is "running: of every position" "$(jq -r .total <<< "$progress")" $((plies + 1))
owner=$(sql "SELECT owner FROM analysis WHERE game_id = '$long'")
victim=${owner%%@*}
if [ "$victim" = "$one" ]; then survivor=$U2; else survivor=$U; fi
[ "$victim" = "$one" ] || [ "$victim" = "$two" ] || bad "the owner $owner is neither process"
kill -KILL "$victim"
wait "$victim" 2> /dev/null
for i in "${!pids[@]}"; do [ "${pids[i]}" != "$victim" ] || unset 'pids[i]'; done
echo "analysis-test: killed $victim mid-job (lease of $owner)"
done_() { [ "$(state "$long" "$survivor")" = done ]; }
wait_for 120 done_ || bad "the job did not complete after the kill"
is "claimed twice (the dead worker's, then the survivor's)" "$(sql "SELECT attempts FROM analysis WHERE game_id = '$long'")" 2
dones=$(cat "$tmp"/one.err "$tmp"/two.err | grep -c "analysis $long done")
is "completed once" "$dones" 1
res=$("${C[@]}" "$survivor/api/games/$long/analysis")
is "the review has a move a ply" "$(jq '.analysis.review.moves | length' <<< "$res")" "$plies"
is "a value a position" "$(jq '.analysis.values | length' <<< "$res")" $((plies + 1))
is "the budget is told" "$(jq .analysis.nodes <<< "$res")" "$NODES"
acc=$(jq .analysis.review.sides.white.accuracy <<< "$res")
[ -n "$acc" ] && [ "$acc" != null ] || bad "no accuracy for White"
start three
U3=http://127.0.0.1:$port
is "a new process serves the stored result as it is" \
  "$("${C[@]}" "$U3/api/games/$long/analysis" | jq -c .analysis)" "$(jq -c .analysis <<< "$res")"
pgn=$tmp/long.pgn
"${C[@]}" "$U3/api/games/$long/pgn" > "$pgn"
has "the PGN names the analysis" "$(cat "$pgn")" "[Annotator \"topochess server analysis ($NODES nodes a position)\"]"
evals=$(grep -o '\[%eval [^]]*\]' "$pgn" | wc -l)
mated=$(jq -r .termination <<< "$("${C[@]}" "$U3/api/games/$long")")
want=$plies
[ "$mated" != checkmate ] || want=$((plies - 1))
is "an [%eval] after every move" "$evals" "$want"
marks=$(jq '[.analysis.review.moves[] | select(.mark != "")] | length' <<< "$res")
is "a NAG on every marked move" "$(grep -oE '[a-zA-Z0-9=+#]+(\?\?|\?!|\?)' "$pgn" | wc -l)" "$marks"
out=$("$BIN" pgn "$pgn" 2>&1)
is "topochess pgn reads it" "$?" 0
has "topochess pgn: the moves" "$out" "game 1: $(((plies + 1) / 2)) moves"
if [ -x /usr/games/pgn-extract ]; then
  px=$(/usr/games/pgn-extract -s --quiet -Wuci "$pgn" 2>&1)
  is "pgn-extract reads it" "$?" 0
  [ -z "$(/usr/games/pgn-extract -s "$pgn" 2>&1 > /dev/null | grep -iE 'error|illegal|unknown')" ] || bad "pgn-extract complains"
  is "pgn-extract: the same moves" "$(grep -v '^\[' <<< "$px" | grep -oE '\b[a-h][1-8][a-h][1-8][qrbn]?\b' | wc -l)" "$plies"
else
  echo "analysis-test: pgn-extract is missing: not read back by it"
fi
# a game not analysed: the plain PGN
U=$U3
read -r short _ _ <<< "$(played_game 4)"
is "an unanalysed game's PGN has no [%eval]" "$("${C[@]}" "$U3/api/games/$short/pgn" | grep -c '%eval')" 0

# a solved ending (KQK): valued by the tables, not searched; Qf4+?? gives the queen away
g=$("${C[@]}" -X POST -H 'Content-Type: application/json' -d '{"variant":"chess","fen":"8/8/8/4k3/8/8/8/4KQ2 w - - 0 1"}' "$U3/api/games")
kid=$(jq -r .id <<< "$g") kwt=$(jq -r .white.token <<< "$g") kbt=$(jq -r .black.token <<< "$g")
game_move "$U3" "$kid" "$kwt" f1f4 > /dev/null
game_move "$U3" "$kid" "$kbt" e5e6 > /dev/null
"${C[@]}" -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"token\":\"$kbt\"}" "$U3/api/games/$kid/resign"
r=$(apost "$kid" -H "Authorization: Bearer $kwt")
is "the KQK game queued" "$(code "$r")" 202
wait_for 30 eval '[ "$(state "$kid" "$U3")" = done ]' || bad "the KQK game's analysis did not end"
res=$("${C[@]}" "$U3/api/games/$kid/analysis")
is "every position exact (KQK)" "$(jq -c '[.analysis.values[].exact]' <<< "$res")" '["KQK","KQK","KQK"]'
tables=$("$BIN" endgame KQK --fen "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1" 2>&1 | sed -n 's/.*White to move mates in \([0-9]*\) moves.*/\1/p')
[ -n "$tables" ] || bad "topochess endgame gave no distance"
is "the start: White mates in the distance of \`topochess endgame\`" "$(jq -c '.analysis.values[0].mate' <<< "$res")" "$tables"
is "Qf4+ is a blunder by the tables" "$(jq -r '.analysis.review.moves[0].mark' <<< "$res")" blunder
is "Kxf4 was best for Black" "$(jq -r '.analysis.review.moves[1].best' <<< "$res")" Kxf4

echo "analysis-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
