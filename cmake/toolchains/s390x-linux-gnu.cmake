# Cross build for s390x Linux (big-endian), run under qemu-s390x (scripts/targets/s390x-linux.sh):
#   cmake -S . -B build-s390x-linux -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x-linux-gnu.cmake
set(FX_CROSS_PROCESSOR s390x)
set(FX_CROSS_TRIPLE s390x-linux-gnu)
set(FX_CROSS_DEBARCH s390x)
set(FX_CROSS_EMULATOR qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
