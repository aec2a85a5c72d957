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
# people-http-pg-test) on that database, with two processes. Needs the
# people routes wired into server/http.c (server/people_hook.patch until it
# is merged). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-./topochess}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
command -v curl >/dev/null || { echo "people-test: curl is missing (deps/server.apt)"; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT

passed=0 failed=0
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
is() { if [ "$2" = "$3" ]; then passed=$((passed + 1)); else bad "$1: got '$2', expected '$3'"; fi; }
has() { if grep -q -- "$3" <<< "$2"; then passed=$((passed + 1)); else bad "$1: no '$3' in: $(head -c 300 <<< "$2")"; fi; }

DB=${TG_TEST_DB:-$tmp/people.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac

start() { # NAME [options]: sets $port
  local name=$1; shift
  "$BIN" serve --port 0 --pages variants --db "$DB" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  pids+=($!)
  port=
  for _ in $(seq 1 200); do
    port=$(sed -n 's|^topochess serve: http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/$name.out" 2>/dev/null)
    [ -n "$port" ] && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.05
  done
  echo "people-test: server $name did not start:"; cat "$tmp/$name.err"; exit 1
}

C=(curl -s --max-time 10)
# form JAR URL BODY [curl options]: a form POST keeping cookies in JAR;
# prints the headers and body, then the status on its own line.
form() {
  local jar=$1 url=$2 data=$3; shift 3
  "${C[@]}" -i -b "$jar" -c "$jar" -w '\n%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
    --data-binary "$data" "$@" "$url"
}
get() { local jar=$1 url=$2; shift 2; "${C[@]}" -b "$jar" -c "$jar" -w '\n%{http_code}' "$@" "$url"; }
code() { tail -n 1 <<< "$1"; }
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
# what Chromium sends for the hub's own form (Referrer-Policy: no-referrer)
r=$(form "$tmp/n.jar" "$U/signup" 'name=Nora&password=fold+queen&password2=fold+queen' -H 'Origin: null' -H 'Sec-Fetch-Site: same-origin')
is "Origin null from the hub's own page: 303" "$(code "$r")" 303

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

# ---- Secure cookies
start secure --secure-cookies
r=$(form "$tmp/s.jar" "http://127.0.0.1:$port/login" 'name=alice&password=klein+bottle')
has "--secure-cookies: Secure" "$r" "SameSite=Lax; Secure"
start proxied --trusted-proxy 127.0.0.1
r=$(form "$tmp/p.jar" "http://127.0.0.1:$port/login" 'name=alice&password=klein+bottle' -H 'X-Forwarded-Proto: https')
has "trusted proxy over HTTPS: Secure" "$r" "SameSite=Lax; Secure"
r=$(form "$tmp/p2.jar" "$U/login" 'name=alice&password=klein+bottle' -H 'X-Forwarded-Proto: https')
grep -q "Secure" <<< "$(grep -i '^Set-Cookie' <<< "$r")" && bad "X-Forwarded-Proto believed from an untrusted peer"
is "untrusted X-Forwarded-Proto ignored" "$(code "$r")" 303

# ---- a second process on the same database
if [ $mode = postgresql ]; then
  start second
  U2=http://127.0.0.1:$port
  r=$(form "$tmp/c.jar" "$U/signup" 'name=Carol&password=torus+knight&password2=torus+knight')
  is "sign-up on process 1" "$(code "$r")" 303
  is "the session on process 2" "$(code "$(get "$tmp/c.jar" "$U2/account")")" 200
  tok=$(csrf "$tmp/c.jar")
  is "log out on process 2" "$(code "$(form "$tmp/c.jar" "$U2/logout" "csrf=$tok")")" 303
  cp "$tmp/c.jar" "$tmp/c2.jar"
  r=$(form "$tmp/c.jar" "$U2/login" 'name=carol&password=torus+knight')
  is "login on process 2" "$(code "$r")" 303
  is "ended everywhere, then a fresh one on process 1" "$(code "$(get "$tmp/c.jar" "$U/account")")" 200
fi

echo "people-test ($mode): $passed passed, $failed failed"
[ $failed = 0 ]
