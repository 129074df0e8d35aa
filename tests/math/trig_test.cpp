// Tests of fx/trig.h, in three kinds kept apart:
//   - accuracy: sweeps against a long double reference (sinl, atan2l, ...) with the named
//     tolerances documented in fx/trig.h;
//   - exact values: results pinned to integers computed with mpmath at 60 digits;
//   - determinism: bitwise symmetries. Identical bits across builds and targets are proved by
//     the known-answer file (tests/math/kat.txt), whose trig values are mpmath-checked.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "fx/trig.h"
#include "test_support.h"

using fx::Scalar;

namespace {

// The documented worst-case errors of fx/trig.h, in raw units (2^-32). Every result is one
// rounding of a Q62 value within 2^-59 of the exact one: 0.5 raw plus at most 2^-27.
constexpr long double kSinCosTolRaw = 0.5L + 0x1p-27L;
constexpr long double kSinCosDegTolRaw = 0.5L + 0x1p-27L;
constexpr long double kAtan2TolRaw = 0.5L + 0x1p-27L;
constexpr long double kAsinAcosTolRaw = 0.5L + 0x1p-27L;
// deg_to_rad, rad_to_deg: one rounding of the product with a 123/128-bit constant.
constexpr long double kDegRadTolRaw = 0.5L + 0x1p-60L;

constexpr long double kTwo32 = 4294967296.0L;
const long double kPiL = std::acos(-1.0L);

long double value_of(int64_t raw) {
    return static_cast<long double>(raw) / kTwo32;
}

/// The reference's own uncertainty in raw units: a few units in the last place of a long
/// double of magnitude |ref| (64-bit mantissa on x86-64: ~4e-9 raw for |ref| <= 1).
long double ref_slack_raw(long double ref) {
    const long double mag = std::fabs(ref) > 1.0L ? std::fabs(ref) : 1.0L;
    return 8.0L * LDBL_EPSILON * mag * kTwo32;
}

/// Worst error in raw units, net of the reference's uncertainty, and where it occurred.
struct Worst {
    long double err = 0;
    int64_t at = 0;
    int64_t at2 = 0;
    long double gross = 0; // the error including the reference's uncertainty
    void add(Scalar got, long double ref, int64_t input, int64_t input2 = 0) {
        const long double e = std::fabs(static_cast<long double>(got.raw()) - ref * kTwo32);
        const long double net = e - ref_slack_raw(ref);
        if (net > err) {
            err = net;
            at = input;
            at2 = input2;
        }
        if (e > gross) gross = e;
    }
};

std::string describe(const char* what, const Worst& w) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s: worst error %.10Lf raw (gross %.10Lf) at raw %lld, %lld",
                  what, w.err, w.gross, static_cast<long long>(w.at),
                  static_cast<long long>(w.at2));
    return buf;
}

