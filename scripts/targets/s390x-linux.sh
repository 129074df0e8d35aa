# s390x Linux (big-endian): g++-s390x-linux-gnu, static, run under qemu-s390x (called
# explicitly: TARGET_RUN here, CMAKE_CROSSCOMPILING_EMULATOR for ctest). The canonical
# little-endian state bytes must give the same hashes as every little-endian target.
# Libraries: the private sysroot of scripts/deps/linux-sysroot.sh (yaml-cpp from
# libyaml-cpp-dev:s390x, header-only dependencies from the host).
TARGET_GOLDEN=s390x-linux
_sysroot="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-s390x"
TARGET_CMAKE_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/s390x-linux-gnu.cmake"
                   -DFXKCC_SYSROOT="$_sysroot")
TARGET_RUN=(qemu-s390x)
# Under qemu the accuracy sweeps of the numeric layer and the geometry layer's random reference
# tests (a long double reference, which is software quad precision on this target) take ~27 min
# at full count (measured on AArch64: capsule-vs-box casts ~870 s alone, asin/acos 49 s); 5% of
# their cases keeps them to about a minute. The determinism proof (goldens, known answers,
# portable-vs-native identity) is not reduced. scripts/test-extended.sh runs them whole.
export FX_TEST_SCALE=${FX_TEST_SCALE:-0.05}
target_setup() {
  bash scripts/deps/linux-sysroot.sh s390x s390x-linux-gnu \
    g++-s390x-linux-gnu=/usr/bin/s390x-linux-gnu-g++ qemu-user=/usr/bin/qemu-s390x >/dev/null
}
# End-to-end classes left to the native, sanitizer and Windows legs (FX_FULL=1 runs them here
# too; scripts/cross.sh, job_test): help texts, colour, plots, review's bookkeeping, and the
# golden files' and bad inputs' handling, which is the same code as on 64-bit x86-64 Linux.
TARGET_E2E_FULL_ONLY=(VersionAndUsage ListAndValidate Review BlessFiles GoldenTrust BadInput Colour Bench
                      SuiteOptionsStrict Plot)
# The shrinker's unit tests (its search over generated and bundled scenarios: 36 to 47 s under
# this emulator) run natively, under the sanitizers, on i686, wasm32 and Windows.
TARGET_TESTS_FULL_ONLY=(harness.shrink_test)
