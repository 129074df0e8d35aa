#!/usr/bin/env bash
# The crowd cost curve (issue 21, docs/performance.md "Crowds"): instructions per character-tick
# of 16, 64, 256 and 1,024 colliding characters on the benchmark arena (scripts/gen-crowd.py:
# the same density, one body per 9 m^2, each running its own turning course), counted by
# callgrind as scripts/bench-callgrind.sh counts them. Outside the default test run.
#
#   scripts/bench-crowd.sh [COUNTS]      # default 16,64,256,1024
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FX_BENCH_BUILD:-build}
cmake --build "$BUILD" --target fxkcc >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
counts=${1:-16,64,256,1024}
python3 scripts/gen-crowd.py "$tmp" --fxkcc "$BUILD/cli/fxkcc" --counts "$counts"
files=()
for n in ${counts//,/ }; do files+=("$tmp/crowd-$n.yaml"); done
bash scripts/bench-callgrind.sh "${files[@]}"