/// degrees (exact long double) reduced exactly modulo 360, then to radians.
long double deg_ref_radians(int64_t raw) {
    const long double d = std::fmod(value_of(raw), 360.0L); // fmod is exact
    return d * kPiL / 180.0L;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Accuracy

TEST_CASE("trig: sin and cos accuracy, dense sweep over [-4pi, 4pi]", "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst ws, wc;
    const int64_t kSteps = fxtest::scaled(int64_t{1} << 20);
    const long double span = 4.0L * kPiL * kTwo32;
    for (int64_t i = -kSteps; i <= kSteps; ++i) {
        const int64_t raw = std::llround(span * static_cast<long double>(i) / kSteps) + (i & 7) - 3;
        const long double x = value_of(raw);
        ws.add(fx::sin(Scalar::from_raw(raw)), std::sin(x), raw);
        wc.add(fx::cos(Scalar::from_raw(raw)), std::cos(x), raw);
    }
    WARN(describe("sin", ws));
    WARN(describe("cos", wc));
    REQUIRE(ws.err <= kSinCosTolRaw);
    REQUIRE(wc.err <= kSinCosTolRaw);
}

TEST_CASE("trig: sin and cos accuracy, random points over the whole raw range",
          "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst ws, wc;
    fxtest::Rng rng(0x7419);
    auto check = [&](int64_t raw) {
        const long double x = value_of(raw);
        ws.add(fx::sin(Scalar::from_raw(raw)), std::sin(x), raw);
        wc.add(fx::cos(Scalar::from_raw(raw)), std::cos(x), raw);
    };
    for (int64_t i = 0, n = fxtest::scaled(300000); i < n; ++i) {
        check(rng.next_i64()); // uniform: mostly huge angles
        check(rng.spread_i64()); // every magnitude
    }
    // Points next to multiples of pi/2 up to 2^31 rad, where the reduced angle is tiny and the
    // range reduction must cancel almost every bit.
    const long double half_pi_raw = kPiL / 2.0L * kTwo32;
    for (int64_t i = 0, n = fxtest::scaled(100000); i < n; ++i) {
        const int64_t k = rng.range(0, 1367130550); // 2^31 / (pi/2)
        const int64_t raw =
            std::llround(half_pi_raw * static_cast<long double>(k)) + rng.range(-2, 2);
        check(raw);
        check(-raw);
    }
    for (int64_t raw : {INT64_MIN, INT64_MIN + 1, INT64_MAX, int64_t{0}, int64_t{1}, int64_t{-1}}) {
        check(raw);
    }
    WARN(describe("sin", ws));
    WARN(describe("cos", wc));
    REQUIRE(ws.err <= kSinCosTolRaw);
    REQUIRE(wc.err <= kSinCosTolRaw);
}

TEST_CASE("trig: sincos_deg accuracy", "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst ws, wc;
    auto check = [&](int64_t raw) {
        const fx::SinCos sc = fx::sincos_deg(Scalar::from_raw(raw));
        const long double r = deg_ref_radians(raw);
        ws.add(sc.sin, std::sin(r), raw);
        wc.add(sc.cos, std::cos(r), raw);
    };
    // Dense over [-720, 720] degrees, and every multiple of 1/16 degree in [0, 90].
    const int64_t kSteps = fxtest::scaled(int64_t{1} << 19);
    const int64_t span = int64_t{720} << 32;
    for (int64_t i = -kSteps; i <= kSteps; ++i)
        check(span / kSteps * i + (i % 5));
    for (int64_t i = 0; i <= 90 * 16; ++i)
        check(i << 28);
    fxtest::Rng rng(0xdea);
    for (int64_t i = 0, n = fxtest::scaled(200000); i < n; ++i)
        check(rng.spread_i64());
    WARN(describe("sincos_deg sin", ws));
    WARN(describe("sincos_deg cos", wc));
    REQUIRE(ws.err <= kSinCosDegTolRaw);
    REQUIRE(wc.err <= kSinCosDegTolRaw);
}

TEST_CASE("trig: atan2 accuracy over magnitudes, axes, diagonals and extremes",
          "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst w;
    auto check = [&](int64_t y, int64_t x) {
        if (x == 0 && y == 0) return;
        const long double ref =
            std::atan2(static_cast<long double>(y), static_cast<long double>(x));
        w.add(fx::atan2(Scalar::from_raw(y), Scalar::from_raw(x)), ref, y, x);
    };
    fxtest::Rng rng(0xa7a2);
    for (int64_t i = 0, n = fxtest::scaled(600000); i < n; ++i) {
        const int64_t y = rng.spread_i64();
        const int64_t x = rng.spread_i64();
        check(y, x);
        check(y >> (rng.next() % 63), x); // very different magnitudes
        check(y, x >> (rng.next() % 63));
    }
    // Near-diagonal, axes, tiny and huge.
    const int64_t extremes[] = {INT64_MIN, INT64_MIN + 1,    INT64_MAX,          -1, 1, -2,
                                2,         int64_t{1} << 32, -(int64_t{1} << 32)};
    for (int64_t i = 0, n = fxtest::scaled(100000); i < n; ++i) {
        const int64_t m = (rng.spread_i64() & INT64_MAX) >> 1; // room for m + d
        const int64_t d = rng.range(-3, 3);
        const int64_t sy = (rng.next() & 1) ? -1 : 1;
        const int64_t sx = (rng.next() & 1) ? -1 : 1;
        check(sy * m, sx * m);
        if (m + d >= 0) check(sy * m, sx * (m + d));
        check(0, sx * m);
        check(sy * m, 0);
    }
    for (int64_t a : extremes) {
        for (int64_t b : extremes)
            check(a, b);
        check(a, 0);
        check(0, a);
    }
    WARN(describe("atan2", w));
    REQUIRE(w.err <= kAtan2TolRaw);
}

TEST_CASE("trig: asin and acos accuracy over [-1, 1]", "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst ws, wc;
    auto check = [&](int64_t raw) {
        const long double x = value_of(raw);
        ws.add(fx::asin(Scalar::from_raw(raw)), std::asin(x), raw);
        wc.add(fx::acos(Scalar::from_raw(raw)), std::acos(x), raw);
    };
    const int64_t one = Scalar::kOneRaw;
    for (int64_t raw = -one, step = fxtest::spaced(4099); raw <= one; raw += step)
        check(raw); // ~2.1 million points at full scale
    for (int64_t k = 0, n = fxtest::scaled(100000); k <= n; ++k) { // next to +-1 and 0
        check(one - k);
        check(-one + k);
        check(k);
        check(-k);
    }
    WARN(describe("asin", ws));
    WARN(describe("acos", wc));
    REQUIRE(ws.err <= kAsinAcosTolRaw);
    REQUIRE(wc.err <= kAsinAcosTolRaw);
}

TEST_CASE("trig: deg_to_rad and rad_to_deg accuracy", "[trig][accuracy]") {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    Worst wd, wr;
    fxtest::Rng rng(0xd2);
    const long double rad_per_deg = kPiL / 180.0L;
    const long double deg_per_rad = 180.0L / kPiL;
    for (int64_t i = 0, n = fxtest::scaled(300000); i < n; ++i) {
        const int64_t d = rng.spread_i64();
        wd.add(fx::deg_to_rad(Scalar::from_raw(d)), value_of(d) * rad_per_deg, d);
        const int64_t r = rng.spread_i64() / 64; // |r| < 2^57: rad_to_deg does not overflow
        wr.add(fx::rad_to_deg(Scalar::from_raw(r)), value_of(r) * deg_per_rad, r);
    }
    WARN(describe("deg_to_rad", wd));
    WARN(describe("rad_to_deg", wr));
    REQUIRE(wd.err <= kDegRadTolRaw);
    REQUIRE(wr.err <= kDegRadTolRaw);
}

// ---------------------------------------------------------------------------------------------
// Exact values (expected raws from mpmath at 60 digits, or exact by construction)

TEST_CASE("trig: constants are pi, pi/2 and 2 pi rounded to the nearest raw", "[trig][exact]") {
    // pi * 2^32 = 13493037704.522...
    CHECK(fx::kPi.raw() == 13493037705);
    CHECK(fx::kHalfPi.raw() == 6746518852);
    CHECK(fx::kTwoPi.raw() == 26986075409);
    CHECK(std::fabs(static_cast<long double>(fx::kPi.raw()) - kPiL * kTwo32) <= 0.5L);
    CHECK(std::fabs(static_cast<long double>(fx::kHalfPi.raw()) - kPiL / 2 * kTwo32) <= 0.5L);
    CHECK(std::fabs(static_cast<long double>(fx::kTwoPi.raw()) - kPiL * 2 * kTwo32) <= 0.5L);
}

TEST_CASE("trig: sin and cos exact values", "[trig][exact]") {
    CHECK(fx::sin(Scalar::zero()) == Scalar::zero());
    CHECK(fx::cos(Scalar::zero()) == Scalar::one());
    CHECK(fx::sincos(Scalar::zero()).sin == Scalar::zero());
    CHECK(fx::sincos(Scalar::zero()).cos == Scalar::one());
    CHECK(fx::sin(Scalar::one()).raw() == 3614090360);
    CHECK(fx::cos(Scalar::one()).raw() == 2320580734);
    // At the rounded constants the true values round to exact 0 and +-1.
    CHECK(fx::sin(fx::kHalfPi) == Scalar::one());
    CHECK(fx::cos(fx::kHalfPi) == Scalar::zero());
    CHECK(fx::sin(fx::kPi) == Scalar::zero());
    CHECK(fx::cos(fx::kPi) == -Scalar::one());
    CHECK(fx::sin(fx::kTwoPi) == Scalar::zero());
    CHECK(fx::cos(fx::kTwoPi) == Scalar::one());
    // The ends of the range: the reduction of 2^31 rad.
    CHECK(fx::sin(Scalar::max_value()).raw() == -4171745440);
    CHECK(fx::cos(Scalar::max_value()).raw() == 1021412777);
    CHECK(fx::sin(Scalar::min_value()).raw() == 4171745439);
    CHECK(fx::cos(Scalar::min_value()).raw() == 1021412778);
    CHECK(fx::sin(Scalar::from_raw((int64_t{1} << 62) + 12345)).raw() == -2651387052);
    CHECK(fx::cos(Scalar::from_raw((int64_t{1} << 62) + 12345)).raw() == 3378888985);
}

TEST_CASE("trig: sincos_deg is exact at multiples of 90 and symmetric at 45", "[trig][exact]") {
    const Scalar one = Scalar::one();
    const Scalar zero = Scalar::zero();
    for (int64_t turns = -3; turns <= 3; ++turns) {
        const int64_t base = 360 * turns;
        auto at = [&](int64_t deg) { return fx::sincos_deg(Scalar::from_int(base + deg)); };
        INFO("turns " << turns);
        CHECK(at(0).sin == zero);
        CHECK(at(0).cos == one);
        CHECK(at(90).sin == one);
        CHECK(at(90).cos == zero);
        CHECK(at(180).sin == zero);
        CHECK(at(180).cos == -one);
        CHECK(at(270).sin == -one);
        CHECK(at(270).cos == zero);
        for (int64_t deg : {45, 135, 225, 315}) {
            const fx::SinCos sc = at(deg);
            CHECK(fx::abs(sc.sin) == fx::abs(sc.cos));
            CHECK(fx::abs(sc.sin).raw() == 3037000500); // round(sqrt(1/2) * 2^32)
        }
        CHECK(at(30).sin.raw() == 2147483648); // exactly 1/2
        CHECK(at(30).cos.raw() == 3719550787);
    }
    // Far from zero: 2^31 - 1 degrees = 5965232 turns + 127 degrees.
    const fx::SinCos wrapped = fx::sincos_deg(Scalar::from_int(2147483647));
    const fx::SinCos direct = fx::sincos_deg(Scalar::from_int(127));
    CHECK(wrapped.sin == direct.sin);
    CHECK(wrapped.cos == direct.cos);
}

TEST_CASE("trig: sincos_deg(55) against the reference", "[trig][exact][accuracy]") {
    const fx::SinCos sc = fx::sincos_deg(Scalar::from_int(55));
    CHECK(sc.sin.raw() == 3518231241);
    CHECK(sc.cos.raw() == 2463492036);
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    const long double r = 55.0L * kPiL / 180.0L;
    CHECK(std::fabs(static_cast<long double>(sc.sin.raw()) - std::sin(r) * kTwo32) <=
          kSinCosDegTolRaw);
    CHECK(std::fabs(static_cast<long double>(sc.cos.raw()) - std::cos(r) * kTwo32) <=
          kSinCosDegTolRaw);
}

TEST_CASE("trig: atan2 exact values and range", "[trig][exact]") {
    const Scalar one = Scalar::one();
    const Scalar zero = Scalar::zero();
    CHECK(fx::atan2(zero, zero) == zero);
    CHECK(fx::atan2(zero, one) == zero);
    CHECK(fx::atan2(zero, -one) == fx::kPi);
    CHECK(fx::atan2(one, zero) == fx::kHalfPi);
    CHECK(fx::atan2(-one, zero) == -fx::kHalfPi);
    CHECK(fx::atan2(zero, Scalar::min_value()) == fx::kPi);
    CHECK(fx::atan2(Scalar::max_value(), zero) == fx::kHalfPi);
    CHECK(fx::atan2(Scalar::min_value(), zero) == -fx::kHalfPi);
    CHECK(fx::atan2(one, one).raw() == 3373259426); // round(pi/4 * 2^32)
    CHECK(std::fabs(static_cast<long double>(fx::atan2(one, one).raw()) - kPiL / 4 * kTwo32) <=
          kAtan2TolRaw);
    CHECK(fx::atan2(-one, -one).raw() == -10119778278); // -3pi/4 * 2^32 = -10119778278.39
    CHECK(fx::atan2(one, Scalar::from_int(2)).raw() == 1991351318);
    CHECK(fx::atan2(Scalar::epsilon(), Scalar::max_value()) == zero);
    // Rounding to nearest can reach -kPi (whose magnitude exceeds pi) just below the negative
    // x axis: atan2(-2^-32, -2^31) = -pi + 2^-63.
    CHECK(fx::atan2(-Scalar::epsilon(), Scalar::min_value()) == -fx::kPi);
    fxtest::Rng rng(0x4a);
    for (int i = 0; i < 100000; ++i) {
        const Scalar a =
            fx::atan2(Scalar::from_raw(rng.spread_i64()), Scalar::from_raw(rng.spread_i64()));
        REQUIRE(a >= -fx::kPi);
        REQUIRE(a <= fx::kPi);
    }
}

TEST_CASE("trig: asin and acos exact values and clamping", "[trig][exact]") {
    const Scalar one = Scalar::one();
    const Scalar zero = Scalar::zero();
    CHECK(fx::asin(one) == fx::kHalfPi);
    CHECK(fx::asin(-one) == -fx::kHalfPi);
    CHECK(fx::asin(zero) == zero);
    CHECK(fx::acos(one) == zero);
    CHECK(fx::acos(-one) == fx::kPi);
    CHECK(fx::acos(zero) == fx::kHalfPi);
    CHECK(fx::asin(Scalar::half()).raw() == 2248839617);
    CHECK(fx::acos(Scalar::half()).raw() == 4497679235);
    const Scalar below_one = Scalar::from_raw(Scalar::kOneRaw - 1);
    CHECK(fx::asin(below_one).raw() == 6746426170);
    CHECK(fx::acos(below_one).raw() == 92682);
    CHECK(fx::acos(-below_one).raw() == 13492945023);
    // Inputs beyond [-1, 1] (a normal's component a raw unit over 1) are clamped.
    CHECK(fx::asin(Scalar::from_raw(Scalar::kOneRaw + 1)) == fx::kHalfPi);
    CHECK(fx::asin(Scalar::from_int(2)) == fx::kHalfPi);
    CHECK(fx::asin(Scalar::min_value()) == -fx::kHalfPi);
    CHECK(fx::acos(Scalar::max_value()) == zero);
    CHECK(fx::acos(Scalar::from_int(-3)) == fx::kPi);
}

TEST_CASE("trig: deg_to_rad and rad_to_deg exact values", "[trig][exact]") {
    CHECK(fx::deg_to_rad(Scalar::from_int(180)) == fx::kPi);
    CHECK(fx::deg_to_rad(Scalar::from_int(-180)) == -fx::kPi);
    CHECK(fx::deg_to_rad(Scalar::from_int(90)) == fx::kHalfPi);
    CHECK(fx::deg_to_rad(Scalar::from_int(360)) == fx::kTwoPi);
    CHECK(fx::deg_to_rad(Scalar::zero()) == Scalar::zero());
    CHECK(fx::deg_to_rad(Scalar::from_int(int64_t{180} << 23)).raw() ==
          113187804032455044); // pi 2^23
    CHECK(fx::deg_to_rad(Scalar::max_value()).raw() == 160978210179491619);
    CHECK(fx::deg_to_rad(Scalar::min_value()).raw() == -160978210179491619);
    CHECK(fx::rad_to_deg(fx::kPi).raw() == 773094113307); // 180 deg + 27 raw: kPi exceeds pi
    CHECK(fx::rad_to_deg(Scalar::one()).raw() == 246083499208);
    CHECK(fx::rad_to_deg(-Scalar::one()).raw() == -246083499208);
    CHECK(fx::rad_to_deg(Scalar::from_int(37000000)).raw() == 9105089470678068776);
}

TEST_CASE("trig: rad_to_deg reports overflow in a checked build", "[trig][exact]") {
    if (!fx::kChecked) return;
    fxtest::ThrowOnOverflow guard;
    CHECK_NOTHROW(fx::rad_to_deg(Scalar::from_int(37000000)));
    CHECK_THROWS_AS(fx::rad_to_deg(Scalar::from_int(38000000)), fxtest::OverflowError);
    CHECK_THROWS_AS(fx::rad_to_deg(Scalar::min_value()), fxtest::OverflowError);
}

// ---------------------------------------------------------------------------------------------
// Determinism: bitwise identities and a digest of outputs

TEST_CASE("trig: odd and even symmetries hold bit for bit", "[trig][determinism]") {
    fxtest::Rng rng(0x5e);
    for (int i = 0; i < 200000; ++i) {
        const int64_t raw = rng.spread_i64();
        if (raw == INT64_MIN) continue;
        const Scalar x = Scalar::from_raw(raw);
        REQUIRE(fx::sin(-x) == -fx::sin(x));
        REQUIRE(fx::cos(-x) == fx::cos(x));
        REQUIRE(fx::sincos_deg(-x).sin == -fx::sincos_deg(x).sin);
        REQUIRE(fx::sincos_deg(-x).cos == fx::sincos_deg(x).cos);
        REQUIRE(fx::deg_to_rad(-x) == -fx::deg_to_rad(x));
        const Scalar other = Scalar::from_raw(rng.spread_i64());
        if (raw != 0) REQUIRE(fx::atan2(-x, other) == -fx::atan2(x, other));
        const Scalar u = Scalar::from_raw(rng.range(-Scalar::kOneRaw, Scalar::kOneRaw));
        REQUIRE(fx::asin(-u) == -fx::asin(u));
    }
}

TEST_CASE("trig: sincos equals sin and cos bit for bit", "[trig][determinism]") {
    fxtest::Rng rng(0x5c);
    for (int i = 0; i < 200000; ++i) {
        const Scalar x = Scalar::from_raw(rng.spread_i64());
        const fx::SinCos sc = fx::sincos(x);
        REQUIRE(sc.sin == fx::sin(x));
        REQUIRE(sc.cos == fx::cos(x));
    }
}

// The accuracy tests run where the platform's long double math is a reference, decided by what it
// offers (fxtest::long_double_reference), not by a list of targets. glibc's long double
// functions are accurate on every architecture the test command runs (x87 extended on x86-64 and
// i686, IEEE quad on AArch64 and s390x), so there the reference must be found, or the accuracy
// tests would pass by skipping; a long double of double precision never is one.
TEST_CASE("the long double reference is found where the platform has one", "[trig]") {
    if (std::numeric_limits<long double>::digits < 64) {
        CHECK_FALSE(fxtest::long_double_reference());
        return;
    }
#if defined(__GLIBC__)
    CHECK(fxtest::long_double_reference());
#else
    WARN("not glibc: long_double_reference() = " << fxtest::long_double_reference());
#endif
}
