// Shared helpers for the unit tests: a seeded PRNG (never std::random_device: test inputs must be
// the same on every run and target) and an overflow handler that throws.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "fx/overflow.h"
#include "fx/scalar.h"

namespace fxtest {

/// Shorthands for exact test values: a raw Scalar, an integer Scalar, and 1.0's raw value.
inline fx::Scalar R(int64_t raw) {
    return fx::Scalar::from_raw(raw);
}
inline fx::Scalar I(int64_t v) {
    return fx::Scalar::from_int(v);
}
inline constexpr int64_t kOne = fx::Scalar::kOneRaw;

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

/// The share of their cases that the long accuracy sweeps and random-reference tests run:
/// FX_TEST_SCALE (default 1; any positive factor). Emulated legs of the test command lower it
/// (scripts/targets/*.sh), where a long double reference is slow software and the bits are
/// proven identical by the known answers and the goldens; scripts/test-extended.sh runs them
/// whole (docs/testing.md).
inline double test_scale() {
    const char* e = std::getenv("FX_TEST_SCALE");
    if (e == nullptr) return 1.0;
    const double s = std::atof(e);
    return s > 0.0 ? s : 1.0;
}

/// n cases at FX_TEST_SCALE, at least 1.
inline int64_t scaled(int64_t n) {
    const auto k = static_cast<int64_t>(static_cast<double>(n) * test_scale());
    return k < 1 ? 1 : k;
}

/// A sweep's step, widened by 1 / FX_TEST_SCALE (the same range, fewer points).
inline int64_t spaced(int64_t step) {
    const auto k = static_cast<int64_t>(1.0 / test_scale() + 0.5);
    return step * (k < 1 ? 1 : k);
}

/// Whether this platform's long double math can be the accuracy tests' reference, decided by
/// what it offers, not by its name: at least 64 significand bits
/// (std::numeric_limits<long double>::digits: x87 extended 64, IEEE quad 113; MSVC's and Apple
/// arm64's long double is double, 53), and sqrtl, sinl, cosl, atan2l, asinl and acosl within
/// 2^-60 relative at arguments where weak implementations fail (MinGW-w64's sinl is x87 fsin,
/// whose 66-bit pi is off by about 1e-12 near 2^31 rad). The expected values are 30-digit
/// decimals computed with mpmath at 40 digits; the inputs are volatile so that the compiler
/// cannot fold the calls with its own exact arithmetic. Measured (docs/testing.md): glibc x86-64
/// and i686 (x87), glibc AArch64 and s390x (quad) and emscripten (quad) are within 2^-64;
/// MinGW-w64 under wine is off by 2^23 to 2^28 units of 2^-64 in sin and cos at 2^31 and 2e9 rad.
inline bool long_double_reference() {
    if (std::numeric_limits<long double>::digits < 64) return false;
    volatile long double two = 2.0L, big = 2147483648.0L, b2 = 2000000000.0L, one = 1.0L,
                         three = 3.0L, q = 0.75L, r = 0.3125L;
    const struct {
        long double got, want;
    } cases[] = {
        {std::sqrt(static_cast<long double>(two)), 1.41421356237309504880168872421L},
        {std::sin(static_cast<long double>(big)), -0.971310175792939242825145165107L},
        {std::cos(static_cast<long double>(big)), 0.237816194572803357153687317401L},
        {std::sin(static_cast<long double>(b2)), 0.91471045864904117493281462393L},
        {std::atan2(static_cast<long double>(one), static_cast<long double>(three)),
         0.321750554396642193401404614359L},
        {std::asin(static_cast<long double>(q)), 0.848062078981481008052944338998L},
        {std::acos(static_cast<long double>(r)), 1.252972622867015866047904221L},
    };
    for (const auto& c : cases) {
        if (!(std::fabs((c.got - c.want) / c.want) <= 0x1p-60L)) return false;
    }
    return true;
}

/// At the top of a test that needs the long double reference: passes it, with a warning, where
/// the platform has none (long_double_reference()).
#define FX_NEEDS_LONG_DOUBLE_REFERENCE()                                                                      \
    do {                                                                                                      \
        if (!fxtest::long_double_reference()) {                                                               \
            WARN(                                                                                             \
                "skipped: this platform's long double math is no reference (fxtest::long_double_reference)"); \
            return;                                                                                           \
        }                                                                                                     \
    } while (false)

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
