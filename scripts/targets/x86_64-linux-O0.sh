# Native x86-64 Linux, GCC, no optimisation: must give the goldens of x86_64-linux.
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=("-DCMAKE_CXX_FLAGS_RELEASE=-O0")
