#!/usr/bin/env bash
# Fuzzing with libFuzzer (tests/fuzz, docs/fuzzing.md):
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# SECONDS_PER_TARGET: how long each target runs (default 60; e.g. 3600 for a long run).
# TARGET: loader, decimal, formats, controller (default: all four, one after the other).
#
# 1. installs what is missing (scripts/setup.sh, then clang-14 and libclang-rt-14-dev, which
#    holds libFuzzer and the sanitizer runtimes) with apt-get, idempotently;
# 2. configures and builds build-fuzz/ (clang, FX_FUZZ=ON: libFuzzer + AddressSanitizer +
#    UndefinedBehaviorSanitizer on every target; FX_CHECKED=ON: fixed-point overflow traps);
# 3. runs each target for SECONDS_PER_TARGET (FX_FUZZ_PARALLEL at once, default: the number of
#    cores) on a fresh copy of its seed corpus
#    (tests/fuzz/corpus/<target>/ -> build-fuzz/fuzz-work/<target>/corpus/) with
#    -max_total_time, -rss_limit_mb=2048 and -timeout=10; logs in build-fuzz/fuzz-work/<target>/log.
# FX_FUZZ_SEED=N fixes libFuzzer's random seed (-seed=N): the test command sets it, so that a
# commit's short runs try the same inputs in the same order on every CI run and a red run
# replays; unset (long runs), each run draws its own seed, printed in the log.
# Exit code: 0 when no target found anything; 1 when a target crashed, leaked, ran out of memory
# or timed out (the reproducer path is printed: replay it with `build-fuzz/tests/fuzz/fuzz_<target>
# FILE`); 125 when setup or the build failed. FX_FUZZ_JOBS sets the build's parallelism.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SECS=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
case "$SECS" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [loader|decimal|formats|controller ...]" >&2; exit 2 ;; esac
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(loader decimal formats controller)
for t in "${TARGETS[@]}"; do
  [ -f "tests/fuzz/fuzz_$t.cpp" ] || { echo "fuzz: unknown target '$t' (loader, decimal, formats, controller)" >&2; exit 2; }
done
BUILD=build-fuzz
JOBS=${FX_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
start=$SECONDS

# ---- 1. dependencies -------------------------------------------------------------------------
bash scripts/setup.sh >/dev/null || { echo "fuzz: scripts/setup.sh failed" >&2; exit 125; }
CXX=$(command -v clang++-14 || command -v clang++ || true)
have_fuzzer_rt() {
  [ -n "$CXX" ] && compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null
}
if ! have_fuzzer_rt; then
  echo "fuzz: installing clang-14 libclang-rt-14-dev"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "fuzz: need root to install clang-14 libclang-rt-14-dev" >&2; exit 125; }
    SUDO=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || echo "fuzz: apt-get update failed; installing from the package lists already here" >&2
  $SUDO apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev ||
    { echo "fuzz: cannot install clang-14 libclang-rt-14-dev" >&2; exit 125; }
  CXX=$(command -v clang++-14 || command -v clang++ || true)
  have_fuzzer_rt || { echo "fuzz: libFuzzer runtime still missing after the install" >&2; exit 125; }
fi

# ---- 2. build --------------------------------------------------------------------------------
echo "== fuzz: configure and build $BUILD ($CXX)"
mkdir -p "$BUILD"
# -O1 (libFuzzer's advice for sanitized fuzzing; compiles faster than -O3), and
# line tables for the stack traces (cmake/FxFuzz.cmake).
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_CXX_COMPILER="$CXX" -DFX_FUZZ=ON \
  -DFX_CHECKED=ON -DFX_WERROR=ON -DFX_BUILD_TESTS=OFF -DFX_BUILD_BENCH=OFF >"$BUILD/configure.log" 2>&1 ||
  { cat "$BUILD/configure.log" >&2; echo "fuzz: configure failed" >&2; exit 125; }
cmake --build "$BUILD" -j "$JOBS" --target $(printf 'fuzz_%s ' "${TARGETS[@]}") ||
  { echo "fuzz: build failed" >&2; exit 125; }
echo "== fuzz: built in $((SECONDS - start)) s"

# ---- 3. run ----------------------------------------------------------------------------------
# Each target is one process on one core; FX_FUZZ_PARALLEL of them run at once (default: the
# number of cores), so the test command's four minutes of fuzzing take two on this machine.
PARALLEL=${FX_FUZZ_PARALLEL:-$JOBS}
[ "$PARALLEL" -ge 1 ] 2>/dev/null || PARALLEL=1
run_one() { # target: runs it, writes $work/line (the summary line) and $work/rc
  local t=$1 work="$BUILD/fuzz-work/$1" t0=$SECONDS rc status execs eps cov seed line
  local seed_arg=()
  [ -n "${FX_FUZZ_SEED:-}" ] && seed_arg=(-seed="$FX_FUZZ_SEED")
  "$BUILD/tests/fuzz/fuzz_$t" "${seed_arg[@]}" -max_total_time="$SECS" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
  rc=$?
  # The last status line: "#123 DONE cov: 456 ft: 789 corp: 12/3456b ... exec/s: 100 ...".
  status=$(grep -E '^#[0-9]+' "$work/log" | tail -n 1)
  execs=$(grep -E '^stat::number_of_executed_units:' "$work/log" | awk '{print $2}')
  eps=$(grep -E '^stat::average_exec_per_sec:' "$work/log" | awk '{print $2}')
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status")
  seed=$(sed -nE 's/^INFO: Seed: ([0-9]+).*/\1/p' "$work/log" | head -n 1)
  line="$t: $((SECONDS - t0)) s, ${execs:-?} execs (${eps:-?}/s), cov ${cov:-?}, corpus $(ls "$work/corpus" | wc -l), seed ${seed:-?}"
  echo "$line" >"$work/line"
  echo "$rc" >"$work/rc"
}
failed=()
summary=()
pids=()
for t in "${TARGETS[@]}"; do
  work="$BUILD/fuzz-work/$t"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -R "tests/fuzz/corpus/$t/." "$work/corpus/"
  echo "== fuzz: $t for $SECS s ($(ls "$work/corpus" | wc -l) seeds)"
  run_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$PARALLEL" ]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
wait
for t in "${TARGETS[@]}"; do
  work="$BUILD/fuzz-work/$t"
  line=$(cat "$work/line" 2>/dev/null || echo "$t: did not finish")
  rc=$(cat "$work/rc" 2>/dev/null || echo 1)
  if [ "$rc" != 0 ]; then
    repro=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$work/log" | tail -n 1)
    echo "fuzz: $t FAILED (exit $rc); log $work/log" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY:|fuzz property violated|fx: arithmetic overflow|ALARM|.*runtime error)' "$work/log" | head -n 5 >&2
    echo "fuzz: reproducer ${repro:-(none written)}; replay: $BUILD/tests/fuzz/fuzz_$t ${repro:-FILE}" >&2
    failed+=("$t")
    line="$line  FAILED (${repro:-no reproducer})"
  fi
  echo "$line"
  summary+=("$line")
done

echo "== fuzz: summary ($((SECONDS - start)) s in all)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings"
