# The installed CMake package (docs/embedding.md): `cmake --install BUILD --prefix P`, then in a
# game's project `find_package(fxkcc CONFIG)` with P in CMAKE_PREFIX_PATH gives
#   fxkcc::controller  the C++ controller (with fxkcc::geometry and fxkcc::math, which it links):
#                      headers <kcc/world.h>, <geo/scene.h>, <fx/scalar.h>, ... under include/fxkcc
#   fxkcc::c           the C API, header <fxkcc.h>
# Static libraries; nothing of the harness (yaml-cpp, CLI11, fmt, xxHash) or the tests (Catch2).
include(CMakePackageConfigHelpers)

install(TARGETS fx_math fx_geometry fx_controller fx_c EXPORT fxkccTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/math/include/ ${PROJECT_SOURCE_DIR}/geometry/include/
                  ${PROJECT_SOURCE_DIR}/core/controller/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fxkcc FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/capi/include/fxkcc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT fxkccTargets NAMESPACE fxkcc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fxkccConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/fxkccConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/fxkccConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fxkcc)
