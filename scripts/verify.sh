#!/usr/bin/env bash
# The README's main job: installs what is missing, builds fxkcc, and verifies every bundled
# scenario (scenarios/) against this target's goldens (golden/<target>/).
# Extra arguments go to `fxkcc verify` (e.g. -k stairs, --junit report.xml, --shard 1/4).
# Exit code: fxkcc verify's (0 all match, 1 mismatch/stale/missing, 2 bad input, 125 cannot
# test); 125 as well when the dependencies cannot be installed or the build fails.
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
BUILD=${BUILD_DIR:-build}

bash scripts/setup.sh || exit 125
if ! cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null ||
   ! cmake --build "$BUILD" -j "$JOBS" --target fxkcc; then
  echo "verify: the build failed" >&2
  exit 125
fi
exec "$BUILD/cli/fxkcc" verify "$@"
