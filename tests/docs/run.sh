#!/usr/bin/env bash
# Docs suite: runs every command that README.md and docs/*.md show, so that
# the manual cannot go stale. A command is an indented code line starting
# with "$ " (a line ending in "\" goes on to the next); the lines after it, up
# to the next command or the block's end, are its output as shown.
#   - it must succeed, unless its shown output starts with "topochess:" or
#     "usage:" (an error shown on purpose): then it must fail, saying so;
#   - every shown output line must appear in the real output, compared with
#     digits and hex ids masked (timings, speeds and ids vary), spaces
#     collapsed, "..." standing for anything left out and a trailing note
#     "   (...)" after three spaces taken as the page's comment
#     (tests/docs/compare.pl);
#   - ids and tokens that a page shows in an answer and uses in later
#     commands (the hub's games) are replaced by the ones the hub really gave;
#   - a command shown without "$ " (how to build or run something, as
#     README's set-up lines) is checked without running it: each `make`
#     target must exist, each tools/, bench/ or fuzz/ script must be there,
#     and `./topochess CMD` must know CMD (`./topochess CMD --help`);
#   - a session of `topochess play` is typed in: a shown line "White to
#     move> e4" (or "Black to move> ...", "Game over (0-1)> ...") gives the
#     input "e4", and its prompt is looked for in the output;
#   - a block after a line <!-- docs-test: skip: REASON --> is not run,
#     after <!-- docs-test: no-output: REASON --> its output is not compared,
#     after <!-- docs-test: fails: REASON --> it must fail (exit status not 0)
#     (the comments are invisible on GitHub and at /docs); a skip's reason is
#     printed, so skips stay visible in the log.
# Commands run under nice with a time limit and SMOKE=1 (so the bench
# scripts run in their short mode), in a scratch folder that links
# the repository's top-level entries (so `./topochess`, `examples/` and
# `tests/data/` work and written files land in the scratch). A hub started by
# the suite on a free loopback port answers the commands that ask
# localhost:8080. A page with no command is fine.
# Usage: tests/docs/run.sh [./topochess] [PAGE.md...]; ends "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. tests/server/lib.sh
lib_begin docs-test "${1:-}"
shift || true
pages=("$@")
[ ${#pages[@]} -gt 0 ] || pages=(README.md docs/*.md)
LIMIT=${DOCS_TEST_LIMIT:-300}   # seconds a command (the KQKR solve takes about a minute, more under load)

work=$tmp/work
mkdir -p "$work"
for e in "$root"/* "$root"/.[!.]*; do [ -e "$e" ] && ln -s "$e" "$work/$(basename "$e")"; done
rm -f "$work/$(basename "$BIN")" && ln -s "$BIN" "$work/topochess"

# The hub for the curl examples.
port=
if grep -q 'localhost:8080' "${pages[@]}" 2>/dev/null; then server_start hub --pages variants --db "$tmp/hub.db"; fi

# Cuts the pages into numbered cases: $tmp/c/N.{cmd,out,where,mode}.
mkdir -p "$tmp/c"
awk -v dir="$tmp/c" '
  function flush() {
    if (n && cmd != "") {
      print cmd > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
      printf "%s", out > (dir "/" n ".out"); close(dir "/" n ".out")
      print where > (dir "/" n ".where"); close(dir "/" n ".where")
      print mode > (dir "/" n ".mode"); close(dir "/" n ".mode")
    }
    cmd = ""; out = ""; cont = 0
  }
  FNR == 1 { flush(); fence = 0; pending = ""; inblock = 0 }
  /^```/ { fence = !fence; flush(); inblock = 0; next }
  fence { next }
  /^<!-- docs-test: (skip|no-output|fails):.*-->/ { pending = $0; next }
  /^    / {
    line = substr($0, 5)
    if (!inblock) { inblock = 1; blockmode = pending; pending = "" }
    if (cont) { cmd = cmd "\n" line; cont = (line ~ /\\$/); next }
    if (line ~ /^\$ /) {
      flush(); n++
      cmd = substr(line, 3); cont = (line ~ /\\$/)
      where = FILENAME ":" FNR; mode = blockmode
      next
    }
    if (cmd != "") { out = out line "\n"; next }
    if (line ~ /^([A-Z_]+=[^ ]+ )*(make( |$)|tools\/|bench\/|fuzz\/|\.\/topochess( |$))/) {
      sub(/[ ]+#.*$/, "", line)
      print FILENAME ":" FNR "\t" line > (dir "/plain")
    }
    next
  }
  /^$/ { next }  # a blank line inside a block keeps it open
  { flush(); inblock = 0; if ($0 !~ /^<!--/) pending = "" }
  END { flush() }
' "${pages[@]}"

cmp=$root/tests/docs/compare.pl
passed=0 failed=0 skipped=0
targets=$(make -C "$root" -qp 2>/dev/null | sed -n 's/^\([A-Za-z0-9_./%-][A-Za-z0-9_./%-]*\):.*/\1/p' | sort -u)
# Commands shown without "$ ": checked, not run.
while IFS=$'\t' read -r where line; do
  why=
  IFS='&|;' read -ra parts <<< "$line"
  for part in "${parts[@]}"; do
    set -- $part
    while [ $# -gt 0 ] && [[ $1 == *=* ]]; do shift; done
    [ $# -gt 0 ] || continue
    case $1 in
      make)
        shift
        [[ " $* " == *" -C "* ]] && continue
        for t in "$@"; do
          [[ $t == -* ]] && continue
          grep -qxF -- "$t" <<< "$targets" || why="make has no target '$t'"
        done ;;
      tools/*|bench/*|fuzz/*) [ -f "$root/$1" ] || why="$1 is missing" ;;
      ./topochess)
        [ -n "${2:-}" ] && ! "$BIN" "$2" --help > /dev/null 2>&1 && why="topochess $2 --help fails" ;;
    esac
  done
  if [ -z "$why" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $where: $line"; echo "  $why"; fi
done < <(cat "$tmp/c/plain" 2>/dev/null)
for f in $(ls "$tmp/c"/*.cmd 2>/dev/null | sort -t/ -k1 -V); do
  k=${f%.cmd}
  where=$(cat "$k.where") mode=$(cat "$k.mode")
  cmd=$(cat "$f")
  case $mode in
    *"docs-test: skip:"*)
      skipped=$((skipped + 1))
      echo "skip $where: $(echo "$mode" | sed 's/.*skip: *//; s/ *-->.*//')"
      continue ;;
  esac
  [ -n "$port" ] && cmd=${cmd//localhost:8080/127.0.0.1:$port}
  page=$(echo "$where" | cut -d: -f1 | tr / _)
  cmd=$(printf '%s' "$cmd" | perl "$cmp" apply "$tmp/$page.map")
  in=/dev/null
  prompt='^(.*(to move|Game over \([^)]*\)))> (.*)$'
  if grep -qE "$prompt" "$k.out"; then
    sed -nE "s/$prompt/\3/p" "$k.out" > "$k.in"
    sed -E "s/$prompt/\1>/" "$k.out" > "$k.out2" && mv "$k.out2" "$k.out"
    in=$k.in
  fi
  (cd "$work" && SMOKE=1 timeout "$LIMIT" nice -n 10 bash -c "$cmd") > "$k.got" 2>&1 < "$in"
  rc=$?
  want_fail=0
  head -1 "$k.out" | grep -qE '^(topochess|usage)' && want_fail=1
  [[ $mode == *"docs-test: fails:"* ]] && want_fail=1
  why=
  if [ $rc -eq 124 ]; then why="timed out after ${LIMIT} s"
  elif [ $want_fail = 0 ] && [ $rc -ne 0 ]; then why="exit $rc"
  elif [ $want_fail = 1 ] && [ $rc -eq 0 ]; then why="succeeded, but the page shows an error"
  fi
  perl "$cmp" learn "$k.out" "$k.got" "$tmp/$page.map"
  if [ -z "$why" ] && [[ $mode != *"no-output:"* ]]; then
    perl "$cmp" apply "$tmp/$page.map" < "$k.out" > "$k.want"
    miss=$(perl "$cmp" check "$k.want" "$k.got")
    [ -n "$miss" ] && why="shown line not in the output: $miss"
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $where: \$ $cmd"
    echo "  $why"
    sed 's/^/  | /' "$k.got" | head -15; echo
  fi
done
echo "docs-test: $passed passed, $failed failed, $skipped skipped (commands of ${#pages[@]} pages)"
[ $failed -eq 0 ]
