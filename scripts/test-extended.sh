#!/usr/bin/env bash
# The extended test command (docs/testing.md): what the README's test command leaves out to stay
# within 40 minutes on a 2-core machine. Several hours; not run by CI.
#   1. scripts/test.sh with every test at full count (FX_TEST_SCALE=1: the accuracy sweeps and the
#      geometry reference tests under qemu and the sanitizers too), every leg and every end-to-end
#      class on every target (FX_FULL=1: the -O0 and -O2 builds' verify, and the classes
#      scripts/targets/*.sh leave to other legs), each fuzz target for FX_FUZZ_SECONDS
#      (default 600) instead of 15, and the bounds generator
#      (tests/harness/bounds_test.cpp) on FX_BOUNDS_SCENARIOS (default 10,000) random scenarios
#      instead of 300;
#   2. the FX_FETCH_DEPS build (what the macOS and MSVC runners build) from Debian's source packages,
#      offline, with every test (scripts/fetch-deps-offline.sh);
#   3. the end-to-end tests that run processes at once (two blesses, blesses beside verifies, a
#      bless killed mid-write) FX_REPEAT times each (default 200) under load (a parallel build),
#      natively and on the Windows build under wine (scripts/cross.sh TARGET repeat);
#   4. swarm testing (docs/swarm.md) for FX_SWARM_SECONDS (default 3600) on every core, seed
#      FX_SWARM_SEED (default: the date, so each extended run meets new runs), every oracle,
#      findings not in scenarios/swarm/known-findings.txt fail it; the shrunk findings and the
#      JSON report in build/swarm/ (record the run in docs/swarm.md, "Long runs").
# Exit code: the first failing step's.
set -euo pipefail
cd "$(dirname "$0")/.."
export FX_TEST_SCALE=1
export FX_FULL=1
export FX_FUZZ_SECONDS=${FX_FUZZ_SECONDS:-600}
export FX_BOUNDS_SCENARIOS=${FX_BOUNDS_SCENARIOS:-10000}
bash scripts/test.sh
bash scripts/fetch-deps-offline.sh
CONCURRENT=(BlessFiles.test_two_blesses_at_once_write_what_one_does
            BlessFiles.test_blesses_and_verifies_at_once_all_succeed
            BlessFiles.test_killed_bless_leaves_every_golden_old_or_new)
# Natively on test.sh's own build/, then on the Windows build it left in build-x86_64-windows/.
FX_BUILD_DIR=build bash scripts/cross.sh x86_64-linux repeat -n "${FX_REPEAT:-200}" --load "${CONCURRENT[@]}"
bash scripts/cross.sh x86_64-windows repeat -n "${FX_REPEAT:-200}" --load "${CONCURRENT[@]}"
mkdir -p build/swarm
build/cli/fxkcc swarm --seed "${FX_SWARM_SEED:-$(date +%Y%m%d)}" --time "${FX_SWARM_SECONDS:-3600}" \
  --out build/swarm/findings --json build/swarm/report.json --junit build/swarm/report.xml \
  --known scenarios/swarm/known-findings.txt
echo "== extended: all passed"
