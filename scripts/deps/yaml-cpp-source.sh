#!/usr/bin/env bash
# Builds a static yaml-cpp for a cross target from Debian's own source package, and stages the
# header-only dependencies (CLI11, xxHash, Catch2 v2, fmt, nlohmann/json) next to it, so that the target's CMake
# finds everything in one private prefix and never in the host's /usr/include:
#   scripts/deps/yaml-cpp-source.sh TOOLCHAIN_FILE PREFIX
# TOOLCHAIN_FILE: the CMake toolchain file of the target (e.g. cmake/toolchains/x86_64-w64-mingw32.cmake).
# PREFIX:         where to install, e.g. ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/mingw64. Gets
#                 include/yaml-cpp, lib/libyaml-cpp.a, lib/cmake/yaml-cpp (the package), and copies of
#                 /usr/include/{CLI,xxhash.h,catch2,fmt,nlohmann}, /usr/share/cmake/{CLI11,nlohmann_json},
#                 /usr/lib/cmake/Catch2.
# The source is fetched once into ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/src with `apt-get source`
# (scripts/deps/apt-source.sh, which adds a deb-src entry when apt has none). Idempotent: a second run with the
# same toolchain and source only prints one line.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: scripts/deps/yaml-cpp-source.sh TOOLCHAIN_FILE PREFIX" >&2
  exit 2
fi
TOOLCHAIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
PREFIX=$2
DEPS=${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}
SRCROOT="$DEPS/src"
mkdir -p "$SRCROOT" "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)

# --- 1. Debian's source, once -------------------------------------------------------------------
SRC=$(bash "$(dirname "${BASH_SOURCE[0]}")/apt-source.sh" yaml-cpp "$SRCROOT") || exit 125
[ -f "$SRC/CMakeLists.txt" ] || { echo "yaml-cpp-source: $SRC has no CMakeLists.txt" >&2; exit 125; }

# --- 2. Header-only dependencies from the host (only these; never the whole /usr/include) --------
stage_headers() {
  mkdir -p "$PREFIX/include" "$PREFIX/lib/cmake" "$PREFIX/share/cmake"
  rm -rf "$PREFIX/include/CLI" "$PREFIX/include/catch2" "$PREFIX/include/fmt" "$PREFIX/lib/cmake/Catch2" "$PREFIX/share/cmake/CLI11"
  cp -r /usr/include/CLI "$PREFIX/include/CLI"
  cp -r /usr/include/catch2 "$PREFIX/include/catch2"
  cp -r /usr/include/fmt "$PREFIX/include/fmt" # headers only: FMT_HEADER_ONLY (cmake/FxDependencies.cmake)
  rm -rf "$PREFIX/include/nlohmann" "$PREFIX/share/cmake/nlohmann_json"
  cp -r /usr/include/nlohmann "$PREFIX/include/nlohmann" # header-only, with its CMake package
  cp -r /usr/share/cmake/nlohmann_json "$PREFIX/share/cmake/nlohmann_json"
  cp /usr/include/xxhash.h "$PREFIX/include/xxhash.h"
  # Copies, not links: the config files compute their prefix from their real location.
  cp -r /usr/share/cmake/CLI11 "$PREFIX/share/cmake/CLI11"
  cp -r /usr/lib/cmake/Catch2 "$PREFIX/lib/cmake/Catch2"
  # Catch2's prebuilt main library is x86-64 only (and not copied): drop its imported location,
  # which CMake would otherwise check for existence. The header-only target Catch2::Catch2 stays.
  rm -f "$PREFIX"/lib/cmake/Catch2/Catch2Targets-*.cmake
}
for f in /usr/include/CLI/CLI.hpp /usr/include/xxhash.h /usr/include/catch2/catch.hpp /usr/include/fmt/format.h \
         /usr/include/nlohmann/json.hpp /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake \
         /usr/share/cmake/CLI11/CLI11Config.cmake /usr/lib/cmake/Catch2/Catch2Config.cmake; do
  [ -e "$f" ] || { echo "yaml-cpp-source: $f missing (run scripts/setup.sh)" >&2; exit 125; }
done
stage_headers

# --- 3. Static yaml-cpp for the target ----------------------------------------------------------
STAMP="$PREFIX/.yaml-cpp.stamp"
want="$(basename "$SRC") $(cksum <"$TOOLCHAIN" | cut -d' ' -f1)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -f "$PREFIX/lib/libyaml-cpp.a" ]; then
  echo "yaml-cpp-source: $(basename "$SRC") already in $PREFIX"
  exit 0
fi
BUILD="$DEPS/build/$(basename "$PREFIX")-$(basename "$SRC")"
rm -rf "$BUILD"; mkdir -p "$(dirname "$BUILD")"
echo "yaml-cpp-source: building $(basename "$SRC") with $(basename "$TOOLCHAIN") into $PREFIX"
cmake -S "$SRC" -B "$BUILD" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DBUILD_SHARED_LIBS=OFF -DYAML_BUILD_SHARED_LIBS=OFF \
  -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=ON \
  -DYAML_CPP_INSTALL=ON >"$BUILD.log" 2>&1 || { cat "$BUILD.log" >&2; exit 125; }
cmake --build "$BUILD" -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" >>"$BUILD.log" 2>&1 || { tail -n 40 "$BUILD.log" >&2; exit 125; }
cmake --install "$BUILD" >>"$BUILD.log" 2>&1 || { tail -n 40 "$BUILD.log" >&2; exit 125; }
[ -f "$PREFIX/lib/libyaml-cpp.a" ] || { echo "yaml-cpp-source: no $PREFIX/lib/libyaml-cpp.a after install" >&2; exit 125; }
echo "$want" >"$STAMP"
rm -rf "$BUILD"
echo "yaml-cpp-source: done ($(basename "$SRC") in $PREFIX)"
