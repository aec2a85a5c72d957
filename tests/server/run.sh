#!/usr/bin/env bash
# Server suite: starts `topochess serve` on free loopback ports (--port 0)
# and requests every route of docs/web-architecture.md, then bad requests
# (unknown slugs, bad FENs, path traversal, huge URLs and headers, bad
# methods, large bodies, slow clients), checking that each gets its 4xx and
# that the server keeps serving. Traffic goes to 127.0.0.1 only; every
# request has a time limit. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin server-test "${1:-}" curl

# A fake front-end build: the server only needs the files to exist.
st=$tmp/static
mkdir -p "$st/assets"
echo 'console.log("app");' > "$st/assets/app.js"
echo 'body{margin:0}' > "$st/assets/app.css"
echo 'export const three = 3;' > "$st/assets/three-Ab12Cd34.js"
printf '\0asm\1\0\0\0' > "$st/topochess.wasm"
echo secret > "$st/.hidden"
gzip -k -9 "$st/assets/app.js"
# a stand-in brotli copy (the server sends the bytes as they are)
gzip -k -9 "$st/assets/app.css"
printf 'brotli bytes of app.css' > "$st/assets/app.css.br"
echo 'body{margin:1px}' > "$st/assets/old.css"
gzip -c "$st/assets/old.css" > "$st/assets/old.css.gz"
touch -d '2000-01-01' "$st/assets/old.css.gz"
ln -s /etc/passwd "$st/assets/passwd.js"
ln -s "$PWD/Makefile" "$st/outside.txt"

# The user's own pages: two presets, a page with raw HTML and an unsafe
# link, a one-line front matter, a broken page and a duplicate slug.
pg=$tmp/pages
mkdir -p "$pg"
cp variants/klein-bottle.md variants/torus.md "$pg/"
cat > "$pg/raw-html.md" <<'PAGE'
---
title: Raw <b>HTML</b> & Co
slug: raw-html
engine:
  topology: {type: grid, rows: 6, cols: 6, wrap: cylinder}
  setup: "rnbkqr/pppppp/6/6/PPPPPP/RNBKQR"
---

# A *custom* board

Some **bold** text, `code`, and a [link](https://example.org/).

<script>alert("page script")</script>

<div onclick="steal()">raw block</div>

Inline <img src=x onerror="boom()"> html and a [bad link](javascript:alert(1)).
PAGE
printf -- '--- title: One Line Chess slug: one-line engine: topology: type: grid rows: 8 cols: 8 wrap: cylinder setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ---\n\nThe *one-line* page.\n' > "$pg/one-line.md"
printf 'no front matter here\n' > "$pg/broken.md"
sed 's/^title: .*/title: Another Torus/' variants/torus.md > "$pg/torus-copy.md"

start() { server_start "$1" --db "$tmp/$1.db" "${@:2}"; } # NAME ARGS...: sets $port
CURL=("${C[@]}" --path-as-is)

# check WHAT STATUS URL [curl args...]: fetches into $tmp/body, $tmp/head.
check() {
  local what=$1 want=$2 url=$3; shift 3
  local got
  got=$("${CURL[@]}" -o "$tmp/body" -D "$tmp/head" -w '%{http_code}' "$@" "$url")
  if [ "$got" = "$want" ]; then ok; else bad "$what: status $got, expected $want ($url)"; fi
}
# has WHAT FILE PATTERN (fixed string) / lacks ...
has() { if grep -qiF -- "$3" "$2"; then ok; else bad "$1: no '$3'"; fi; }
lacks() { if grep -qiF -- "$3" "$2"; then bad "$1: unexpected '$3'"; else ok; fi; }
header() { tr -d '\r' < "$tmp/head" | sed -n "s/^$1: //Ip" | head -n 1; }

start main --static "$st" --timeout 2
U=http://127.0.0.1:$port
main_port=$port
start own --pages "$pg" --static "$st" --timeout 2
port2=$port
port=$main_port
V=http://127.0.0.1:$port2
has "start line" "$tmp/main.out" "7 variant pages"

csp_ok() {
  local csp
  csp=$(header content-security-policy)
  case $csp in *"script-src 'self' 'wasm-unsafe-eval'"*) ok ;; *) bad "$1: CSP '$csp'" ;; esac
  case $csp in *http:*|*https:*|*'*'*) bad "$1: CSP names a remote origin: $csp" ;; *) ok ;; esac
}

