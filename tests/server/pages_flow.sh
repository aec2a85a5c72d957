#!/usr/bin/env bash
# Variant pages written in the browser, over HTTP: two real `topochess
# serve` processes on one database (an SQLite file, or with
# TG_TEST_DB=postgresql://... the PostgreSQL database: make
# pages-http-pg-test). Accounts sign up, `topochess admin editor` makes
# one an editor; a page is saved through /api/pages on one process,
# published, and then playable on the other (/v/SLUG, the home page,
# /play?variant=SLUG, /api/variants). Every refusal is checked: not signed
# in, no or a wrong CSRF token, another site's Origin, a reserved or taken
# slug, not the author, a stale edit (with the diff), an invalid page
# published, a page too big. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin pages-test "${1:-}" curl
has() { if grep -qF -- "$3" <<< "$2"; then ok; else bad "$1: no '$3' in: $(head -c 400 <<< "$2")"; fi; }
lacks() { if grep -qF -- "$3" <<< "$2"; then bad "$1: unexpected '$3'"; else ok; fi; }

DB=${TG_TEST_DB:-$tmp/pages.db}
mode=sqlite
case $DB in postgres*) mode=postgresql ;; esac

start() { server_start "$1" --pages variants --db "$DB" "${@:2}"; } # NAME [options]: sets $port
token() { get "$1" "$U/api/account" | head -n 1 | json csrf; } # JAR: its CSRF token
# send JAR PATH FILE [curl options]: POSTs the file as the page's text with the jar's CSRF token
send() { local jar=$1 path=$2 file=$3; shift 3
  "${C[@]}" -b "$jar" -w '\n%{http_code}' -H 'Content-Type: text/markdown' -H "X-CSRF-Token: $(token "$jar")" \
    --data-binary "@$file" "$@" "$U$path"; }
act() { local jar=$1 path=$2; shift 2
  "${C[@]}" -b "$jar" -w '\n%{http_code}' -H "X-CSRF-Token: $(token "$jar")" -X POST "$@" "$U$path"; }

start one
U=http://127.0.0.1:$port
start two
W=http://127.0.0.1:$port
echo "pages-test: $mode, servers on ports ${U##*:} and ${W##*:}"
is "seeded: the shipped pages are published" "$(code "$(get /dev/null "$W/v/klein-bottle")")" 200

ANN=$tmp/ann.jar BOB=$tmp/bob.jar ED=$tmp/ed.jar
for who in ann bob eda; do
  jar=$tmp/$who.jar; [ $who = eda ] && jar=$ED
  r=$(form "$jar" "$U/signup" "name=$who&password=klein+bottle&password2=klein+bottle")
  is "sign-up $who" "$(code "$r")" 303
done
out=$("$BIN" admin editor eda --db "$DB" 2>&1)
is "admin editor: exit" "$?" 0
has "admin editor: says" "$out" "eda is now an editor"
out=$("$BIN" admin editor nobody --db "$DB" 2>&1)
has "admin editor of nobody" "$out" "no user named 'nobody'"

slug=strip-$RANDOM
page() { # SEAM TITLE > file
  printf -- '---\ntitle: "%s"\nslug: %s\ndescription: "6x10 ranks joined with a half-twist"\nengine:\n  topology:\n    type: grid\n    rows: 10\n    cols: 6\n    wrap: mobius\n    ranks: twist\n    seam: %s\n  setup: "PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR"\n---\n\n## %s\n\nA <b>strip</b> and [a link](javascript:alert(1)).\n' "$2" "$slug" "$1" "$2"
}
page 9 'Six by Ten' > "$tmp/good.md"
page 12 'Six by Ten' > "$tmp/bad.md"

