# Native x86-64 Linux, GCC -O2: must give the goldens of x86_64-linux (built with -O3). Also built
# with FX_STANDARD_CPP_ONLY=ON (no __int128, no inline assembly: the code MSVC compiles), so the
# x86-64 goldens are verified on that path too (i686 runs it with every test).
TARGET_GOLDEN=x86_64-linux
TARGET_CMAKE_ARGS=("-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
TARGET_CMAKE_ARGS+=("-DFX_STANDARD_CPP_ONLY=ON")
