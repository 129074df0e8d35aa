// fx::Vec3: a 3D vector of Scalars, y up, metres unless stated.
//
// Products are widened before they are rounded: dot() sums three exact 128-bit products and
// rounds once; each cross() component is one exact 128-bit difference rounded once; length()
// takes the square root of the exact 128-bit sum of squares. So large coordinates never
// overflow an intermediate (the classic dot-product bug of the source articles) and results
// are correctly rounded:
//   dot, cross components     round to nearest, ties away from zero (error <= 0.5 raw)
//   length                    round to nearest (error <= 0.5 raw)
//   normalize                 each component within 1 raw unit of the exact unit vector
// Component-wise + - and scaling follow Scalar's rules.
#pragma once

#include "fx/scalar.h"
#include "fx/sqrt.h"

namespace fx {

struct Vec3 {
    Scalar x;
    Scalar y;
    Scalar z;

    static constexpr Vec3 zero() noexcept { return {}; }
    static constexpr Vec3 unit_x() noexcept { return {Scalar::one(), {}, {}}; }
    static constexpr Vec3 unit_y() noexcept { return {{}, Scalar::one(), {}}; }
    static constexpr Vec3 unit_z() noexcept { return {{}, {}, Scalar::one()}; }

    friend constexpr bool operator==(const Vec3&, const Vec3&) noexcept = default;

    constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    friend constexpr Vec3 operator+(const Vec3& a, const Vec3& b) {
        return {a.x + b.x, a.y + b.y, a.z + b.z};
    }
    friend constexpr Vec3 operator-(const Vec3& a, const Vec3& b) {
        return {a.x - b.x, a.y - b.y, a.z - b.z};
    }
    /// Each component one rounded product; a zero component stays zero without one (a level
    /// motion's y, a vertical one's x and z: 0 * s is exactly 0).
    friend constexpr Vec3 operator*(const Vec3& a, Scalar s) {
        return {a.x.raw() == 0 ? Scalar{} : a.x * s, a.y.raw() == 0 ? Scalar{} : a.y * s,
                a.z.raw() == 0 ? Scalar{} : a.z * s};
    }
    friend constexpr Vec3 operator*(Scalar s, const Vec3& a) { return a * s; }
    /// v * num / den, each component rounded once (fx::mul_div); a zero component stays zero
    /// without the division. For den > 0 (0 * num / den is exactly 0; a zero den is reported by
    /// the components that are divided).
    friend constexpr Vec3 mul_div(const Vec3& v, Scalar num, Scalar den) {
        const auto part = [&](Scalar c) {
            return c.raw() == 0 ? Scalar{} : fx::mul_div(c, num, den);
        };
        return {part(v.x), part(v.y), part(v.z)};
    }
    friend constexpr Vec3 operator/(const Vec3& a, Scalar s) { return {a.x / s, a.y / s, a.z / s}; }
    constexpr Vec3& operator+=(const Vec3& b) { return *this = *this + b; }
    constexpr Vec3& operator-=(const Vec3& b) { return *this = *this - b; }
    constexpr Vec3& operator*=(Scalar s) { return *this = *this * s; }

