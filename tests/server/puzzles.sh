#!/usr/bin/env bash
# Rated puzzles over HTTP (issue 32, docs/puzzles.md "On the hub") with two
# server processes on one database: the operator imports puzzles
# (`topochess puzzles --json | topochess admin puzzles-import`), the
# servers seed the cheap presets themselves; the day's puzzle is the same
# from both; a player solves the day's puzzle (rated once: the same attempt
# on the other process is unrated) after being refused without a CSRF
# token, as a visitor, with malformed moves and
# for an unknown puzzle; another fails the docs' mate in 3 with a slower
# mate; two first attempts sent to both processes at once make one rated
# row. On SQLite by default; with TG_TEST_DB=postgresql://
# under tools/with-postgres (make puzzles-http-pg-test) on PostgreSQL.
# Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin puzzles-http-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/puzzles.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac
sql() {
  if [ $mode = postgresql ]; then "${TG_PG_BIN:-/usr/bin}/psql" -X -q -t -A "$DB" -c "$1"; else sqlite3 "$DB" "$1"; fi
}

# the operator's import: KRRK on the torus, and one hand-written chess puzzle
"$BIN" puzzles --variant torus --material KRRK --min-mate 2 --count 20 --seed 3 --json 2> /dev/null > "$tmp/torus.json"
out=$("$BIN" admin puzzles-import "$tmp/torus.json" --db "$DB")
is "the import's count" "$out" "puzzles-import: 20 added, 0 already there, 0 refused"
out=$("$BIN" admin puzzles-import --db "$DB" < "$tmp/torus.json")
is "a second import adds nothing" "$out" "puzzles-import: 0 added, 20 already there, 0 refused"
echo '{"variant":"chess","puzzles":[{"material":"KQK","fen":"6Q1/8/8/k7/8/3K4/8/8 w - - 0 1","mate_in":3,"line_uci":["g8b8","a5a6","d3c4","a6a5","b8b5"]}]}' |
  "$BIN" admin puzzles-import --db "$DB" > /dev/null
# tactics from play, as the command writes them, go in as kind 'tactic'
"$BIN" tactics --variant folding --count 2 --nodes 3000 --json 2> /dev/null > "$tmp/tactics.json"
[ "$(jq '.tactics | length' "$tmp/tactics.json")" -gt 0 ] && ok || bad "no tactics found: $(head -c 300 "$tmp/tactics.json")"
out=$("$BIN" admin puzzles-import "$tmp/tactics.json" --db "$DB")
is "tactics imported" "$out" "puzzles-import: $(jq '.tactics | length' "$tmp/tactics.json") added, 0 already there, 0 refused"
is "as tactics with their themes and lines" "$(sql "SELECT COUNT(*) FROM puzzles WHERE variant = 'folding' AND kind = 'tactic' AND themes <> '' AND line <> ''")" \
  "$(jq '.tactics | length' "$tmp/tactics.json")"
echo '{"puzzles":[{"fen":"x"}]}' | "$BIN" admin puzzles-import --db "$DB" 2> "$tmp/refused.err" > /dev/null
is "a file with only bad puzzles fails" "$?" 1
grep -q "puzzle 1: no variant" "$tmp/refused.err" || bad "the refusal names the puzzle: $(cat "$tmp/refused.err")"

start() { server_start "$1" --pages variants --db "$DB" "${@:2}"; }
start one
U=http://127.0.0.1:$port
start two
U2=http://127.0.0.1:$port
echo "puzzles-http-test: $mode, servers on ${U##*:} and ${U2##*:}"

is "the torus's imported puzzles" "$("${C[@]}" "$U/api/puzzles/next?variant=torus&theme=KRRK" | jq -r .material)" KRRK
n=$(sql "SELECT COUNT(*) FROM puzzles WHERE variant = 'cylinder'")
is "the cylinder seeded once by two processes (30 KQK + 30 KRK at most)" "$([ "$n" -ge 30 ] && [ "$n" -le 60 ] && echo yes)" yes
d1=$("${C[@]}" "$U/api/puzzles/daily?variant=chess")
d2=$("${C[@]}" "$U2/api/puzzles/daily?variant=chess")
id=$(jq -r .id <<< "$d1")
is "the day's puzzle from both processes" "$(jq -r .id <<< "$d2")" "$id"
# (pages read whole first: grep -q would close the pipe under pipefail)
page=$("${C[@]}" "$U2/v/chess")
grep -q "data-daily-puzzle=\"$id\"" <<< "$page" && ok || bad "the variant page shows the day's puzzle"
page=$("${C[@]}" "$U/")
grep -q 'Puzzle of the day' <<< "$page" && ok || bad "the home page shows a day's puzzle"
is "an unknown theme" "$(http_code "$U/puzzles?variant=chess&theme=nope")" 404
is "a malformed id" "$(http_code "$U/api/puzzles/..%2f")" 404

