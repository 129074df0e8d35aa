#include <catch2/catch.hpp>

#include <cmath>

#include "fx/sqrt.h"
#include "test_support.h"

using fx::Scalar;
using B = fx::wide::Default;
using fx::wide::Portable;

namespace {
// floor-sqrt property r^2 <= n < (r+1)^2, in the portable backend (independent of the native
// path on x86-64, and exact on every target). (r+1)^2 may be 2^128: treat that as "greater".
bool is_floor_sqrt(Portable::T n, uint64_t r) {
    if (Portable::ucmp(Portable::umul(r, r), n) > 0) return false;
    if (r == ~uint64_t{0}) return true;
    return Portable::ucmp(Portable::umul(r + 1, r + 1), n) > 0;
}
} // namespace

// Every input below 2^24 natively; emulated legs lower FX_TEST_SCALE and test every input below
// that share of 2^24 (the random test below still covers every size in full).
TEST_CASE("sqrt: integer square root is exact for every input below 2^24 x FX_TEST_SCALE",
          "[sqrt]") {
    const auto limit = static_cast<uint64_t>(fxtest::scaled(int64_t{1} << 24));
    uint64_t r = 0;
    for (uint64_t n = 0; n < limit; ++n) {
        while ((r + 1) * (r + 1) <= n)
            ++r; // the reference: walk r up as n grows
        REQUIRE(fx::wide::isqrt<Portable>(Portable::from_u64(n)) == r);
        REQUIRE(fx::wide::isqrt<B>(B::from_u64(n)) == r);
    }
}

TEST_CASE("sqrt: integer square root floors on random 128-bit values of every size", "[sqrt]") {
    fxtest::Rng rng(11);
    for (int i = 0; i < 300000; ++i) {
        const int shift = static_cast<int>(rng.next() % 128);
        Portable::T n = Portable::shr(Portable::make(rng.next(), rng.next()), shift);
        REQUIRE(is_floor_sqrt(n, fx::wide::isqrt<Portable>(n)));
        REQUIRE(fx::wide::isqrt<B>(B::make(Portable::hi64(n), Portable::lo64(n))) ==
                fx::wide::isqrt<Portable>(n));
    }
    // Extremes: 2^128 - 1, squares and their neighbours near the top.
    const uint64_t m = ~uint64_t{0};
    CHECK(fx::wide::isqrt<Portable>(Portable::make(m, m)) == m);
    CHECK(fx::wide::isqrt<Portable>(Portable::umul(m, m)) == m);
    CHECK(fx::wide::isqrt<Portable>(Portable::sub(Portable::umul(m, m), Portable::from_u64(1))) ==
          m - 1);
    CHECK(fx::wide::isqrt<Portable>(Portable::make(uint64_t{1} << 62, 0)) == (uint64_t{1} << 63));
    CHECK(fx::wide::isqrt<Portable>(Portable::make((uint64_t{1} << 62) - 1, m)) ==
          (uint64_t{1} << 63) - 1);
}

TEST_CASE("sqrt: integer square root at perfect squares and their neighbours, every size",
          "[sqrt]") {
    // The estimate (table seed, 64-bit Newton steps, the low half's quotient, correction) must land
    // on the floor exactly where it is most fragile: r^2 - 1, r^2, r^2 + 2r for r of every length.
    fxtest::Rng rng(23);
    auto check = [](uint64_t r) {
        const Portable::T sq = Portable::umul(r, r);
        REQUIRE(fx::wide::isqrt<Portable>(sq) == r);
        REQUIRE(fx::wide::isqrt<B>(B::make(Portable::hi64(sq), Portable::lo64(sq))) == r);
        const Portable::T below = Portable::sub(sq, Portable::from_u64(1));
        REQUIRE(fx::wide::isqrt<Portable>(below) == r - 1);
        REQUIRE(fx::wide::isqrt<B>(B::make(Portable::hi64(below), Portable::lo64(below))) == r - 1);
        if (r < ~uint64_t{0}) {
            const Portable::T top = Portable::add(sq, Portable::umul(r, 2)); // (r + 1)^2 - 1
            REQUIRE(fx::wide::isqrt<Portable>(top) == r);
            REQUIRE(fx::wide::isqrt<B>(B::make(Portable::hi64(top), Portable::lo64(top))) == r);
        }
    };
    for (int bits = 1; bits <= 64; ++bits) {
        const uint64_t p = bits == 64 ? 0 : uint64_t{1} << bits;
        for (uint64_t r : {p - 1, p - 2, p + 1, p + 2})
            if (r > 1) check(r);
        for (int i = 0; i < 2000; ++i) {
            const uint64_t r = bits == 64 ? rng.next() : (rng.next() & (p - 1)) | (p >> 1);
            if (r > 1) check(r);
        }
    }
}

