#!/usr/bin/env bash
# Generates training data for every preset, round-robin in chunks, so that
# all of them grow together for as long as it runs (stop it with kill: each
# file is continued where it was cut by the next run).
#   train/datagen-presets.sh OUTDIR [NODES] [THREADS] [CHUNK]
# Environment: TOPOCHESS (the binary, default ./topochess), PRESETS (the
# boards, default all seven), ROUNDS (default: until killed), SEED (default 1),
# EVAL (what scores the data: unset, the binary's built-in nets; '<none>',
# the hand-written evaluation, as generation 1 was made; a directory, its
# base-8x8.tcnn or base-8x14.tcnn by the preset's size, as generation 2 was
# made from generation 1's base nets).
set -euo pipefail
out=${1:?usage: train/datagen-presets.sh OUTDIR [NODES] [THREADS] [CHUNK]}
nodes=${2:-2000}
threads=${3:-2}
chunk=${4:-50}
bin=${TOPOCHESS:-./topochess}
presets=${PRESETS:-chess cylinder monteiro-cylinder torus mobius klein-bottle folding}
rounds=${ROUNDS:-0}
seed=${SEED:-1}
mkdir -p "$out"
r=1
while [ "$rounds" -eq 0 ] || [ "$r" -le "$rounds" ]; do
  for p in $presets; do
    case $p in chess | cylinder | folding) size=8x8 ;; *) size=8x14 ;; esac
    case ${EVAL:-} in
      '') eval_opt=() ;;
      '<none>') eval_opt=(--eval-file '<none>') ;;
      *) eval_opt=(--eval-file "$EVAL/base-$size.tcnn") ;;
    esac
    "$bin" datagen --variant "$p" --out "$out/$p.bin" --nodes "$nodes" --threads "$threads" \
      --seed "$seed" --games $((r * chunk)) "${eval_opt[@]}"
  done
  r=$((r + 1))
done
