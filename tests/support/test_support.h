// Shared helpers for the unit tests: a seeded PRNG (never std::random_device: test inputs must be
// the same on every run and target) and an overflow handler that throws.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "fx/overflow.h"

namespace fxtest {

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int64_t next_i64() { return static_cast<int64_t>(next()); }
    /// Uniform in [lo, hi] (inclusive); hi - lo must be < 2^64 - 1.
    int64_t range(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
        return static_cast<int64_t>(static_cast<uint64_t>(lo) + next() % span);
    }
    /// A raw value whose magnitude is spread over all bit lengths (good for boundary coverage).
    int64_t spread_i64() {
        const int bits = static_cast<int>(next() % 64);
        const uint64_t mask = bits == 63 ? ~0ull : ((1ull << (bits + 1)) - 1);
        const int64_t v = static_cast<int64_t>(next() & mask & 0x7fffffffffffffffull);
        return (next() & 1) ? -v : v;
    }

private:
    uint64_t state_;
};

struct OverflowError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Installs a handler that throws OverflowError(operation) for the scope's lifetime.
class ThrowOnOverflow {
public:
    ThrowOnOverflow() : previous_(fx::set_overflow_handler(&thrower)) {}
    ~ThrowOnOverflow() { fx::set_overflow_handler(previous_); }
    ThrowOnOverflow(const ThrowOnOverflow&) = delete;
    ThrowOnOverflow& operator=(const ThrowOnOverflow&) = delete;

private:
    static void thrower(const char* op) { throw OverflowError(op); }
    fx::OverflowHandler previous_;
};

} // namespace fxtest