    constexpr bool is_zero() const noexcept { return x.raw() == 0 && y.raw() == 0 && z.raw() == 0; }
};

using Wide = wide::Default::T;

namespace detail {
// Magnitude bound for exact wide sums of three products: 3 * (2^62)^2 < 2^127.
inline constexpr uint64_t kDotComponentLimit = uint64_t{1} << 62;
constexpr bool too_large_for_dot(const Vec3& v) {
    return wide::uabs(v.x.raw()) >= kDotComponentLimit ||
           wide::uabs(v.y.raw()) >= kDotComponentLimit ||
           wide::uabs(v.z.raw()) >= kDotComponentLimit;
}
/// A value in units of 2^-64 rounded to a Scalar (nearest, ties away from zero). |v| < 2^126
/// (a dot product of components below 2^62).
constexpr Scalar round_q64(Wide v, const char* op) {
#if FX_WIDE_NATIVE
    // As Scalar's product: -floor((|v| + 2^31) / 2^32) = floor((v + 2^31 - 1) / 2^32) for v < 0.
    using S = wide::Native::S;
    const S sv = static_cast<S>(v);
    const S q = wide::Native::round_shift(sv, Scalar::kFracBits);
    const int64_t raw = static_cast<int64_t>(q);
    check_overflow(static_cast<S>(raw) != q, op);
    return Scalar::from_raw(raw);
#else
    int64_t r = 0;
    const bool ok = wide::round_shift_to_i64<wide::Default>(v, Scalar::kFracBits, &r);
    check_overflow(!ok, op);
    return Scalar::from_raw(r);
#endif
}
} // namespace detail

// The products below are inline: they are the innermost operations of every query, and a call
// costs as much as the arithmetic.

/// Exact a.b in units of 2^-64 (two's complement 128-bit). Components must stay below 2^62 raw
/// in magnitude (2^30 m), far beyond the scenario bounds; a checked build verifies it.
constexpr Wide dot_q64(const Vec3& a, const Vec3& b) {
    using B = wide::Default;
    check_overflow(detail::too_large_for_dot(a) || detail::too_large_for_dot(b),
                   "fx::dot (component beyond 2^30)");
    return B::sdot3(a.x.raw(), b.x.raw(), a.y.raw(), b.y.raw(), a.z.raw(), b.z.raw());
}
/// Exact |v|^2 in units of 2^-64, unsigned (no precondition: < 3 * 2^126).
constexpr Wide length_sq_q64(const Vec3& v) {
    using B = wide::Default;
    const uint64_t x = wide::uabs(v.x.raw()), y = wide::uabs(v.y.raw()), z = wide::uabs(v.z.raw());
    return B::usq3(x, y, z);
}

/// a.b, one rounding.
constexpr Scalar dot(const Vec3& a, const Vec3& b) {
    return detail::round_q64(dot_q64(a, b), "fx::dot");
}
/// a x b, one rounding per component.
Vec3 cross(const Vec3& a, const Vec3& b);
/// |v|^2 rounded once.
Scalar length_sq(const Vec3& v);
/// |v|, correctly rounded.
constexpr Scalar length(const Vec3& v) {
    // Along an axis the length is the one component's magnitude: the root of its exact square.
    const int zeros = (v.x.raw() == 0) + (v.y.raw() == 0) + (v.z.raw() == 0);
    if (zeros >= 2) {
        const int64_t c = v.x.raw() | v.y.raw() | v.z.raw(); // the nonzero one, or 0
        if (c != INT64_MIN) return Scalar::from_raw(c < 0 ? -c : c);
    }
    return sqrt_q64(length_sq_q64(v));
}
Scalar distance(const Vec3& a, const Vec3& b);

/// Vectors shorter than this have no direction: normalize() returns zero for them.
/// 2^-24 m (about 6e-8 m): far below any motion the controller acts on (the skin is 1.5e-2 m)
/// and far above rounding noise, whose vectors are a few raw units (1e-9 m) long.
inline constexpr Scalar kMinNormalizeLength = Scalar::from_raw(int64_t{1} << 8);

/// v / |v|, each component within 1 raw unit of exact; zero when |v| < kMinNormalizeLength.
Vec3 normalize(const Vec3& v);
/// As normalize(), and reports whether v was long enough to have a direction.
bool try_normalize(const Vec3& v, Vec3* out);

/// v with its component along unit normal n removed: v - n * dot(v, n).
Vec3 project_on_plane(const Vec3& v, const Vec3& n);
/// a + (b - a) * t.
Vec3 lerp(const Vec3& a, const Vec3& b, Scalar t);
/// Component-wise min / max.
constexpr Vec3 min(const Vec3& a, const Vec3& b) {
    return {min(a.x, b.x), min(a.y, b.y), min(a.z, b.z)};
}
constexpr Vec3 max(const Vec3& a, const Vec3& b) {
    return {max(a.x, b.x), max(a.y, b.y), max(a.z, b.z)};
}

} // namespace fx
