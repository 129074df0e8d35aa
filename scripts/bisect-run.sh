#!/usr/bin/env bash
# For `git bisect run`: builds the commit being tested and verifies scenarios against the
# committed goldens. Exit 0: good; 1: bad (a golden mismatch or a failed expectation);
# 125: this commit cannot be tested, so git skips it: it does not configure or build, the verify
# could not run, or its goldens are stale or missing with no mismatch (a scenario or behaviour
# version that differs from the commit's says nothing about its behaviour).
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
FXKCC=${FX_BISECT_FXKCC:-}  # an fxkcc binary to use instead of building (tests of this script)
if [ -z "$FXKCC" ]; then
FXKCC="$BUILD/cli/fxkcc"
if ! cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_BUILD_TESTS=OFF -DFX_BUILD_BENCH=OFF \
    >"$BUILD/bisect-configure.log" 2>&1; then
  echo "bisect-run: configure failed (skip): see $BUILD/bisect-configure.log" >&2
  exit 125
fi
if ! cmake --build "$BUILD" --target fxkcc >"$BUILD/bisect-build.log" 2>&1; then
  echo "bisect-run: build failed (skip): see $BUILD/bisect-build.log" >&2
  exit 125
fi
fi
args=(verify --no-progress)
[ -n "${FX_BISECT_GOLDEN:-}" ] && args+=(--golden-dir "$FX_BISECT_GOLDEN")
report="$BUILD/bisect-verify.txt"
"$FXKCC" ${args[@]+"${args[@]}"} "$@" | tee "$report"
rc=${PIPESTATUS[0]}
case $rc in
  0) exit 0 ;;
  1)
    # Bad only for a desync or a failed expectation: a stale golden (the scenario or the
    # behaviour version differs from this commit's) or a missing one says nothing about this
    # commit's behaviour, so git skips it.
    summary=$(grep -E '^[0-9]+ scenarios on .*: [0-9]+ passed, [0-9]+ mismatched, [0-9]+ stale, [0-9]+ missing, [0-9]+ errors; [0-9]+ failed' "$report" | tail -1)
    if [[ $summary =~ ([0-9]+)\ mismatched,\ ([0-9]+)\ stale,\ ([0-9]+)\ missing,\ [0-9]+\ errors\;\ ([0-9]+)\ failed ]]; then
      mismatched=${BASH_REMATCH[1]} stale=${BASH_REMATCH[2]} missing=${BASH_REMATCH[3]} failed=${BASH_REMATCH[4]}
      if [ "$mismatched" -eq 0 ] && [ "$failed" -eq 0 ]; then
        echo "bisect-run: $stale stale and $missing missing golden(s), no mismatch (skip)" >&2
        exit 125
      fi
      exit 1
    fi
    echo "bisect-run: verify exited 1 without its summary line (skip)" >&2
    exit 125 ;;
  *) echo "bisect-run: verify exited $rc (skip)" >&2; exit 125 ;;
esac
