#!/usr/bin/env bash
# The installed package as a game's project uses it (issue 22, docs/embedding.md):
#   scripts/package-test.sh [TARGET]     TARGET: native (default: build/, this machine) or aarch64-linux
#                                        (build-aarch64-linux/, cross, run under qemu-aarch64)
# 1. `cmake --install` the target's build folder (already built) into a scratch prefix;
# 2. check the package: the files a game needs, and no trace of the harness's or the tests'
#    libraries (yaml-cpp, CLI11, fmt, xxHash, Catch2) in its exported targets;
# 3. configure, build and run tests/package/consumer against it with find_package(fxkcc):
#    the C test program (consumer_c, given the target's golden of stop-time-62 to match tick by
#    tick) and the C++/C identity run (consumer_cpp), under the target's emulator for a cross
#    target; and examples/game_loop, built the same way and run (it exits 1 when its rollback
#    does not give the checksum of a world that had the late input on time), recording its
#    session, which the target's fxkcc and this machine's replay to the game's checksum at
#    every tick;
# 4. (native) configure the project with the harness and the tests off and those packages
#    made unfindable (CMAKE_DISABLE_FIND_PACKAGE_*: a find_package of one of them, REQUIRED as the
#    harness's are, fails the configure): the controller package alone needs none of them.
# Exit 0 when everything holds, 1 otherwise.
# Bash 3.2 (the macOS job's /bin/bash) safe: an empty array is expanded as ${A[@]+"${A[@]}"},
# which `set -u` accepts there (scripts/lint-workflow.sh checks the scripts the macOS and Windows
# jobs run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${1:-native}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fxkcc-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case "$TARGET" in
  native) BUILD=build; CONSUMER_ARGS=(); RUN=(); GOLDEN=$("$BUILD/cli/fxkcc" --version | awk '/^target:/ {print $2}') ;;
  aarch64-linux)
    BUILD=build-aarch64-linux
    CONSUMER_ARGS=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux-gnu.cmake")
    RUN=(qemu-aarch64); GOLDEN=aarch64-linux ;;
  *) echo "package-test: unknown target $TARGET (native, aarch64-linux)" >&2; exit 2 ;;
esac
# Every target's goldens are identical (compare-goldens); a target without a folder (macOS, MSVC)
# matches the reference target's, as verify does.
[ -d "golden/$GOLDEN" ] || GOLDEN=x86_64-linux
[ -f "$BUILD/CMakeCache.txt" ] || { echo "package-test: $BUILD is not configured (build it first)" >&2; exit 1; }
cmake --build "$BUILD" --target fx_c fx_controller fxkcc >/dev/null

prefix="$tmp/prefix"
cmake --install "$BUILD" --prefix "$prefix" >"$tmp/install.log"
for f in include/fxkcc.h include/fxkcc/kcc/world.h include/fxkcc/kcc/version.h include/fxkcc/geo/scene.h \
         include/fxkcc/fx/scalar.h lib/cmake/fxkcc/fxkccConfig.cmake lib/cmake/fxkcc/fxkccConfigVersion.cmake \
         lib/libfxkcc_controller.a lib/libfxkcc_c.a bin/fxkcc lib/cmake/fxkcc/fxkccToolTargets.cmake include/fxkcc/boundary.h include/fxkcc/fxkcc.hpp \
         lib/cmake/fxkcc/fxkccScenarioTests.cmake; do
  [ -f "$prefix/$f" ] || { echo "package-test: $f not installed" >&2; exit 1; }
done
if grep -rliE 'yaml|cli11|catch|fmt::|xxhash' --exclude=fxkccScenarioTests.cmake "$prefix/lib/cmake/fxkcc"; then
  echo "package-test: the exported targets mention a harness or test library (above)" >&2
  exit 1
fi
if find "$prefix" -name '*yaml*' -o -name '*CLI*' -o -name '*catch*' | grep .; then
  echo "package-test: harness or test files installed (above)" >&2
  exit 1
fi
echo "package-test: $TARGET package installed: fxkcc::controller, fxkcc::c; no harness or test library"

# fxkcc_DIR, not CMAKE_PREFIX_PATH: a cross toolchain re-roots package searches in its sysroot.
cmake -S tests/package/consumer -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -Dfxkcc_DIR="$prefix/lib/cmake/fxkcc" ${CONSUMER_ARGS[@]+"${CONSUMER_ARGS[@]}"} >"$tmp/consumer.log" 2>&1 ||
  { cat "$tmp/consumer.log" >&2; echo "package-test: configuring the consumer failed" >&2; exit 1; }
cmake --build "$tmp/consumer" >>"$tmp/consumer.log" 2>&1 ||
  { cat "$tmp/consumer.log" >&2; echo "package-test: building the consumer failed" >&2; exit 1; }