# ---- the hub
check "hub" 200 "$U/"
is "hub type" "$(header content-type)" "text/html; charset=utf-8"
csp_ok "hub"
is "hub COOP" "$(header cross-origin-opener-policy)" "same-origin"
is "hub COEP" "$(header cross-origin-embedder-policy)" "require-corp"
has "hub" "$tmp/body" '<body data-page="hub">'
has "hub" "$tmp/body" '<script type="module" src="/assets/app.js"></script>'
has "hub" "$tmp/body" '<link rel="stylesheet" href="/assets/app.css">'
has "hub" "$tmp/body" '<script type="application/json" id="tc-data">{"variants":[{"slug":"chess"'
presets=$("$BIN" variants | awk 'NR > 1 && $1 != "" && $2 ~ /^[0-9]+x[0-9]+$/ {print $1}')
[ "$(echo "$presets" | wc -l)" -ge 7 ] && ok || bad "preset list: $presets"
for v in $presets; do
  has "hub entry $v" "$tmp/body" "<li class=\"tc-entry\" data-slug=\"$v\"><a class=\"tc-entry-link\" href=\"/v/$v\"><svg class=\"tc-thumb\""
done
has "hub klein size/topology" "$tmp/body" '<span class="tc-entry-size">8x14</span> <span class="tc-entry-topology">files wrap, ranks twist 11</span>'
has "hub twist drawn" "$tmp/body" 'class="tc-twist"'
has "hub fold drawn" "$tmp/body" 'class="tc-fold"'
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 200"*) ok ;; *) bad "HEAD: ${raw%%$'\r'*}" ;; esac
case $raw in *"<!doctype"*) bad "HEAD sent a body" ;; *) ok ;; esac
case $raw in *"Content-Length: "[1-9]*) ok ;; *) bad "HEAD without the body's length" ;; esac

# ---- every preset's page, API entry, play and analysis page
for v in $presets; do
  check "page $v" 200 "$U/v/$v"
  csp_ok "page $v"
  has "page $v" "$tmp/body" '<body data-page="variant">'
  has "page $v" "$tmp/body" '<article class="tc-page">'
  has "page $v" "$tmp/body" '</article>'$'\n''<div id="tc-app"></div>'
  has "page $v tc-data" "$tmp/body" "<script type=\"application/json\" id=\"tc-data\">{\"variant\":{\"slug\":\"$v\""
  has "page $v frontmatter" "$tmp/body" '"frontmatter":"---\n'
  check "api $v" 200 "$U/api/variants/$v"
  is "api $v type" "$(header content-type)" "application/json; charset=utf-8"
  has "api $v" "$tmp/body" "{\"slug\":\"$v\""
  has "api $v report" "$tmp/body" '"report":{"orientable":'
  check "play $v" 200 "$U/play?variant=$v"
  has "play $v" "$tmp/body" '<body data-page="play">'
  has "play $v" "$tmp/body" '"engine":null,"level":10}'
  check "analysis $v" 200 "$U/analysis?variant=$v"
  has "analysis $v" "$tmp/body" '<body data-page="analysis">'
