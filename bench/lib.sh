# Shared by the bench scripts that start `topochess serve` (sourced, never
# run: tools/bench-smoke leaves it to them): the server plumbing of
# tests/server/lib.sh (lib_begin, server_start, under nice -n $SERVE_NICE
# when a script sets it, stop_procs, free_port, the curl helpers) and the
# wrk helpers below. Figures only.
. tests/server/lib.sh

# make_games URL N: N chess games made on URL, four requests at a time;
# prints "id white-token black-token" a line (bench/moves.lua reads them).
make_games() {
  seq 1 "$2" | xargs -P 4 -I{} curl -s --noproxy '*' --max-time 10 -X POST -d '{"variant":"chess"}' "$1/api/games" |
    jq -r '.id + " " + .white.token + " " + .black.token'
}

# wrk_moves URL GAMES [wrk options]: wrk posting moves to the games of the
# file GAMES (from make_games) with bench/moves.lua; wrk's report on stdout.
wrk_moves() {
  nice -n 10 wrk "${@:3}" --latency -s bench/moves.lua "$1" -- "$2"
}

# wrk_figures: wrk's report (with --latency) on stdin; prints requests/s,
# the 2xx answers per second, p50 and p99 latency, and any non-2xx count.
wrk_figures() {
  awk '/Requests\/sec/ {r=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /requests in/ {n=$1} /Non-2xx/ {bad=$5}
    END {printf "%s req/s (%.0f 2xx/s), p50 %s, p99 %s%s\n", r, n ? r * (n - bad) / n : 0, p50, p99, bad ? ", " bad " non-2xx" : ""}'
}
