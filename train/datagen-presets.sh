#!/usr/bin/env bash
# Generates training data for every preset, round-robin in chunks, so that
# all of them grow together for as long as it runs (stop it with kill: each
# file is continued where it was cut by the next run).
#   train/datagen-presets.sh OUTDIR [NODES] [THREADS] [CHUNK]
# Environment: TOPOCHESS (the binary, default ./topochess), PRESETS (the
# boards, default all seven), ROUNDS (default: until killed), SEED (default 1).
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
    "$bin" datagen --variant "$p" --out "$out/$p.bin" --nodes "$nodes" --threads "$threads" \
      --seed "$seed" --games $((r * chunk))
  done
  r=$((r + 1))
done
