// The swarm's random numbers: SplitMix64 over 64-bit integers only, so a seed gives the same
// stream on every target (no floating point, no platform generator, no address). A run's stream
// is derived from the swarm seed and the run's index alone, so run K of seed S is generated the
// same whether it runs alone (`--run K`), in a batch, or on any thread.
//
// One draw per operand: the operands of `*`, `+` and a function's arguments are evaluated in an
// order the compiler chooses, so `f(rng.next()) * rng.next()` gave another scenario on AArch64
// than on x86-64 (caught by swarm_test's digest). Braced initialisers ({a, b, c}), `?:`, `&&`,
// `||` and separate statements are sequenced: draw in those.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fx/scalar.h"

namespace fx::harness::swarm {

/// SplitMix64's output function (Steele, Lea, Flood: "Fast splittable pseudorandom number
/// generators", 2014): a bijection of 64-bit integers that mixes every input bit into every
/// output bit.
constexpr uint64_t mix64(uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// The seed of run `index` of a swarm seeded with `seed`.
constexpr uint64_t run_seed(uint64_t seed, uint64_t index) noexcept {
    return mix64(mix64(seed) ^ mix64(index + 0x9E3779B97F4A7C15ull));
}

class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() noexcept {
        state_ += 0x9E3779B97F4A7C15ull;
        return mix64(state_);
    }
    /// Uniform in [0, n) (n > 0), without modulo bias (rejection of the top partial range).
    uint64_t below(uint64_t n) noexcept {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t v = next();
        while (v >= limit)
            v = next();
        return v % n;
    }
    /// Uniform integer in [lo, hi].
    int64_t range(int64_t lo, int64_t hi) noexcept {
        return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
    }
    /// True with probability num / den.
    bool chance(int64_t num, int64_t den) noexcept { return range(0, den - 1) < num; }
    /// Uniform on the grid of thousandths in [lo_milli / 1000, hi_milli / 1000]: millimetres,
    /// millidegrees, thousandths of a stick. Grid values write as short decimals.
    Scalar milli(int64_t lo_milli, int64_t hi_milli) noexcept {
        return Scalar::ratio(range(lo_milli, hi_milli), 1000);
    }
    /// An index into a container of n elements.
    size_t index(size_t n) noexcept { return static_cast<size_t>(below(n)); }
    template <typename T> const T& pick(const std::vector<T>& v) noexcept {
        return v[index(v.size())];
    }
    /// Fisher-Yates.
    template <typename T> void shuffle(std::vector<T>* v) noexcept {
        for (size_t i = v->size(); i > 1; --i) {
            const size_t j = index(i);
            std::swap((*v)[i - 1], (*v)[j]);
        }
    }

private:
    uint64_t state_;
};

} // namespace fx::harness::swarm
