#!/usr/bin/env bash
# Engine-work measurements (issue "Engine strength"): run by hand, they take
# long. One match at a time, under nice, each bounded by games= and stopped
# early by its SPRT.
#   bench/engine.sh sprt BASE [VARIANTS...]   this build vs the engine BASE (a
#                        topochess binary, e.g. the baseline built from an
#                        older commit into a scratch folder) at NODES a move
#   bench/engine.sh fsf [RATIO...]            this build at RATIO (e.g. 1.5) times
#                        Fairy-Stockfish's FSF_NODES a move, standard chess
#   bench/engine.sh stockfish [ELO...]        this build vs Stockfish with
#                        UCI_LimitStrength at MOVETIME ms a move
#   bench/engine.sh speed OTHER               nodes a second of this build and
#                        of the binary OTHER, in turn, RUNS times over three
#                        positions at SPEED_NODES each (for changes that keep
#                        the bench signature: same tree, less time)
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
#   bench/engine.sh spsa [SPSA ARGS...]       the search's parameters tuned by
#                        SPSA (bench/spsa.py) at NODES a move, this build
#                        against itself; TC_OPTIONS="Name=V ..." then plays
#                        sprt with this build set so (`uci --tune`)
# Environment: NODES (default 4000), GAMES (default 60), MOVETIME (100),
# FSF_NODES (10000), SEED (5), CONCURRENCY (1), SPRT (0,20,0.05,0.05, for sprt),
# SPRT_PRIOR (sprt: the Ptnml counts of an earlier run of the same test, which
# this run continues; give a new SEED),
# SPEED_NODES (1500000), RUNS (5). PGN and logs go to bench/out/.
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
  SPEED_NODES=20000 RUNS=1 "$0" speed "$TC"
  for m in fsf stockfish levels; do "$0" "$m" "$([ $m = fsf ] && echo 1 || echo 1500)"; done
  "$0" tune 1
  "$0" spsa --smoke
  TC_OPTIONS="RfpMargin=81" SPRT_PRIOR=0,1,2,1,0 "$0" sprt "$TC" torus
  exit 0
fi
mkdir -p "$OUT"

run() { # name, then match arguments
  local name=$1
  shift
  echo "== $name"
  nice -n 10 "$TC" match "$@" $ADJ concurrency="$CONCURRENCY" pgn="$OUT/$name.pgn" >"$OUT/$name.log" 2>&1 || true
  grep -E "^(Score|Elo|SPRT|Ptnml)" "$OUT/$name.log" | tail -n "$([ -z "${SPRT_PRIOR:-}" ] && echo 4 || echo 5)"
}

case "$mode" in
spsa)
  exec /usr/bin/python3 bench/spsa.py --bin "$TC" --nodes "$NODES" --seed "$SEED" --concurrency "$CONCURRENCY" \
    --out "$OUT" "$@"
  ;;
sprt)
  base=${1:?usage: bench/engine.sh sprt BASE [VARIANTS...]}
  shift
  variants=${*:-chess cylinder monteiro-cylinder torus mobius klein-bottle folding}
  for v in $variants; do
    new=(engine1=self)
    if [ -n "${TC_OPTIONS:-}" ]; then
      new=(engine1="'$(realpath "$TC")' uci --tune")
      for o in $TC_OPTIONS; do new+=("option1=$o"); done
    fi
    [ -z "${SPRT_PRIOR:-}" ] || new+=("sprt-prior=$SPRT_PRIOR")
    run "sprt-$v" --variant "$v" "${new[@]}" name1=new engine2="$base uci" name2=base nodes="$NODES" \
      games="$GAMES" openings=$((GAMES / 2)) balance=50 seed="$SEED" sprt="$SPRT"
  done
  ;;
fsf)
  fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
  [ -x "$fsf" ] || { echo "== fsf: fairy-stockfish is not installed"; exit 0; }
  for r in ${*:-3}; do
    run "fsf-x$r" engine1=self name1=topochess engine2="$fsf" name2=fairy-stockfish \
      nodes1="$(awk -v n="$FSF_NODES" -v r="$r" 'BEGIN { printf "%d", n * r }')" nodes2="$FSF_NODES" games="$GAMES" openings=$((GAMES / 2)) balance=50 seed="$SEED"
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
speed)
  other=${1:?usage: bench/engine.sh speed OTHER_BINARY}
  # one search of SPEED_NODES from a position; prints the nodes a second
  # of its last info line (the engine answers at EOF at once, so the
  # coprocess is kept open until bestmove)
  nps_of() {
    local bin=$1 pos=$2 line last=""
    coproc ENG { "$bin" uci 2>/dev/null; }
    printf 'uci\nisready\nposition %s\ngo nodes %s\n' "$pos" "${SPEED_NODES:-1500000}" >&"${ENG[1]}"
    while IFS= read -r line <&"${ENG[0]}"; do
      case $line in bestmove*) break ;; *" nps "*) last=$line ;; esac
    done
    echo quit >&"${ENG[1]}"
    wait "$ENG_PID" 2>/dev/null || true
    sed -E 's/.* nps ([0-9]+).*/\1/' <<<"$last"
  }
  positions=("startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
  echo "== speed: $TC against $other, ${SPEED_NODES:-1500000} nodes a search"
  for ((r = 1; r <= ${RUNS:-5}; r++)); do
    a=0 b=0
    for pos in "${positions[@]}"; do
      a=$((a + $(nps_of "$TC" "$pos")))
      b=$((b + $(nps_of "$other" "$pos")))
    done
    echo "run $r: this build $((a / 3)) nps, other $((b / 3)) nps, ratio $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')"
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
