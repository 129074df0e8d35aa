#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and runs every test.
#   1. scripts/setup.sh                 (dependencies, idempotent)
#   2. build/           Release, __int128 wide path, warnings as errors: all tests and gates
#   3. build-portable/  portable two-limb wide path and checked arithmetic (traps on overflow):
#                       the unit tests again, so both paths and the checked build are exercised
#   4. the cross-target proof (docs/determinism.md): every target of FX_TARGETS is set up,
#      built, tested under its emulator and verified against its goldens
#      (scripts/cross.sh TARGET all); the -O0, -O2 and clang builds verify against the x86-64
#      goldens; fxkcc compare-goldens proves all targets' goldens identical
#   5. the sanitizer build (scripts/targets/x86_64-linux-asan.sh): every test and the x86-64
#      goldens under AddressSanitizer + UndefinedBehaviorSanitizer
#   6. the fuzz targets (scripts/fuzz.sh), each for FX_FUZZ_SECONDS (default 60): no crash,
#      overflow, hang or broken invariant
#   7. the CI workflow in ci/ is checked against the GitHub Actions schema
# Environment: JOBS (default: number of cores); FX_TARGETS (default: all six targets);
# FX_FUZZ_SECONDS; FX_SKIP_CROSS=1 skips steps 4 to 6 (a quick local run; CI never sets it).
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
if [ "${FX_SKIP_CROSS:-0}" != 1 ]; then
  for target in ${FX_TARGETS:-aarch64-linux wasm32-emscripten i686-linux s390x-linux x86_64-windows}; do
    echo "== cross-target proof: $target"
    start=$SECONDS
    bash scripts/cross.sh "$target" all
    case "$target" in aarch64-linux|wasm32-emscripten) bash scripts/cross.sh "$target" desync ;; esac
    echo "== $target: passed in $((SECONDS - start)) s"
  done
  for variant in x86_64-linux-O0 x86_64-linux-O2 x86_64-linux-clang; do
    echo "== build variant: $variant"
    start=$SECONDS
    bash scripts/cross.sh "$variant" quick
    echo "== $variant: passed in $((SECONDS - start)) s"
  done
  echo "== every target's goldens agree"
  build/cli/fxkcc compare-goldens
  echo "== sanitizers: every test and the x86-64 goldens under ASan + UBSan"
  start=$SECONDS
  bash scripts/cross.sh x86_64-linux-asan all
  echo "== x86_64-linux-asan: passed in $((SECONDS - start)) s"
  echo "== fuzzing: each target for ${FX_FUZZ_SECONDS:-60} s (docs/fuzzing.md)"
  FX_FUZZ_SEED=${FX_FUZZ_SEED:-1} bash scripts/fuzz.sh "${FX_FUZZ_SECONDS:-60}"
fi
echo "== CI workflow"
bash scripts/lint-workflow.sh
echo "== all test suites passed"
