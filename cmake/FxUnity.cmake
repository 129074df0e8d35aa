# fx_unity(<target> [BATCH n]): compile the target's sources in batches of n (default 8), each
# batch one translation unit (CMake's unity build). The harness libraries and the test
# executables are many small files over the same heavy headers (yaml-cpp, fmt, Catch2, the
# standard library); compiled one by one, every build of the test command parsed those headers
# about fifty times per leg. docs/testing.md has the measured times.
#
# The numeric, geometry and controller layers are never batched: what a target of this project
# computes does not depend on how its harness was compiled.
#
# Files of one target must therefore be unity-safe: no two of them may define the same name in
# an anonymous namespace, or a `using namespace` that changes what another file means.
# FX_UNITY=OFF builds file by file (an edit then recompiles one file instead of its batch). The
# x86_64-linux-O0 leg of the test command builds the harness libraries and fxkcc that way, so
# each of their files still compiles alone with its own includes.
option(FX_UNITY "Compile the harness and the tests in batches (CMake unity build)" ON)
# FX_HARNESS_OPTIMIZE (e.g. -O1): an optimisation flag for the harness libraries, fxkcc's main
# and the test executables only, placed after the build type's flags so that it wins. The
# numeric, geometry and controller layers keep the build type's flags: what they compute is what
# the goldens hold. The test command's cross-target legs set -O1 (docs/testing.md: the harness is
# most of each leg's compile time, and -O3 buys it nothing under an emulator).
set(FX_HARNESS_OPTIMIZE "" CACHE STRING "Optimisation flag for the harness and tests only (empty: the build type's)")

function(fx_unity target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BATCH" "")
  if(NOT arg_BATCH)
    set(arg_BATCH 8)
  endif()
  if(FX_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${arg_BATCH})
  endif()
  fx_harness_optimize(${target})
endfunction()

# fx_harness_optimize(<target>): FX_HARNESS_OPTIMIZE on a harness or test target.
function(fx_harness_optimize target)
  if(FX_HARNESS_OPTIMIZE)
    target_compile_options(${target} PRIVATE ${FX_HARNESS_OPTIMIZE})
  endif()
endfunction()
