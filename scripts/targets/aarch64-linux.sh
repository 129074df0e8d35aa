# AArch64 Linux: g++-aarch64-linux-gnu, static, run under qemu-aarch64 (no binfmt here, so the
# emulator is called explicitly: TARGET_RUN here, CMAKE_CROSSCOMPILING_EMULATOR for ctest).
# Libraries: the private sysroot of scripts/deps/linux-sysroot.sh (yaml-cpp from
# libyaml-cpp-dev:arm64, header-only dependencies from the host).
TARGET_GOLDEN=aarch64-linux
_sysroot="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-arm64"
TARGET_CMAKE_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux-gnu.cmake"
                   -DFXKCC_SYSROOT="$_sysroot")
TARGET_RUN=(qemu-aarch64)
# Under qemu the accuracy sweeps of the numeric layer and the geometry layer's random reference
# tests (a long double reference, which is software quad precision on this target) take ~27 min
# at full count (measured on AArch64: capsule-vs-box casts ~870 s alone, asin/acos 49 s); 2% of
# their cases (as of the exhaustive small-input sqrt and the decimal round trip) keeps them to
# about 40 s of CPU (5% took 63 s for capsule-vs-box alone in fresh-clone run 22). The
# determinism proof (goldens, known answers, portable-vs-native identity on 1,000,000+ pairs) is
# not reduced. scripts/test-extended.sh runs them whole.
export FX_TEST_SCALE=${FX_TEST_SCALE:-0.02}
target_setup() {
  bash scripts/deps/linux-sysroot.sh arm64 aarch64-linux-gnu \
    g++-aarch64-linux-gnu=/usr/bin/aarch64-linux-gnu-g++ qemu-user=/usr/bin/qemu-aarch64 >/dev/null
}
# End-to-end classes left to the native, sanitizer and Windows legs (FX_FULL=1 runs them here
# too; scripts/cross.sh, job_test): help texts, colour, plots, review's bookkeeping, and the
# golden files' and bad inputs' handling, which is the same code as on 64-bit x86-64 Linux.
TARGET_E2E_FULL_ONLY=(VersionAndUsage ListAndValidate Review BlessFiles GoldenTrust BadInput Colour Bench
                      SuiteOptionsStrict Plot)
# The shrinker's unit tests (its search over generated and bundled scenarios: 36 to 47 s under
# this emulator) run natively, under the sanitizers, on i686, wasm32 and Windows.
TARGET_TESTS_FULL_ONLY=(harness.shrink_test)