csrf() { get "$1" "$U/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }
J=$tmp/pia.jar
form "$J" "$U/signup" "name=Pia&password=torus+puzzles&password2=torus+puzzles" > /dev/null
T=$(csrf "$J")
moves=$(jq -r '[.line_uci | to_entries[] | select(.key % 2 == 0) | .value] | join("+")' <<< "$d1")
attempt() { # URL JAR BODY: the status line last
  "${C[@]}" -b "$2" -w '\n%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "$3" \
    "$1/api/puzzles/$id/attempt"
}
r=$(attempt "$U" "$J" "moves=$moves")
is "no CSRF token" "$(status "$r")" 403
r=$(attempt "$U" /dev/null "moves=$moves&csrf=$T")
is "a visitor" "$(status "$r")" 401
r=$(attempt "$U" "$J" "moves=e2e4%3B&csrf=$T")
is "malformed moves" "$(status "$r")" 400
r=$("${C[@]}" -b "$J" -w '\n%{http_code}' --data-binary "moves=$moves&csrf=$T" "$U/api/puzzles/ffffffffffffffff/attempt")
is "an unknown puzzle" "$(status "$r")" 404
is "nothing recorded by the refusals" "$(sql "SELECT COUNT(*) FROM puzzle_attempts")" 0
r=$(attempt "$U" "$J" "moves=$moves&csrf=$T")
is "solved" "$(body "$r" | jq -r '.result + " " + (.rated | tostring)')" "solved true"
after=$(body "$r" | jq -r .rating.after)
r=$(attempt "$U2" "$J" "moves=$moves&csrf=$T")
is "the same attempt on the other process: unrated" "$(body "$r" | jq -r '.rated, .rating.change' | tr '\n' ' ')" "false 0 "
page=$(get "$J" "$U2/account")
grep -q "1500 &rarr; $after" <<< "$page" && ok || bad "the account page's history"
page=$("${C[@]}" "$U/@/Pia")
grep -q "Puzzle rating <strong>$after" <<< "$page" && ok || bad "the player page's rating"

# the docs' mate in 3 (perhaps the day's puzzle too: new players try it):
# Qd8+ mates in 5, slower: failed, rated, the rating goes down from 1500
id=$(sql "SELECT id FROM puzzles WHERE fen = '6Q1/8/8/k7/8/3K4/8/8 w - - 0 1'")
K=$tmp/kai.jar
form "$K" "$U/signup" "name=Kai&password=torus+puzzles&password2=torus+puzzles" > /dev/null
TK=$(csrf "$K")
r=$(attempt "$U" "$K" "moves=g8d8&csrf=$TK")
is "a slower mate fails" "$(body "$r" | jq -r '.result + " " + (.rated | tostring)')" "failed true"
is "the failure lowers the rating" "$(body "$r" | jq -r '(.rating.after < 1500) and (.rating.before == 1500)')" true
page=$(get "$K" "$U/account")
grep -q '<td class="tc-failed">failed</td>' <<< "$page" && ok || bad "the failure in Kai's history"

# two first attempts at once, one to each process: one rated row
L=$tmp/lea.jar
form "$L" "$U/signup" "name=Lea&password=torus+puzzles&password2=torus+puzzles" > /dev/null
TL=$(csrf "$L")
attempt "$U" "$L" "moves=g8b8+d3c4+b8b5&csrf=$TL" > "$tmp/a1" &
a1=$!
attempt "$U2" "$L" "moves=g8b8+d3c4+b8b5&csrf=$TL" > "$tmp/a2" &
wait $a1 $!
is "both answered 200" "$(status "$(cat "$tmp/a1")") $(status "$(cat "$tmp/a2")")" "200 200"
is "one rated attempt of two" "$(sql "SELECT SUM(rated), COUNT(*) FROM puzzle_attempts a JOIN users u ON u.id = a.user_id WHERE u.name = 'Lea'")" "1|2"
is "both solved" "$(sql "SELECT SUM(solved) FROM puzzle_attempts a JOIN users u ON u.id = a.user_id WHERE u.name = 'Lea'")" 2

echo "puzzles-http-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
