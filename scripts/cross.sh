#!/usr/bin/env bash
# One job of one target of the cross-target proof (docs/determinism.md):
#   scripts/cross.sh TARGET JOB [args...]
# TARGET: a file scripts/targets/TARGET.sh (x86_64-linux, aarch64-linux, wasm32-emscripten,
#         i686-linux, s390x-linux, x86_64-windows, and native variants such as x86_64-linux-clang).
# JOB:    setup   install the target's toolchain and libraries (idempotent)
#         build   configure and build into build-TARGET/ (arguments go to cmake --build: --target fxkcc)
#         test    run the unit, known-answer and end-to-end tests there (ctest, under the emulator)
#         verify  fxkcc verify of every bundled scenario against golden/<golden target>/
#         bless   capture that target's goldens (fxkcc refuses when CI is set)
#         desync  the native `fxkcc desync` against this target's build, with and without a fault
#         repeat  [-n COUNT] [--load] TEST...: end-to-end tests (tests/e2e/test_cli.py names, e.g.
#                 BlessFiles.test_two_blesses_at_once_write_what_one_does) COUNT times (default 200)
#                 on this build, under its emulator; --load keeps both cores busy with a parallel
#                 build (build-load-TARGET/, removed afterwards) meanwhile. Prints every failure and the count; exit 1 if any failed
#         all     setup, build, test (ctest's suite.verify_bundled_scenarios verifies the goldens)
#         quick   setup, build fxkcc only, verify (for build variants: -O0, -O2, clang)
# Exit codes: 0 good, 1 a test or verification failed, 125 setup or build failure.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${1:-}
JOB=${2:-}
shift 2 2>/dev/null || true
if [ -z "$TARGET" ] || [ -z "$JOB" ] || [ ! -f "scripts/targets/$TARGET.sh" ]; then
  echo "usage: scripts/cross.sh TARGET setup|build|test|verify|bless|desync|repeat|all|quick [args]" >&2
  echo "targets: $(cd scripts/targets && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')" >&2
  exit 2
fi
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
BUILD="${FX_BUILD_DIR:-build-$TARGET}" # FX_BUILD_DIR: another build folder (e.g. build/ for repeat)
# What each target file defines (defaults for a native build):
TARGET_GOLDEN=""          # golden folder (fxkcc --version's target); default: the binary's own
TARGET_CMAKE_ARGS=()      # toolchain file and options
TARGET_RUN=()             # prefix to run a target binary (emulator), empty when native
TARGET_CTEST_ARGS=()      # extra ctest arguments (e.g. -E patterns the target cannot run)
TARGET_E2E_FULL_ONLY=()   # end-to-end classes run here only under FX_FULL=1 (job_test)
TARGET_TESTS_FULL_ONLY=() # ctest tests run here only under FX_FULL=1 (job_test)
target_setup() { :; }
target_begin() { :; }     # before a job runs target binaries (an emulator's server, ...)
target_end() { :; }       # when the job ends, however it ends
# Accuracy tests compare against a long double reference. A target whose long double math is
# not a trustworthy reference (emscripten's sqrtl/sinl are double precision; MinGW's sinl uses
# x87 fsin, off by more than a raw unit near 2e9 rad) skips them with
# TARGET_CTEST_ARGS=(-E "$ACCURACY_TESTS") and ACCURACY_TAGS: cross builds run their tests one
# ctest test per source file (FX_TEST_GROUPS, tests/CMakeLists.txt), so the regex leaves out the
# files of such tests alone (geometry.reference_test) and the tags (the same cases, tagged
# [accuracy] or [reference]) the cases inside a file; they run on x86-64 and AArch64. Everything that
# proves determinism (known answers, 128-bit path identity, behaviour tests, goldens) still runs.
# The tests also decide for themselves, by what the platform offers (fxtest::long_double_reference
# in tests/support/test_support.h: 64 significand bits or more, and accurate sqrtl/sinl/...): on
# MSVC and Apple arm64, where CI runs ctest without this list, they pass with a warning.
ACCURACY_TESTS='accuracy|against the reference|geometry\.reference'
ACCURACY_TAGS='-DFX_TEST_EXCLUDE_TAGS=accuracy;reference'
# shellcheck source=/dev/null
source "scripts/targets/$TARGET.sh"

