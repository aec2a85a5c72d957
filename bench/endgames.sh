#!/usr/bin/env bash
# The solved endings of issue 12 on every preset: for each ending the share
# of positions the stronger side wins with it to move, and the longest mate
# (moves, stronger side to move); then each solve's time. Runs
# `topochess endgame` once per preset and ending (nice, 2 threads).
#   bench/endgames.sh                 # every preset, the eight endings
#   ENDINGS="KRK" bench/endgames.sh   # just KRK (the speed figure)
#   SMOKE=1 bench/endgames.sh          # KQK and KRK on chess and torus (make bench-smoke)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-./topochess}
if [ "${SMOKE:-0}" = 1 ]; then ENDINGS=${ENDINGS:-"KQK KRK"} VARIANTS=${VARIANTS:-"chess torus"}; fi
ENDINGS=${ENDINGS:-"KQK KRK KBBK KBNK KNNK KQKR KRKB KRKN"}
VARIANTS=${VARIANTS:-"chess cylinder monteiro-cylinder torus mobius klein-bottle folding"}
[ -x "$BIN" ] || make -s -j2 "$BIN"

header="| variant |"; rule="|---|"
for e in $ENDINGS; do header="$header $e |"; rule="$rule---|"; done
times=""
echo "$header"; echo "$rule"
for v in $VARIANTS; do
    row="| \`$v\` |"
    for e in $ENDINGS; do
        out=$(nice -n 10 /usr/bin/time -f "cpu %U %S" "$BIN" endgame "$e" --variant "$v" 2>&1)
        cpu=$(echo "$out" | awk '/^cpu / {printf "%.2f", $2 + $3}')
        won=$(echo "$out" | awk '/^  white to move/ {print $NF}')
        moves=$(echo "$out" | sed -n 's/^longest mate: \([0-9]*\) moves/\1/p')
        possible=$(echo "$out" | sed -n 's/^mate possible: //p')
        secs=$(echo "$out" | sed -n 's/.*solved in \([0-9.]*\) s.*/\1/p')
        syms=$(echo "$out" | sed -n 's/^board symmetries: \([0-9]*\);.*/\1/p')
        entries=$(echo "$out" | sed -n 's/.*; \([0-9]*\) table entries.*/\1/p')
        if [ "$possible" = no ]; then cell="no mate"; else cell="$won, $moves"; fi
        row="$row $cell |"
        times="$times$v $e: $secs s wall, $cpu s cpu ($syms symmetries, $entries entries)"$'\n'
    done
    echo "$row"
done
echo
echo "cell: share of positions won by the stronger side (White) with it to move, longest mate in moves;"
echo "'no mate': no position of that material is won, so no helpmate exists (checkmate positions may, unreachable)"
echo
echo "solve times (2 threads; wall clock of the solve, cpu time of the whole command):"
printf '%s' "$times"
