#!/usr/bin/env bash
# Trains the net of every preset from DATADIR/<preset>.bin (made by
# train/datagen-presets.sh), in two steps, because one preset's data is
# small: a base net per board size on the data of every preset of that size
# (OUTDIR/base-8x8.tcnn, OUTDIR/base-8x14.tcnn), then each preset's net
# fine-tuned from its size's base on its own data (OUTDIR/<preset>.tcnn).
#   train/train-presets.sh DATADIR OUTDIR
# Environment: PYTHON (default /usr/bin/python3), BASE_OPTS and TUNE_OPTS
# (train.py options of the two steps, defaults below; add --hybrid and
# --augment for hybrid nets, docs/nnue-training.md), STEP (base, tune or
# both, the default), MORE (a second data directory whose <preset>.bin the
# fine-tuning reads too: the next generation's data), INIT (the directory
# of the base nets the fine-tuning starts from, default OUTDIR), PRESETS
# (the presets to fine-tune, default all seven).
set -euo pipefail
data=${1:?usage: train/train-presets.sh DATADIR OUTDIR}
out=${2:?usage: train/train-presets.sh DATADIR OUTDIR}
py=${PYTHON:-/usr/bin/python3}
base_opts=${BASE_OPTS:---hidden 64 --lambda 1.0 --epochs 12 --qat-epochs 3}
tune_opts=${TUNE_OPTS:---hidden 64 --lambda 1.0 --epochs 6 --qat-epochs 2 --lr 1e-3 --wd 0}
step=${STEP:-both}
more=${MORE:-}
init=${INIT:-$out}
presets=${PRESETS:-chess cylinder folding monteiro-cylinder torus mobius klein-bottle}
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
  for p in $presets; do
    case $p in chess | cylinder | folding) size=8x8 ;; *) size=8x14 ;; esac
    files=("$data/$p.bin")
    [ -z "$more" ] || files+=("$more/$p.bin")
    # shellcheck disable=SC2086
    timed "$py" "$here/train.py" --data "${files[@]}" --init "$init/base-$size.tcnn" --name "$p" $tune_opts \
      --out "$out/$p.tcnn"
  done
fi
