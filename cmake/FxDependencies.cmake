# Third-party dependencies of the harness and the tests.
#
# Default (FX_FETCH_DEPS=OFF): the system's packages, found the CMake way (Debian: catch2 v2,
# libcli11-dev, libyaml-cpp-dev, libxxhash-dev, libfmt-dev, nlohmann-json3-dev; scripts/setup.sh
# installs them).
#
# FX_FETCH_DEPS=ON: download pinned releases with FetchContent instead. For CI runners whose
# package managers lack these versions (macOS, Windows/MSVC, Ubuntu's Catch2 is v3). Built here
# without a download by scripts/fetch-deps-offline.sh (FETCHCONTENT_SOURCE_DIR_<NAME> pointing at
# Debian's source packages of the same versions), in the extended command.
option(FX_FETCH_DEPS "Download pinned Catch2 v2, CLI11, yaml-cpp, fmt, nlohmann/json and xxHash instead of using system packages" OFF)

if(FX_FETCH_DEPS)
  include(FetchContent)
  # yaml-cpp 0.7.0 asks for cmake_minimum_required(VERSION 3.4), which CMake 4 refuses
  # ("Compatibility with CMake < 3.5 has been removed"); CMake 3.31 and later then take this
  # minimum instead, and earlier versions ignore it.
  if(NOT DEFINED CMAKE_POLICY_VERSION_MINIMUM)
    set(CMAKE_POLICY_VERSION_MINIMUM 3.5)
  endif()
  FetchContent_Declare(fx_catch2 URL https://github.com/catchorg/Catch2/archive/refs/tags/v2.13.10.tar.gz)
  FetchContent_Declare(fx_cli11 URL https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.1.2.tar.gz)
  FetchContent_Declare(fx_yaml_cpp URL https://github.com/jbeder/yaml-cpp/archive/refs/tags/yaml-cpp-0.7.0.tar.gz)
  FetchContent_Declare(fx_fmt URL https://github.com/fmtlib/fmt/archive/refs/tags/9.1.0.tar.gz)
  FetchContent_Declare(fx_xxhash URL https://github.com/Cyan4973/xxHash/archive/refs/tags/v0.8.1.tar.gz)
  FetchContent_Declare(fx_json URL https://github.com/nlohmann/json/archive/refs/tags/v3.11.2.tar.gz)
  set(JSON_BuildTests OFF CACHE BOOL "" FORCE)
  set(JSON_Install OFF CACHE BOOL "" FORCE)
  set(YAML_CPP_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(YAML_CPP_BUILD_TOOLS OFF CACHE BOOL "" FORCE)
  set(YAML_CPP_BUILD_CONTRIB OFF CACHE BOOL "" FORCE)
  set(CLI11_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(CLI11_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(fx_catch2 fx_cli11 fx_yaml_cpp fx_fmt fx_json)
  FetchContent_GetProperties(fx_xxhash)
  if(NOT fx_xxhash_POPULATED)
    FetchContent_Populate(fx_xxhash)
  endif()
  set(XXHASH_INCLUDE_DIR ${fx_xxhash_SOURCE_DIR} CACHE PATH "xxhash.h folder" FORCE)
  list(APPEND CMAKE_MODULE_PATH ${fx_catch2_SOURCE_DIR}/contrib)
  set(FX_HAVE_DEPS ON)
else()
  set(FX_HAVE_DEPS OFF)
endif()

# fx_find_harness_deps(): yaml-cpp, CLI11, fmt, nlohmann/json (header-only: the JSON reports,
# records/json.h) and the xxHash header, from packages or fetched.
# fmt is used through the target fx::fmt: the compiled library where there is one (the host's
# package, or fetched), else its headers alone (FMT_HEADER_ONLY): Debian ships only a shared
# libfmt, which static cross builds cannot link, so scripts/deps/ copy the headers into their
# sysroots and prefixes.
macro(fx_find_harness_deps)
  if(NOT FX_HAVE_DEPS)
    find_package(yaml-cpp REQUIRED)
    find_package(CLI11 CONFIG REQUIRED)
    find_package(nlohmann_json 3.11 CONFIG REQUIRED)
    # xxHash ships no CMake package; header-only use (XXH_INLINE_ALL) is enough.
    find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
    if(NOT CMAKE_CROSSCOMPILING)
      find_package(fmt 9 CONFIG)
    endif()
    if(NOT TARGET fx_fmt)
      add_library(fx_fmt INTERFACE)
      if(TARGET fmt::fmt)
        target_link_libraries(fx_fmt INTERFACE fmt::fmt)
      else()
        find_path(FMT_INCLUDE_DIR fmt/format.h REQUIRED)
        target_include_directories(fx_fmt SYSTEM INTERFACE ${FMT_INCLUDE_DIR})
        target_compile_definitions(fx_fmt INTERFACE FMT_HEADER_ONLY=1)
      endif()
      add_library(fx::fmt ALIAS fx_fmt)
    endif()
  elseif(NOT TARGET fx_fmt)
    add_library(fx_fmt INTERFACE)
    target_link_libraries(fx_fmt INTERFACE fmt::fmt)
    add_library(fx::fmt ALIAS fx_fmt)
  endif()
endmacro()

# fx_find_test_deps(): Catch2 (our own main; its prebuilt main library is not used) as fx::catch2.
# v2 (Debian 12, FX_FETCH_DEPS) or v3 (Ubuntu 24.04, Homebrew): the tests are written against v2's
# header, and with v3 tests/support/catch2-v3 supplies that header from v3's.
macro(fx_find_test_deps)
  if(NOT FX_HAVE_DEPS)
    find_package(Catch2 REQUIRED)
  endif()
  if(NOT TARGET fx_catch2)
    add_library(fx_catch2 INTERFACE)
    target_link_libraries(fx_catch2 INTERFACE Catch2::Catch2)
    if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
      target_include_directories(fx_catch2 INTERFACE ${PROJECT_SOURCE_DIR}/tests/support/catch2-v3)
      message(STATUS "Catch2 ${Catch2_VERSION}: the v2 header name through tests/support/catch2-v3")
    elseif(Catch2_VERSION VERSION_LESS 2 AND NOT Catch2_VERSION STREQUAL "")
      message(FATAL_ERROR "Catch2 ${Catch2_VERSION} found; v2 or v3 is needed")
    endif()
    add_library(fx::catch2 ALIAS fx_catch2)
  endif()
endmacro()
