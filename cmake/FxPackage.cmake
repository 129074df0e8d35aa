# The installed CMake package (docs/embedding.md): `cmake --install BUILD --prefix P`, then in a
# game's project `find_package(fxkcc CONFIG)` with P in CMAKE_PREFIX_PATH gives
#   fxkcc::controller  the C++ controller (with fxkcc::geometry and fxkcc::math, which it links):
#                      headers <kcc/world.h>, <geo/scene.h>, <fx/scalar.h>, ... under include/fxkcc
#   fxkcc::c           the C API, header <fxkcc.h>
#   fxkcc::c_shared    the C API as one shared library, libfxkcc (with FX_SHARED_C)
#   fxkcc::fxkcc       the harness tool, bin/fxkcc (when built with FX_BUILD_HARNESS), and
#                      fxkcc_add_scenario_tests() to run a game's own scenarios with ctest
#                      (cmake/fxkccScenarioTests.cmake, docs/your-suite.md)
# Static libraries; nothing of the harness's libraries (yaml-cpp, CLI11, fmt, xxHash) or the tests
# (Catch2): the tool is one program, linked with them.
include(CMakePackageConfigHelpers)

install(TARGETS fx_math fx_geometry fx_controller fx_c EXPORT fxkccTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/math/include/ ${PROJECT_SOURCE_DIR}/geometry/include/
                  ${PROJECT_SOURCE_DIR}/core/controller/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fxkcc FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/capi/include/fxkcc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/capi/include/fxkcc/boundary.h ${PROJECT_SOURCE_DIR}/capi/include/fxkcc/fxkcc.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fxkcc)
install(EXPORT fxkccTargets NAMESPACE fxkcc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
# The shared C library and the tool in export sets of their own, so that a configuration built
# without them (a Debug build of the libraries alone) installs beside one built with them and
# both configurations' files of fxkccTargets stay.
if(FX_SHARED_C)
  install(TARGETS fx_c_shared EXPORT fxkccSharedTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT fxkccSharedTargets NAMESPACE fxkcc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
endif()
if(FX_BUILD_HARNESS)
  install(TARGETS fxkcc EXPORT fxkccToolTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT fxkccToolTargets NAMESPACE fxkcc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
endif()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/fxkccScenarioTests.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fxkccConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/fxkccConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
