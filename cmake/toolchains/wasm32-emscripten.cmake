# wasm32 under node, with Debian's emscripten (scripts/targets/wasm32-emscripten.sh).
# Wraps the toolchain file of the emscripten package and adds what the project needs:
#  - C++ exceptions on (compile and link): the harness reports bad input by exception;
#  - -sSINGLE_FILE=1: the .wasm is embedded in the .js (node 20's fetch breaks the loader of a
#    separate .wasm file); -sNODERAWFS=1: the program sees the real file system (scenarios, goldens,
#    tests/math/kat.txt); -sEXIT_RUNTIME=1: main's return value becomes node's exit code;
#  - memory of a fixed 2 GiB (-sINITIAL_MEMORY=2147483648 -sALLOW_MEMORY_GROWTH=0), the most a
#    growing memory could reach (emscripten's MAXIMUM_MEMORY), so large scenarios fit as before:
#    a memory that cannot grow lets V8 keep its base address in a register across calls, where
#    a growable one is reloaded after every call; arena-1 about 5 % faster under node
#    (docs/performance.md, "A memory that does not grow"). The pages are the system's only when
#    touched (node's resident size unchanged). -sABORTING_MALLOC=0: running out still throws
#    std::bad_alloc, as with a growing memory, instead of aborting. The JavaScript module
#    (capi/CMakeLists.txt) keeps a growing memory: a page should not reserve 2 GiB;
#  - --pre-js wasm32-emscripten.pre.js: the program sees node's real environment (CI, ...);
#  - -msimd128: WebAssembly's 128-bit SIMD instructions (node 16.4+, Chrome 91+, Firefox 89+,
#    Safari 16.4+), which the compiler uses for the integer code's vector arithmetic: arena-1
#    about 8 % faster under node (docs/performance.md). Integer lanes only: the same bits.
# FXKCC_DEPS_PREFIX (optional): the private prefix of scripts/deps/yaml-cpp-source.sh
# (static yaml-cpp plus copies of the header-only CLI11, xxHash and Catch2).
if(DEFINED ENV{EMSCRIPTEN_TOOLCHAIN_FILE})
  set(_fx_emscripten_toolchain "$ENV{EMSCRIPTEN_TOOLCHAIN_FILE}")
else()
  set(_fx_emscripten_toolchain "/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake")
endif()
if(NOT EXISTS "${_fx_emscripten_toolchain}")
  message(FATAL_ERROR "Emscripten toolchain file ${_fx_emscripten_toolchain} not found (apt-get install emscripten, "
                      "or set EMSCRIPTEN_TOOLCHAIN_FILE)")
endif()
include("${_fx_emscripten_toolchain}")

set(CMAKE_C_FLAGS_INIT "-fexceptions -msimd128")
set(CMAKE_CXX_FLAGS_INIT "-fexceptions -msimd128")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-fexceptions -sSINGLE_FILE=1 -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sINITIAL_MEMORY=2147483648 -sALLOW_MEMORY_GROWTH=0 -sABORTING_MALLOC=0 --pre-js ${CMAKE_CURRENT_LIST_DIR}/wasm32-emscripten.pre.js")

list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FXKCC_DEPS_PREFIX)
if(FXKCC_DEPS_PREFIX)
  list(APPEND CMAKE_FIND_ROOT_PATH "${FXKCC_DEPS_PREFIX}")
  list(APPEND CMAKE_PREFIX_PATH "${FXKCC_DEPS_PREFIX}")
endif()
