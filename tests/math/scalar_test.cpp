// Scalar arithmetic: each rounding rule at raw boundary values, overflow behaviour of the
// checked and unchecked builds, and random operands against an independent reference.
#include <catch2/catch.hpp>

#include "fx/scalar.h"
#include "test_support.h"

using fx::Scalar;

using fxtest::kOne;
using fxtest::R;

namespace {
constexpr int64_t kHalf = kOne / 2;
} // namespace

TEST_CASE("scalar: construction", "[scalar]") {
    CHECK(Scalar::from_int(1).raw() == kOne);
    CHECK(Scalar::from_int(-2147483648).raw() == INT64_MIN);
    CHECK(Scalar::from_int(2147483647).raw() == int64_t{2147483647} * kOne);
    CHECK(Scalar::ratio(1, 2).raw() == kHalf);
    // 0.015 * 2^32 = 64424509.44 -> 64424509; 2/3 * 2^32 = 2863311530.67 -> 2863311531
    CHECK(Scalar::ratio(15, 1000).raw() == 64424509);
    CHECK(Scalar::ratio(2, 3).raw() == 2863311531);
    CHECK(Scalar::ratio(-2, 3).raw() == -2863311531);
    // Ties away from zero: 1 / 2^33 is exactly half a raw unit.
    CHECK(Scalar::ratio(1, int64_t{1} << 33).raw() == 1);
    CHECK(Scalar::ratio(-1, int64_t{1} << 33).raw() == -1);
    CHECK(Scalar::ratio(1, (int64_t{1} << 33) + 1).raw() == 0);
    static_assert(Scalar::ratio(3, 4).raw() == 3 * (kOne / 4),
                  "ratio is usable in constant expressions");
}

TEST_CASE("scalar: addition and subtraction are exact", "[scalar]") {
    CHECK((R(1) + R(2)).raw() == 3);
    CHECK((R(INT64_MAX) + R(0)).raw() == INT64_MAX);
    CHECK((R(INT64_MIN) - R(0)).raw() == INT64_MIN);
    CHECK((R(-5) - R(7)).raw() == -12);
    CHECK((-R(INT64_MAX)).raw() == -INT64_MAX);
}

TEST_CASE("scalar: multiplication rounds half away from zero", "[scalar]") {
    // raw 1 * raw 2^31 is exactly 0.5 raw: rounds away from zero.
    CHECK((R(1) * R(kHalf)).raw() == 1);
    CHECK((R(-1) * R(kHalf)).raw() == -1);
    CHECK((R(1) * R(-kHalf)).raw() == -1);
    CHECK((R(1) * R(kHalf - 1)).raw() == 0);
    CHECK((R(-1) * R(kHalf - 1)).raw() == 0);
    CHECK((R(3) * R(kHalf)).raw() == 2); // 1.5 -> 2
    CHECK((R(-3) * R(kHalf)).raw() == -2); // -1.5 -> -2
    CHECK((Scalar::from_int(3) * Scalar::from_int(-7)) == Scalar::from_int(-21));
    CHECK((Scalar::half() * Scalar::half()) == Scalar::ratio(1, 4));
    // Largest magnitudes that still fit.
    CHECK((R(INT64_MIN) * Scalar::one()).raw() == INT64_MIN);
    CHECK((R(INT64_MAX) * Scalar::one()).raw() == INT64_MAX);
    CHECK((R(INT64_MIN) * Scalar::half()).raw() == INT64_MIN / 2);
}

