#!/usr/bin/env bash
# The crowd cost curve (issue 21, docs/performance.md "Crowds"): instructions per character-tick
# of 16, 64, 256 and 1,024 colliding characters on the benchmark arena (scripts/gen-crowd.py:
# the same density, one body per 9 m^2, each running its own turning course), counted by
# callgrind as scripts/bench-callgrind.sh counts them. Outside the default test run.
#
#   scripts/bench-crowd.sh [COUNTS]      # default 16,64,256,1024
#   scripts/bench-crowd.sh --point N     # issue 50: N released at one point, N idle on a lattice
#                                        # and N spread and running, on a flat floor, 100 ticks
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FX_BENCH_BUILD:-build}
cmake --build "$BUILD" --target fxkcc >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${1:-}" = --point ]; then
  n=${2:?bench-crowd: --point needs a count}
  python3 scripts/gen-crowd.py "$tmp" --point "$n" --ticks "${FX_BENCH_TICKS:-100}"
  bash scripts/bench-callgrind.sh "$tmp/point-$n.yaml" "$tmp/lattice-$n.yaml" "$tmp/spread-$n.yaml"
  exit
fi
counts=${1:-16,64,256,1024}
python3 scripts/gen-crowd.py "$tmp" --fxkcc "$BUILD/cli/fxkcc" --counts "$counts"
files=()
for n in ${counts//,/ }; do files+=("$tmp/crowd-$n.yaml"); done
bash scripts/bench-callgrind.sh "${files[@]}"
