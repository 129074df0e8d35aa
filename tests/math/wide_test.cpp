// The two 128-bit backends must give identical bits: the portable two-limb path is what i686
// and MSVC run, the native path is what x86-64 and AArch64 GCC/Clang run.
#include <catch2/catch.hpp>

#include "fx/scalar.h"
#include "fx/sqrt.h"
#include "fx/vec3.h"
#include "fx/wide.h"
#include "test_support.h"

using fx::wide::Portable;

TEST_CASE("wide: portable product of extreme operands", "[wide]") {
    const uint64_t m = ~uint64_t{0};
    const auto p = Portable::umul(m, m); // (2^64-1)^2 = 2^128 - 2^65 + 1
    CHECK(Portable::hi64(p) == m - 1);
    CHECK(Portable::lo64(p) == 1);
    const auto s = Portable::smul(INT64_MIN, INT64_MIN); // 2^126
    CHECK(Portable::hi64(s) == (uint64_t{1} << 62));
    CHECK(Portable::lo64(s) == 0);
    const auto n = Portable::smul(INT64_MIN, 1);
    CHECK(Portable::hi64(n) == ~uint64_t{0});
    CHECK(Portable::lo64(n) == (uint64_t{1} << 63));
    CHECK(Portable::is_neg(Portable::smul(-3, 5)));
    CHECK(Portable::lo64(Portable::neg(Portable::smul(-3, 5))) == 15);
}

TEST_CASE("wide: portable 128/64 division against schoolbook identities", "[wide]") {
    fxtest::Rng rng(7);
    for (int i = 0; i < 200000; ++i) {
        uint64_t d = rng.next() >> (rng.next() % 64);
        if (d == 0) d = 1;
        const uint64_t hi = rng.next() % d; // quotient fits in 64 bits
        const uint64_t lo = rng.next();
        uint64_t r = 0;
        const uint64_t q = fx::wide::divlu(hi, lo, d, &r);
        // q*d + r must reconstruct the numerator exactly, with r < d.
        const auto back = Portable::add(Portable::umul(q, d), Portable::from_u64(r));
        REQUIRE(r < d);
        REQUIRE(Portable::hi64(back) == hi);
        REQUIRE(Portable::lo64(back) == lo);
    }
}

// div_shl32, the one-division case try_normalize takes off x86-64, against divlu (quotients below
// 2^32, remainders included), at random, at the largest quotient and at normalize's operands.
TEST_CASE("wide: x * 2^32 / d for x < d in one division equals the 128/64 division", "[wide]") {
    fxtest::Rng rng(55);
    const auto check = [](uint64_t x, uint64_t d) {
        uint64_t r1 = 0, r2 = 0;
        const uint64_t q1 = fx::wide::div_shl32(x, d, &r1);
        const uint64_t q2 = fx::wide::divlu(x >> 32, x << 32, d, &r2);
        REQUIRE(q1 == q2);
        REQUIRE(r1 == r2);
    };
    for (int i = 0; i < 200000; ++i) {
        uint64_t d = rng.next() >> (rng.next() % 64);
        if (d < 2) d = 2;
        check(rng.next() % d, d);
        check(d - 1, d); // the largest quotient, 2^32 - 1 or near it
        // try_normalize's operands: d (a length) in [2^61, 2^63), x below it
        const uint64_t len = (uint64_t{1} << 61) + rng.next() % (uint64_t{3} << 61);
        check(rng.next() % len, len);
        check(len - 1 - rng.next() % 4096, len);
    }
    check(0, 1);
    check(0, ~uint64_t{0});
    check(~uint64_t{0} - 1, ~uint64_t{0});
    check((uint64_t{1} << 32) - 1, uint64_t{1} << 32);
}

// A product whose exact value lies half a raw unit between two (its low 32 bits are 2^31):
// rounded away from zero, at either sign, by the product, the dot product and the portable
// path. Random operands meet such a tie once in 2^32, so the comparisons below almost never
// test one. Expected: (|a| * k + 1) / 2 with the product's sign, a and k odd, b = k * 2^31 raw.
// sdot3 and usq3 gather the carries of three products once, over 32-bit halves; the reference is
// the three products summed one by one with the portable backend. Operands of every size, both
// signs, the extremes (INT64_MIN, 2^32 boundaries), on the portable and the default backend.
TEST_CASE("wide: three-term dot products and sums of squares equal their products summed",
          "[wide]") {
    using D = fx::wide::Default;
    fxtest::Rng rng(37);
    const int64_t edges[] = {0,
                             1,
                             -1,
                             INT64_MIN,
                             INT64_MAX,
                             int64_t{1} << 32,
                             -(int64_t{1} << 32),
                             (int64_t{1} << 32) - 1,
                             -(int64_t{1} << 31),
                             (int64_t{1} << 31) - 1,
                             int64_t{1} << 62,
                             -(int64_t{1} << 62)};
    auto pick = [&](int i) -> int64_t {
        switch (i % 4) {
        case 0:
            return edges[rng.next() % (sizeof(edges) / sizeof(edges[0]))];
        case 1:
            return rng.spread_i64();
        case 2:
            return rng.next_i64() >> (rng.next() % 64);
        default:
            return rng.next_i64();
        }
    };
    for (int i = 0; i < 400000; ++i) {
        int64_t v[6];
        for (int j = 0; j < 6; ++j)
            v[j] = pick(i + j);
        const Portable::T ref =
            Portable::add(Portable::add(Portable::smul(v[0], v[1]), Portable::smul(v[2], v[3])),
                          Portable::smul(v[4], v[5]));
        const Portable::T p = Portable::sdot3(v[0], v[1], v[2], v[3], v[4], v[5]);
        const D::T d = D::sdot3(v[0], v[1], v[2], v[3], v[4], v[5]);
        REQUIRE(Portable::hi64(p) == Portable::hi64(ref));
        REQUIRE(Portable::lo64(p) == Portable::lo64(ref));
        REQUIRE(D::hi64(d) == Portable::hi64(ref));
        REQUIRE(D::lo64(d) == Portable::lo64(ref));
        const uint64_t x = fx::wide::uabs(v[0]), y = fx::wide::uabs(v[2]), z = fx::wide::uabs(v[4]);
        const Portable::T sref = Portable::add(
            Portable::add(Portable::umul(x, x), Portable::umul(y, y)), Portable::umul(z, z));
        const Portable::T sp = Portable::usq3(x, y, z);
        const D::T sd = D::usq3(x, y, z);
        REQUIRE(Portable::hi64(sp) == Portable::hi64(sref));
        REQUIRE(Portable::lo64(sp) == Portable::lo64(sref));
        REQUIRE(D::hi64(sd) == Portable::hi64(sref));
        REQUIRE(D::lo64(sd) == Portable::lo64(sref));
    }
}