TEST_CASE("scalar: division rounds half away from zero", "[scalar]") {
    CHECK((Scalar::one() / Scalar::from_int(3)).raw() == 1431655765); // 1431655765.33
    CHECK((Scalar::from_int(2) / Scalar::from_int(3)).raw() == 2863311531);
    CHECK((Scalar::from_int(-2) / Scalar::from_int(3)).raw() == -2863311531);
    CHECK((R(1) / R(int64_t{1} << 33)).raw() == 1); // exactly 0.5 raw
    CHECK((R(-1) / R(int64_t{1} << 33)).raw() == -1);
    CHECK((R(1) / R((int64_t{1} << 33) + 1)).raw() == 0);
    CHECK((R(INT64_MIN) / Scalar::one()).raw() == INT64_MIN);
    CHECK((R(INT64_MIN) / R(INT64_MIN)).raw() == kOne);
    CHECK((Scalar::from_int(7) / Scalar::from_int(-7)) == Scalar::from_int(-1));
    CHECK(Scalar::from_int(5).div_int(2) == Scalar::ratio(5, 2));
    CHECK(R(3).div_int(2).raw() == 2); // 1.5 -> 2
    CHECK(R(-3).div_int(2).raw() == -2); // -1.5 -> -2
    CHECK(R(5).div_int(-3).raw() == -2); // -1.67 -> -2
    CHECK(Scalar::from_int(-3).mul_int(5) == Scalar::from_int(-15));
}

TEST_CASE("scalar: mul_div keeps a 128-bit intermediate", "[scalar]") {
    // 40000 * 40000 overflows Q31.32, divided by 80000 it does not.
    CHECK(fx::mul_div(Scalar::from_int(40000), Scalar::from_int(40000), Scalar::from_int(80000)) ==
          Scalar::from_int(20000));
    CHECK(fx::mul_div(R(1), R(1), R(2)).raw() == 1); // exactly 0.5 raw: away from zero
    CHECK(fx::mul_div(R(-1), R(1), R(2)).raw() == -1);
}

TEST_CASE("scalar: floor, ceil, round and trunc at boundaries", "[scalar]") {
    CHECK(fx::floor(R(-1)) == Scalar::from_int(-1));
    CHECK(fx::floor(R(kOne - 1)) == Scalar::zero());
    CHECK(fx::floor(R(INT64_MIN)).raw() == INT64_MIN);
    CHECK(fx::floor(R(INT64_MAX)) == Scalar::from_int(2147483647));
    CHECK(fx::ceil(R(1)) == Scalar::one());
    CHECK(fx::ceil(R(-kOne + 1)) == Scalar::zero());
    CHECK(fx::ceil(R(INT64_MIN)).raw() == INT64_MIN);
    CHECK(fx::round(R(kHalf)) == Scalar::one());
    CHECK(fx::round(R(-kHalf)) == Scalar::from_int(-1));
    CHECK(fx::round(R(kHalf - 1)) == Scalar::zero());
    CHECK(fx::round(R(-kHalf + 1)) == Scalar::zero());
    CHECK(fx::round(R(INT64_MIN)).raw() == INT64_MIN);
    CHECK(fx::round(R(3 * kHalf)) == Scalar::from_int(2));
    CHECK(fx::trunc(R(-3 * kHalf)) == Scalar::from_int(-1));
    CHECK(fx::trunc(R(3 * kHalf)) == Scalar::from_int(1));
    CHECK(fx::trunc(R(-1)) == Scalar::zero());
    CHECK(fx::trunc(R(INT64_MIN)).raw() == INT64_MIN);
    CHECK(fx::floor_to_int(R(-1)) == -1);
    CHECK(fx::round_to_int(R(-kHalf)) == -1);
}

TEST_CASE("scalar: comparisons, abs, min, max, clamp, sign", "[scalar]") {
    CHECK(R(-1) < R(0));
    CHECK(R(INT64_MIN) < R(INT64_MAX));
    CHECK(fx::abs(R(-5)) == R(5));
    CHECK(fx::min(R(3), R(-3)) == R(-3));
    CHECK(fx::max(R(3), R(-3)) == R(3));
    CHECK(fx::clamp(R(10), R(-1), R(1)) == R(1));
    CHECK(fx::clamp(R(-10), R(-1), R(1)) == R(-1));
    CHECK(fx::sign(R(-7)) == -1);
    CHECK(fx::sign(R(0)) == 0);
}

