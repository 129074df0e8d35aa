# Cross build for i686 Linux, where GCC has no __int128 (the portable 128-bit path runs for
# real); a static i686 binary runs natively on x86-64, or under FX_I686_EMULATOR (qemu-i386)
# where the host's kernel does not run 32-bit binaries (scripts/targets/i686-linux.sh decides):
#   cmake -S . -B build-i686-linux -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/i686-linux-gnu.cmake
set(FX_CROSS_PROCESSOR i686)
set(FX_CROSS_TRIPLE i686-linux-gnu)
set(FX_CROSS_DEBARCH i386)
if(FX_I686_EMULATOR)
  set(FX_CROSS_EMULATOR ${FX_I686_EMULATOR})
else()
  set(FX_CROSS_EMULATOR "")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
