# fx_target_warnings(<target>): the project's warning set, errors when FX_WERROR is on.
function(fx_target_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /permissive-)
    if(FX_WERROR)
      target_compile_options(${target} PRIVATE /WX)
    endif()
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
      -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
      -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC 12 reports false -Wrestrict overlaps in std::string concatenation at -O3
      # (GCC bug 105329); the warning finds nothing real in this code base.
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(FX_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()

# The numeric, geometry and controller layers: no floating point, ever. On AArch64 GCC,
# -mgeneral-regs-only turns any floating-point type into a compile error (see scripts/gate-*.sh).
function(fx_deterministic_layer target)
  fx_target_warnings(${target})
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -mgeneral-regs-only)
  endif()
  if(EMSCRIPTEN)
    # wasm32: clang's inliner at -O3 (threshold 225) leaves the small vector and matrix
    # operations (Mat3 * Vec3, Vec3 * Scalar, length) as calls there, each returning its vector
    # through memory, where GCC inlines them natively: with 600 arena-1 runs about 6 % faster under
    # node (medians; the fastest runs 3.5 %; docs/performance.md). 1,500 gained nothing more, made
    # the module 1.7 times as big and node slower to optimise it. Integer code: the same bits.
    # -flto: these layers are compiled to LLVM bitcode and optimised together when an executable
    # is linked (wasm-ld's LTO, at its default level), so a controller or geometry function can
    # inline what the layer below keeps out of line in its .cpp files (fx::cross, try_normalize,
    # the Mat3 operations): arena-1 about 7 % faster under node (docs/performance.md, issue 55).
    # The harness stays ordinary objects: each link adds only these layers' code generation.
    # Higher thresholds lose with LTO (800 and 1,000 at compile time, or 600 at the link too: 4-9 %
    # slower, the geometry's small box functions then left as calls); 400 is 3 % slower.
    # -mbulk-memory: a copy of a struct past 64 bytes (geo::Hit, 80) is one memory.copy instead of
    # a call of libc's memcpy (engines: node 12.5, Chrome 75, Firefox 79, Safari 15; SIMD already
    # needs more): about 1 %.
    target_compile_options(${target} PRIVATE "SHELL:-mllvm -inline-threshold=600" -flto -mbulk-memory)
  endif()
endfunction()