TEST_CASE("wide: products and dot products at exact ties round half away from zero", "[wide]") {
    fxtest::Rng rng(31);
    for (int i = 0; i < 100000; ++i) {
        const uint64_t ua = (rng.next() >> 33) | 1; // odd, below 2^31
        const uint64_t k = (rng.next() >> 34) | 1; // odd, below 2^30
        const bool na = (i & 1) != 0, nb = (i & 2) != 0;
        const int64_t a = na ? -static_cast<int64_t>(ua) : static_cast<int64_t>(ua);
        const int64_t b = (nb ? -1 : 1) * static_cast<int64_t>(k << 31);
        const uint64_t mag = (ua * k + 1) / 2; // ua * k is odd: the tie, rounded up in magnitude
        const int64_t expect = na != nb ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
        const fx::Scalar sa = fx::Scalar::from_raw(a), sb = fx::Scalar::from_raw(b);
        REQUIRE((sa * sb).raw() == expect);
        REQUIRE(fx::dot(fx::Vec3{sa, fx::Scalar{}, fx::Scalar{}},
                        fx::Vec3{sb, fx::Scalar{}, fx::Scalar{}})
                    .raw() == expect);
        bool ovf = false;
        REQUIRE(fx::detail::mul_raw<Portable>(a, b, &ovf) == expect);
        REQUIRE_FALSE(ovf);
    }
}

#if FX_COMPILER_HAS_INT128
using fx::wide::Native;

TEST_CASE("wide: portable and native paths give identical bits on 1,000,000+ operand pairs",
          "[wide]") {
    fxtest::Rng rng(2026);
    long compared = 0, small_products = 0;
    for (int i = 0; i < 1000000; ++i) {
        const int64_t a = (i & 1) ? rng.spread_i64() : rng.next_i64();
        const int64_t b = (i & 2) ? rng.spread_i64() : rng.next_i64();
        bool op = false, on = false;
        REQUIRE(fx::detail::mul_raw<Portable>(a, b, &op) == fx::detail::mul_raw<Native>(a, b, &on));
        REQUIRE(op == on);
        if (b != 0) {
            REQUIRE(fx::detail::div_raw<Portable>(a, b, &op) ==
                    fx::detail::div_raw<Native>(a, b, &on));
            REQUIRE(op == on);
        }
        const auto sp = Portable::smul(a, b);
        const auto sn = Native::smul(a, b);
        REQUIRE(Portable::hi64(sp) == Native::hi64(sn));
        REQUIRE(Portable::lo64(sp) == Native::lo64(sn));
        const uint64_t ua = fx::wide::uabs(a), ub = fx::wide::uabs(b);
        const auto up = Portable::umul(ua, ub);
        const auto un = Native::umul(ua, ub);
        REQUIRE(Portable::hi64(up) == Native::hi64(un));
        REQUIRE(Portable::lo64(up) == Native::lo64(un));
        // The short paths (wasm: products of factors within 32 bits, products below 2^62).
        small_products += std::countl_zero(ua) + std::countl_zero(ub) >= 66;
        const uint64_t hi = rng.next() >> (rng.next() % 64), lo = rng.next();
        REQUIRE(fx::wide::isqrt<Portable>(Portable::make(hi, lo)) ==
                fx::wide::isqrt<Native>(Native::make(hi, lo)));
        if (a > 0) {
            REQUIRE(fx::detail::sqrt_raw<Portable>(a) == fx::detail::sqrt_raw<Native>(a));
            REQUIRE(fx::detail::rsqrt_raw<Portable>(a) == fx::detail::rsqrt_raw<Native>(a));
        }
        int64_t rp = 0, rn = 0;
        const bool fp = fx::wide::round_shift_to_i64<Portable>(Portable::make(hi, lo),
                                                               32 + static_cast<int>(i % 90), &rp);
        const bool fn = fx::wide::round_shift_to_i64<Native>(Native::make(hi, lo),
                                                             32 + static_cast<int>(i % 90), &rn);
        REQUIRE(rp == rn);
        REQUIRE(fp == fn);
        compared += 8;
    }
    INFO("operations compared: " << compared << ", products below 2^62: " << small_products);
    CHECK(compared >= 8000000);
    CHECK(small_products >= 20000);
}
#endif
