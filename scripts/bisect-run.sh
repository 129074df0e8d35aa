#!/usr/bin/env bash
# For `git bisect run`: builds the commit being tested and verifies scenarios against the
# committed goldens. Exit 0: good; 1: bad (a golden mismatch or a failed expectation);
# 125: this commit cannot be tested (it does not configure or build, or the verify could not
# run) so git skips it.
#
#   git bisect start BAD GOOD
#   git bisect run scripts/bisect-run.sh [SCENARIO-OR-FOLDER...]   # default: every scenario
#
# The build goes to build-bisect/ (kept between steps, so each step rebuilds incrementally).
# The goldens are those of the commit under test; to bisect against today's goldens instead,
# pass --golden-dir with a copy made before starting (FX_BISECT_GOLDEN=/path/to/golden).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 125
BUILD=${FX_BISECT_BUILD:-build-bisect}
mkdir -p "$BUILD" || exit 125
if ! cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_BUILD_TESTS=OFF -DFX_BUILD_BENCH=OFF \
    >"$BUILD/bisect-configure.log" 2>&1; then
  echo "bisect-run: configure failed (skip): see $BUILD/bisect-configure.log" >&2
  exit 125
fi
if ! cmake --build "$BUILD" --target fxkcc >"$BUILD/bisect-build.log" 2>&1; then
  echo "bisect-run: build failed (skip): see $BUILD/bisect-build.log" >&2
  exit 125
fi
args=(verify --no-progress)
[ -n "${FX_BISECT_GOLDEN:-}" ] && args+=(--golden-dir "$FX_BISECT_GOLDEN")
"$BUILD/cli/fxkcc" "${args[@]}" "$@"
rc=$?
case $rc in
  0) exit 0 ;;
  1) exit 1 ;;
  *) echo "bisect-run: verify exited $rc (skip)" >&2; exit 125 ;;
esac
