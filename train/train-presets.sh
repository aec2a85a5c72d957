#!/usr/bin/env bash
# Trains a net per preset from DATADIR/<preset>.bin (train/datagen-presets.sh)
# and writes OUTDIR/<preset>.tcnn, with a log line per net (positions, time).
#   train/train-presets.sh DATADIR OUTDIR [train.py options ...]
# Environment: PRESETS (default all seven), PYTHON (default /usr/bin/python3).
set -euo pipefail
data=${1:?usage: train/train-presets.sh DATADIR OUTDIR [options]}
out=${2:?usage: train/train-presets.sh DATADIR OUTDIR [options]}
shift 2
py=${PYTHON:-/usr/bin/python3}
presets=${PRESETS:-chess cylinder monteiro-cylinder torus mobius klein-bottle folding}
here=$(dirname "$0")
mkdir -p "$out"
for p in $presets; do
  start=$(date +%s)
  "$py" "$here/train.py" --data "$data/$p.bin" --out "$out/$p.tcnn" "$@"
  echo "train-presets: $p: $(( $(date +%s) - start )) s" >&2
done
