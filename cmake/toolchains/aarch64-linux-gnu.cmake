# Cross build for AArch64 Linux, run under qemu-aarch64 (scripts/targets/aarch64-linux.sh):
#   cmake -S . -B build-aarch64-linux -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(FX_CROSS_PROCESSOR aarch64)
set(FX_CROSS_TRIPLE aarch64-linux-gnu)
set(FX_CROSS_DEBARCH arm64)
set(FX_CROSS_EMULATOR qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake)