job_setup() { bash scripts/setup.sh >/dev/null && target_setup || { echo "cross: setup of $TARGET failed" >&2; return 125; }; }
job_configure() {
  mkdir -p "$BUILD"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_WERROR=ON -DFX_BUILD_BENCH=OFF \
    "-DFX_HARNESS_OPTIMIZE=${FX_HARNESS_OPTIMIZE:-}" "${TARGET_CMAKE_ARGS[@]}" >"$BUILD/configure.log" 2>&1 ||
    { cat "$BUILD/configure.log" >&2; echo "cross: configure of $TARGET failed" >&2; return 125; }
}
# job_build [cmake --build args]: everything, or e.g. --target fxkcc.
job_build() {
  job_configure || return 125
  cmake --build "$BUILD" -j "$JOBS" "$@" || { echo "cross: build of $TARGET failed" >&2; return 125; }
}
# End-to-end classes (tests/e2e/test_cli.py) and unit-test files a target runs only under
# FX_FULL=1 (the extended command): what they test does not depend on the target (help texts,
# colour, plots, review's bookkeeping, the shrinker's search) and runs natively, under the
# sanitizers and on Windows (docs/testing.md, "What runs where"). A target file lists them in
# TARGET_E2E_FULL_ONLY and TARGET_TESTS_FULL_ONLY (ctest names, e.g. harness.shrink_test).
job_test() {
  local args=("${TARGET_CTEST_ARGS[@]}") skip="" parts=()
  if [ "${FX_FULL:-0}" != 1 ]; then
    [ ${#TARGET_E2E_FULL_ONLY[@]} -gt 0 ] && parts+=("e2e\\.($(IFS='|'; echo "${TARGET_E2E_FULL_ONLY[*]}"))")
    [ ${#TARGET_TESTS_FULL_ONLY[@]} -gt 0 ] && parts+=("$(IFS='|'; echo "${TARGET_TESTS_FULL_ONLY[*]//./\\.}")")
    [ ${#parts[@]} -gt 0 ] && skip="^($(IFS='|'; echo "${parts[*]}"))\$"
  fi
  if [ -n "$skip" ]; then
    if [ ${#args[@]} -ge 2 ] && [ "${args[0]}" = -E ]; then
      args[1]="(${args[1]})|$skip"
    else
      args+=(-E "$skip")
    fi
  fi
  ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure "${args[@]}" || return 1
}
# Runs the target's fxkcc (fxkcc, fxkcc.js under node, fxkcc.exe under wine).
fxkcc() {
  local exe="$BUILD/cli/fxkcc"
  [ -f "$exe.js" ] && exe="$exe.js"
  [ -f "$exe.exe" ] && exe="$exe.exe"
  "${TARGET_RUN[@]}" "$exe" "$@"
}
golden_args() { [ -n "$TARGET_GOLDEN" ] && echo "--target $TARGET_GOLDEN"; }
job_verify() { fxkcc verify --no-progress $(golden_args) "$@"; }
job_bless() { fxkcc bless $(golden_args) "$@"; }
# desync: the native build's `fxkcc desync` against this target's build (under its emulator),
# first with no fault (they must agree), then with a fault injected on the target's side (the
# real builds agree, so a fault is the honest way to test the report): the report must name the
# fault's tick, character, field and the trace step where the solves part.
job_desync() {
  local exe="$BUILD/cli/fxkcc" sc=scenarios/conformance/crowd-six.yaml out rc
  [ -f "$exe.js" ] && exe="$exe.js"
  [ -f "$exe.exe" ] && exe="$exe.exe"
  local side="${TARGET_RUN[*]} $exe"
  out=$(build/cli/fxkcc desync "$sc" --b "$side"); rc=$?
  echo "$out"
  [ "$rc" = 0 ] && grep -q "^no desync" <<<"$out" || { echo "cross: desync without a fault: exit $rc" >&2; return 1; }
  out=$(build/cli/fxkcc desync "$sc" --b "$side" --b-args "--inject-fault 57:3:vz:4" --bundle "$BUILD/desync-bundle"); rc=$?
  echo "$out"
  [ "$rc" = 1 ] || { echo "cross: desync with a fault: expected exit 1, found $rc" >&2; return 1; }
  grep -q "^last matching tick 56, first divergent tick 57$" <<<"$out" &&
    grep -q "^  c3: vz expected .* delta [+-][0-9]* ulp = [+-][0-9.]* m/s$" <<<"$out" &&
    grep -q "^  a t=58 c=3 tick-begin " <<<"$out" && grep -q "^  b t=58 c=3 tick-begin " <<<"$out" &&
    grep -q "^target: *${TARGET_GOLDEN:-.}" "$BUILD/desync-bundle/b.version.txt" ||
    { echo "cross: the desync report does not name tick 57, c3, vz and the tick-begin step" >&2; return 1; }
  # The swarm's sides oracle (docs/swarm.md): generated runs on the native build and this one,
  # every tick's hashes compared; the other oracles run natively in suite.swarm_seed11.
  build/cli/fxkcc swarm --seed 11 --runs "${FX_SWARM_SIDE_RUNS:-12}" -j "$JOBS" --no-metamorphic --no-synctest \
    --known scenarios/swarm/known-findings.txt --b "$side" ||
    { echo "cross: fxkcc swarm with this build as side b found something (above)" >&2; return 1; }
}

trap target_end EXIT
# Every job but setup may run target binaries (ctest's test discovery runs them while building).
[ "$JOB" = setup ] || [ "$JOB" = all ] || [ "$JOB" = quick ] || target_begin
# repeat: flakiness under load (issue 24). The load is a native build of the project, cleaned
# and rebuilt for as long as the repetitions run.
job_repeat() {
  local count=200 load=0 tests=() exe="$BUILD/cli/fxkcc" i failed=0 load_pid=""
  while [ $# -gt 0 ]; do
    case "$1" in
      -n) count=$2; shift 2 ;;
      --load) load=1; shift ;;
      *) tests+=("$1"); shift ;;
    esac
  done
  [ ${#tests[@]} -gt 0 ] || { echo "cross: repeat needs test names" >&2; return 2; }
  [ -f "$exe.exe" ] && exe="$exe.exe"
  [ -f "$exe.js" ] && exe="$exe.js"
  [ -f "$exe" ] || { echo "cross: no $exe: build $TARGET first" >&2; return 125; }
  local load_dir="build-load-$TARGET"
  if [ "$load" = 1 ]; then
    cmake -S . -B "$load_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || return 125
    (while :; do cmake --build "$load_dir" --clean-first -j "$JOBS" >/dev/null 2>&1; done) &
    load_pid=$!
  fi
  local emulator
  emulator=$(IFS=';'; echo "${TARGET_RUN[*]}")
  for ((i = 1; i <= count; i++)); do
    if ! out=$(python3 tests/e2e/test_cli.py --binary "$exe" "--emulator=$emulator" "${tests[@]}" 2>&1); then
      failed=$((failed + 1))
      echo "run $i of $count FAILED:"
      echo "$out"
    fi
    [ $((i % 10)) = 0 ] && echo "repeat: $i runs, $failed failed ($(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) load)"
  done
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null
    wait "$load_pid" 2>/dev/null
    pkill -f "$load_dir" 2>/dev/null
    sleep 1
    rm -rf "$load_dir"
  fi
  echo "repeat: $TARGET: ${tests[*]}: $count runs, $failed failed"
  [ "$failed" = 0 ]
}

case "$JOB" in
  setup) job_setup ;;
  build) job_build "$@" ;;
  test) job_test ;;
  verify) job_verify "$@" ;;
  bless) job_bless "$@" ;;
  desync) job_desync ;;
  repeat) job_repeat "$@" ;;
  # (ctest's suite.verify_bundled_scenarios is `fxkcc verify` of every scenario against this
  # target's goldens: `all` does not run it a second time.)
  all) job_setup && target_begin && job_build && job_test ;;
  quick) job_setup && target_begin && job_build --target fxkcc && job_verify "$@" ;;
  *) echo "cross: unknown job '$JOB'" >&2; exit 2 ;;
esac
