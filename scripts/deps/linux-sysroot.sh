#!/usr/bin/env bash
# Private sysroot of the third-party libraries for a foreign-architecture Linux cross build
# (docs/determinism.md, scripts/targets/{aarch64,i686,s390x}-linux.sh):
#   scripts/deps/linux-sysroot.sh DEBIAN_ARCH TRIPLE [PACKAGE=FILE...]
#   e.g. scripts/deps/linux-sysroot.sh arm64 aarch64-linux-gnu \
#          g++-aarch64-linux-gnu=/usr/bin/aarch64-linux-gnu-g++ qemu-user=/usr/bin/qemu-aarch64
# First installs each host PACKAGE whose FILE is missing (the cross compiler, qemu-user), then
# creates ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-DEBIAN_ARCH, which the toolchain files
# cmake/toolchains/*-linux-gnu.cmake use as CMAKE_FIND_ROOT_PATH. Idempotent: a stamp file
# makes a second run a no-op. Nothing is installed into the host system but the foreign
# architecture's package lists (dpkg --add-architecture).
#
# What goes in:
#   - yaml-cpp (the only compiled dependency): libyaml-cpp-dev:ARCH is not multi-arch
#     co-installable with the host's, so it is downloaded and unpacked with dpkg-deb -x.
#     Its CMake package describes the *shared* library (yaml-cpp-targets-none.cmake points at
#     libyaml-cpp.so, which the -dev package does not even ship); cross builds link
#     statically, so its config file is replaced by a small one that imports the static
#     libyaml-cpp.a of the same package, with paths relative to the file (the sysroot can move).
#     Debian's version file is kept, so find_package's version check is Debian's.
#   - header-only dependencies (CLI11, xxHash, Catch2 v2, fmt) copied from the host's /usr/include
#     with their CMake packages: only those headers, never the host's whole /usr/include (it
#     holds x86-64 glibc headers). Catch2's prebuilt main library is x86-64 only and is left
#     out (the tests use their own main), so Catch2::Catch2WithMain has no location here.
set -euo pipefail
ARCH=${1:?usage: linux-sysroot.sh DEBIAN_ARCH TRIPLE}
TRIPLE=${2:?usage: linux-sysroot.sh DEBIAN_ARCH TRIPLE}
shift 2
DEPS=${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}
SYSROOT="$DEPS/sysroot-$ARCH"
STAMP="$SYSROOT/.fxkcc-sysroot-1"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# Wait for a concurrent apt/dpkg run (another job's setup) instead of failing on its lock.
APT=(apt-get -o DPkg::Lock::Timeout=600)

