# Native x86-64 Linux, GCC, no optimisation: must give the goldens of x86_64-linux.
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=("-DCMAKE_CXX_FLAGS_RELEASE=-O0")
# Each harness file compiles alone, with its own includes (cmake/FxUnity.cmake): file by file at
# -O0 costs a fraction of what it costs optimised.
TARGET_CMAKE_ARGS+=("-DFX_UNITY=OFF")
