# i686 Linux: g++-i686-linux-gnu, static, runs natively on x86-64 where the kernel runs 32-bit
# binaries, else under qemu-i386 (below). GCC has no __int128 on i686,
# so this is the target where the portable two-limb 128-bit path runs for real
# (fxkcc --version: "128-bit path portable"). Built with checked arithmetic (FX_CHECKED=ON: any
# fixed-point overflow traps, naming the operation), so this leg is also the test command's
# checked build: every test and every bundled scenario through the portable path with the
# checks on (it replaced a separate x86-64 build with FX_FORCE_PORTABLE_WIDE=ON and FX_CHECKED=ON,
# docs/testing.md). Never gcc-multilib/g++-multilib or
# linux-libc-dev:i386 (they remove compilers, see docs): only the cross toolchain package.
# FX_STANDARD_CPP_ONLY=ON: no compiler extension compiled at all (there is no __int128 on i686
# anyway), so this leg runs every test and golden on the code MSVC compiles, with a 32-bit long
# as on MSVC.
# Libraries: the private sysroot of scripts/deps/linux-sysroot.sh (yaml-cpp from
# libyaml-cpp-dev:i386, downloaded and unpacked, not installed).
TARGET_GOLDEN=i686-linux
_sysroot="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-i386"
# Native or emulated: a kernel built without IA32 emulation, or a sandbox that refuses 32-bit
# binaries (this CI machine: "Exec format error"), cannot run them. The cross toolchain's own
# i386 loader is the probe: it runs (--help, exit 0) where i386 binaries run. Where it does not,
# the binaries run under qemu-i386, called explicitly (TARGET_RUN here, FX_I686_EMULATOR for
# ctest), with the accuracy sweeps and random reference tests at 5 % of their cases as on the
# other emulated targets (the determinism proof is not reduced; scripts/test-extended.sh runs
# them whole). Decided again after setup, which installs the loader.
_i686_decide() {
  local loader=/usr/i686-linux-gnu/lib/ld-linux.so.2 emulator=""
  if [ -e "$loader" ] && ! "$loader" --help >/dev/null 2>&1; then
    emulator=qemu-i386
    export FX_TEST_SCALE=${FX_TEST_SCALE:-0.05}
  fi
  TARGET_CMAKE_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/i686-linux-gnu.cmake"
                     -DFXKCC_SYSROOT="$_sysroot" -DFX_CHECKED=ON -DFX_STANDARD_CPP_ONLY=ON
                     -DFX_I686_EMULATOR="$emulator")
  TARGET_RUN=(${emulator:+"$emulator"})
}
_i686_decide
target_setup() {
  bash scripts/deps/linux-sysroot.sh i386 i686-linux-gnu \
    g++-i686-linux-gnu=/usr/bin/i686-linux-gnu-g++ qemu-user=/usr/bin/qemu-i386 >/dev/null &&
    _i686_decide
}
# End-to-end classes left to the native, sanitizer and Windows legs (FX_FULL=1 runs them here
# too; scripts/cross.sh, job_test): help texts, colour, plots and review's bookkeeping. The golden
# files' and bad inputs' handling run here (BlessFiles, GoldenTrust, BadInput): sizes and counts
# on a 32-bit size_t.
TARGET_E2E_FULL_ONLY=(VersionAndUsage ListAndValidate Review Colour Bench SuiteOptionsStrict Plot)