r=$(send /dev/null "/api/pages/$slug?base=0" "$tmp/good.md")
is "not signed in: 401" "$(code "$r")" 401
r=$("${C[@]}" -b "$ANN" -w '\n%{http_code}' --data-binary "@$tmp/good.md" "$U/api/pages/$slug?base=0")
is "no CSRF token: 403" "$(code "$r")" 403
has "no CSRF token: message" "$r" "X-CSRF-Token"
r=$("${C[@]}" -b "$ANN" -w '\n%{http_code}' -H 'X-CSRF-Token: AAAA' --data-binary "@$tmp/good.md" "$U/api/pages/$slug?base=0")
is "a wrong CSRF token: 403" "$(code "$r")" 403
r=$(send "$ANN" "/api/pages/$slug?base=0" "$tmp/good.md" -H 'Origin: https://evil.test')
is "another site's Origin: 403" "$(code "$r")" 403
r=$(send "$ANN" "/api/pages/klein-bottle-chess?base=0" "$tmp/good.md")
is "reserved slug (an alias): 400" "$(code "$r")" 400
has "reserved: message" "$r" "reserved"
r=$(send "$ANN" "/api/pages/new?base=0" "$tmp/good.md")
is "reserved slug new: 400" "$(code "$r")" 400
r=$(send "$ANN" "/api/pages/$slug" "$tmp/good.md")
is "no base: 400" "$(code "$r")" 400
has "no base: message" "$r" "base"
r=$(send "$ANN" "/api/pages/$slug?base=x" "$tmp/good.md")
is "a base that is no number: 400" "$(code "$r")" 400
head -c 70000 /dev/zero | tr '\0' x > "$tmp/big.md"
r=$(send "$ANN" "/api/pages/$slug?base=0" "$tmp/big.md")
is "too big: 413" "$(code "$r")" 413
is "no refusal stored a page" "$(code "$(get /dev/null "$U/api/pages/$slug")")" 404

r=$(send "$ANN" "/api/pages/$slug?base=0" "$tmp/bad.md")
is "an invalid draft is saved" "$(code "$r")" 200
r=$(send "$BOB" "/api/pages/$slug?base=0" "$tmp/good.md")
is "slug taken: 409" "$(code "$r")" 409
r=$(act "$ED" "/api/pages/$slug/publish")
is "an invalid page published: 422" "$(code "$r")" 422
has "invalid: names the field" "$r" "seam"
r=$(send "$BOB" "/api/pages/$slug?base=1" "$tmp/good.md")
is "not the author: 403" "$(code "$r")" 403
r=$(send "$ANN" "/api/pages/$slug?base=1" "$tmp/good.md")
is "revision 2" "$(code "$r")" 200
has "revision 2: rev" "$r" '"rev":2'
r=$(send "$ANN" "/api/pages/$slug?base=1" "$tmp/bad.md")
is "stale edit: 409" "$(code "$r")" 409
has "stale edit: the diff" "$r" 'seam: 9'
has "stale edit: message" "$r" "nothing was saved"
r=$(get "$ANN" "$U/api/pages/$slug")
has "the stale edit stored nothing" "$r" '"rev":2'
is "a draft is hidden from the anonymous" "$(code "$(get /dev/null "$U/api/pages/$slug")")" 404
is "a draft is hidden from another account" "$(code "$(get "$BOB" "$U/api/pages/$slug")")" 404
is "a draft's revisions are hidden" "$(code "$(get "$BOB" "$U/api/pages/$slug/revisions")")" 404
is "a draft's diff is hidden" "$(code "$(get /dev/null "$U/api/pages/$slug/diff?a=1&b=2")")" 404
is "the editor reads a draft" "$(code "$(get "$ED" "$U/api/pages/$slug")")" 200
r=$(act "$ANN" "/api/pages/$slug/publish")
is "the author publishes: 403" "$(code "$r")" 403
r=$(act "$ANN" "/api/pages/$slug/submit")
is "submitted" "$(code "$r")" 200
is "not published yet (other process)" "$(code "$(get /dev/null "$W/v/$slug")")" 404
r=$(get "$ED" "$U/api/pages")
has "the editor's review list" "$r" "\"review\":[{\"slug\":\"$slug\""
r=$(get "$BOB" "$U/api/pages")
has "no review list for others" "$r" '"review":[]'
r=$(get "$ANN" "$U/api/pages")
has "the author's own pages" "$r" "\"mine\":[{\"slug\":\"$slug\",\"state\":\"in review\""
is "the list needs a session" "$(code "$(get /dev/null "$U/api/pages")")" 401
r=$(act "$ED" "/api/pages/$slug/publish")
is "published" "$(code "$r")" 200
r=$(get /dev/null "$U/api/pages/$slug")
has "a published page reads for all" "$r" '"published_rev":2'
page 9 'Secret Next Title' > "$tmp/next.md"
r=$(send "$ANN" "/api/pages/$slug?base=2" "$tmp/next.md")
is "a draft after publication" "$(code "$r")" 200
r=$(get /dev/null "$U/api/pages/$slug")
lacks "others read the published text, not the draft" "$r" "Secret Next Title"
has "the author reads the draft" "$(get "$ANN" "$U/api/pages/$slug")" "Secret Next Title"
lacks "others' revision list stops at the published one" "$(get /dev/null "$U/api/pages/$slug/revisions")" '"rev":3'
is "others cannot diff the draft" "$(code "$(get /dev/null "$U/api/pages/$slug/diff?a=2&b=3")")" 404
lacks "others' diff of 0 is the published text" "$(get /dev/null "$U/api/pages/$slug/diff?a=1&b=0")" "Secret Next Title"
r=$(act "$ED" "/api/pages/$slug/publish")
is "the draft published again" "$(code "$r")" 200

