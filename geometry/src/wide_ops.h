// Internal: exact 128-bit helpers for products of dot products (which exceed the Scalar range
// for long edges) and single-rounding quotients of them.
#pragma once

#include <bit>

#include "fx/vec3.h"

namespace fx::geo::detail {

using B = wide::Default;
using W = B::T;

/// Exact a*b in units of 2^-64.
inline W mulw(Scalar a, Scalar b) {
    return B::smul(a.raw(), b.raw());
}
inline W subw(W a, W b) {
    return B::sub(a, b);
}
inline W addw(W a, W b) {
    return B::add(a, b);
}
inline int signw(W v) {
    return B::is_neg(v) ? -1 : (B::is_zero(v) ? 0 : 1);
}
/// Sign of a - b for values whose difference does not overflow (|a|, |b| < 2^126).
inline int cmpw(W a, W b) {
    return signw(B::sub(a, b));
}

/// Rounded (half away from zero) quotient num / den of a signed value in units of 2^-64 by a
/// positive Scalar, as a Scalar. Saturates when the quotient does not fit.
inline Scalar div_w(W num, Scalar den) {
    bool neg = false;
    const W m = wide::wabs<B>(num, &neg);
    const uint64_t d = static_cast<uint64_t>(den.raw());
    if (den.raw() <= 0 || B::hi64(m) >= d) return neg ? Scalar::min_value() : Scalar::max_value();
    uint64_t rem = 0;
    uint64_t q = B::udiv64(m, d, &rem);
    if (rem >= d - rem) ++q;
    if (q > static_cast<uint64_t>(INT64_MAX))
        return neg ? Scalar::min_value() : Scalar::max_value();
    return Scalar::from_raw(neg ? -static_cast<int64_t>(q) : static_cast<int64_t>(q));
}

/// num / den for 0 <= num <= den, den > 0 (both in the same units), rounded to the nearest
/// raw value in [0, 1]. When den needs more than 62 bits both are shifted right first: a
/// relative error of 2^-61, far below the 2^-32 resolution of the result.
inline Scalar ratio01_w(W num, W den) {
    if (signw(num) <= 0 || signw(den) <= 0) return Scalar{};
    if (cmpw(num, den) >= 0) return Scalar::one();
    const int bits = 128 - B::clz(den);
    if (bits > 62) {
        num = B::shr(num, bits - 62);
        den = B::shr(den, bits - 62);
    }
    const uint64_t d = B::lo64(den);
    if (d == 0) return Scalar{};
    uint64_t rem = 0;
    uint64_t q = B::udiv64(B::shl(num, Scalar::kFracBits), d, &rem);
    if (rem >= d - rem) ++q;
    return Scalar::from_raw(static_cast<int64_t>(q));
}

/// a + d * (num / den) with one rounding per component (mul_div): exact to 0.5 raw even when d
/// is a 10 km edge, where rounding num / den first would cost 2^-33 * 10 km = 1.2e-6 m.
inline Vec3 point_on(const Vec3& a, const Vec3& d, Scalar num, Scalar den) {
    return {a.x + mul_div(d.x, num, den), a.y + mul_div(d.y, num, den),
            a.z + mul_div(d.z, num, den)};
}

} // namespace fx::geo::detail
