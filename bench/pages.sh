#!/usr/bin/env bash
# Published means playable at once: two `topochess serve` processes on one
# SQLite file (or TG_TEST_DB=postgresql://...); an editor publishes a page
# through process A, and this measures how long until process B serves
# /v/SLUG (B's version check, SRV_LIVE_RECHECK_MS, then its rebuild), and
# the time of a request on B with and without that check (GET /api/variants,
# which the check precedes). Figures only; nothing is asserted.
#   bench/pages.sh [BIN]   (ROUNDS=10 publishes; SMOKE=1: 2)
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
BIN=${1:-./topochess}
ROUNDS=${ROUNDS:-10}
[ -n "${SMOKE:-}" ] && ROUNDS=2
command -v curl >/dev/null || { echo "bench/pages: curl is missing: skipped"; exit 0; }
[ -x "$BIN" ] || { echo "bench/pages: no $BIN (make): skipped"; exit 0; }
lib_begin bench/pages "$BIN"
DB=${TG_TEST_DB:-$tmp/pages.db}
start() { server_start "$1" --pages variants --db "$DB"; }
start a; A=http://127.0.0.1:$port
start b; B=http://127.0.0.1:$port
jar=$tmp/ed.jar
"${C[@]}" -o /dev/null -c "$jar" -H 'Content-Type: application/x-www-form-urlencoded' \
  --data 'name=benched&password=klein+bottle&password2=klein+bottle' "$A/signup"
"$BIN" admin editor benched --db "$DB" > /dev/null
tok=$("${C[@]}" -b "$jar" "$A/api/account" | json csrf)
ms() { date +%s%3N; }
total=0 worst=0
for i in $(seq 1 "$ROUNDS"); do
  slug=bench-$RANDOM-$i
  sed "s/^slug: .*/slug: $slug/; s/^title: .*/title: \"Bench $i\"/" variants/torus.md > "$tmp/p.md"
  "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $tok" --data-binary "@$tmp/p.md" "$A/api/pages/$slug?base=0"
  t0=$(ms)
  "${C[@]}" -o /dev/null -b "$jar" -H "X-CSRF-Token: $tok" -X POST "$A/api/pages/$slug/publish"
  until is_code 200 "$B/v/$slug"; do :; done
  d=$(( $(ms) - t0 ))
  total=$((total + d)); [ "$d" -gt "$worst" ] && worst=$d
done
echo "bench/pages: publish on A to /v/SLUG served by B: mean $((total / ROUNDS)) ms, worst $worst ms over $ROUNDS publishes (recheck every 250 ms, $(grep -c . <<< "$("${C[@]}" "$B/api/variants" | grep -o '"slug"')") variants)"
# requests on B: the version check runs on at most one request each 250 ms
N=$((ROUNDS * 20))
t0=$(ms)
for _ in $(seq 1 "$N"); do "${C[@]}" -o /dev/null "$B/api/variants"; done
echo "bench/pages: $N sequential GET /api/variants on B: $(( ($(ms) - t0) * 1000 / N )) us each (curl's start included)"