done
check "klein page" 200 "$U/v/klein-bottle"
has "klein markdown" "$tmp/body" '<h2>Klein Bottle Chess</h2>'
has "klein markdown" "$tmp/body" '<strong>Joins.</strong>'
has "klein markdown" "$tmp/body" '<code>mobius</code>'
check "api klein" 200 "$U/api/variants/klein-bottle"
has "klein summary" "$tmp/body" '"rows":14,"cols":8,"files":"wrap","ranks":"twist","seam":11,"start_fen":"PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"'
has "klein report" "$tmp/body" '"report":{"orientable":false,"euler":0,"boundaries":0,"surface":"Klein bottle","colour_bound":false,"file_classes":[["a","h"],["b","g"],["c","f"],["d","e"]]}'
check "api torus" 200 "$U/api/variants/torus"
has "torus report" "$tmp/body" '"orientable":true,"euler":0,"boundaries":0,"surface":"torus"'
check "api chess" 200 "$U/api/variants/chess"
has "chess seam" "$tmp/body" '"seam":null'
check "api list" 200 "$U/api/variants"
for v in $presets; do has "api list $v" "$tmp/body" "{\"slug\":\"$v\""; done
lacks "api list holds summaries" "$tmp/body" '"frontmatter"'

# ---- play and analysis with a query
check "play fen+engine" 200 "$U/play?variant=mobius&fen=PP3PPP/8/2pPP3/6p1/8/pppp1p1p/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+w+KQkq+g10+0+4&engine=black&level=3"
has "play fen" "$tmp/body" '"fen":"PP3PPP/8/2pPP3/6p1/8/pppp1p1p/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq g10 0 4","engine":"black","level":3}'
check "play %20 fen" 200 "$U/play?variant=chess&fen=8/8/8/4k3/8/8/8/4K3%20b%20-%20-%200%201&engine=white"
has "play fen" "$tmp/body" '"fen":"8/8/8/4k3/8/8/8/4K3 b - - 0 1","engine":"white","level":10}'
check "analysis board-only fen" 200 "$U/analysis?variant=klein-bottle&fen=PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
has "analysis fen" "$tmp/body" '"fen":"PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w'
check "unknown parameters are ignored" 200 "$U/play?variant=torus&utm_source=x&flag"

# ---- static files
check "app.js" 200 "$U/assets/app.js"
is "app.js type" "$(header content-type)" "text/javascript; charset=utf-8"
is "app.js cache" "$(header cache-control)" "no-cache"
is "app.js nosniff" "$(header x-content-type-options)" "nosniff"
is "app.js COEP" "$(header cross-origin-embedder-policy)" "require-corp"
is "app.js CORP" "$(header cross-origin-resource-policy)" "same-origin"
etag=$(header etag)
[ -n "$etag" ] && ok || bad "app.js has no ETag"
check "app.js revalidated" 304 "$U/assets/app.js" -H "If-None-Match: $etag"
check "app.js other etag" 200 "$U/assets/app.js" -H 'If-None-Match: "0-0"'
check "app.js gzip" 200 "$U/assets/app.js" -H 'Accept-Encoding: br, gzip'
is "app.js gzip encoding" "$(header content-encoding)" "gzip"
is "app.js gzip vary" "$(header vary)" "Accept-Encoding"
is "app.js gzip type" "$(header content-type)" "text/javascript; charset=utf-8"
gzip -dc < "$tmp/body" | cmp -s - "$st/assets/app.js" && ok || bad "app.js.gz is not app.js"
gz_etag=$(header etag)
[ "$gz_etag" != "$etag" ] && ok || bad "gzip copy has the plain file's ETag"
check "app.js gzip refused" 200 "$U/assets/app.js" -H 'Accept-Encoding: gzip;q=0, identity'
is "app.js gzip refused" "$(header content-encoding)" ""
cmp -s "$tmp/body" "$st/assets/app.js" && ok || bad "app.js plain bytes differ"
check "stale gzip copy" 200 "$U/assets/old.css" -H 'Accept-Encoding: gzip'
is "stale gzip copy ignored" "$(header content-encoding)" ""
check "app.css" 200 "$U/assets/app.css"
is "app.css plain without Accept-Encoding" "$(header content-encoding)" ""
check "app.css brotli" 200 "$U/assets/app.css" -H 'Accept-Encoding: gzip, deflate, br'
is "app.css brotli encoding" "$(header content-encoding)" "br"
is "app.css brotli vary" "$(header vary)" "Accept-Encoding"
cmp -s "$tmp/body" "$st/assets/app.css.br" && ok || bad "app.css.br bytes differ"
br_etag=$(header etag)
check "app.css brotli refused" 200 "$U/assets/app.css" -H 'Accept-Encoding: br;q=0, gzip'
is "app.css gzip when brotli is refused" "$(header content-encoding)" "gzip"
[ "$br_etag" != "$(header etag)" ] && ok || bad "brotli and gzip copies share an ETag"
is "app.css type" "$(header content-type)" "text/css; charset=utf-8"
check "hashed chunk" 200 "$U/assets/three-Ab12Cd34.js"
is "hashed chunk cache" "$(header cache-control)" "public, max-age=31536000, immutable"
check "wasm" 200 "$U/topochess.wasm"
is "wasm type" "$(header content-type)" "application/wasm"
cmp -s "$tmp/body" "$st/topochess.wasm" && ok || bad "wasm bytes differ"
check "missing asset" 404 "$U/assets/nope.js"
check "hidden file" 404 "$U/.hidden"
check "symlink out of the static folder" 404 "$U/assets/passwd.js"
check "symlink out of the static folder" 404 "$U/outside.txt"
check "folder" 404 "$U/assets"
check "folder/" 404 "$U/assets/"

