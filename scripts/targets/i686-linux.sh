# i686 Linux: g++-i686-linux-gnu, static, runs natively on x86-64. GCC has no __int128 on i686,
# so this is the target where the portable two-limb 128-bit path runs for real
# (fxkcc --version: "128-bit path portable"). Never gcc-multilib/g++-multilib or
# linux-libc-dev:i386 (they remove compilers, see docs): only the cross toolchain package.
# Libraries: the private sysroot of scripts/deps/linux-sysroot.sh (yaml-cpp from
# libyaml-cpp-dev:i386, downloaded and unpacked, not installed).
TARGET_GOLDEN=i686-linux
_sysroot="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-i386"
TARGET_CMAKE_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/i686-linux-gnu.cmake"
                   -DFXKCC_SYSROOT="$_sysroot")
TARGET_RUN=()
target_setup() {
  bash scripts/deps/linux-sysroot.sh i386 i686-linux-gnu \
    g++-i686-linux-gnu=/usr/bin/i686-linux-gnu-g++ >/dev/null
}
