#!/usr/bin/env bash
# Rated results with two server processes on one database (issue 29,
# finding 11; docs/accounts.md "How results are counted"): Gina wins 60
# rated lobby games (20 opponents, 3 each: the pair limit) that end in a
# burst; the lobby threads of both processes count them at once. Then the
# same results are counted again by one process alone, from scratch, and
# both processes' totals must equal it: no update lost, every result once,
# in the order the games ended. Also: a 4th rated result of one pair in
# 24 h is shown as not counted.
#
# On SQLite by default (two processes on one file); with
# TG_TEST_DB=postgresql://... under tools/with-postgres (make
# ratings-pg-test) on PostgreSQL. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin ratings-test "${1:-}" curl jq

DB=${TG_TEST_DB:-$tmp/ratings.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac
sql() {
  if [ $mode = postgresql ]; then "${TG_PG_BIN:-/usr/bin}/psql" -X -q -t -A "$DB" -c "$1"; else sqlite3 "$DB" "$1"; fi
}
start() { server_start "$1" --pages variants --db "$DB" --trusted-proxy 127.0.0.1 "${@:2}"; }
start one
U=http://127.0.0.1:$port; one=$pid
start two
U2=http://127.0.0.1:$port
echo "ratings-test: $mode, servers on ${U##*:} and ${U2##*:}"
csrf() { get "$1" "$U/account" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n 1; }
signup() { # JAR NAME ADDRESS
  form "$1" "$U/signup" "name=$2&password=rated+torus+$2&password2=rated+torus+$2" -H "X-Forwarded-For: $3" > /dev/null
}
G=$tmp/gina.jar
signup "$G" Gina 198.51.100.1
act() { # JAR GAME ACTION JSON: a player's action by session
  "${C[@]}" -o /dev/null -w '%{http_code}' -b "$1" -X POST -H 'Content-Type: application/json' \
    -H "X-CSRF-Token: $(csrf "$1")" -d "$4" "$U/api/games/$2/$3"
}
# one rated game: OPP seeks (Black), Gina takes it, both move, OPP resigns
play() { # JAR: echoes the game's id
  form "$1" "$U/lobby/seek" "csrf=$(csrf "$1")&variant=torus&clock=5%2B3&rated=1&color=black" > /dev/null
  local sid loc game
  sid=$("${C[@]}" "$U/api/lobby" | jq -r '.seeks[0].id')
  loc=$(form "$G" "$U/lobby/seek/$sid/accept" "csrf=$(csrf "$G")" | sed -n 's/^Location: \(.*\)\r$/\1/p')
  game=${loc#/game/}; game=${game%%#*}
  [ "$(act "$G" "$game" move '{"move":"e3"}')" = 200 ] || bad "Gina's move in $game"
  [ "$(act "$1" "$game" move '{"move":"e6"}')" = 200 ] || bad "the opponent's move in $game"
  echo "$game"
}
# the games go on until the end, so that they end in one burst
games=()
for i in $(seq 1 20); do
  signup "$tmp/o$i.jar" "Opp$i" "198.51.100.$((i / 4 + 10))"
  for k in 1 2 3; do games+=("$(play "$tmp/o$i.jar"):$i"); done
done
is "60 rated games made and played" "${#games[@]}" 60
for g in "${games[@]}"; do
  [ "$(act "$tmp/o${g#*:}.jar" "${g%%:*}" resign '{}')" = 200 ] || bad "a resignation in ${g%%:*}"
done
counted() { sql "SELECT COUNT(*) FROM rated_games WHERE applied = 1 AND counted = 1 AND white_user = (SELECT id FROM users WHERE name = 'Gina')"; }
all_applied() { [ "$(sql "SELECT COUNT(*) FROM rated_games WHERE applied = 0")" = 0 ]; }
until_ok 60 all_applied || bad "the results were not all counted within 60 s"
is "all 60 counted" "$(counted)" 60
two=$(sql "SELECT rating || ' ' || rd || ' ' || games FROM ratings r JOIN users u ON u.id = r.user_id WHERE u.name = 'Gina'")

# again, on one process alone, from the start ratings
kill -TERM "$pid"; wait "$pid" 2>/dev/null
sql "DELETE FROM ratings; DELETE FROM rating_history; UPDATE rated_games SET applied = 0, counted = 0, note = ''" > /dev/null
until_ok 60 all_applied || bad "one process did not count them again within 60 s"
alone=$(sql "SELECT rating || ' ' || rd || ' ' || games FROM ratings r JOIN users u ON u.id = r.user_id WHERE u.name = 'Gina'")
echo "ratings-test: Gina after 60 wins: two processes '$two', one process '$alone'"
[ -n "$two" ] && [ "$two" = "$alone" ] && ok || bad "two processes counting at once: '$two'; one alone: '$alone'"

# a 4th game of one pair within 24 h: played, not counted, and said so
fourth=$(play "$tmp/o1.jar")
act "$tmp/o1.jar" "$fourth" resign '{}' > /dev/null
until_ok 20 bash -c "curl -s '$U/@/Gina' | grep -q 'not counted: farming limit'" && ok ||
  bad "the player page does not say the 4th result of a pair was not counted"
is "the 4th result changed no rating" "$(sql "SELECT games FROM ratings r JOIN users u ON u.id = r.user_id WHERE u.name = 'Opp1'")" 3

echo "ratings-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