# ---- the user's own pages
check "own hub" 200 "$V/"
for v in klein-bottle torus raw-html one-line; do has "own hub $v" "$tmp/body" "data-slug=\"$v\""; done
has "own hub error entry" "$tmp/body" '<li class="tc-entry tc-entry-error"><span class="tc-entry-file">broken.md</span>: <span class="tc-entry-message">no front matter'
has "own hub duplicate slug" "$tmp/body" '<span class="tc-entry-file">torus-copy.md</span>: <span class="tc-entry-message">slug &#39;torus&#39; is already used by torus.md'
has "own hub errors in tc-data" "$tmp/body" '"errors":[{"file":"broken.md","error":"no front matter'
has "own hub title escaped" "$tmp/body" 'Raw &lt;b&gt;HTML&lt;/b&gt; &amp; Co'
lacks "own hub title escaped" "$tmp/body" 'Raw <b>HTML'
has "own hub 6x6" "$tmp/body" '<span class="tc-entry-size">6x6</span>'
check "own raw-html page" 200 "$V/v/raw-html"
has "markdown rendered" "$tmp/body" '<h1>A <em>custom</em> board</h1>'
has "markdown rendered" "$tmp/body" '<strong>bold</strong>'
has "markdown link" "$tmp/body" '<a href="https://example.org/">link</a>'
has "raw HTML dropped" "$tmp/body" '<!-- raw HTML omitted -->'
lacks "raw script" "$tmp/body" 'alert("page script")'
lacks "raw block" "$tmp/body" 'onclick='
lacks "raw inline" "$tmp/body" 'onerror='
lacks "javascript link" "$tmp/body" 'href="javascript:'
has "title escaped" "$tmp/body" '<title>Raw &lt;b&gt;HTML&lt;/b&gt; &amp; Co</title>'
has "tc-data escaped" "$tmp/body" '"title":"Raw \u003cb\u003eHTML\u003c/b\u003e \u0026 Co"'
check "own one-line page" 200 "$V/v/one-line"
has "one-line body" "$tmp/body" '<p>The <em>one-line</em> page.</p>'
check "own one-line api" 200 "$V/api/variants/one-line"
has "one-line files" "$tmp/body" '"files":"wrap","ranks":"open"'
# a page that lost its line breaks is re-flowed as it enters the hub (issue 19)
has "one-line frontmatter" "$tmp/body" '"frontmatter":"---\ntitle: One Line Chess\nslug: one-line\nengine:\n  topology:\n    type: grid\n    rows: 8\n    cols: 8\n    wrap: cylinder\n  setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n---\n"'
check "own chess is not there" 404 "$V/v/chess"
check "own broken is not a page" 404 "$V/v/broken"
check "own play custom" 200 "$V/play?variant=raw-html&fen=rnbkqr/pppppp/6/6/PPPPPP/RNBKQR+w+-+-+0+1"