# published on one process: playable on the other at once (its version check)
got=404
for _ in $(seq 1 40); do
  got=$(code "$(get /dev/null "$W/v/$slug")")
  [ "$got" = 200 ] && break
  sleep 0.05
done
is "the page on the other process" "$got" 200
r=$(get /dev/null "$W/v/$slug")
lacks "raw HTML off" "$r" "<b>strip</b>"
lacks "javascript: link dropped" "$r" 'href="javascript'
r=$(get /dev/null "$W/")
has "on the home page" "$r" "data-slug=\"$slug\""
is "/play?variant=" "$(code "$(get /dev/null "$W/play?variant=$slug")")" 200
has "/api/variants" "$(get /dev/null "$W/api/variants")" "\"$slug\""
# a hosted game against the engine on the new variant, made on the other process
r=$("${C[@]}" -w '\n%{http_code}' -X POST "$W/api/games" -d "{\"variant\":\"$slug\",\"engine\":\"black\",\"level\":1}")
is "a hosted game on it" "$(code "$r")" 201
has "the hosted game's variant" "$r" "\"variant\":\"$slug\""
gid=$(head -n 1 <<< "$r" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')
wt=$(head -n 1 <<< "$r" | sed -n 's/.*"white":{"token":"\([0-9a-f]*\)".*/\1/p')
r=$("${C[@]}" -w '\n%{http_code}' -X POST -H "Authorization: Bearer $wt" "$W/api/games/$gid/move" -d '{"move":"c2c3"}')
is "a move in it" "$(code "$r")" 200
got=0
for _ in $(seq 1 100); do
  got=$("${C[@]}" "$W/api/games/$gid" | grep -o '"san":"[^"]*"' | wc -l)
  [ "$got" -ge 2 ] && break
  sleep 0.1
done
is "the engine answered on it" "$got" 2
# the lobby on the other process offers it, picked by the page's link
has "the page links the lobby" "$(get /dev/null "$W/v/$slug")" "href=\"/lobby?variant=$slug\""
has "in the lobby, picked" "$(get "$ANN" "$W/lobby?variant=$slug")" "<option value=\"$slug\" selected>"
has "its archive" "$(get /dev/null "$W/games?variant=$slug")" "data-game=\"$gid\""
r=$(get /dev/null "$U/api/pages/$slug/diff?a=1&b=2")
is "diff 1 to 2" "$(code "$r")" 200
has "diff: the changed seam" "$r" 'seam: 9'

r=$(act "$ED" "/api/pages/$slug/unpublish")
is "unpublished" "$(code "$r")" 200
got=200
for _ in $(seq 1 40); do
  got=$(code "$(get /dev/null "$W/v/$slug")")
  [ "$got" = 404 ] && break
  sleep 0.05
done
is "gone from the other process" "$got" 404
# unpublished: out of the home page and the lobby; its games stay readable
lacks "off the home page" "$(get /dev/null "$W/")" "data-slug=\"$slug\""
lacks "off the lobby" "$(get "$ANN" "$W/lobby")" "<option value=\"$slug\""
is "its game still opens" "$(code "$(get /dev/null "$W/game/$gid")")" 200
has "its archive still lists it" "$(get /dev/null "$W/games?variant=$slug")" "data-game=\"$gid\""
is "an archive of a slug without games: 404" "$(code "$(get /dev/null "$W/games?variant=no-such-page")")" 404

for i in 0 1; do
  kill "${pids[$i]}" 2>/dev/null; wait "${pids[$i]}" 2>/dev/null
  is "clean exit $i" "$?" 0
done
pids=()
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error" "$tmp"/*.err; then bad "sanitizer report"; fi
echo "pages-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
