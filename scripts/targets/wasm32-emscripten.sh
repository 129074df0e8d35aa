# wasm32 with Debian's emscripten (em++), run under node (sourced by scripts/cross.sh).
# yaml-cpp is built for wasm from Debian's source package (scripts/deps/yaml-cpp-source.sh) into
# ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/wasm32; CLI11, xxHash and Catch2 are header-only copies there.
# Executables are single-file .js (fxkcc.js) that see the real file system (-sNODERAWFS=1);
# see cmake/toolchains/wasm32-emscripten.cmake for the flags and why.
WASM_DEPS="${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/wasm32"
# emcc's own tools (acorn, ...) come from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
TARGET_GOLDEN=wasm32-emscripten
TARGET_CMAKE_ARGS=(
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/wasm32-emscripten.cmake"
  -DFXKCC_DEPS_PREFIX="$WASM_DEPS"
  -DCMAKE_CROSSCOMPILING_EMULATOR=node
)
TARGET_RUN=(node)
target_setup() {
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  # node-typescript: tsc for the check of the JavaScript module's declarations (js.types_test).
  if ! command -v em++ >/dev/null || ! command -v node >/dev/null || ! command -v tsc >/dev/null; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
      --no-install-recommends emscripten nodejs node-typescript || return 1
  fi
  # npm: js.pack_test and js.browser_test pack js/ as an npm package (offline; a node from another
  # source, such as NodeSource's, brings its own npm).
  if ! command -v npm >/dev/null; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
      --no-install-recommends npm || return 1
  fi
  bash scripts/deps/yaml-cpp-source.sh cmake/toolchains/wasm32-emscripten.cmake "$WASM_DEPS"
}
# Accuracy tests are skipped: this platform's long double is no reference (scripts/cross.sh).
TARGET_CTEST_ARGS=(-E "$ACCURACY_TESTS")
TARGET_CMAKE_ARGS+=("$ACCURACY_TAGS")
# End-to-end classes left to the native, sanitizer and Windows legs (FX_FULL=1 runs them here
# too; scripts/cross.sh, job_test): help texts, colour, plots and review's bookkeeping. The golden
# files' and bad inputs' handling run here (BlessFiles, GoldenTrust, BadInput): sizes and counts
# on a 32-bit size_t.
TARGET_E2E_FULL_ONLY=(VersionAndUsage ListAndValidate Review Colour Bench SuiteOptionsStrict Plot)
