#!/usr/bin/env bash
# Engine-work measurements (issue "Engine strength"): run by hand, they take
# long. One match at a time, under nice, each bounded by games= and stopped
# early by its SPRT.
#   bench/engine.sh sprt BASE [VARIANTS...]   this build vs the engine BASE (a
#                        topochess binary, e.g. the baseline built from an
#                        older commit into a scratch folder) at NODES a move
#   bench/engine.sh fsf [RATIO...]            this build at RATIO times
#                        Fairy-Stockfish's FSF_NODES a move, standard chess
#   bench/engine.sh stockfish [ELO...]        this build vs Stockfish with
#                        UCI_LimitStrength at MOVETIME ms a move
#   bench/engine.sh smp [THREADS...]          this build with THREADS search
#                        threads (Lazy SMP) vs itself with one, MOVETIME ms
#                        a move, standard chess (needs that many idle cores)
#   bench/engine.sh levels [ELO...]           this build at UCI_Elo ELO vs
#                        Stockfish at the same UCI_Elo, MOVETIME ms a move
#                        (the calibration of the limited-strength levels)
#   bench/engine.sh selfplay [VARIANTS...]    GAMES self-play games at NODES a
#                        move on every preset, for the tuner
#   bench/engine.sh tune [SWEEPS]             build/tune over bench/out/*.pgn;
#                        writes bench/out/eval_params.c (copy it over
#                        src/engine/eval_params.c once an SPRT accepts it)
# Environment: NODES (default 4000), GAMES (default 60), MOVETIME (100),
# FSF_NODES (10000), SEED (5), CONCURRENCY (1), SPRT (0,20,0.05,0.05, for sprt). PGN and logs go to bench/out/.
# SMOKE=1 with no mode (make bench-smoke): every mode at 2 games and 200 nodes
# (20 ms), this build as its own base, one sweep of the tuner, in a scratch
# folder; modes whose engine is not installed say so.
set -euo pipefail
cd "$(dirname "$0")/.."
TC=${TC:-./topochess}
NODES=${NODES:-4000}
GAMES=${GAMES:-60}
MOVETIME=${MOVETIME:-100}
FSF_NODES=${FSF_NODES:-10000}
SEED=${SEED:-5}
CONCURRENCY=${CONCURRENCY:-1}
SPRT=${SPRT:-0,20,0.05,0.05}
ADJ="resign=3,700 draw=40,8,10"
OUT=${BENCH_OUT:-bench/out}
mode=${1:-}
shift || true
if [ "${SMOKE:-0}" = 1 ] && [ -z "$mode" ]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
  export BENCH_OUT=$OUT NODES=200 GAMES=2 MOVETIME=20 FSF_NODES=200 SMOKE=0
  "$0" sprt "$TC" torus
  "$0" selfplay torus
  "$0" smp 2
  for m in fsf stockfish levels; do "$0" "$m" "$([ $m = fsf ] && echo 1 || echo 1500)"; done
  "$0" tune 1
  exit 0
fi
mkdir -p "$OUT"

run() { # name, then match arguments
  local name=$1
  shift
  echo "== $name"
  nice -n 10 "$TC" match "$@" $ADJ concurrency="$CONCURRENCY" pgn="$OUT/$name.pgn" >"$OUT/$name.log" 2>&1 || true
  grep -E "^(Score|Elo|SPRT|Ptnml)" "$OUT/$name.log" | tail -n 4
}

case "$mode" in
sprt)
  base=${1:?usage: bench/engine.sh sprt BASE [VARIANTS...]}
  shift
  variants=${*:-chess cylinder monteiro-cylinder torus mobius klein-bottle folding}
  for v in $variants; do
    run "sprt-$v" --variant "$v" engine1=self name1=new engine2="$base uci" name2=base nodes="$NODES" \
      games="$GAMES" openings=$((GAMES / 2)) balance=50 seed="$SEED" sprt="$SPRT"
  done
  ;;
fsf)
  fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
  [ -x "$fsf" ] || { echo "== fsf: fairy-stockfish is not installed"; exit 0; }
  for r in ${*:-3}; do
    run "fsf-x$r" engine1=self name1=topochess engine2="$fsf" name2=fairy-stockfish \
      nodes1=$((FSF_NODES * r)) nodes2="$FSF_NODES" games="$GAMES" openings=$((GAMES / 2)) balance=50 seed="$SEED"
  done
  ;;
stockfish)
  sf=$(command -v stockfish || echo /usr/games/stockfish)
  [ -x "$sf" ] || { echo "== stockfish: stockfish is not installed"; exit 0; }
  for elo in ${*:-2000 2400}; do
    run "stockfish-$elo" engine1=self name1=topochess engine2="$sf" name2="stockfish-$elo" \
      option2=UCI_LimitStrength=true option2=UCI_Elo="$elo" movetime="$MOVETIME" games="$GAMES" \
      openings=$((GAMES / 2)) balance=50 seed="$SEED"
  done
  ;;
smp)
  for n in ${*:-2}; do
    run "smp-$n" engine1=self name1="threads-$n" option1=Threads="$n" engine2=self name2=threads-1 \
      movetime="$MOVETIME" games="$GAMES" openings=$((GAMES / 2)) balance=50 seed="$SEED"
  done
  ;;
levels)
  sf=$(command -v stockfish || echo /usr/games/stockfish)
  [ -x "$sf" ] || { echo "== levels: stockfish is not installed"; exit 0; }
  for elo in ${*:-1500 2000}; do
    run "levels-$elo" engine1=self name1="topochess-$elo" engine2="$sf" name2="stockfish-$elo" \
      option1=UCI_LimitStrength=true option1=UCI_Elo="$elo" \
      option2=UCI_LimitStrength=true option2=UCI_Elo="$elo" movetime="$MOVETIME" games="$GAMES" \
      openings=$((GAMES / 2)) balance=50 seed="$SEED"
  done
  ;;
selfplay)
  for v in ${*:-chess cylinder monteiro-cylinder torus mobius klein-bottle folding}; do
    run "selfplay-$v" --variant "$v" engine=self nodes="$NODES" games="$GAMES" openings="$GAMES" plies=6 \
      seed="$SEED"
  done
  ;;
tune)
  make --no-print-directory tune
  nice -n 10 build/tune "$OUT/eval_params.c" "${1:-6}" "$OUT"/*.pgn
  ;;
*)
  sed -n '2,28p' "$0" >&2
  exit 1
  ;;
esac
