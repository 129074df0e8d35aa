// Our own Catch2 v2 main: Debian's prebuilt Catch2 main library is x86-64 only, and the same
// test binaries are built for every target.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
    return Catch::Session().run(argc, argv);
}
