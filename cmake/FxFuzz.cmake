# FX_FUZZ=ON: the libFuzzer build of scripts/fuzz.sh (tests/fuzz). Clang only.
# Every target (libraries included) is compiled with coverage instrumentation for libFuzzer
# (-fsanitize=fuzzer-no-link) and with AddressSanitizer and UndefinedBehaviorSanitizer; any
# sanitizer finding aborts (-fno-sanitize-recover=all), so libFuzzer reports it as a crash.
# Only the fuzz targets link libFuzzer's main (-fsanitize=fuzzer, tests/fuzz/CMakeLists.txt).
# scripts/fuzz.sh also sets FX_CHECKED=ON, so fixed-point overflow traps there too.
if(FX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FX_FUZZ=ON needs clang (libFuzzer), found ${CMAKE_CXX_COMPILER_ID}: "
                        "configure with -DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh does)")
  endif()
  if(FX_SANITIZE)
    message(FATAL_ERROR "FX_FUZZ=ON brings its own sanitizers; leave FX_SANITIZE empty")
  endif()
  set(FX_FUZZ_SANITIZERS address,undefined)
  add_compile_options(-fsanitize=fuzzer-no-link,${FX_FUZZ_SANITIZERS} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(-fsanitize=${FX_FUZZ_SANITIZERS})
  message(STATUS "fxkcc: libFuzzer build (fuzzer-no-link,${FX_FUZZ_SANITIZERS} on every target)")
endif()