TEST_CASE("sqrt: rounded integer square root at its rounding boundaries, every size", "[sqrt]") {
    // round(sqrt(n)) = q exactly when q^2 - q + 1 <= n <= q^2 + q (q > 0; 0 for n = 0): the values
    // at both ends, and one past each, for q of every length and both backends, checked with the
    // portable backend's products; then random values of every size by the same property.
    auto rounds_to = [](Portable::T n, uint64_t q) {
        const Portable::T sq = Portable::umul(q, q);
        const bool above_low =
            q == 0 || Portable::ucmp(Portable::add(Portable::sub(sq, Portable::from_u64(q)),
                                                   Portable::from_u64(1)),
                                     n) <= 0;
        return above_low && Portable::ucmp(n, Portable::add(sq, Portable::from_u64(q))) <= 0;
    };
    auto check = [&](Portable::T n) {
        const uint64_t q = fx::wide::isqrt_round<Portable>(n);
        REQUIRE(rounds_to(n, q));
        REQUIRE(fx::wide::isqrt_round<B>(B::make(Portable::hi64(n), Portable::lo64(n))) == q);
    };
    fxtest::Rng rng(29);
    for (int bits = 2; bits <= 63; ++bits) {
        const uint64_t p = uint64_t{1} << bits;
        for (int i = 0; i < 2000; ++i) {
            const uint64_t q =
                i < 2 ? p - 1 - static_cast<uint64_t>(i) : (rng.next() & (p - 1)) | (p >> 1);
            const Portable::T sq = Portable::umul(q, q);
            for (const Portable::T n :
                 {Portable::add(sq, Portable::from_u64(q)), // q^2 + q: q
                  Portable::add(sq, Portable::from_u64(q + 1)), // q^2 + q + 1: q + 1
                  Portable::add(Portable::sub(sq, Portable::from_u64(q)),
                                Portable::from_u64(1)), // q
                  Portable::sub(sq, Portable::from_u64(q))}) // q - 1
                check(n);
        }
    }
    for (int i = 0; i < 300000; ++i) {
        const int shift = 2 + static_cast<int>(rng.next() % 126); // below 2^126, where results fit
        check(Portable::shr(Portable::make(rng.next(), rng.next()), shift));
    }
}

TEST_CASE("sqrt: Scalar sqrt rounds to nearest, exhaustively on small raws and by property on all",
          "[sqrt]") {
    // nearest: (2r-1)^2 <= 4 n < (2r+1)^2 with n = raw * 2^32.
    auto check = [](int64_t raw) {
        const int64_t r = fx::sqrt(Scalar::from_raw(raw)).raw();
        const auto four_n = Portable::shl(Portable::from_u64(static_cast<uint64_t>(raw)), 34);
        const uint64_t lo = 2 * static_cast<uint64_t>(r) - 1, hi = 2 * static_cast<uint64_t>(r) + 1;
        if (r > 0) REQUIRE(Portable::ucmp(Portable::umul(lo, lo), four_n) <= 0);
        REQUIRE(Portable::ucmp(four_n, Portable::umul(hi, hi)) < 0);
    };
    for (int64_t raw = 0; raw < (int64_t{1} << 22); ++raw)
        check(raw);
    fxtest::Rng rng(5);
    for (int i = 0; i < 500000; ++i)
        check(rng.spread_i64() & INT64_MAX);
    check(INT64_MAX);
    CHECK(fx::sqrt(Scalar::from_int(4)) == Scalar::from_int(2));
    CHECK(fx::sqrt(Scalar::from_int(0)) == Scalar::zero());
    CHECK(fx::sqrt(Scalar::one()) == Scalar::one());
    CHECK(fx::sqrt(Scalar::ratio(1, 4)) == Scalar::half());
}

TEST_CASE("sqrt: negative input is reported in a checked build and gives 0", "[sqrt]") {
    fxtest::ThrowOnOverflow guard;
    if constexpr (fx::kChecked) {
        CHECK_THROWS_AS(fx::sqrt(Scalar::from_int(-1)), fxtest::OverflowError);
    } else {
        CHECK(fx::sqrt(Scalar::from_int(-1)) == Scalar::zero());
    }
}

TEST_CASE("sqrt: rsqrt is within 1 raw unit of 1/sqrt(x)", "[sqrt]") {
    constexpr long double kTolerance = 1.0L; // raw units, documented in fx/sqrt.h
    long double worst = 0;
    fxtest::Rng rng(9);
    auto check = [&](int64_t raw) {
        const long double x = static_cast<long double>(raw) / 4294967296.0L;
        const long double ref = 4294967296.0L / std::sqrt(x);
        const long double err =
            std::fabs(static_cast<long double>(fx::rsqrt(Scalar::from_raw(raw)).raw()) - ref);
        worst = std::max(worst, err);
        REQUIRE(err <= kTolerance);
    };
    for (int64_t raw = 1; raw < 100000; ++raw)
        check(raw);
    for (int i = 0; i < 300000; ++i) {
        const int64_t raw = rng.spread_i64() & INT64_MAX;
        if (raw > 0) check(raw);
    }
    check(INT64_MAX);
    WARN("rsqrt worst error: " << static_cast<double>(worst) << " raw units");
    CHECK(fx::rsqrt(Scalar::from_int(4)) == Scalar::half());
}
