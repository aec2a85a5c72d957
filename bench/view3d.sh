#!/usr/bin/env bash
# The 3-D view in Debian's Chromium (bench/view3d.mjs): frames per second
# while the view turns on /play?variant=klein-bottle, and the longest frame
# on that page while the engine (in its worker) thinks, with the view open
# and turning and with it closed. Prints figures; asserts nothing. Headless
# Chromium draws WebGL in software (SwiftShader): the figures are a floor,
# a graphics card does better.
#   make && make web && bench/view3d.sh [BIN]   (5 s of turning, 3 engine moves)
#   SMOKE=1 bench/view3d.sh                      (1 s, 1 engine move)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-./topochess}
if [ ! -x /usr/bin/chromium ]; then echo "bench/view3d.sh: skipped, no /usr/bin/chromium"; exit 0; fi
if [ ! -d web/node_modules/playwright-core ]; then echo "bench/view3d.sh: skipped, no web/node_modules (npm ci in web/)"; exit 0; fi
if [ ! -x "$BIN" ] || [ ! -f web/dist/assets/app.js ]; then echo "bench/view3d.sh: build first: make && make web"; exit 1; fi
echo "$(nproc) cores, shared; load average $(cut -d' ' -f1-3 /proc/loadavg)"
TC_BIN="$BIN" node bench/view3d.mjs
