// Vectors and rotations: correctly rounded dot/cross/length against exact integer references,
// normalise against a long double reference, rotation conventions and orthonormality.
#include <catch2/catch.hpp>

#include <cmath>

#include "fx/decimal.h"
#include "fx/mat3.h"
#include "fx/trig.h"
#include "fx/vec3.h"
#include "test_support.h"

using fx::Scalar;
using fx::Vec3;
using P = fx::wide::Portable;

using fxtest::I;
using fxtest::R;

namespace {

// Random vector with components up to ~2^(bits) metres.
Vec3 random_vec(fxtest::Rng& rng, int bits) {
    const int64_t lim = int64_t{1} << (32 + bits);
    return {R(rng.range(-lim, lim)), R(rng.range(-lim, lim)), R(rng.range(-lim, lim))};
}

// Exact sum of signed products, in the portable backend, rounded half away from zero:
// a reference written independently of the library's dot().
int64_t ref_round_q64(P::T sum) {
    const bool neg = P::is_neg(sum);
    const P::T mag = neg ? P::neg(sum) : sum;
    const P::T q = P::shr(mag, 32);
    const uint64_t rem = P::lo64(mag) & 0xffffffffu;
    uint64_t r = P::lo64(q) + (rem >= 0x80000000u ? 1 : 0);
    return neg ? -static_cast<int64_t>(r) : static_cast<int64_t>(r);
}
long double ld(Scalar s) {
    return static_cast<long double>(s.raw()) / 4294967296.0L;
}
} // namespace

TEST_CASE("vec3: dot and cross are correctly rounded", "[vec3]") {
    fxtest::Rng rng(3);
    for (int i = 0; i < 200000; ++i) {
        const int bits = static_cast<int>(rng.next() % 18); // up to 131 km
        const Vec3 a = random_vec(rng, bits), b = random_vec(rng, bits);
        P::T d = P::add(P::add(P::smul(a.x.raw(), b.x.raw()), P::smul(a.y.raw(), b.y.raw())),
                        P::smul(a.z.raw(), b.z.raw()));
        const int64_t expect = ref_round_q64(d);
        // Only compare where the result fits (the library reports overflow otherwise).
        if (bits <= 14) {
            REQUIRE(fx::dot(a, b).raw() == expect);
            const Vec3 c = fx::cross(a, b);
            REQUIRE(c.x.raw() == ref_round_q64(P::sub(P::smul(a.y.raw(), b.z.raw()),
                                                      P::smul(a.z.raw(), b.y.raw()))));
            REQUIRE(c.y.raw() == ref_round_q64(P::sub(P::smul(a.z.raw(), b.x.raw()),
                                                      P::smul(a.x.raw(), b.z.raw()))));
            REQUIRE(c.z.raw() == ref_round_q64(P::sub(P::smul(a.x.raw(), b.y.raw()),
                                                      P::smul(a.y.raw(), b.x.raw()))));
        }
    }
    CHECK(fx::cross(Vec3::unit_x(), Vec3::unit_y()) == Vec3::unit_z());
    CHECK(fx::cross(Vec3::unit_y(), Vec3::unit_z()) == Vec3::unit_x());
}

TEST_CASE("vec3: dot of large coordinates does not overflow its intermediate", "[vec3]") {
    // 100 km from the origin: each product is ~1e10 m^2 (beyond Q31.32), the difference small.
    const Vec3 a{I(100000), I(100000), I(0)};
    const Vec3 b{I(1), I(-1), R(1)};
    CHECK(fx::dot(a, b) == Scalar::zero());
    const Vec3 n = fx::normalize(Vec3{I(100000), I(0), I(100000)});
    CHECK(fx::abs(n.x - n.z) == Scalar::zero());
}

TEST_CASE("vec3: length is correctly rounded", "[vec3]") {
    fxtest::Rng rng(4);
    for (int i = 0; i < 200000; ++i) {
        Vec3 v = random_vec(rng, static_cast<int>(rng.next() % 25));
        // A third of the vectors lie in a coordinate plane or along an axis (length() and
        // normalize() take shortcuts there).
        if (i % 3 == 1) (i % 2 == 0 ? v.x : v.y) = Scalar{};
        if (i % 3 == 2) {
            const int keep = static_cast<int>(rng.next() % 3);
            if (keep != 0) v.x = Scalar{};
            if (keep != 1) v.y = Scalar{};
            if (keep != 2) v.z = Scalar{};
        }
        const uint64_t r = static_cast<uint64_t>(fx::length(v).raw());
        // nearest: (2r-1)^2 <= 4 s < (2r+1)^2, s the exact sum of raw squares; compare in 2^-2
        // units by shifting both sides right instead (4s may exceed 128 bits for huge vectors).
        const P::T s = fx::wide::Portable::add(
            fx::wide::Portable::add(P::umul(fx::wide::uabs(v.x.raw()), fx::wide::uabs(v.x.raw())),
                                    P::umul(fx::wide::uabs(v.y.raw()), fx::wide::uabs(v.y.raw()))),
            P::umul(fx::wide::uabs(v.z.raw()), fx::wide::uabs(v.z.raw())));
        // r^2 - r < s <= r^2 + r  <=>  nearest (no ties possible).
        const P::T rr = P::umul(r, r);
        REQUIRE(P::ucmp(P::sub(rr, P::from_u64(r)), s) <= 0);
        REQUIRE(P::ucmp(s, P::add(rr, P::from_u64(r))) <= 0);
    }
    CHECK(fx::length(Vec3{I(3), I(4), I(0)}) == I(5));
    CHECK(fx::length(Vec3{I(-2), I(3), I(6)}) == I(7));
    CHECK(fx::length_sq(Vec3{I(-2), I(3), I(6)}) == I(49));
}

