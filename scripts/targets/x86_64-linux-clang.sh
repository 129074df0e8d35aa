# Native x86-64 Linux built with clang instead of GCC: must give the goldens of x86_64-linux.
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=(-DCMAKE_CXX_COMPILER=clang++)
target_setup() { command -v clang++ >/dev/null || { echo "clang++ missing (apt-get install clang)" >&2; return 1; }; }