TEST_CASE("scalar: overflow traps in a checked build and wraps otherwise", "[scalar][overflow]") {
    fxtest::ThrowOnOverflow guard;
    if constexpr (fx::kChecked) {
        CHECK_THROWS_WITH(R(INT64_MAX) + R(1), "Scalar::add");
        CHECK_THROWS_WITH(R(INT64_MIN) - R(1), "Scalar::sub");
        CHECK_THROWS_WITH(-R(INT64_MIN), "Scalar::neg");
        CHECK_THROWS_WITH(Scalar::from_int(65536) * Scalar::from_int(65536), "Scalar::mul");
        CHECK_THROWS_WITH(Scalar::from_int(65536) / R(1), "Scalar::div");
        CHECK_THROWS_WITH(Scalar::from_int(int64_t{1} << 31), "Scalar::from_int");
        CHECK_THROWS_WITH(fx::ceil(R(INT64_MAX)), "fx::ceil");
        CHECK_THROWS_WITH(fx::round(R(INT64_MAX)), "fx::round");
        CHECK_THROWS_WITH(R(INT64_MAX).mul_int(2), "Scalar::mul_int");
        CHECK_THROWS_WITH(fx::abs(R(INT64_MIN)), "Scalar::neg");
    } else {
        CHECK((R(INT64_MAX) + R(1)).raw() == INT64_MIN);
        CHECK((R(INT64_MIN) - R(1)).raw() == INT64_MAX);
        CHECK((-R(INT64_MIN)).raw() == INT64_MIN);
        // 65536 * 65536 = 2^32: raw 2^64, which wraps to 0.
        CHECK((Scalar::from_int(65536) * Scalar::from_int(65536)).raw() == 0);
        CHECK((Scalar::from_int(65536) / R(1)).raw() == INT64_MAX); // division saturates
        CHECK((Scalar::from_int(-65536) / R(1)).raw() == INT64_MIN);
    }
}

TEST_CASE("scalar: division by zero is reported in every build", "[scalar][overflow]") {
    fxtest::ThrowOnOverflow guard;
    CHECK_THROWS_WITH(Scalar::one() / Scalar::zero(), "Scalar::div (division by zero)");
    CHECK_THROWS_WITH(Scalar::one().div_int(0), "Scalar::div_int (division by zero)");
    CHECK_THROWS_WITH(Scalar::ratio(1, 0), "Scalar::ratio (division by zero)");
    CHECK_THROWS_WITH(fx::mul_div(Scalar::one(), Scalar::one(), Scalar::zero()),
                      "fx::mul_div (division by zero)");
}

#if FX_COMPILER_HAS_INT128
// Independent reference: exact rational arithmetic in native __int128, rounding written out as
// quotient/remainder rather than the library's add-half-and-shift.
namespace {
__extension__ typedef __int128 i128;
bool ref_round_div(i128 n, i128 d, int64_t* out) {
    const bool neg = (n < 0) != (d < 0);
    const i128 an = n < 0 ? -n : n, ad = d < 0 ? -d : d;
    i128 q = an / ad;
    if (2 * (an % ad) >= ad) ++q;
    const i128 s = neg ? -q : q;
    *out = static_cast<int64_t>(s);
    return s >= INT64_MIN && s <= INT64_MAX;
}
} // namespace

TEST_CASE("scalar: random products and quotients match exact rational arithmetic", "[scalar]") {
    fxtest::Rng rng(99);
    fxtest::ThrowOnOverflow guard;
    int checked_mul = 0, checked_div = 0;
    for (int i = 0; i < 400000; ++i) {
        const int64_t a = rng.spread_i64(), b = rng.spread_i64();
        int64_t expect = 0;
        if (ref_round_div(static_cast<i128>(a) * b, i128{1} << 32, &expect)) {
            REQUIRE((R(a) * R(b)).raw() == expect);
            ++checked_mul;
        }
        if (b != 0 && ref_round_div(static_cast<i128>(a) << 32, b, &expect)) {
            REQUIRE((R(a) / R(b)).raw() == expect);
            ++checked_div;
        }
    }
    CHECK(checked_mul > 100000);
    CHECK(checked_div > 100000);
}
#endif
