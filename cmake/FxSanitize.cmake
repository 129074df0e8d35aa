# FX_SANITIZE=<list>: build every target (libraries, tests, fxkcc, benchmarks) with the given
# sanitizers, e.g. -DFX_SANITIZE=address,undefined (scripts/targets/x86_64-linux-asan.sh).
# Any finding aborts the process (-fno-sanitize-recover=all), so a test that triggers one fails.
# `undefined` includes signed-integer-overflow, shift, bounds, alignment, null, vptr, ...: the
# undefined behaviour that lets two compilers compute different bits from the same source.
# GCC and clang only; empty (the default) changes nothing.
set(FX_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined (GCC/clang)")

if(FX_SANITIZE)
  if(MSVC OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "FX_SANITIZE=${FX_SANITIZE}: supported with GCC and clang only")
  endif()
  set(FX_SANITIZE_FLAGS -fsanitize=${FX_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # Directory-scoped: applies to every target created after this point (include() it before the
  # add_subdirectory calls), compile and link alike.
  add_compile_options(${FX_SANITIZE_FLAGS})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC's instrumentation makes -Wmaybe-uninitialized report false positives inside the
    # standard library (GCC 12: std::regex's _StateT in tests/harness/shrink_test.cpp); the
    # uninstrumented builds keep the warning, and ASan/UBSan see real uses at run time.
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  add_link_options(${FX_SANITIZE_FLAGS})
  message(STATUS "fxkcc: sanitizers ${FX_SANITIZE} on every target")
endif()
