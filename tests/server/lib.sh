# The plumbing shared by the server test scripts (tests/server/*.sh) and the
# bench scripts (bench/lib.sh sources it): a scratch folder, real `topochess
# serve` processes on loopback ports, their bounded stop, curl helpers and
# the pass/fail counters. Sourced from the checkout's top folder:
#
#   cd "$(dirname "$0")/../.."
#   . tests/server/lib.sh
#   lib_begin NAME "${1:-}" curl jq       # NAME prefixes every message
#   server_start main --db "$tmp/a.db"     # sets $port and $pid
#
# Loopback only; every wait has a deadline. Nothing here decides a test's
# outcome: the scripts keep their cases and their final summary line.

# lib_begin NAME [BIN] [TOOL...]: $BIN made absolute (default ./topochess),
# each TOOL checked, a scratch folder $tmp and an empty $pids; at exit every
# process in $pids is stopped and $tmp removed (KEEP_TMP=1 keeps it).
lib_begin() {
  SUITE=$1 BIN=${2:-./topochess}
  shift $(($# < 2 ? $# : 2))
  case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
  local t
  for t in "$@"; do
    command -v "$t" > /dev/null || { echo "$SUITE: $t is missing (tools/install-deps installs deps/*.apt)"; exit 1; }
  done
  tmp=$(mktemp -d)
  pids=()
  passed=0 failed=0
  trap lib_end EXIT
}
lib_end() {
  [ ${#pids[@]} -eq 0 ] || stop_procs "${pids[@]}" || true
  if [ -n "${KEEP_TMP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}

# server_start NAME [serve options]: `$BIN serve --port 0 OPTIONS` (under
# nice -n $SERVE_NICE when that is set), its output in $tmp/NAME.out and
# $tmp/NAME.err. The server prints its address line once it listens, so the
# port read from that line answers. Sets $port and $pid and adds the pid to
# $pids; a server that exits or stays silent for 10 s ends the script.
server_start() {
  local name=$1 run=("$BIN") end=$((SECONDS + 10))
  shift
  [ -z "${SERVE_NICE:-}" ] || run=(nice -n "$SERVE_NICE" "$BIN")
  # emptied here, not only by the child's redirection: a name used again
  # would otherwise show the loop the previous server's address line until
  # the child gets to run
  : > "$tmp/$name.out"
  "${run[@]}" serve --port 0 "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pid=$!
  pids+=("$pid")
  while :; do
    port=$(sed -n 's|^topochess serve: http://127\.0\.0\.1:\([0-9][0-9]*\)/.*|\1|p' "$tmp/$name.out" 2> /dev/null || true)
    [ -z "$port" ] || return 0
    if ! kill -0 "$pid" 2> /dev/null || [ $SECONDS -ge $end ]; then break; fi
    sleep 0.05
  done
  echo "$SUITE: server $name did not start:"
  cat "$tmp/$name.err"
  exit 1
}

# stop_procs PID...: SIGTERM to each, then up to $STOP_WAIT seconds (10)
# for them all to exit; those still running get SIGKILL. They leave $pids
# (the others keep their indexes). Returns the last one's exit status.
stop_procs() {
  local p i rc=0 end=$((SECONDS + ${STOP_WAIT:-10}))
  kill -TERM "$@" 2> /dev/null || true
  for p in "$@"; do
    while kill -0 "$p" 2> /dev/null && [ $SECONDS -lt $end ]; do sleep 0.05; done
    kill -KILL "$p" 2> /dev/null || true
    rc=0
    wait "$p" 2> /dev/null || rc=$?
  done
  for i in "${!pids[@]}"; do [[ " $* " != *" ${pids[i]} "* ]] || unset 'pids[i]'; done
  return $rc
}

# free_port: a loopback port that nothing listens on now (for programs
# that, unlike `topochess serve --port 0`, cannot pick one themselves).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# haproxy_cfg PORT PORT_A PORT_B [sed options]: deploy/haproxy.cfg with its
# front end on PORT and its two servers on PORT_A and PORT_B.
haproxy_cfg() {
  sed -e "s/127\.0\.0\.1:8080/127.0.0.1:$1/" -e "s/127\.0\.0\.1:8081/127.0.0.1:$2/" \
    -e "s/127\.0\.0\.1:8082/127.0.0.1:$3/" "${@:4}" deploy/haproxy.cfg
}

# until_ok SECONDS COMMAND...: runs COMMAND until it succeeds; fails after
# the deadline.
until_ok() {
  local end=$((SECONDS + $1))
  shift
  while ! "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.05
  done
}

# ---- curl: every request bounded, never through a proxy
C=(curl -s --noproxy '*' --max-time 10)
# http_code [curl options] URL: the status alone; is_code WANT [curl
# options] URL succeeds when it is WANT (for until_ok).
http_code() { "${C[@]}" -o /dev/null -w '%{http_code}' "$@"; }
is_code() { [ "$(http_code "${@:2}")" = "$1" ]; }
# The helpers below print the answer (headers too for form), then the
# status on a line of its own: status and body split that again.
post() { # URL JSON [curl options]
  "${C[@]}" -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "$2" "${@:3}" "$1"
}
get() { # JAR URL [curl options]: keeps the cookies in JAR
  "${C[@]}" -b "$1" -c "$1" -w '\n%{http_code}' "${@:3}" "$2"
}
form() { # JAR URL BODY [curl options]: a form POST, cookies in JAR
  "${C[@]}" -i -b "$1" -c "$1" -w '\n%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
    --data-binary "$3" "${@:4}" "$2"
}
# post_is WHAT STATUS URL JSON [curl options]: post, and check the status;
# the answer stays in $r.
post_is() { r=$(post "${@:3}"); is "$1" "$(status "$r")" "$2"; }
status() { tail -n 1 <<< "$1"; }
code() { tail -n 1 <<< "$1"; } # the same as status, by the name the form scripts use
body() { sed '$d' <<< "$1"; }
# json KEY: the field KEY (a.b for a nested one) of the JSON on stdin, as
# text, empty when absent or not JSON; with jq when it is installed, else python3.
json() {
  if command -v jq > /dev/null; then
    jq -cr --arg k "$1" 'getpath($k | split(".")) | select(. != null)' 2> /dev/null
  else
    python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else json.dumps(v) if isinstance(v, (dict, list, bool)) else v)' "$1" 2> /dev/null
  fi
}

# ---- hosted games through the API
game_new() { # URL VARIANT: the create answer
  "${C[@]}" -X POST -H 'Content-Type: application/json' -d "{\"variant\":\"$2\"}" "$1/api/games"
}
game_move() { # URL ID TOKEN UCI: the status
  "${C[@]}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d "{\"token\":\"$3\",\"move\":\"$4\"}" "$1/api/games/$2/move"
}
# chess_game URL PLIES: a chess game of up to PLIES legal moves (the move at
# (ply * 7) mod count of `$BIN moves --uci`: the same game every run), resigned
# by the side to move if it has not ended; prints "ID WHITE-TOKEN BLACK-TOKEN".
chess_game() {
  local g id wt bt played="" i n mv tok ms
  g=$(game_new "$1" chess)
  id=$(jq -r .id <<< "$g") wt=$(jq -r .white.token <<< "$g") bt=$(jq -r .black.token <<< "$g")
  for ((i = 0; i < $2; i++)); do
    mapfile -t ms < <("$BIN" moves --uci --play "$played" 2> /dev/null)
    n=${#ms[@]}
    [ "$n" -gt 0 ] || break
    mv=${ms[$(((i * 7) % n))]}
    tok=$([ $((i % 2)) = 0 ] && echo "$wt" || echo "$bt")
    [ "$(game_move "$1" "$id" "$tok" "$mv")" = 200 ] || { echo "chess_game: move $mv of $id refused" >&2; break; }
    played="$played $mv"
    [ "$("${C[@]}" "$1/api/games/$id" | jq -r .result)" = '*' ] || break
  done
  if [ "$("${C[@]}" "$1/api/games/$id" | jq -r .result)" = '*' ]; then
    tok=$([ $((i % 2)) = 0 ] && echo "$wt" || echo "$bt")
    "${C[@]}" -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"token\":\"$tok\"}" "$1/api/games/$id/resign"
  fi
  echo "$id $wt $bt"
}

# ---- the counters; each script prints "N passed, N failed" itself
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
is() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }
