// Trigonometry on Q31.32 with integer arithmetic only (contract and accuracy in fx/trig.h).
//
// Internal format: Q62 (an int64 r stands for r / 2^62) for reduced angles and polynomial
// values, with 64x64 -> 128-bit products from fx/wide.h (wide::Default, so the portable
// two-limb backend gives the same bits as __int128). Each public result is one final rounding
// of a Q62 value that is within a few units of 2^-62 of the true value, so results are
// correctly rounded except when the true value lies within ~2^-28 raw units of a half.
//
// Constants: computed with Python's `decimal` module at 80 significant digits (pi by Machin's
// formula 16 atan(1/5) - 4 atan(1/239); atan(k/16) by its Taylor series after four argument
// halvings atan(x) = 2 atan(x / (1 + sqrt(1 + x^2)))), rounded to the nearest integer, and
// cross-checked against mpmath at 100 digits, which also confirmed that none of them lies
// within 1e-6 of a rounding tie. Polynomial coefficients (1/n!, 1/(2n+1)) are computed below
// by constexpr integer division, so they need no pasted digits.
#include "fx/trig.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "fx/overflow.h"
#include "fx/wide.h"

namespace fx {

// round(pi * 2^32) = round(13493037704.522...), and likewise pi/2 and 2*pi.
const Scalar kPi = Scalar::from_raw(13493037705);
const Scalar kHalfPi = Scalar::from_raw(6746518852);
const Scalar kTwoPi = Scalar::from_raw(26986075409);

namespace {

using B = wide::Default;
using W = B::T;

constexpr int kQ = 62; // fraction bits of the internal format
constexpr int64_t kOneQ62 = int64_t{1} << kQ;
constexpr int kQ62ToRaw = kQ - Scalar::kFracBits; // 30

constexpr uint64_t kPiQ62 = 14488038916154245685u; // round(pi * 2^62)
constexpr uint64_t kHalfPiQ62 = 7244019458077122842u; // round(pi/2 * 2^62)
constexpr uint64_t kTwoOverPiQ64 = 11743562013128004906u; // round(2/pi * 2^64)
// round(pi/2 * 2^126), 127 significant bits, as high and low 64-bit halves.
constexpr uint64_t kHalfPiQ126Hi = 0x6487ed5110b4611au;
constexpr uint64_t kHalfPiQ126Lo = 0x62633145c06e0e69u;
// round(pi/180 * 2^128), 123 significant bits.
constexpr uint64_t kPiOver180Q128Hi = 0x0477d1a894a74e45u;
constexpr uint64_t kPiOver180Q128Lo = 0x70762fb374a42e27u;
// round(180/pi * 2^122), 128 significant bits.
constexpr uint64_t k180OverPiQ122Hi = 0xe52ee0d31e0fbdc3u;
constexpr uint64_t k180OverPiQ122Lo = 0x0a97537f40d257d7u;

// round(atan(k/16) * 2^62) for k = 0..16.
constexpr std::array<uint64_t, 17> kAtanTableQ62 = {
    0u,
    287855953345232185u,
    573486189672913778u,
    854766549539324179u,
    1129764675555192497u,
    1396809912678075341u,
    1654537683908620430u,
    1901907467368135863u,
    2138197195906305897u,
    2362979310104584075u,
    2576084652473018343u,
    2777560133246350984u,
    2967625066264511049u,
    3146629716257419296u,
    3315018258881210269u,
    3473297232174029200u,
    3622009729038561421u,
};

// ---------------------------------------------------------------------------------------------
// Q62 helpers.

/// a * b / 2^62 rounded half up (internal: the bias is far below the final rounding).
constexpr int64_t mul_q62(int64_t a, int64_t b) {
    const W p = B::add(B::smul(a, b), B::from_u64(uint64_t{1} << (kQ - 1)));
    // Bits 62..125 of the two's complement product: the result fits in int64.
    return static_cast<int64_t>(B::lo64(B::shr(p, kQ)));
}

/// A Q62 value rounded to raw units, half away from zero (so negation commutes with it).
constexpr int64_t q62_to_raw(int64_t v) {
    constexpr int64_t half = int64_t{1} << (kQ62ToRaw - 1);
    return v >= 0 ? (v + half) >> kQ62ToRaw : -((half - v) >> kQ62ToRaw);
}

/// 2^62 / d rounded to nearest (ties up), d > 0.
constexpr int64_t inv_q62(uint64_t d) {
    return static_cast<int64_t>(((uint64_t{1} << kQ) + d / 2) / d);
}

constexpr uint64_t factorial(int n) {
    uint64_t f = 1;
    for (int i = 2; i <= n; ++i)
        f *= static_cast<uint64_t>(i);
    return f; // exact up to 20! < 2^63
}

/// Evaluates c[0] + z (c[1] + z (c[2] + ...)) in Q62 (Horner).
template <std::size_t N> constexpr int64_t horner_q62(const std::array<int64_t, N>& c, int64_t z) {
    int64_t p = c[N - 1];
    for (std::size_t i = N - 1; i-- > 0;)
        p = c[i] + mul_q62(z, p);
    return p;
}

// ---------------------------------------------------------------------------------------------
// sin and cos on the reduced range |y| <= pi/4 (+ 2^-33), Taylor series.
//
// Truncation at pi/4: sin stops after y^17/17!, the first omitted term y^19/19! < 2^-63;
// cos stops after y^18/18!, the first omitted term y^20/20! < 2^-68. Each Horner step adds at
// most 2^-63 of rounding, damped by y^2 < 0.62, so the Q62 value is within ~2^-60 of the truth.

constexpr std::array<int64_t, 9> kSinCoeffs = [] {
    std::array<int64_t, 9> c{};
    for (int n = 0; n < 9; ++n) {
        const int64_t v = inv_q62(factorial(2 * n + 1)); // (-1)^n / (2n+1)!
        c[static_cast<std::size_t>(n)] = n % 2 == 0 ? v : -v;
    }
    return c;
}();

constexpr std::array<int64_t, 10> kCosCoeffs = [] {
    std::array<int64_t, 10> c{};
    for (int n = 0; n < 10; ++n) {
        const int64_t v = inv_q62(factorial(2 * n)); // (-1)^n / (2n)!
        c[static_cast<std::size_t>(n)] = n % 2 == 0 ? v : -v;
    }
    return c;
}();

static_assert(kSinCoeffs[0] == kOneQ62 && kCosCoeffs[0] == kOneQ62);

constexpr int64_t sin_q62(int64_t y) {
    return mul_q62(y, horner_q62(kSinCoeffs, mul_q62(y, y)));
}
constexpr int64_t cos_q62(int64_t y) {
    return horner_q62(kCosCoeffs, mul_q62(y, y));
}

/// x = quadrant * pi/2 + y (mod 2 pi), with |y| <= pi/4 + 2^-33 in Q62.
struct Reduced {
    unsigned quadrant;
    int64_t y;
};

/// Reduces a non-negative angle m / 2^32 (m <= 2^63) modulo pi/2.
///
/// One-step reduction with pi/2 held to 127 bits (Cody and Waite's idea of a constant split
/// into parts, with the parts as limbs of 128-bit integers). k = round(x * 2/pi) comes from a
/// Q64 constant; it may be off by one at a quadrant boundary, where |y| then exceeds pi/4 by at
/// most 2^-33, which the series covers. y = x - k * pi/2 is computed modulo 2^128 in Q126: the
/// high bits of m * 2^94 and k * pi/2 cancel and the true y fits, so the wrapped difference is
/// exact apart from the constant's rounding, k < 2^31 times 2^-127, under 2^-96.
constexpr Reduced reduce_half_pi(uint64_t m) {
    const W kx = B::add(B::umul(m, kTwoOverPiQ64), B::shl(B::from_u64(1), 95));
    const uint64_t k = B::lo64(B::shr(kx, 96));
    const W x126 = B::shl(B::from_u64(m), 126 - Scalar::kFracBits); // wraps: intended
    const W k_half_pi = B::add(B::shl(B::from_u64(k * kHalfPiQ126Hi), 64), // wraps: intended
                               B::umul(k, kHalfPiQ126Lo));
    const W y126 = B::sub(x126, k_half_pi);
    // To Q62, rounding half up: the high limb of y126 + 2^63, read as signed.
    const int64_t y = static_cast<int64_t>(B::hi64(B::add(y126, B::from_u64(uint64_t{1} << 63))));
    return {static_cast<unsigned>(k & 3u), y};
}

/// sin and cos of quadrant * pi/2 + a, from s = sin(a) and c = cos(a) in Q62, rounded to raw.
/// Quadrants 0..3 give (s, c), (c, -s), (-s, -c), (-c, s).
constexpr SinCos from_quadrant(unsigned quadrant, int64_t s, int64_t c) {
    const bool odd = (quadrant & 1u) != 0;
    const bool negate = (quadrant & 2u) != 0;
    const int64_t rs = odd ? c : s;
    const int64_t rc = odd ? -s : c;
    return {Scalar::from_raw(q62_to_raw(negate ? -rs : rs)),
            Scalar::from_raw(q62_to_raw(negate ? -rc : rc))};
}

// ---------------------------------------------------------------------------------------------
// atan.
//
// atan(t), 0 <= t <= 1: take c = k/16 nearest to t and use atan(t) = atan(c) + atan(u) with
// u = (t - c) / (1 + t c), |u| <= 1/32: the addition formula for atan, i.e. the breakpoint
// scheme of classic libm atan (fdlibm's s_atan.c uses four breakpoints; this uses 17 and a
// table of its own). atan(u) is the Taylor series u - u^3/3 + ... - u^11/11: the first omitted
// term is below 2^-68.

constexpr std::array<int64_t, 6> kAtanCoeffs = [] {
    std::array<int64_t, 6> c{};
    for (int n = 0; n < 6; ++n) {
        const int64_t v = inv_q62(static_cast<uint64_t>(2 * n + 1)); // (-1)^n / (2n+1)
        c[static_cast<std::size_t>(n)] = n % 2 == 0 ? v : -v;
    }
    return c;
}();

/// atan(t) in Q62 for t in [0, 1] given in Q62 (t <= 2^62).
constexpr uint64_t atan_unit_q62(uint64_t t) {
    constexpr int kStepShift = kQ - 4; // c = k / 16 = k << 58 in Q62
    const uint64_t k = (t + (uint64_t{1} << (kStepShift - 1))) >> kStepShift; // 0..16
    const uint64_t c = k << kStepShift;
    // 1 + t c in Q62 (t * k / 16, floored): at most 2^63.
    const uint64_t den = (uint64_t{1} << kQ) + B::lo64(B::shr(B::umul(t, k), 4));
    const bool below = t < c;
    const uint64_t num = below ? c - t : t - c; // <= 2^57
    uint64_t rem = 0;
    uint64_t u = B::udiv64(B::shl(B::from_u64(num), kQ), den, &rem);
    if (rem >= den - rem) ++u; // round half up
    const int64_t us = static_cast<int64_t>(u);
    const uint64_t a = static_cast<uint64_t>(mul_q62(us, horner_q62(kAtanCoeffs, mul_q62(us, us))));
    const uint64_t base = kAtanTableQ62[static_cast<std::size_t>(k)];
    return below ? base - a : base + a;
}

/// Angle of the vector (x, y) in Q62, in [0, pi], from |y| = ay, |x| = ax (not both zero) and
/// the sign of x. The first octant is reduced by symmetry: atan(ay/ax) or pi/2 - atan(ax/ay),
/// then pi - angle when x < 0. The ratio is formed from the full 64-bit magnitudes, so its
/// precision (2^-62) does not depend on their size.
constexpr uint64_t angle_q62(uint64_t ay, uint64_t ax, bool x_negative) {
    const bool steep = ay > ax;
    const uint64_t lo = steep ? ax : ay;
    const uint64_t hi = steep ? ay : ax;
    uint64_t rem = 0;
    uint64_t t = B::udiv64(B::shl(B::from_u64(lo), kQ), hi, &rem); // lo <= hi, hi > 0
    if (rem >= hi - rem) ++t; // stays <= 2^62
    uint64_t a = atan_unit_q62(t);
    if (steep) a = kHalfPiQ62 - a;
    if (x_negative) a = kPiQ62 - a;
    return a;
}

/// A Q62 angle in [0, pi] rounded to raw (half up: it is a magnitude), with a sign.
constexpr Scalar angle_to_scalar(uint64_t a, bool negative) {
    const int64_t r = static_cast<int64_t>((a + (uint64_t{1} << (kQ62ToRaw - 1))) >> kQ62ToRaw);
    return Scalar::from_raw(negative ? -r : r);
}

/// For |x| = a / 2^32 <= 1: y = |x| and w = sqrt(1 - x^2), both in Q62. 1 - x^2 is exact in
/// 128 bits (2^64 - a^2 in units of 2^-64) and its root is rounded to nearest.
struct AsinLegs {
    uint64_t y;
    uint64_t w;
};
constexpr AsinLegs asin_legs(uint64_t a) {
    const W one_minus_sq = B::sub(B::shl(B::from_u64(1), 64), B::umul(a, a));
    return {a << kQ62ToRaw, wide::isqrt_round<B>(B::shl(one_minus_sq, 2 * kQ - 64))};
}

/// x clamped to [-1, 1], as a raw value.
constexpr int64_t clamp_unit_raw(Scalar x) {
    return x.raw() > Scalar::kOneRaw ? Scalar::kOneRaw
                                     : (x.raw() < -Scalar::kOneRaw ? -Scalar::kOneRaw : x.raw());
}

/// Magnitude m times a 128-bit constant khi:klo, divided by 2^s (64 < s < 192), rounded half
/// up. The low 64 bits of m * klo cannot affect the result since the rounding bit is above
/// them. False when the result does not fit in 64 bits.
constexpr bool mul_const_shift(uint64_t m, uint64_t khi, uint64_t klo, int s, uint64_t* out) {
    const W low = B::umul(m, klo);
    const W top = B::add(B::umul(m, khi), B::from_u64(B::hi64(low)));
    return wide::shr_round_u64<B>(top, s - 64, out);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Public functions. Odd functions work on the magnitude and apply the sign last, so
// sin(-x) == -sin(x) and cos(-x) == cos(x) bit for bit.

Scalar sin(Scalar radians) {
    const Reduced r = reduce_half_pi(wide::uabs(radians.raw()));
    const int64_t v = (r.quadrant & 1u) == 0 ? sin_q62(r.y) : cos_q62(r.y);
    const int64_t raw = q62_to_raw((r.quadrant & 2u) == 0 ? v : -v);
    return Scalar::from_raw(radians.raw() < 0 ? -raw : raw);
}

Scalar cos(Scalar radians) {
    const Reduced r = reduce_half_pi(wide::uabs(radians.raw()));
    const int64_t v = (r.quadrant & 1u) == 0 ? cos_q62(r.y) : sin_q62(r.y);
    // quadrant 0: cos y, 1: -sin y, 2: -cos y, 3: sin y
    const bool negate = r.quadrant == 1u || r.quadrant == 2u;
    return Scalar::from_raw(q62_to_raw(negate ? -v : v));
}

SinCos sincos(Scalar radians) {
    const Reduced r = reduce_half_pi(wide::uabs(radians.raw()));
    SinCos out = from_quadrant(r.quadrant, sin_q62(r.y), cos_q62(r.y));
    if (radians.raw() < 0) out.sin = Scalar::from_raw(-out.sin.raw());
    return out;
}

SinCos sincos_deg(Scalar degrees) {
    // Exact reduction in raw degrees: m in [0, 360), quadrant, then the octant by a -> 90 - a.
    constexpr int64_t k90 = int64_t{90} << Scalar::kFracBits;
    constexpr int64_t k45 = k90 / 2;
    constexpr int64_t k360 = 4 * k90;
    int64_t m = degrees.raw() % k360;
    if (m < 0) m += k360;
    const unsigned quadrant = static_cast<unsigned>(m / k90);
    int64_t a = m - static_cast<int64_t>(quadrant) * k90;
    const bool swap = a > k45;
    if (swap) a = k90 - a;
    // a in [0, 45] degrees to Q62 radians: a * pi/180 * 2^30 = a * (pi/180 * 2^128) / 2^98.
    uint64_t y = 0;
    mul_const_shift(static_cast<uint64_t>(a), kPiOver180Q128Hi, kPiOver180Q128Lo, 98, &y);
    int64_t s = sin_q62(static_cast<int64_t>(y));
    int64_t c = a == k45 ? s : cos_q62(static_cast<int64_t>(y)); // sin 45 == cos 45, bitwise
    if (swap) {
        const int64_t t = s;
        s = c;
        c = t;
    }
    return from_quadrant(quadrant, s, c);
}

Scalar atan2(Scalar y, Scalar x) {
    if (y.raw() == 0 && x.raw() == 0) return Scalar::zero();
    const uint64_t a = angle_q62(wide::uabs(y.raw()), wide::uabs(x.raw()), x.raw() < 0);
    return angle_to_scalar(a, y.raw() < 0);
}

Scalar asin(Scalar x) {
    // asin(x) = atan2(x, sqrt(1 - x^2)).
    const int64_t raw = clamp_unit_raw(x);
    const AsinLegs legs = asin_legs(wide::uabs(raw));
    return angle_to_scalar(angle_q62(legs.y, legs.w, false), raw < 0);
}

Scalar acos(Scalar x) {
    // acos(x) = atan2(sqrt(1 - x^2), x).
    const int64_t raw = clamp_unit_raw(x);
    const AsinLegs legs = asin_legs(wide::uabs(raw));
    return angle_to_scalar(angle_q62(legs.w, legs.y, raw < 0), false);
}

Scalar deg_to_rad(Scalar degrees) {
    // |d| * round(pi/180 * 2^128) / 2^128, one rounding; the result is smaller than |d|.
    uint64_t mag = 0;
    mul_const_shift(wide::uabs(degrees.raw()), kPiOver180Q128Hi, kPiOver180Q128Lo, 128, &mag);
    return Scalar::from_raw(degrees.raw() < 0 ? -static_cast<int64_t>(mag)
                                              : static_cast<int64_t>(mag));
}

Scalar rad_to_deg(Scalar radians) {
    // |r| * round(180/pi * 2^122) / 2^122, one rounding. Overflows for |r| > ~3.7e7 rad.
    uint64_t mag = 0;
    const bool fits =
        mul_const_shift(wide::uabs(radians.raw()), k180OverPiQ122Hi, k180OverPiQ122Lo, 122, &mag);
    int64_t r = 0;
    const bool in_range = wide::signed_from_magnitude(mag, radians.raw() < 0, &r);
    check_overflow(!(fits && in_range), "fx::rad_to_deg");
    return Scalar::from_raw(r);
}

} // namespace fx
