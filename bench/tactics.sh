#!/usr/bin/env bash
# Tactic puzzles from self-play on every preset (docs/puzzles.md, "Tactics
# from play"): runs `topochess tactics --variant PRESET --count COUNT
# --seed SEED --nodes NODES --json` once per preset and prints how many
# came out, of what kind, from how many games and positions, and the time
# (wall and CPU). Fails when a preset gives fewer than COUNT.
#   bench/tactics.sh                      # 100 a preset, seed 1, 10000 nodes
#   COUNT=20 NODES=20000 bench/tactics.sh
#   PRESETS="chess torus" bench/tactics.sh
#   SMOKE=1 bench/tactics.sh              # 2 a preset on chess and cylinder at 3000 nodes (make bench-smoke)
#   OUT=DIR bench/tactics.sh              # keep each preset's JSON as DIR/<preset>.json
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-./topochess}
if [ "${SMOKE:-0}" = 1 ]; then
    COUNT=${COUNT:-2}
    NODES=${NODES:-3000}
    PRESETS=${PRESETS:-chess cylinder}
fi
COUNT=${COUNT:-100}
SEED=${SEED:-1}
NODES=${NODES:-10000}
PRESETS=${PRESETS:-chess cylinder monteiro-cylinder mobius folding torus klein-bottle}
[ -x "$BIN" ] || make -s -j2 "$BIN"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "| preset | tactics | mate | material | topological | games | positions | wall | CPU | per CPU-minute |"
echo "|---|---|---|---|---|---|---|---|---|---|"
status=0
for v in $PRESETS; do
    nice -n 10 /usr/bin/time -f "%e %U %S" -o "$scratch/time" \
        "$BIN" tactics --variant "$v" --count "$COUNT" --seed "$SEED" --nodes "$NODES" --json \
        >"$scratch/$v.json" 2>"$scratch/$v.err" || { cat "$scratch/$v.err" >&2; status=1; continue; }
    read -r wall user sys <"$scratch/time"
    n=$(grep -c '"fen":' "$scratch/$v.json" || true)
    mates=$(grep -c '"themes":\["mate"' "$scratch/$v.json" || true)
    material=$(grep -c '"themes":\["material"' "$scratch/$v.json" || true)
    topo=$(grep -cE '"(wrap|check-across-join|fork-across-join|mate-across-join)"' "$scratch/$v.json" || true)
    games=$(grep -o '"games":[0-9]*' "$scratch/$v.json" | cut -d: -f2)
    positions=$(grep -o '"positions":[0-9]*' "$scratch/$v.json" | cut -d: -f2)
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
    rate=$(awk -v n="$n" -v c="$cpu" 'BEGIN {printf "%.1f", (c > 0 ? n * 60 / c : 0)}')
    echo "| \`$v\` | $n | $mates | $material | $topo | $games | $positions | $wall s | $cpu s | $rate |"
    if [ "$n" -lt "$COUNT" ]; then
        echo "bench/tactics.sh: $v gave $n tactics, fewer than $COUNT" >&2
        status=1
    fi
    if [ -n "${OUT:-}" ] && [ "${SMOKE:-0}" != 1 ]; then
        mkdir -p "$OUT" && cp "$scratch/$v.json" "$OUT/$v.json"
    fi
done
exit $status
