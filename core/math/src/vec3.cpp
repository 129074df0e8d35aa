#include "fx/vec3.h"

#include <bit>

namespace fx {
namespace {

using B = wide::Default;

using detail::round_q64;
using detail::too_large_for_dot;

// Exact a*b - c*d in units of 2^-64.
Wide cross_term(Scalar a, Scalar b, Scalar c, Scalar d) {
    return B::sub(B::smul(a.raw(), b.raw()), B::smul(c.raw(), d.raw()));
}

} // namespace

Vec3 cross(const Vec3& a, const Vec3& b) {
    check_overflow(too_large_for_dot(a) || too_large_for_dot(b),
                   "fx::cross (component beyond 2^30)");
    return {round_q64(cross_term(a.y, b.z, a.z, b.y), "fx::cross"),
            round_q64(cross_term(a.z, b.x, a.x, b.z), "fx::cross"),
            round_q64(cross_term(a.x, b.y, a.y, b.x), "fx::cross")};
}

Scalar length_sq(const Vec3& v) {
    const Wide s = length_sq_q64(v);
    uint64_t mag = 0;
    const bool fits = wide::shr_round_u64<B>(s, Scalar::kFracBits, &mag);
    check_overflow(!fits || mag > static_cast<uint64_t>(INT64_MAX), "fx::length_sq");
    return Scalar::from_raw(static_cast<int64_t>(mag));
}

Scalar distance(const Vec3& a, const Vec3& b) {
    return length(b - a);
}

bool try_normalize(const Vec3& v, Vec3* out) {
    const uint64_t ax = wide::uabs(v.x.raw()), ay = wide::uabs(v.y.raw()),
                   az = wide::uabs(v.z.raw());
    const uint64_t m = ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az);
    // Along an axis (casts up and down): the steps below give exactly +-1 on that axis (the
    // root of s^2 is s, and s * 2^32 / s is one), so skip them.
    if (m >= static_cast<uint64_t>(kMinNormalizeLength.raw()) &&
        (ax == 0) + (ay == 0) + (az == 0) == 2) {
        auto unit = [m](uint64_t a, bool neg) {
            return a == m ? (neg ? -Scalar::one() : Scalar::one()) : Scalar{};
        };
        *out = {unit(ax, v.x.raw() < 0), unit(ay, v.y.raw() < 0), unit(az, v.z.raw() < 0)};
        return true;
    }
    // A component at least kMinNormalizeLength long settles it; otherwise the exact length does.
    if (m == 0 ||
        (m < static_cast<uint64_t>(kMinNormalizeLength.raw()) && length(v) < kMinNormalizeLength)) {
        *out = Vec3::zero();
        return false;
    }
    // Scale the components (exactly, by a power of two) so the largest lies in [2^61, 2^62):
    // the square root then carries ~62 significant bits and each quotient rounds once.
    // Components of 2^62 raw or more (2^30 m, far outside any level) lose their lowest bits.
    const int lz = std::countl_zero(m);
    const int up = lz - 2;
    auto scaled = [up](uint64_t a) { return up >= 0 ? a << up : a >> (-up); };
    const uint64_t sx = scaled(ax), sy = scaled(ay), sz = scaled(az);
    const Wide sum = B::add(B::add(B::umul(sx, sx), B::umul(sy, sy)), B::umul(sz, sz));
    const uint64_t len = wide::isqrt_round<B>(sum);
    // Each component s * 2^32 / len rounded half away from zero (div_wide_raw's rounding), with
    // neither of its range checks: s <= floor(sqrt(sum)) <= len, so the quotient is at most 2^32
    // (its high word, s >> 32 < 2^30, lies below len >= 2^61, as the division requires).
    // Where the 128/64 division is not one instruction, s < len (all but the largest component,
    // and it too unless the others are negligible) takes wide::div_shl32: one 64-bit division.
    auto component = [len](uint64_t s, bool neg) {
        if (s == 0) return Scalar{}; // 0 / len, without the division
        uint64_t rem = 0;
        uint64_t q = 0;
        if constexpr (!B::kOneInstructionUdiv64) {
            q = s < len ? wide::div_shl32(s, len, &rem) : wide::divlu(s >> 32, s << 32, len, &rem);
        } else {
            q = B::udiv64(B::shl(B::from_u64(s), Scalar::kFracBits), len, &rem);
        }
        if (rem >= len - rem) ++q;
        return Scalar::from_raw(neg ? -static_cast<int64_t>(q) : static_cast<int64_t>(q));
    };
    *out = {component(sx, v.x.raw() < 0), component(sy, v.y.raw() < 0),
            component(sz, v.z.raw() < 0)};
    return true;
}

Vec3 normalize(const Vec3& v) {
    Vec3 out;
    try_normalize(v, &out);
    return out;
}

Vec3 project_on_plane(const Vec3& v, const Vec3& n) {
    return v - n * dot(v, n);
}

Vec3 lerp(const Vec3& a, const Vec3& b, Scalar t) {
    return a + (b - a) * t;
}

} // namespace fx