missing=()
for pf in "$@"; do
  [ -e "${pf#*=}" ] || missing+=("${pf%%=*}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "linux-sysroot: installing ${missing[*]}" >&2
  command -v apt-get >/dev/null || { echo "linux-sysroot: no apt-get; install ${missing[*]}" >&2; exit 1; }
  $SUDO "${APT[@]}" update -qq >/dev/null || true
  $SUDO "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# fmt's headers (header-only use, cmake/FxDependencies.cmake) and nlohmann/json's (header-only,
# with its CMake package: find_package(nlohmann_json)), also into a sysroot made before they were
# needed.
stage_fmt() { rm -rf "$1/include/fmt"; mkdir -p "$1/include"; cp -a /usr/include/fmt "$1/include/"; }
stage_json() {
  rm -rf "$1/include/nlohmann" "$1/share/cmake/nlohmann_json"
  mkdir -p "$1/include" "$1/share/cmake"
  cp -a /usr/include/nlohmann "$1/include/"
  cp -a /usr/share/cmake/nlohmann_json "$1/share/cmake/"
}
if [ -f "$STAMP" ]; then
  [ -f "$SYSROOT/usr/include/fmt/format.h" ] || stage_fmt "$SYSROOT/usr"
  [ -f "$SYSROOT/usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake" ] || stage_json "$SYSROOT/usr"
  echo "$SYSROOT"
  exit 0
fi

for f in /usr/include/CLI/CLI.hpp /usr/include/xxhash.h /usr/include/catch2/catch.hpp /usr/include/fmt/format.h \
         /usr/include/nlohmann/json.hpp /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake \
         /usr/lib/cmake/Catch2/Catch2Config.cmake /usr/share/cmake/CLI11/CLI11Config.cmake; do
  [ -e "$f" ] || { echo "linux-sysroot: $f missing (run scripts/setup.sh first)" >&2; exit 1; }
done

if ! dpkg --print-foreign-architectures | grep -qx "$ARCH" && [ "$ARCH" != "$(dpkg --print-architecture)" ]; then
  echo "linux-sysroot: adding the $ARCH architecture's package lists (dpkg --add-architecture)" >&2
  for _ in $(seq 60); do $SUDO dpkg --add-architecture "$ARCH" 2>/dev/null && break; sleep 10; done
  dpkg --print-foreign-architectures | grep -qx "$ARCH" || { echo "linux-sysroot: dpkg --add-architecture $ARCH failed" >&2; exit 1; }
  # An index that fails to download (a mirror mid-sync, often the security suite's) is not
  # fatal: only libyaml-cpp-dev:ARCH is needed, and its download below is what must work.
  $SUDO "${APT[@]}" update -qq >/dev/null || echo "linux-sysroot: apt-get update reported errors; trying the download anyway" >&2
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# apt-get download writes into the current directory; run as _apt's sandbox needs it writable.
chmod 777 "$TMP"
if ! (cd "$TMP" && apt-get download -q "libyaml-cpp-dev:$ARCH" >/dev/null 2>&1); then
  # stale lists (a new point release) are the usual cause
  $SUDO "${APT[@]}" update -qq >/dev/null || true
  (cd "$TMP" && apt-get download -q "libyaml-cpp-dev:$ARCH" >/dev/null)
fi
rm -rf "$SYSROOT.tmp"
mkdir -p "$SYSROOT.tmp"
dpkg-deb -x "$TMP"/libyaml-cpp-dev_*_"$ARCH".deb "$SYSROOT.tmp"

R="$SYSROOT.tmp/usr"
# Debian's multiarch directory (lib/i386-linux-gnu) need not be the cross compiler's triple
# (i686-linux-gnu), which is what CMake searches (lib/<CMAKE_LIBRARY_ARCHITECTURE>/cmake):
# a symlink under the compiler's name makes both spellings work.
LIB=$(dirname "$(find "$R/lib" -name libyaml-cpp.a | head -n1)")
[ -f "$LIB/libyaml-cpp.a" ] || { echo "linux-sysroot: libyaml-cpp-dev:$ARCH has no libyaml-cpp.a" >&2; exit 1; }
[ "$(basename "$LIB")" = "$TRIPLE" ] || ln -sfn "$(basename "$LIB")" "$R/lib/$TRIPLE"
YDIR="$LIB/cmake/yaml-cpp"
[ -f "$YDIR/yaml-cpp-config-version.cmake" ] || { echo "linux-sysroot: no yaml-cpp CMake package in libyaml-cpp-dev:$ARCH" >&2; exit 1; }
rm -f "$YDIR"/yaml-cpp-targets*.cmake "$LIB"/libyaml-cpp.so
cat > "$YDIR/yaml-cpp-config.cmake" <<'CMAKE'
# Written by scripts/deps/linux-sysroot.sh in place of Debian's (which imports the shared
# library): the static libyaml-cpp.a of the same package, for static cross builds.
get_filename_component(_yaml_prefix "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
get_filename_component(_yaml_libdir "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT TARGET yaml-cpp)
  add_library(yaml-cpp STATIC IMPORTED)
  set_target_properties(yaml-cpp PROPERTIES
    IMPORTED_LOCATION "${_yaml_libdir}/libyaml-cpp.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "CXX"
    INTERFACE_INCLUDE_DIRECTORIES "${_yaml_prefix}/include")
endif()
set(YAML_CPP_INCLUDE_DIR "${_yaml_prefix}/include")
set(YAML_CPP_LIBRARIES yaml-cpp)
unset(_yaml_prefix)
unset(_yaml_libdir)
CMAKE

# Header-only dependencies and their CMake packages.
mkdir -p "$R/include" "$R/lib/cmake/Catch2" "$R/share/cmake"
cp -a /usr/include/CLI /usr/include/catch2 "$R/include/"
cp -a /usr/include/xxhash.h "$R/include/"
stage_fmt "$R"
stage_json "$R"
[ -e /usr/include/xxh3.h ] && cp -a /usr/include/xxh3.h "$R/include/"
cp -a /usr/share/cmake/CLI11 "$R/share/cmake/"
for f in /usr/lib/cmake/Catch2/*.cmake; do
  case "$f" in */Catch2Targets-*.cmake) ;; *) cp -a "$f" "$R/lib/cmake/Catch2/" ;; esac
done

touch "$SYSROOT.tmp/.fxkcc-sysroot-1"
rm -rf "$SYSROOT"
mv "$SYSROOT.tmp" "$SYSROOT"
echo "$SYSROOT"
