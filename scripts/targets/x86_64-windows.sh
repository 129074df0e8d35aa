# x86-64 Windows: MinGW-w64 GCC (posix threads), static, run under wine (sourced by scripts/cross.sh).
# yaml-cpp is built for MinGW from Debian's source package (scripts/deps/yaml-cpp-source.sh) into
# ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/mingw64; CLI11, xxHash and Catch2 are header-only copies there.
# fxkcc switches stdout/stderr to binary mode on Windows (cli/main.cpp), so its output has no CRLF.
MINGW_DEPS="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/mingw64"
# Quiet wine, and no prompts to install Mono or Gecko into a fresh prefix.
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
TARGET_GOLDEN=x86_64-windows
TARGET_CMAKE_ARGS=(
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/x86_64-w64-mingw32.cmake"
  -DFXKCC_DEPS_PREFIX="$MINGW_DEPS"
  -DCMAKE_CROSSCOMPILING_EMULATOR=wine
)
TARGET_RUN=(wine)
target_setup() {
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null || ! command -v wine >/dev/null; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
      --no-install-recommends g++-mingw-w64-x86-64-posix wine wine64 || return 1
  fi
  bash scripts/deps/yaml-cpp-source.sh cmake/toolchains/x86_64-w64-mingw32.cmake "$MINGW_DEPS" || return 1
  # Create the wine prefix once (slow the first time), so that tests do not race to create it.
  local prefix="${WINEPREFIX:-$HOME/.wine}"
  if [ ! -f "$prefix/system.reg" ]; then
    echo "x86_64-windows: initialising the wine prefix $prefix"
    wineboot --init >/dev/null 2>&1 || true
    wineserver -w 2>/dev/null || true
  fi
}
# Accuracy tests are skipped: this platform's long double is no reference (scripts/cross.sh).
TARGET_CTEST_ARGS=(-E "$ACCURACY_TESTS")
