# Native x86-64 Linux, GCC -O2: must give the goldens of x86_64-linux (built with -O3).
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=("-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
TARGET_CMAKE_ARGS+=("-DFX_UNITY=OFF") # each harness file compiles alone (cmake/FxUnity.cmake)
