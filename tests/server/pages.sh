#!/usr/bin/env bash
# Variant pages as they read: the four seed pages imported into a pages
# folder (000 and 001 flattened, 002 and 004 without front matter, given one
# by `topochess page guess` and a chosen join) beside the shipped pages and
# a page whose title and description hold HTML. Starts one real
# `topochess serve --pages` on a free loopback port and checks the re-flowed
# bodies, "How this board works", the relatives, the home page's
# introduction, legend, descriptions and its filters by query string, and
# that titles and descriptions are escaped everywhere. Ends with
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/server/lib.sh
lib_begin pages-test "${1:-}" curl
has() { if grep -qF -- "$3" "$2"; then ok; else bad "$1: no '$3'"; fi; }
lacks() { if grep -qF -- "$3" "$2"; then bad "$1: unexpected '$3'"; else ok; fi; }

seeds=tests/data/seeds
pg=$tmp/pages
mkdir -p "$pg"
cp variants/*.md "$pg/"
# the solved endings, as tools/gen-endings writes them (a fixed copy: the
# page shows what the file says for the page's board)
cat > "$pg/endings.txt" <<'ENDINGS'
# board|topology|ending|mate possible|won with White to move (%)|longest mate (moves)
8x14|files wrap, ranks twist 11|KQK|yes|100.00|1
8x14|files wrap, ranks twist 11|KBNK|no|0.00|0
8x8|files open, ranks open|KQK|yes|100.00|10
ENDINGS
cp $seeds/000_*.txt "$pg/klein.md"
cp $seeds/001_*.txt "$pg/mobius-seed.md"
# import: the suggested front matter, the joins chosen by a person, the text
import() { # FILE WRAP [EXTRA-SED]
  { "$BIN" page guess "$1" | sed -e "s/^    wrap: ~.*/    wrap: $2/" ${3:+-e "$3"}; "$BIN" page reflow "$1"; }
}
import $seeds/002_*.txt rank-cylinder > "$pg/monteiro-glued.md"
import $seeds/004_*.txt fold 's/^    rows: ~.*/    rows: 8/; s/^    cols: ~.*/    cols: 8/; s|^  setup: ~.*|  setup: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"|' \
  > "$pg/folding-magnetic.md"
cat > "$pg/evil.md" <<'PAGE'
---
title: "Evil <script>alert(1)</script> & Co"
slug: evil
description: "A <b>bold</b> claim & <img src=x onerror=boom()>"
engine:
  topology: {type: grid, rows: 14, cols: 8, wrap: torus}
  setup: "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
---

Text.
PAGE

server_start main --no-games --pages "$pg"
U=http://127.0.0.1:$port
fetch() { is "$2 status" "$("${C[@]}" -o "$tmp/$1" -w '%{http_code}' "$2")" 200; } # NAME URL: the body into $tmp/NAME

# ---- every page loaded
fetch hub "$U/"
for slug in klein-bottle-chess mobius-strip-chess chess-in-a-cylindrical-board-but-glued-in-a-non-stardard-way \
            folding-magnetic-chess evil; do
  has "hub lists $slug" "$tmp/hub" "data-slug=\"$slug\""
done
lacks "hub: no page in error" "$tmp/hub" "tc-entry-error"

# ---- a flattened page reads as the original did (issue 19)
fetch klein "$U/v/klein-bottle-chess"
has "klein: its title heading" "$tmp/klein" "<h2>Klein Bottle Chess</h2>"
for h in "Why 8×14, not 8×8" "The Board and Starting Position" "Consequences of the Topology" "Rules" "Attribution"; do
  has "klein: heading $h" "$tmp/klein" "<h3>$h</h3>"
done
lacks "klein: no heading swallowing the page" "$tmp/klein" "<h2>Klein Bottle Chess Klein"
rows=$(sed -n '/<pre><code>/,/<\/code><\/pre>/p' "$tmp/klein" | grep -cE '^ ?[0-9]{1,2}\|')
is "klein: diagram rows, one per rank" "$rows" 14
has "klein: a diagram row" "$tmp/klein" " 1| R | N | B | Q | K | B | N | R | 1"
has "klein: a paragraph led by bold" "$tmp/klein" "<p><strong>Files a and h are joined</strong>"
fetch mobius "$U/v/mobius-strip-chess"
is "mobius: the family list" "$(grep -c '^<li><strong>' "$tmp/mobius")" 3
fetch glued "$U/v/chess-in-a-cylindrical-board-but-glued-in-a-non-stardard-way"
has "002: diagram kept in a block" "$tmp/glued" "14| P | P | P | P | P | P | P | P | 0"
fetch fold "$U/v/folding-magnetic-chess"
has "004: its text" "$tmp/fold" "<p>Folding Magnetic Chess</p>"