TEST_CASE("vec3: normalize is within 1 raw unit per component and has a minimum length", "[vec3]") {
    fxtest::Rng rng(6);
    long double worst = 0;
    for (int i = 0; i < 200000; ++i) {
        const int bits = static_cast<int>(rng.next() % 40) - 20; // 1e-6 m .. 1e6 m
        const int64_t lim = int64_t{1} << (32 + bits);
        Vec3 v{R(rng.range(-lim, lim)), R(rng.range(-lim, lim)), R(rng.range(-lim, lim))};
        if (i % 3 == 1) v.y = Scalar{};
        if (i % 3 == 2) (i % 2 == 0 ? v.x : v.z) = Scalar{}, v.y = Scalar{};
        Vec3 n;
        if (!fx::try_normalize(v, &n)) {
            REQUIRE(std::sqrt(ld(v.x) * ld(v.x) + ld(v.y) * ld(v.y) + ld(v.z) * ld(v.z)) <
                    ld(fx::kMinNormalizeLength) * 1.0001L);
            continue;
        }
        const long double len =
            std::sqrt(ld(v.x) * ld(v.x) + ld(v.y) * ld(v.y) + ld(v.z) * ld(v.z));
        for (int k = 0; k < 3; ++k) {
            const Scalar c = k == 0 ? v.x : (k == 1 ? v.y : v.z);
            const Scalar u = k == 0 ? n.x : (k == 1 ? n.y : n.z);
            const long double err =
                std::fabs(static_cast<long double>(u.raw()) - ld(c) / len * 4294967296.0L);
            worst = std::max(worst, err);
            REQUIRE(err <= 1.0L);
        }
    }
    WARN("normalize worst component error: " << static_cast<double>(worst) << " raw units");
    CHECK(fx::normalize(Vec3{I(0), I(-7), I(0)}) == -Vec3::unit_y());
    CHECK(fx::normalize(Vec3::zero()) == Vec3::zero());
    Vec3 out{I(1), I(1), I(1)};
    CHECK_FALSE(fx::try_normalize(Vec3{R(100), R(100), R(100)}, &out)); // ~4e-8 m: no direction
    CHECK(out == Vec3::zero());
    CHECK(fx::try_normalize(Vec3{fx::kMinNormalizeLength, R(0), R(0)}, &out));
    CHECK(out == Vec3::unit_x());
}

TEST_CASE("vec3: project_on_plane removes the normal component, and lerp", "[vec3]") {
    const Vec3 n = fx::normalize(Vec3{I(1), I(1), I(0)});
    const Vec3 v{I(3), I(-1), I(2)};
    const Vec3 p = fx::project_on_plane(v, n);
    CHECK(fx::abs(fx::dot(p, n)) <= R(2));
    CHECK(p.z == I(2));
    CHECK(fx::lerp(Vec3{I(0), I(0), I(0)}, Vec3{I(2), I(4), I(-6)}, Scalar::half()) ==
          Vec3{I(1), I(2), I(-3)});
}

TEST_CASE("mat3: rotation conventions (y up, yaw about y, pitch about x, roll about z)", "[mat3]") {
    using fx::Mat3;
    // Yaw 90: +x -> -z, +z -> +x (right-handed about +y).
    const Mat3 yaw = Mat3::from_yaw_pitch_roll_degrees(I(90), I(0), I(0));
    CHECK(yaw * Vec3::unit_x() == -Vec3::unit_z());
    CHECK(yaw * Vec3::unit_z() == Vec3::unit_x());
    // Pitch 90: +y -> +z.
    CHECK(Mat3::from_yaw_pitch_roll_degrees(I(0), I(90), I(0)) * Vec3::unit_y() == Vec3::unit_z());
    // Roll 90: +x -> +y.
    CHECK(Mat3::from_yaw_pitch_roll_degrees(I(0), I(0), I(90)) * Vec3::unit_x() == Vec3::unit_y());
    // Order: roll first, then pitch, then yaw. Roll 90 takes +x to +y, pitch 90 takes +y to +z,
    // yaw 90 takes +z to +x.
    CHECK(Mat3::from_yaw_pitch_roll_degrees(I(90), I(90), I(90)) * Vec3::unit_x() ==
          Vec3::unit_x());
    CHECK(Mat3::identity() * Vec3{I(1), I(2), I(3)} == Vec3{I(1), I(2), I(3)});
}

TEST_CASE("mat3: random rotations are orthonormal within a few raw units and invert by transpose",
          "[mat3]") {
    using fx::Mat3;
    fxtest::Rng rng(8);
    constexpr int64_t kTol = 8; // raw units
    for (int i = 0; i < 3000; ++i) {
        const Mat3 m = Mat3::from_yaw_pitch_roll_degrees(
            R(rng.range(-(int64_t{360} << 32), int64_t{360} << 32)),
            R(rng.range(-(int64_t{90} << 32), int64_t{90} << 32)),
            R(rng.range(-(int64_t{180} << 32), int64_t{180} << 32)));
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                const Scalar d = fx::dot(m.row[a], m.row[b]);
                const Scalar want = a == b ? Scalar::one() : Scalar::zero();
                REQUIRE(fx::abs(d - want).raw() <= kTol);
            }
        }
        const Vec3 v{I(3), I(-2), I(5)};
        const Vec3 back = m.transpose_mul(m * v);
        REQUIRE(fx::abs(back.x - v.x).raw() <= 16 * kTol);
        REQUIRE(fx::abs(back.y - v.y).raw() <= 16 * kTol);
        REQUIRE(fx::abs(back.z - v.z).raw() <= 16 * kTol);
    }
}
