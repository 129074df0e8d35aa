#!/usr/bin/env bash
# The FX_FETCH_DEPS path (what the macOS and MSVC jobs of ci/github/workflows/fxkcc.yml build),
# built and tested here without a download: FetchContent is pointed at Debian's source packages of
# the pinned versions (Catch2 2.13.10, CLI11 2.1.2, yaml-cpp 0.7.0, fmt 9.1.0, xxHash 0.8.1,
# nlohmann/json 3.11.2), with
# FETCHCONTENT_FULLY_DISCONNECTED, so a URL in cmake/FxDependencies.cmake is never used. Part of
# the extended command (scripts/test-extended.sh; docs/testing.md has its time).
#   scripts/fetch-deps-offline.sh [BUILD_DIR]     (default build-fetch-deps)
# Exit code: ctest's; 125 when a source package cannot be had or the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-fetch-deps}
SRCROOT=${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/src
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
bash scripts/setup.sh >/dev/null
args=()
for pair in fx_catch2:catch2 fx_cli11:cli11 fx_yaml_cpp:yaml-cpp fx_fmt:fmtlib fx_xxhash:xxhash fx_json:nlohmann-json3; do
  name=${pair%%:*} package=${pair#*:}
  src=$(bash scripts/deps/apt-source.sh "$package" "$SRCROOT") || exit 125
  args+=("-DFETCHCONTENT_SOURCE_DIR_${name^^}=$src")
  echo "fetch-deps-offline: $name from $src"
done
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_WERROR=ON -DFX_FETCH_DEPS=ON \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON -DFX_BUILD_BENCH=OFF "${args[@]}" >"$BUILD.configure.log" 2>&1 ||
  { cat "$BUILD.configure.log" >&2; echo "fetch-deps-offline: configure failed" >&2; exit 125; }
rm -f "$BUILD.configure.log"
cmake --build "$BUILD" -j "$JOBS" || { echo "fetch-deps-offline: build failed" >&2; exit 125; }
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure
