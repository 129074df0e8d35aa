# Shared body of the Linux cross toolchains (aarch64-, i686-, s390x-linux-gnu.cmake), which set
# FX_CROSS_PROCESSOR, FX_CROSS_TRIPLE (Debian's GNU triple), FX_CROSS_DEBARCH (Debian's
# architecture name, for the sysroot) and FX_CROSS_EMULATOR (empty: runs natively) first.
#
# Debian's <triple>-g++ with its own C library under /usr/<triple>; linked statically (a dynamic
# binary under qemu -L can pick a mismatched loader). Third-party libraries come from the private
# sysroot made by scripts/deps/linux-sysroot.sh <debarch> <triple> (FXKCC_SYSROOT, default
# ${FXKCC_DEPS:-$HOME/.cache/fxkcc-deps}/sysroot-<debarch>).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${FX_CROSS_PROCESSOR})
set(CMAKE_C_COMPILER ${FX_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${FX_CROSS_TRIPLE}-g++)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

if(NOT FXKCC_SYSROOT)
  if(DEFINED ENV{FXKCC_SYSROOT})
    set(FXKCC_SYSROOT "$ENV{FXKCC_SYSROOT}")
  elseif(DEFINED ENV{FXKCC_DEPS})
    set(FXKCC_SYSROOT "$ENV{FXKCC_DEPS}/sysroot-${FX_CROSS_DEBARCH}")
  else()
    set(FXKCC_SYSROOT "$ENV{HOME}/.cache/fxkcc-deps/sysroot-${FX_CROSS_DEBARCH}")
  endif()
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FXKCC_SYSROOT)
set(CMAKE_FIND_ROOT_PATH "${FXKCC_SYSROOT}" /usr/${FX_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# qemu-user has no binfmt registration here: ctest (and catch_discover_tests) call it explicitly.
if(FX_CROSS_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FX_CROSS_EMULATOR})
endif()
