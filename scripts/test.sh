#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and runs every test.
#   1. scripts/setup.sh                 (dependencies, idempotent)
#   2. build/           Release, __int128 wide path, warnings as errors: all tests and gates
#   3. build-portable/  portable two-limb wide path and checked arithmetic (traps on overflow):
#                       the unit tests again, so both paths and the checked build are exercised
# Environment: JOBS (default: number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

bash scripts/setup.sh

run_suite() { # name build-dir ctest-args... -- cmake-args...
  local name=$1 dir=$2
  shift 2
  local ctest_args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do ctest_args+=("$1"); shift; done
  shift
  echo "== $name: configure and build ($dir)"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
  echo "== $name: test"
  ctest --test-dir "$dir" -j "$JOBS" --output-on-failure "${ctest_args[@]}"
}

run_suite "native" build -- -DFX_FORCE_PORTABLE_WIDE=OFF -DFX_CHECKED=OFF
run_suite "portable+checked" build-portable -E '^gate\.' -- \
  -DFX_FORCE_PORTABLE_WIDE=ON -DFX_CHECKED=ON -DFX_BUILD_BENCH=OFF
echo "== all test suites passed"