${RUN[@]+"${RUN[@]}"} "$tmp/consumer/consumer_c" "$ROOT/golden/$GOLDEN/stop-time-62.hashes"
${RUN[@]+"${RUN[@]}"} "$tmp/consumer/consumer_cpp"
${RUN[@]+"${RUN[@]}"} "$tmp/consumer/consumer_cxx17" "$ROOT/golden/$GOLDEN/stop-time-62.hashes"
cmake -S examples/game_loop -B "$tmp/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -Dfxkcc_DIR="$prefix/lib/cmake/fxkcc" ${CONSUMER_ARGS[@]+"${CONSUMER_ARGS[@]}"} >"$tmp/example.log" 2>&1 &&
  cmake --build "$tmp/example" >>"$tmp/example.log" 2>&1 ||
  { cat "$tmp/example.log" >&2; echo "package-test: building examples/game_loop failed" >&2; exit 1; }
mkdir "$tmp/rec"
${RUN[@]+"${RUN[@]}"} "$tmp/example/game_loop" "$tmp/rec" | tail -2
# The recording replays: the target's own fxkcc, and this machine's (a session recorded on one
# machine replayed on another), give the checksum the game had at every tick; and the recorder's
# checksums are the ones the game's loop kept.
cmp "$tmp/rec/session.checksums" "$tmp/rec/game.checksums" ||
  { echo "package-test: the recorder's checksums are not the game loop's" >&2; exit 1; }
replay() { # replay LABEL FXKCC...
  local label=$1; shift
  "$@" run "$tmp/rec/session.yaml" --checksums "$tmp/rec/session.checksums" >"$tmp/rec/$label.log" 2>&1 ||
    { cat "$tmp/rec/$label.log" >&2; echo "package-test: the $label replay of the recorded session failed" >&2; exit 1; }
  echo "package-test: $label replay of the recorded session: $(grep '^checksums:' "$tmp/rec/$label.log")"
}
replay "$TARGET" ${RUN[@]+"${RUN[@]}"} "$BUILD/cli/fxkcc"
[ "$TARGET" = native ] || replay native build/cli/fxkcc

if [ "$TARGET" = native ]; then
  # docs/embedding.md's C++ snippet ("Build a world, step it, read it"), as written, compiled
  # against the installed package and run: the docs cannot drift from the API.
  mkdir "$tmp/snippet"
  python3 - "$tmp/snippet/main.cpp" <<'PY'
import re, sys
doc = open("docs/embedding.md").read()
code = doc[doc.index("**Build a world, step it, read it (C++):**"):]
code = code[code.index("```cpp\n") + 7:]
code = code[:code.index("```")]
lines = code.splitlines()
head = [l for l in lines if l.startswith("#include") or l.startswith("using ")]
body = [l for l in lines if l not in head]
open(sys.argv[1], "w").write("\n".join(["#include <cstdint>", "#include <stdexcept>", "#include <string>", "#include <vector>"] + head +
    ["void send(int64_t, uint64_t) {}", "void draw(double, double, bool) {}", "int main() {"] + body + ["return 0;", "}", ""]))
