# x86-64 Windows with Debian's MinGW-w64 GCC (posix thread model: std::thread and std::mutex),
# linked fully static so that the .exe runs under wine with no MinGW DLLs beside it
# (scripts/targets/x86_64-windows.sh).
# FXKCC_DEPS_PREFIX (optional): the private prefix of scripts/deps/yaml-cpp-source.sh
# (static yaml-cpp plus copies of the header-only CLI11, xxHash and Catch2).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(FX_MINGW_TRIPLE x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${FX_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${FX_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${FX_MINGW_TRIPLE}-windres)
set(CMAKE_AR ${FX_MINGW_TRIPLE}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${FX_MINGW_TRIPLE}-gcc-ranlib-posix CACHE FILEPATH "")

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")

list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FXKCC_DEPS_PREFIX)
set(CMAKE_FIND_ROOT_PATH /usr/${FX_MINGW_TRIPLE})
if(FXKCC_DEPS_PREFIX)
  list(APPEND CMAKE_FIND_ROOT_PATH "${FXKCC_DEPS_PREFIX}")
  list(APPEND CMAKE_PREFIX_PATH "${FXKCC_DEPS_PREFIX}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