# ---- SIGHUP reads the pages again
check "before reload" 404 "$V/v/new-page"
sed 's/^slug: .*/slug: new-page/; s/^title: .*/title: New Page/' variants/cylinder.md > "$pg/new-page.md"
rm "$pg/broken.md"
kill -HUP "${pids[1]}"
got=404
for _ in $(seq 1 50); do   # the reload runs beside the requests
  got=$("${CURL[@]}" -o /dev/null -w '%{http_code}' "$V/v/new-page")
  [ "$got" = 200 ] && break
  sleep 0.1
done
is "new page after SIGHUP" "$got" 200
check "hub after reload" 200 "$V/"
has "hub after reload" "$tmp/body" 'data-slug="new-page"'
lacks "hub after reload" "$tmp/body" 'broken.md'
has "reload noted" "$tmp/own.err" "reloaded 5 variant pages"

# ---- the manual: docs/ beside the binary, or --docs DIR
check "/docs" 200 "$U/docs"
has "/docs lists the CLI page" "$tmp/body" '<a href="/docs/cli">'
has "/docs lists the API page" "$tmp/body" '<a href="/docs/api">'
check "/docs/xboard" 200 "$U/docs/xboard"
has "/docs/xboard renders" "$tmp/body" '<h1>Playing topochess in XBoard</h1>'
has "/docs/xboard picture" "$tmp/body" '<img src="xboard-klein-bottle.png"'
csp_ok "/docs/xboard"
check "/docs/xboard-klein-bottle.png" 200 "$U/docs/xboard-klein-bottle.png"
is "docs picture type" "$(header content-type)" "image/png"
check "/docs/cli.md (a relative link)" 200 "$U/docs/cli.md"
check "/docs/no-such-page" 404 "$U/docs/no-such-page"
check "/docs/../Makefile" 400 "$U/docs/../Makefile"
check "header link" 200 "$U/"
has "header link to the manual" "$tmp/body" 'href="/docs">docs</a>'
start docs --no-games --docs "$pg"
check "--docs DIR" 200 "http://127.0.0.1:$port/docs/raw-html"
has "--docs DIR page" "$tmp/body" '<h1>A <em>custom</em> board</h1>'
lacks "--docs DIR raw HTML off" "$tmp/body" '<script>alert'
port=$main_port
"$BIN" serve --no-games --docs "$tmp/none" --port 0 > /dev/null 2> "$tmp/x.err" && bad "missing docs folder accepted" || ok
has "missing docs folder" "$tmp/x.err" "--docs $tmp/none: No such file or directory"

# ---- bad requests: each gets its 4xx, the server keeps serving
alive() { check "still serving after $1" 200 "$U/api/variants"; }
check "unknown slug" 404 "$U/v/no-such-variant"
has "404 page" "$tmp/body" "no variant page &#39;no-such-variant&#39;"
csp_ok "404 page"
check "unknown api slug" 404 "$U/api/variants/no-such-variant"
is "api 404 is JSON" "$(header content-type)" "application/json; charset=utf-8"
has "api 404 is JSON" "$tmp/body" '{"error":"no variant'
check "unknown api route" 404 "$U/api/nothing-here"
check "play unknown slug" 404 "$U/play?variant=nope"
check "play no variant" 400 "$U/play"
check "play bad FEN" 400 "$U/play?variant=chess&fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN+w"
has "bad FEN reason" "$tmp/body" "bad FEN for chess: FEN"
check "play FEN of the wrong size" 400 "$U/play?variant=klein-bottle&fen=8/8/8/4k3/8/8/8/4K3+w+-+-+0+1"
has "wrong size reason" "$tmp/body" "ranks"
check "analysis bad FEN opens the editor" 200 "$U/analysis?variant=torus&fen=xyz"
has "analysis bad FEN reason" "$tmp/body" '"fen_error":{"fen":"xyz","error":"'
has "analysis bad FEN: start position" "$tmp/body" '"fen":"PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w'
check "analysis FEN of the wrong size" 200 "$U/analysis?variant=mobius&fen=8/8/8/8"
has "wrong size named" "$tmp/body" 'board has 4 ranks, the variant has 14'
# every name the command line accepts, in URLs too
for q in 'variant=moebius:mobius' 'variant=klein:klein-bottle' 'variant=standard:chess' \
         'variant=Klein+Bottle:klein-bottle' 'variant=mobius-strip:mobius'; do
  check "play ${q%%:*}" 200 "$U/play?${q%%:*}"
  has "play ${q%%:*} is ${q##*:}" "$tmp/body" "\"slug\":\"${q##*:}\""
