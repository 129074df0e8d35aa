// Shared by the fuzz targets: a failed property prints what failed and aborts, which libFuzzer
// reports as a crash and saves as a reproducer (crash-<sha1>).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fx::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

inline void require(bool ok, const std::string& what) {
    if (!ok) fail(what);
}

} // namespace fx::fuzz
