// fxkcc_fixed_from_double against a reference that reads the double's bits: its value is
// m * 2^e exactly (m the 53-bit significand), so the raw value m * 2^(e + 32) is rounded half away
// from zero in integers, with no floating-point operation and no C library. The conversion must
// give these bits on every target: the same double, the same raw value (fxkcc.h).
#include <cstdint>
#include <cstring>
#include <limits>

#include <catch2/catch.hpp>

#include "fxkcc.h"

namespace {

/// A double's bits and back (memcpy: emscripten 3.1.6's library has no std::bit_cast).
uint64_t bits_of(double d) {
    uint64_t b = 0;
    std::memcpy(&b, &d, sizeof b);
    return b;
}
double from_bits(uint64_t b) {
    double d = 0;
    std::memcpy(&d, &b, sizeof d);
    return d;
}

/// The raw value of `d` (finite) rounded half away from zero, saturated to int64.
int64_t reference_raw(double d) {
    const uint64_t bits = bits_of(d);
    const bool neg = (bits >> 63) != 0;
    const int exponent_field = static_cast<int>((bits >> 52) & 0x7ff);
    const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
    const uint64_t m = exponent_field == 0 ? fraction : fraction | (uint64_t{1} << 52);
    const int e = (exponent_field == 0 ? -1074 : exponent_field - 1075) + 32; // raw = m * 2^e
    constexpr uint64_t kLimit = uint64_t{1} << 63; // |raw| from here on saturates
    uint64_t magnitude = 0;
    if (m == 0) {
        magnitude = 0;
    } else if (e >= 0) {
        magnitude = e >= 11 || (m << e) >= kLimit ? kLimit : m << e; // m < 2^53
    } else if (-e >= 64) {
        magnitude = 0; // m < 2^53 <= 2^(-e - 1): below one half
    } else {
        const int s = -e;
        const uint64_t rest = m & ((uint64_t{1} << s) - 1);
        magnitude = (m >> s) + (rest >= (uint64_t{1} << (s - 1)) ? 1 : 0);
    }
    if (!neg)
        return magnitude >= kLimit ? std::numeric_limits<int64_t>::max()
                                   : static_cast<int64_t>(magnitude);
    return magnitude >= kLimit ? std::numeric_limits<int64_t>::min()
                               : -static_cast<int64_t>(magnitude);
}

/// The neighbouring double toward zero (d != 0) or away from it, by its bits.
double toward_zero(double d) {
    return from_bits(bits_of(d) - 1);
}
double away_from_zero(double d) {
    return from_bits(bits_of(d) + 1);
}

constexpr double kRawUnit = 1.0 / 4294967296.0; // 2^-32: one raw unit, exactly

} // namespace

TEST_CASE("fixed_from_double: halves round away from zero, the doubles beside them to the nearer",
          "[capi][boundary]") {
    // Exact values: k + 1/2 raw units, and the doubles just inside and outside them.
    for (int64_t k = -5000; k <= 5000; ++k) {
        const double half = (static_cast<double>(k) + (k < 0 ? -0.5 : 0.5)) * kRawUnit;
        const int64_t away = k < 0 ? k - 1 : k + 1;
        CHECK(fxkcc_fixed_from_double(half) == away);
        CHECK(fxkcc_fixed_from_double(toward_zero(half)) == k);
        CHECK(fxkcc_fixed_from_double(away_from_zero(half)) == away);
        CHECK(fxkcc_fixed_from_double(static_cast<double>(k) * kRawUnit) == k);
    }
    // The largest double below one half raw unit (MinGW's llround made it 1, glibc's 0).
    const double below_half = toward_zero(0.5 * kRawUnit);
    CHECK(fxkcc_fixed_from_double(below_half) == 0);
    CHECK(fxkcc_fixed_from_double(-below_half) == 0);
    CHECK(fxkcc_fixed_from_double(2.5 * kRawUnit) == 3); // not to even
    CHECK(fxkcc_fixed_from_double(-2.5 * kRawUnit) == -3);
}

TEST_CASE("fixed_from_double: every magnitude and the edges against the bits' own value",
          "[capi][boundary]") {
    // Doubles of every exponent a game might use and beyond it (raw values from far below one
    // unit to past the range), random significands, both signs; splitmix64 for the bits.
    uint64_t state = 0x9e3779b97f4a7c15u;
    const auto next = [&state] {
        uint64_t z = (state += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        return z ^ (z >> 31);
    };
    int64_t mismatches = 0;
    for (int i = 0; i < 400000; ++i) {
        const uint64_t r = next();
        const uint64_t exponent_field = 1023 - 80 + (r >> 52) % 120; // values 2^-80 .. 2^40
        const uint64_t bits =
            (r & (uint64_t{1} << 63)) | exponent_field << 52 | (next() & ((uint64_t{1} << 52) - 1));
        const double d = from_bits(bits);
        if (fxkcc_fixed_from_double(d) != reference_raw(d)) ++mismatches;
    }
    CHECK(mismatches == 0);
    const double limit = 2147483648.0; // 2^31: 2^63 raw units, one past the largest
    CHECK(fxkcc_fixed_from_double(limit) == std::numeric_limits<int64_t>::max());
    CHECK(fxkcc_fixed_from_double(-limit) == std::numeric_limits<int64_t>::min());
    CHECK(fxkcc_fixed_from_double(toward_zero(limit)) == reference_raw(toward_zero(limit)));
    CHECK(fxkcc_fixed_from_double(toward_zero(limit)) ==
          std::numeric_limits<int64_t>::max() - 1023); // 2^63 - 2^10: the doubles there
    CHECK(fxkcc_fixed_from_double(std::numeric_limits<double>::infinity()) ==
          std::numeric_limits<int64_t>::max());
    CHECK(fxkcc_fixed_from_double(-std::numeric_limits<double>::infinity()) ==
          std::numeric_limits<int64_t>::min());
    CHECK(fxkcc_fixed_from_double(std::numeric_limits<double>::quiet_NaN()) == 0);
    CHECK(fxkcc_fixed_from_double(std::numeric_limits<double>::denorm_min()) == 0);
    CHECK(fxkcc_fixed_from_double(-std::numeric_limits<double>::min()) == 0);
    CHECK(fxkcc_fixed_from_double(0.0) == 0);
    CHECK(fxkcc_fixed_from_double(-0.0) == 0);
    CHECK(fxkcc_fixed_from_double(0.015) == reference_raw(0.015));
}
