# fxkcc_add_scenario_tests(): a game's own scenarios as ctest tests, one verify and one synctest
# per scenario file, run by the installed fxkcc (docs/your-suite.md). Installed with the package
# and included by fxkccConfig.cmake, so after find_package(fxkcc):
#
#   enable_testing()
#   fxkcc_add_scenario_tests(SCENARIOS scenarios GOLDENS golden
#                            [TARGET target]      # the golden folder (default: the tool's own target,
#                                                 # or the reference target's folder when it has none)
#                            [SYNCTEST rollback]  # also a synctest rolling back this many ticks
#                            [PREFIX text]        # test name prefix (default "fxkcc.")
#                            [FXKCC path])        # the tool (default: the package's fxkcc::fxkcc)
#
# Scenario files are found under SCENARIOS (*.yaml, *.yml, recursively) when CMake configures,
# and again at build time when the folder changes (CONFIGURE_DEPENDS). Each test passes when the
# scenario's golden matches and its expectations and invariants hold (verify exits 0), and
# fails on a mismatch, a stale or missing golden, or a failed check (exit 1) or bad input (2).
function(fxkcc_add_scenario_tests)
  cmake_parse_arguments(FX "" "SCENARIOS;GOLDENS;TARGET;SYNCTEST;PREFIX;FXKCC" "" ${ARGN})
  if(FX_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fxkcc_add_scenario_tests: unknown arguments: ${FX_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT FX_SCENARIOS OR NOT FX_GOLDENS)
    message(FATAL_ERROR "fxkcc_add_scenario_tests: SCENARIOS and GOLDENS are required")
  endif()
  if(FX_SYNCTEST AND NOT FX_SYNCTEST MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "fxkcc_add_scenario_tests: SYNCTEST takes a number of ticks, got '${FX_SYNCTEST}'")
  endif()
  if(NOT DEFINED FX_PREFIX)
    set(FX_PREFIX "fxkcc.")
  endif()
  if(FX_FXKCC)
    set(tool "${FX_FXKCC}")
  elseif(TARGET fxkcc::fxkcc)
    set(tool "$<TARGET_FILE:fxkcc::fxkcc>")
  else()
    message(FATAL_ERROR "fxkcc_add_scenario_tests: no fxkcc tool: the package was installed without "
                        "the harness (FX_BUILD_HARNESS=OFF); pass FXKCC <path>")
  endif()
  get_filename_component(scenarios "${FX_SCENARIOS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(goldens "${FX_GOLDENS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT IS_DIRECTORY "${scenarios}")
    message(FATAL_ERROR "fxkcc_add_scenario_tests: SCENARIOS '${scenarios}' is not a folder")
  endif()
  set(common --scenarios-dir "${scenarios}" --golden-dir "${goldens}")
  if(FX_TARGET)
    list(APPEND common --target "${FX_TARGET}")
  endif()
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${scenarios}/*.yaml" "${scenarios}/*.yml")
  list(SORT files)
  if(NOT files)
    message(WARNING "fxkcc_add_scenario_tests: no scenario file under '${scenarios}'")
  endif()
  foreach(file IN LISTS files)
    file(RELATIVE_PATH rel "${scenarios}" "${file}")
    string(REGEX REPLACE "\\.ya?ml$" "" name "${rel}")
    add_test(NAME "${FX_PREFIX}verify.${name}"
             COMMAND "${tool}" verify "${file}" ${common} --no-progress -j 1)
    if(FX_SYNCTEST)
      add_test(NAME "${FX_PREFIX}synctest.${name}"
               COMMAND "${tool}" synctest "${file}" --scenarios-dir "${scenarios}"
                       --rollback "${FX_SYNCTEST}" -j 1)
    endif()
  endforeach()
endfunction()
