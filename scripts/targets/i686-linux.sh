# i686 Linux: g++-i686-linux-gnu, static, runs natively on x86-64. GCC has no __int128 on i686,
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
TARGET_CMAKE_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/i686-linux-gnu.cmake"
                   -DFXKCC_SYSROOT="$_sysroot" -DFX_CHECKED=ON -DFX_STANDARD_CPP_ONLY=ON)
TARGET_RUN=()
target_setup() {
  bash scripts/deps/linux-sysroot.sh i386 i686-linux-gnu \
    g++-i686-linux-gnu=/usr/bin/i686-linux-gnu-g++ >/dev/null
}
