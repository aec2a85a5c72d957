#!/usr/bin/env bash
# Replay speed of `topochess pgn`: generates GAMES short games (default
# 20000: eight tags and ten moves each, every fifth game empty, the variant
# switching between chess and cylinder every 1000 games) and prints games
# per second, by CPU time and by wall time.
# Usage: bench/pgn_speed.sh [path/to/topochess] [GAMES]
# SMOKE=1: 500 games (make bench-smoke).
set -euo pipefail
TC=${1:-./topochess}
if [ "${SMOKE:-0}" = 1 ]; then GAMES=${2:-500}; else GAMES=${2:-20000}; fi
pgn=$(mktemp --suffix=.pgn)
trap 'rm -f "$pgn"' EXIT
awk -v n="$GAMES" 'BEGIN {
  o[0] = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7"
  o[1] = "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 8. a3 Bxc3 9. bxc3 dxc4 10. Bxc4 Qc7"
  o[2] = "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 6. Bg2 Nb6 7. O-O Be7 8. d3 O-O 9. a3 Be6 10. b4 a5"
  for (i = 0; i < n; i++) {
    v = int(i / 1000) % 2 ? "cylinder" : "chess"
    printf "[Event \"gen %d\"]\n[Site \"here\"]\n[Date \"2026.12.01\"]\n[Round \"%d\"]\n", i, i
    printf "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Variant \"%s\"]\n\n%s *\n\n", v, (i % 5 ? o[i % 3] : "")
  }
}' > "$pgn"
TIMEFORMAT='%R %U %S'
t=$( { time "$TC" pgn "$pgn" > /dev/null; } 2>&1 )
read -r wall user sys <<<"$t"
cpu=$(echo "$user + $sys" | bc -l)
printf 'games %d, %s bytes\n' "$GAMES" "$(wc -c < "$pgn")"
printf 'cpu  %6.2f s  %8.0f games/s\n' "$cpu" "$(echo "$GAMES / $cpu" | bc -l)"
printf 'wall %6.2f s  %8.0f games/s\n' "$wall" "$(echo "$GAMES / $wall" | bc -l)"
