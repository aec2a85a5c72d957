#!/usr/bin/env bash
# Endgame mate puzzles on every preset (docs/puzzles.md): runs
# `topochess puzzles` once per preset with the materials and mate range
# that give that board its puzzles, and prints how many came out, their
# mate distances and the time (wall and CPU, tables solved included).
# Fails when a preset gives fewer than COUNT.
#   bench/puzzles.sh                  # 200 a preset, seed 1
#   COUNT=1000 SEED=7 bench/puzzles.sh
#   SMOKE=1 bench/puzzles.sh          # 20 a preset (make bench-smoke)
#   OUT=DIR bench/puzzles.sh          # keep each preset's JSON as DIR/<preset>.json
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-./topochess}
if [ "${SMOKE:-0}" = 1 ]; then COUNT=${COUNT:-20}; fi
COUNT=${COUNT:-200}
SEED=${SEED:-1}
[ -x "$BIN" ] || make -s -j2 "$BIN"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# preset, then its options: the 3-piece mates where the board has them;
# the folded board's KRK mates only in one, the torus has no 3-piece mate
# at all, the Klein bottle's KQK and KRK mate only in one
presets=(
    "chess|"
    "cylinder|"
    "monteiro-cylinder|"
    "mobius|"
    "folding|--material KQK,KBNK"
    "torus|--material KRRK,KQRK --min-mate 2"
    "klein-bottle|--material KBNK,KRRK --min-mate 2"
)
echo "| preset | options | puzzles | mate in (min, median, max) | one best move | wall | CPU |"
echo "|---|---|---|---|---|---|---|"
status=0
for entry in "${presets[@]}"; do
    v=${entry%%|*}
    opts=${entry#*|}
    # shellcheck disable=SC2086
    nice -n 10 /usr/bin/time -f "%e %U %S" -o "$scratch/time" \
        "$BIN" puzzles --variant "$v" $opts --count "$COUNT" --seed "$SEED" --json \
        >"$scratch/$v.json" 2>"$scratch/$v.err" || { cat "$scratch/$v.err" >&2; status=1; continue; }
    read -r wall user sys <"$scratch/time"
    n=$(grep -c '"fen":' "$scratch/$v.json" || true)
    mates=$(grep -o '"mate_in":[0-9]*' "$scratch/$v.json" | cut -d: -f2 | sort -n)
    min=$(sed -n 1p <<< "$mates") # (head -1 could leave the pipe early: SIGPIPE under pipefail)
    max=$(echo "$mates" | tail -1)
    median=$(echo "$mates" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    one=$(grep -c '"accepted":\["[^"]*"\]' "$scratch/$v.json" || true)
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
    echo "| \`$v\` | \`${opts:-(KQK,KRK)}\` | $n | $min, $median, $max | $one | $wall s | $cpu s |"
    if [ "$n" -lt "$COUNT" ]; then
        echo "bench/puzzles.sh: $v gave $n puzzles, fewer than $COUNT" >&2
        status=1
    fi
    if [ -n "${OUT:-}" ] && [ "${SMOKE:-0}" != 1 ]; then
        mkdir -p "$OUT" && cp "$scratch/$v.json" "$OUT/$v.json"
    fi
done
exit $status