done
check "/v/mobius-strip" 200 "$U/v/mobius-strip"
has "/v/mobius-strip is mobius" "$tmp/body" '"slug":"mobius"'
check "/v/Torus" 200 "$U/v/Torus"
check "misspelt slug" 404 "$U/v/kleinn"
has "did you mean" "$tmp/body" "did you mean &#39;klein-bottle&#39;?"
has "known names" "$tmp/body" "known: chess"
check "misspelt play" 404 "$U/play?variant=toruss"
has "did you mean torus" "$tmp/body" "did you mean &#39;torus&#39;?"
check "play bad engine" 400 "$U/play?variant=chess&engine=grey"
check "play bad level" 400 "$U/play?variant=chess&engine=white&level=21"
check "play level not a number" 400 "$U/play?variant=chess&level=3x"
check "parameter twice" 400 "$U/play?variant=chess&variant=torus"
check "bad escape" 400 "$U/play?variant=ch%zzess"
check "NUL in query" 400 "$U/play?variant=chess&fen=8%00"
check "long value" 400 "$U/play?variant=chess&fen=$(printf 'x%.0s' $(seq 1 1100))"
check "too many parameters" 400 "$U/play?$(for i in $(seq 1 20); do printf 'p%d=1&' "$i"; done)variant=chess"
alive "bad queries"
for p in '/v/../../etc/passwd' '/v/%2e%2e/%2e%2e/etc/passwd' '/v/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd' \
         '/assets/../../../etc/passwd' '/assets/%2e%2e/%2e%2e/Makefile' '/..%2f..%2fetc%2fpasswd' \
         '/assets/..%5c..%5cMakefile' '/./assets/app.js' '/v/chess%00.md' '/v/%0d%0aX:%20y' '/%'; do
  check "traversal $p" 400 "$U$p"
done
check "traversal api" 400 "$U/api/variants/..%2f..%2fetc%2fpasswd"
is "traversal api is JSON" "$(header content-type)" "application/json; charset=utf-8"
check "slug with a slash" 404 "$U/v/chess/extra"
alive "path traversal"
# a raw request line that no client would normalise
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 400"*) ok ;; *) bad "raw traversal: ${raw%%$'\r'*}" ;; esac
case $raw in *root:*) bad "raw traversal leaked /etc/passwd" ;; *) ok ;; esac
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'GET relative HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 4"*) ok ;; *) bad "relative target: ${raw%%$'\r'*}" ;; esac
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'GET /api/variants HTTP/1.1\r\nConnection: close\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 400"*) ok ;; *) bad "HTTP/1.1 without Host: ${raw%%$'\r'*}" ;; esac
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'GET /api/variants HTTP/1.0\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 200"*) ok ;; *) bad "HTTP/1.0 without Host: ${raw%%$'\r'*}" ;; esac
raw=$(exec 3<>/dev/tcp/127.0.0.1/"$port"; printf 'GET http://localhost/v/torus HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3; timeout 10 cat <&3)
case $raw in "HTTP/1.1 200"*'data-page="variant"'*) ok ;; *) bad "absolute-form target: ${raw%%$'\r'*}" ;; esac
check "long URL" 414 "$U/v/$(head -c 5000 /dev/zero | tr '\0' a)"
check "huge URL" 414 "$U/?q=$(head -c 40000 /dev/zero | tr '\0' a)"
check "huge header" 431 "$U/" -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)"
check "many headers" 431 "$U/" $(for i in $(seq 1 400); do printf -- '-H X-H%d:%s ' "$i" aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done)
alive "huge requests"
check "POST" 405 "$U/" -X POST -d x=1
is "405 Allow" "$(header allow)" "GET, HEAD"
check "PUT api" 405 "$U/api/variants" -X PUT -d '{}'
has "405 api JSON" "$tmp/body" '{"error":"method PUT is not allowed'
check "DELETE" 405 "$U/v/chess" -X DELETE
check "OPTIONS" 405 "$U/" -X OPTIONS
check "made-up method" 405 "$U/" -X BREW
check "large body" 413 "$U/api/variants" -X POST -H 'Content-Type: application/octet-stream' --data-binary @<(head -c 200000 /dev/zero)
alive "bad methods"

