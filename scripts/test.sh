#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and runs every test.
# Each leg is timed; the table at the end (also in build/test-times.txt) is what
# docs/testing.md quotes.
#   setup              scripts/setup.sh (dependencies, idempotent)
#   native             the CI workflow's Linux x86-64 job, run as written (tests/ci/test_workflow.py):
#                      build/: Release, __int128 wide path, warnings as errors: all tests and gates,
#                      the installed package built against from a project outside the tree
#                      (scripts/package-test.sh); then its verify step fails on an altered golden,
#                      as it must
#   no-git             a container job's checkout without git, stood in for (tests/ci/test_no_git.py):
#                      a copy of the tree without .git, in a mount namespace where git cannot run;
#                      fxkcc built there (build/'s objects reused) says `source: unknown`, and
#                      e2e VersionAndUsage passes (the test before issue 53's fix must crash there)
#   TARGET             the cross-target proof (docs/determinism.md), scripts/cross.sh TARGET all
#                      (+ desync for aarch64 and wasm32, + the package test for aarch64): set up, built, tested under its
#                      emulator and verified against its goldens; i686 (no __int128: the portable
#                      two-limb wide path) is built with checked arithmetic, which traps on any
#                      overflow, so the tests and the bundled goldens also run checked there
#   x86_64-linux-clang the clang build verifies against the x86-64 goldens (with FX_FULL=1, as the
#                      extended command sets, the -O0 and -O2 builds too)
#   compare-goldens    fxkcc compare-goldens: all targets' goldens identical
#   bless-all          scripts/bless-all.py with the six targets' builds, on a scratch copy
#                      (tests/ci/test_bless_all.py): re-blesses all six, the table, refuses a
#                      disagreeing target
#   asan               every test and the x86-64 goldens under ASan + UBSan
#   fuzz               each fuzz target for FX_FUZZ_SECONDS (default 15; the extended command 600)
#   workflow           the CI workflows in ci/ against the GitHub Actions schema, and against what it
#                      does not say (scripts/lint-workflow-rules.py: retired runner labels, git
#                      before actions/checkout in container jobs, actions/* at v5+, bash 3.2 in
#                      the macOS and Windows jobs' scripts; each rule proved on planted copies)
#   leftovers          the tests left nothing in the temporary folder
# Emulated legs run their slowest accuracy and random-reference tests at reduced counts
# (docs/testing.md says which); scripts/test-extended.sh runs everything at full count.
# The cross-target and the -O2/-clang legs compile the harness and the tests at -O1
# (FX_HARNESS_OPTIMIZE, cmake/FxUnity.cmake; FX_HARNESS_OPTIMIZE= keeps the build type's); the
# numeric, geometry and controller layers at their release flags (docs/testing.md).
# Environment: JOBS (default: number of cores); FX_TARGETS (default: all five cross targets);
# FX_FUZZ_SECONDS; FX_SKIP_CROSS=1 skips the cross, variant, sanitizer and fuzz legs (a quick local
# run; CI never sets it); FX_FULL=1 (set by scripts/test-extended.sh) adds the -O0 and -O2 legs and
# runs every end-to-end class on every target (scripts/cross.sh, TARGET_E2E_FULL_ONLY).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
export JOBS

# Every test's temporary files go to one private folder, which must be empty at the end.
FX_TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/fxkcc-test.XXXXXX")
export TMPDIR="$FX_TEST_TMP"
trap 'rm -rf "$FX_TEST_TMP"' EXIT

HARNESS_OPTIMIZE=${FX_HARNESS_OPTIMIZE--O1}

LEG_NAMES=()
LEG_SECONDS=()
RUN_START=$SECONDS
print_times() {
  local i out=""
  out+=$(printf '%-24s %8s\n' "leg" "seconds")$'\n'
  for i in "${!LEG_NAMES[@]}"; do
    out+=$(printf '%-24s %8d\n' "${LEG_NAMES[$i]}" "${LEG_SECONDS[$i]}")$'\n'
  done
  out+=$(printf '%-24s %8d\n' "total" "$((SECONDS - RUN_START))")
  echo "== leg times"
  echo "$out"
  mkdir -p build && echo "$out" >build/test-times.txt
}
# leg NAME COMMAND...: runs one leg, records its time; on failure prints the table and stops.
leg() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  LEG_NAMES+=("$name")
  LEG_SECONDS+=($((SECONDS - start)))
  echo "== $name: $([ $rc = 0 ] && echo passed || echo "FAILED (exit $rc)") in $((SECONDS - start)) s"
  if [ $rc != 0 ]; then
    print_times
    exit $rc
  fi
}

# (set -e does not reach into a function that `leg` calls as `"$@" || rc=$?`: steps say `|| return`.)
cross_leg() {
  local FX_HARNESS_OPTIMIZE=$HARNESS_OPTIMIZE
  export FX_HARNESS_OPTIMIZE
  bash scripts/cross.sh "$1" all || return
  case "$1" in aarch64-linux|wasm32-emscripten) bash scripts/cross.sh "$1" desync || return ;; esac
  if [ "$1" = aarch64-linux ]; then bash scripts/package-test.sh aarch64-linux; fi
}

# Nothing may stay in the temporary folder (a self-hosted runner would keep it for ever).
no_leftovers() {
  local left
  left=$(find "$FX_TEST_TMP" -mindepth 1 -maxdepth 1 | head -20)
  [ -z "$left" ] && { echo "nothing left in $FX_TEST_TMP"; return 0; }
  echo "left behind in the temporary folder:" >&2
  echo "$left" >&2
  return 1
}

leg setup bash scripts/setup.sh
# The native build and its tests are the CI workflow's Linux x86-64 job (g++), executed step by
# step as the hosted runner would (tests/ci/test_workflow.py): install, build build/, every ctest
# test, verify the goldens; then its verify step must fail on an altered golden.
leg native python3 tests/ci/test_workflow.py
leg no-git python3 tests/ci/test_no_git.py
if [ "${FX_SKIP_CROSS:-0}" != 1 ]; then
  for target in ${FX_TARGETS:-aarch64-linux wasm32-emscripten i686-linux s390x-linux x86_64-windows}; do
    leg "$target" cross_leg "$target"
  done
  # The -O0 and -O2 builds verify under FX_FULL=1 (the extended command); clang always.
  [ "${FX_FULL:-0}" = 1 ] && leg x86_64-linux-O0 bash scripts/cross.sh x86_64-linux-O0 quick
  variants=(x86_64-linux-clang)
  [ "${FX_FULL:-0}" = 1 ] && variants=(x86_64-linux-O2 x86_64-linux-clang)
  for variant in "${variants[@]}"; do
    leg "$variant" env FX_HARNESS_OPTIMIZE="$HARNESS_OPTIMIZE" bash scripts/cross.sh "$variant" quick
  done
  leg compare-goldens build/cli/fxkcc compare-goldens
  leg bless-all python3 tests/ci/test_bless_all.py
  leg asan bash scripts/cross.sh x86_64-linux-asan all
  leg fuzz env FX_FUZZ_SEED="${FX_FUZZ_SEED:-1}" bash scripts/fuzz.sh "${FX_FUZZ_SECONDS:-15}"
fi
leg workflow bash scripts/lint-workflow.sh
leg leftovers no_leftovers
print_times
echo "== all test suites passed"
