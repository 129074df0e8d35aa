# x86-64 Windows: MinGW-w64 GCC (posix threads), static, run under wine (sourced by scripts/cross.sh).
# yaml-cpp is built for MinGW from Debian's source package (scripts/deps/yaml-cpp-source.sh) into
# ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/mingw64; CLI11, xxHash and Catch2 are header-only copies there.
# fxkcc switches stdout/stderr to binary mode on Windows (cli/main.cpp), so its output has no CRLF.
MINGW_DEPS="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/mingw64"
# Quiet wine (override: WINEDEBUG=err+all to read wine's own errors), and no prompts to install
# Mono or Gecko into a fresh prefix.
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="mscoree,mshtml="
TARGET_GOLDEN=x86_64-windows
# The bad-input catalogue runs here too (every command starts wine, 0.1 to 0.2 s): its hang bounds
# (tests/bad-inputs/run.py) are scaled by 3.
export FX_BADINPUT_TIME_SCALE=${FX_BADINPUT_TIME_SCALE:-3}
TARGET_CMAKE_ARGS=(
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/x86_64-w64-mingw32.cmake"
  -DFXKCC_DEPS_PREFIX="$MINGW_DEPS"
  "-DCMAKE_CROSSCOMPILING_EMULATOR=setarch;x86_64;-R;wine"
)
TARGET_RUN=(setarch x86_64 -R wine)
target_setup() {
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null || ! command -v wine >/dev/null; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
      --no-install-recommends g++-mingw-w64-x86-64-posix wine wine64 || return 1
  fi
  bash scripts/deps/yaml-cpp-source.sh cmake/toolchains/x86_64-w64-mingw32.cmake "$MINGW_DEPS" || return 1
}
# This build's own wine prefix and a wine server that lives as long as this job (target_begin,
# target_end), so that nothing another job does with wine (another leg, another run of the test
# command, a test that kills a bless) can reach this one's server. Debian's wineserver wrapper
# starts every server with -p0: left to the clients, the server exits whenever its last client
# does and the next client starts a new one, and a client that connects as the old one exits dies
# with "recvmsg: Connection reset by peer" (seen in the test command under load, issue 24).
export WINEPREFIX="${FXKCC_WINEPREFIX:-$ROOT/$BUILD/wine-prefix}"
WINE_SERVER_OURS=0
target_begin() {
  command -v wineserver >/dev/null || return 0 # not set up yet: the setup job installs wine
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "x86_64-windows: initialising the wine prefix $WINEPREFIX (once per build folder)"
    mkdir -p "$WINEPREFIX"
    wineboot --init </dev/null >/dev/null 2>&1 || true
    wineserver -w 2>/dev/null || true
  fi
  # -p: persistent until killed (exit 2: a server already runs for this prefix; not ours to stop).
  wineserver -p 2>/dev/null && WINE_SERVER_OURS=1
  # Start the prefix's services (services.exe, winedevice.exe, ...) now, holding nothing but
  # /dev/null: they live as long as the server, and started by a client whose output is read
  # through a pipe (ctest's test discovery) they would hold that pipe open and its reader
  # waiting for ever.
  wineboot </dev/null >/dev/null 2>&1 || true
  return 0
}
target_end() {
  [ "$WINE_SERVER_OURS" = 1 ] || return 0
  # Stops the server and every wine process of the prefix (winedevice.exe, services.exe, ...),
  # then removes the server's socket folder, which wine leaves behind:
  # $TMPDIR/wine-<id>/server-<device>-<inode of the prefix>, in hex.
  wineserver -k 2>/dev/null
  wineserver -w 2>/dev/null
  local sock d
  sock=$(printf 'server-%s-%x' "$(stat -c %D "$WINEPREFIX")" "$(stat -c %i "$WINEPREFIX")")
  for d in "${TMPDIR:-/tmp}"/wine-*/"$sock"; do
    [ -d "$d" ] || continue
    rm -rf "$d"
    rmdir "$(dirname "$d")" 2>/dev/null # only when no other server's folder is in it
  done
  WINE_SERVER_OURS=0
  return 0
}
# Accuracy tests are skipped: this platform's long double is no reference (scripts/cross.sh).
TARGET_CTEST_ARGS=(-E "$ACCURACY_TESTS")
TARGET_CMAKE_ARGS+=("$ACCURACY_TAGS")
