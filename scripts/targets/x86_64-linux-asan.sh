# Native x86-64 Linux, GCC, AddressSanitizer + UndefinedBehaviorSanitizer on every target
# (-DFX_SANITIZE=address,undefined, cmake/FxSanitize.cmake; signed-integer-overflow, shifts,
# bounds, alignment, ... abort the process: -fno-sanitize-recover=all). -O1 keeps it fast;
# -g1 (line tables only) gives the stack traces file:line for a fraction of -g's compile time.
# `scripts/cross.sh x86_64-linux-asan all`: the unit, e2e and suite tests run under the
# sanitizers, then `fxkcc verify` must match the x86_64-linux goldens bit for bit (sanitizers
# must not change a result; undefined behaviour is exactly what lets two compilers disagree).
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=(-DFX_SANITIZE=address,undefined "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1 -DNDEBUG")
# Every finding is fatal, with a stack trace, and exits 86: never 1 or 2,
# which fxkcc uses for a mismatch and bad input, so no test that expects those can mistake a
# finding for the outcome it wants. Leaks are findings too. Kept if already set.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:exitcode=86:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}
# Instrumented code runs several times slower:
#  - the numeric layer's accuracy sweeps and the geometry layer's random reference tests run a
#    quarter of their cases (FX_TEST_SCALE; still 15,000 casts and 37,500 overlaps per shape
#    pair; the full count runs in build/): the accuracy figures are build/'s business, here the
#    point is to drive every branch under the checks;
#  - the bad-input catalogue's hang bounds (tests/bad-inputs/run.py) are scaled by 5.
export FX_TEST_SCALE=${FX_TEST_SCALE:-0.25}
export FX_BADINPUT_TIME_SCALE=${FX_BADINPUT_TIME_SCALE:-5}
# Not run here: gate.* are source checks (no float tokens; an AArch64 -mgeneral-regs-only
# compile of the sources), independent of this build's flags; they run in build/.
# Everything else runs, controller.a built world steps without allocating included (it replaces
# the global operator new/delete, every form of them that ASan's runtime also defines).
TARGET_CTEST_ARGS=(-E '^gate\.')
# GCC's sanitizer runtimes (libasan, libubsan) come with g++ (libgcc-N-dev depends on them);
# install them only if a sanitized probe cannot be linked. Idempotent.
target_setup() {
  local probe ok=0
  probe=$(mktemp -d)
  echo 'int main() { return 0; }' >"$probe/p.cpp"
  g++ -fsanitize=address,undefined "$probe/p.cpp" -o "$probe/p" 2>/dev/null && "$probe/p" && ok=1
  rm -rf "$probe"
  [ "$ok" = 1 ] && return 0
  local v SUDO=""
  v=$(g++ -dumpversion | cut -d. -f1)
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "x86_64-linux-asan: installing the sanitizer runtimes of GCC $v"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
    --no-install-recommends "libgcc-$v-dev" libubsan1 || return 1
}
# End-to-end classes whose code the unit tests already drive under the sanitizers (the swarm:
# harness.swarm_test and the suite tests) or that print help texts, colour and plots: natively,
# and here under FX_FULL=1 (scripts/cross.sh, job_test).
TARGET_E2E_FULL_ONLY=(VersionAndUsage Colour Bench Plot Swarm)
