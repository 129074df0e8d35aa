// Shared inputs for the micro-benchmarks: arrays of varied raw values, so the compiler cannot
// fold an operation and every benchmark sees the same spread of operands run after run.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fxbench {

inline constexpr std::size_t kN = 1024;

/// kN values shape(s) over a 64-bit LCG sequence s (Knuth's MMIX constants) from seed.
template <class F> std::array<int64_t, kN> make_raws(uint64_t seed, F shape) {
    std::array<int64_t, kN> a{};
    uint64_t s = seed;
    for (auto& v : a) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v = shape(s);
    }
    return a;
}

} // namespace fxbench