# ---- How this board works, relatives, "make a variant of this"
has "klein: how it works" "$tmp/klein" '<h2>How this board works</h2>'
has "klein: the file join" "$tmp/klein" "one step west from a1 lands on h1"
has "klein: the twist (the seed: a12 joins h11)" "$tmp/klein" "one step north from a11 lands on h12"
has "klein: knight reach" "$tmp/klein" "<td>knight</td><td>8 to 8</td><td>2 to 8</td>"
has "klein: bishop reach" "$tmp/klein" "<td>bishop</td>"
has "klein: White's far pawns (seed: move backward 14->13)" "$tmp/klein" "White pawns on rank 14 move down the board (rank 14 to 13) and promote on rank 8."
has "klein: Black's far pawns (seed: move forward 9->10)" "$tmp/klein" "Black pawns on rank 9 move up the board (rank 9 to 10) and promote on rank 1."
has "klein: castling" "$tmp/klein" "White castles as in chess"
has "klein: the step drawn" "$tmp/klein" '<svg class="tc-howto-board"'
has "klein: why the knight reaches more" "$tmp/klein" "a knight reaches at least 8 cells from anywhere"
has "klein: endings of its board" "$tmp/klein" "<tr><td>KBNK</td><td>no</td>"
lacks "klein: endings of another board" "$tmp/klein" "<td>10 moves</td>"
has "klein: relative torus" "$tmp/klein" '<a href="/v/torus">'
has "klein: relative mobius seed" "$tmp/klein" '<a href="/v/mobius-strip-chess">'
lacks "klein: itself is no relative" "$tmp/klein" '<li><a href="/v/klein-bottle-chess">'
lacks "klein: same board is no relative" "$tmp/klein" '<li><a href="/v/klein-bottle">'
has "klein: variant of this" "$tmp/klein" 'href="/new?from=klein-bottle-chess">Make a variant of this</a>'
has "fold: the fold join" "$tmp/fold" '<span class="tc-legend-fold">'
fetch chess "$U/v/chess"
has "chess: no joins" "$tmp/chess" "No joins"
has "chess: its endings" "$tmp/chess" "<tr><td>KQK</td><td>yes</td><td>100.00%</td><td>10 moves</td></tr>"
has "fold: endings not solved said" "$tmp/glued" "have not been solved for this board yet"
for p in klein mobius glued fold chess; do lacks "$p cites no unserved file" "$tmp/$p" "RULES.md"; done
for v in $("$BIN" variants | awk 'NR > 1 && $2 ~ /^[0-9]+x[0-9]+$/ {print $1}'); do
  fetch "v-$v" "$U/v/$v"
  lacks "$v cites no unserved file" "$tmp/v-$v" "RULES.md"
  has "$v: how it works" "$tmp/v-$v" 'id="how-this-board-works"'
done

# ---- the home page
has "hub: introduction" "$tmp/hub" 'class="tc-intro"'
for c in wrap twist fold; do has "hub: legend $c" "$tmp/hub" "<span class=\"tc-legend-$c\">"; done
for l in /lobby /games /new; do has "hub: link $l" "$tmp/hub" "<a href=\"$l\">"; done
has "hub: a description" "$tmp/hub" '<p class="tc-entry-description">Moebius strip with files a and h joined too'
fetch small "$U/?size=8x8"
has "size filter keeps chess" "$tmp/small" 'data-slug="chess"'
lacks "size filter drops 8x14" "$tmp/small" 'data-slug="klein-bottle-chess"'
has "size filter shown chosen" "$tmp/small" '<option value="8x8" selected>'
fetch folded "$U/?topology=files+wrap%2C+ranks+fold"
has "topology filter keeps folding" "$tmp/folded" 'data-slug="folding"'
has "topology filter keeps the 004 import" "$tmp/folded" 'data-slug="folding-magnetic-chess"'
lacks "topology filter drops chess" "$tmp/folded" 'data-slug="chess"'
fetch none "$U/?size=99x99&topology="
has "no match said" "$tmp/none" "No variant matches"
fetch evilq "$U/?size=%3Cscript%3E"
lacks "filter value escaped" "$tmp/evilq" "<script>alert"

# ---- titles and descriptions escaped everywhere
has "hub: title escaped" "$tmp/hub" "Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"
has "hub: description escaped" "$tmp/hub" "A &lt;b&gt;bold&lt;/b&gt; claim &amp; &lt;img"
fetch evil "$U/v/evil"
has "evil: <title> escaped" "$tmp/evil" "<title>Evil &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</title>"
for f in hub evil klein; do lacks "$f: no raw script" "$tmp/$f" "<script>alert(1)"; lacks "$f: no raw img" "$tmp/$f" "<img src=x"; done
has "klein: relative evil escaped" "$tmp/klein" '<a href="/v/evil">Evil &lt;script&gt;'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