# ---- slow clients: connections that never finish their headers hold no
# thread; others are served meanwhile, and the idle ones are closed after
# the timeout (--timeout 2).
for i in $(seq 1 20); do
  exec {fd}<>/dev/tcp/127.0.0.1/"$port"
  printf 'GET / HTTP/1.1\r\nHost: slow\r\n' >&"$fd"
  slow[$i]=$fd
done
check "served beside 20 slow clients" 200 "$U/v/klein-bottle"
check "served beside 20 slow clients" 200 "$U/api/variants"
closed=0
for i in $(seq 1 20); do
  fd=${slow[$i]}
  # the server closes the idle connection: cat sees end of file (a 20 s
  # bound only stops a broken server from hanging the suite)
  if timeout 20 cat <&"$fd" >/dev/null; then closed=$((closed + 1)); fi
  exec {fd}>&-
done
is "slow clients closed by the server" "$closed" 20
alive "slow clients"

# ---- connections per address: a third server allows 3 from one address
main_port=$port
start limit --static "$st" --max-per-ip 3 --timeout 30
lim=$port
port=$main_port
for i in 1 2 3; do
  exec {fd}<>/dev/tcp/127.0.0.1/"$lim"
  printf 'GET / HTTP/1.1\r\nHost: held\r\n' >&"$fd"
  held[$i]=$fd
done
check "4th connection from one address refused" 000 "http://127.0.0.1:$lim/api/variants"
for i in 1 2 3; do fd=${held[$i]}; exec {fd}>&-; done
got=000
for _ in $(seq 1 50); do   # the server sees the closes a moment later
  got=$("${CURL[@]}" -o /dev/null -w '%{http_code}' "http://127.0.0.1:$lim/api/variants")
  [ "$got" = 200 ] && break
  sleep 0.1
done
is "served again once they close" "$got" 200
alive "the per-address limit"

kill -0 "${pids[0]}" 2>/dev/null && ok || bad "server 1 died"
kill -0 "${pids[1]}" 2>/dev/null && ok || bad "server 2 died"
# SIGTERM stops it cleanly
stop_procs "${pids[0]}"; rc=$?
is "exit status after SIGTERM" "$rc" 0

# ---- start-up errors
"$BIN" serve --no-games --pages "$tmp/none" --port 0 > "$tmp/x.out" 2> "$tmp/x.err" && bad "missing pages folder accepted" || ok
has "missing pages folder" "$tmp/x.err" "pages folder"
"$BIN" serve --port 70000 > /dev/null 2> "$tmp/x.err" && bad "port 70000 accepted" || ok
"$BIN" serve --host not..a..host --port 0 > /dev/null 2> "$tmp/x.err" && bad "bad host accepted" || ok
"$BIN" serve --bogus > /dev/null 2> "$tmp/x.err" && bad "unknown option accepted" || ok
has "unknown option" "$tmp/x.err" "unknown or incomplete option '--bogus'"

if [ "$failed" -gt 0 ]; then
  for f in "$tmp"/*.err; do echo "== $f"; tail -n 20 "$f"; done
fi
echo "server-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