PY
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(snippet CXX)\nset(CMAKE_CXX_STANDARD 20)\nfind_package(fxkcc CONFIG REQUIRED)\nadd_executable(snippet main.cpp)\ntarget_link_libraries(snippet PRIVATE fxkcc::controller fxkcc::c)\n' >"$tmp/snippet/CMakeLists.txt"
  { cmake -S "$tmp/snippet" -B "$tmp/snippet/build" -G Ninja -Dfxkcc_DIR="$prefix/lib/cmake/fxkcc" &&
    cmake --build "$tmp/snippet/build" && "$tmp/snippet/build/snippet"; } >"$tmp/snippet.log" 2>&1 ||
    { cat "$tmp/snippet.log" "$tmp/snippet/main.cpp" >&2; echo "package-test: docs/embedding.md's C++ snippet does not build and run" >&2; exit 1; }
  echo "package-test: docs/embedding.md's C++ snippet builds against the package and runs"
  # A game's own suite (examples/game_suite, docs/your-suite.md), outside the tree: goldens blessed
  # with the installed tool, fxkcc_add_scenario_tests() registering verify and synctest for each
  # scenario; ctest passes, then fails once a scenario changed (its golden is stale).
  game="$tmp/game"
  cp -r examples/game_suite "$game"
  rm -rf "$game/golden"
  env -u CI "$prefix/bin/fxkcc" bless --scenarios-dir "$game/scenarios" --golden-dir "$game/golden" >"$tmp/game.log" 2>&1 ||
    { cat "$tmp/game.log" >&2; echo "package-test: the installed fxkcc could not bless the game's suite" >&2; exit 1; }
  cmake -S "$game" -B "$game/build" -G Ninja -Dfxkcc_DIR="$prefix/lib/cmake/fxkcc" >>"$tmp/game.log" 2>&1 ||
    { cat "$tmp/game.log" >&2; echo "package-test: configuring the game's suite failed" >&2; exit 1; }
  tests=$(ctest --test-dir "$game/build" -N | awk '/Total Tests:/ {print $3}')
  [ "$tests" = 4 ] || { ctest --test-dir "$game/build" -N >&2; echo "package-test: expected 4 tests (2 scenarios, verify and synctest), got $tests" >&2; exit 1; }
  ctest --test-dir "$game/build" --output-on-failure >>"$tmp/game.log" 2>&1 ||
    { cat "$tmp/game.log" >&2; echo "package-test: the game's suite failed on its own goldens" >&2; exit 1; }
  # (not `sed -i`, which BSD sed on the macOS job reads as a backup suffix)
  sed 's/spawn: \[0, 0.015, -6\]/spawn: [0.2, 0.015, -6]/' "$game/scenarios/patrol-bridge.yaml" >"$tmp/patrol-bridge.yaml" &&
    mv "$tmp/patrol-bridge.yaml" "$game/scenarios/patrol-bridge.yaml"
  if ctest --test-dir "$game/build" >"$tmp/game-changed.log" 2>&1; then
    cat "$tmp/game-changed.log" >&2; echo "package-test: the game's suite passed with a scenario changed" >&2; exit 1
  fi
  grep -q "fxkcc.verify.patrol-bridge .*Failed" "$tmp/game-changed.log" &&
    ! grep -q "fxkcc.verify.courtyard-run .*Failed" "$tmp/game-changed.log" ||
    { cat "$tmp/game-changed.log" >&2; echo "package-test: the changed scenario's verify test did not fail alone" >&2; exit 1; }
  echo "package-test: a game's suite through the installed fxkcc: 4 ctest tests pass on its goldens; a changed scenario fails its verify"
  # The controller alone (the harness and tests off, their packages unfindable), as a Debug
  # configuration with the shared C library (FX_SHARED_C), installed into the same prefix beside
  # the Release one: both configurations in one package, and libfxkcc exporting the C API alone,
  # used from another language (Python's ctypes).
  cmake -S . -B "$tmp/alone" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_DEBUG_POSTFIX=d -DFX_SHARED_C=ON \
    -DFX_BUILD_HARNESS=OFF -DFX_BUILD_TESTS=OFF -DFX_BUILD_BENCH=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_yaml-cpp=ON -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON >"$tmp/alone.log" 2>&1 ||
    { cat "$tmp/alone.log" >&2; echo "package-test: the controller alone did not configure" >&2; exit 1; }
  echo "package-test: the controller package configures with the harness and tests off and their packages unfindable"
  { cmake --build "$tmp/alone" && cmake --install "$tmp/alone" --prefix "$prefix"; } >>"$tmp/alone.log" 2>&1 ||
    { cat "$tmp/alone.log" >&2; echo "package-test: the Debug build with the shared C library failed" >&2; exit 1; }
  for f in lib/libfxkcc_controller.a lib/libfxkcc_controllerd.a lib/cmake/fxkcc/fxkccTargets-release.cmake \
           lib/cmake/fxkcc/fxkccTargets-debug.cmake lib/libfxkccd.so; do
    [ -e "$prefix/$f" ] || { echo "package-test: $f not installed" >&2; exit 1; }
  done
  # Exactly the functions fxkcc.h declares (a prototype starts a line with its return type).
  exported=$(nm -D --defined-only "$prefix/lib/libfxkccd.so" | awk '{print $3}' | sort -u)
  declared_names=$(grep -oE '^(const )?[a-z_0-9]+\*? \*?fxkcc_[a-z0-9_]+\(' capi/include/fxkcc.h |
                   sed -E 's/.*(fxkcc_[a-z0-9_]+)\($/\1/' | sort -u)
  declared=$(wc -l <<<"$declared_names")
  [ "$exported" = "$declared_names" ] ||
    { diff <(echo "$declared_names") <(echo "$exported") >&2; echo "package-test: libfxkcc does not export exactly the $declared functions of fxkcc.h (< declared, > exported)" >&2; exit 1; }
  python3 tests/package/ctypes/ctypes_test.py "$prefix/lib/libfxkccd.so" "$ROOT/golden/$GOLDEN/stop-time-62.hashes"
  # The consumer built as Debug links the Debug libraries of the same package.
  cmake -S tests/package/consumer -B "$tmp/consumer-debug" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -Dfxkcc_DIR="$prefix/lib/cmake/fxkcc" >"$tmp/consumer-debug.log" 2>&1 &&
    cmake --build "$tmp/consumer-debug" -v >>"$tmp/consumer-debug.log" 2>&1 ||
    { cat "$tmp/consumer-debug.log" >&2; echo "package-test: the Debug consumer failed to build" >&2; exit 1; }
  grep -q 'libfxkcc_controllerd\.a' "$tmp/consumer-debug.log" ||
    { echo "package-test: the Debug consumer did not link the Debug libraries" >&2; exit 1; }
  "$tmp/consumer-debug/consumer_c" "$ROOT/golden/$GOLDEN/stop-time-62.hashes" | tail -1
  echo "package-test: Release and Debug in one package; libfxkcc exports the $declared C API functions alone"
fi
echo "package-test: $TARGET passed"
