#!/usr/bin/env bash
# Trains the net of every preset from DATADIR/<preset>.bin (made by
# train/datagen-presets.sh), in two steps, because one preset's data is
# small: a base net per board size on the data of every preset of that size
# (OUTDIR/base-8x8.tcnn, OUTDIR/base-8x14.tcnn), then each preset's net
# fine-tuned from its size's base on its own data (OUTDIR/<preset>.tcnn).
#   train/train-presets.sh DATADIR OUTDIR
# Environment: PYTHON (default /usr/bin/python3), BASE_OPTS and TUNE_OPTS
# (train.py options of the two steps, defaults below), STEP (base, tune or
# both, the default).
set -euo pipefail
data=${1:?usage: train/train-presets.sh DATADIR OUTDIR}
out=${2:?usage: train/train-presets.sh DATADIR OUTDIR}
py=${PYTHON:-/usr/bin/python3}
base_opts=${BASE_OPTS:---hidden 64 --lambda 1.0 --epochs 12 --qat-epochs 3}
tune_opts=${TUNE_OPTS:---hidden 64 --lambda 1.0 --epochs 6 --qat-epochs 2 --lr 1e-3 --wd 0}
step=${STEP:-both}
here=$(dirname "$0")
mkdir -p "$out"
timed() {
  local start; start=$(date +%s)
  "$@"
  echo "train-presets: $(( $(date +%s) - start )) s: ${*: -1}" >&2
}
if [ "$step" != tune ]; then
  # shellcheck disable=SC2086
  timed "$py" "$here/train.py" --data "$data/chess.bin" "$data/cylinder.bin" "$data/folding.bin" --same-size \
    --name 8x8 $base_opts --out "$out/base-8x8.tcnn"
  # shellcheck disable=SC2086
  timed "$py" "$here/train.py" --data "$data/torus.bin" "$data/monteiro-cylinder.bin" "$data/mobius.bin" \
    "$data/klein-bottle.bin" --same-size --name 8x14 $base_opts --out "$out/base-8x14.tcnn"
fi
if [ "$step" != base ]; then
  for p in chess cylinder folding monteiro-cylinder torus mobius klein-bottle; do
    case $p in chess | cylinder | folding) size=8x8 ;; *) size=8x14 ;; esac
    # shellcheck disable=SC2086
    timed "$py" "$here/train.py" --data "$data/$p.bin" --init "$out/base-$size.tcnn" $tune_opts --out "$out/$p.tcnn"
  done
fi
