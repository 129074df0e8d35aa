// Helpers shared by the geometry tests: conversions between Scalar and long double (tests
// only; the library never sees floating point) and tiny shape builders.
#pragma once

#include <cmath>

#include "fx/vec3.h"
#include "geo/queries.h"
#include "geo/scene.h"

namespace geotest {

using fx::Scalar;
using fx::Vec3;

/// The Scalar nearest to x (ties away from zero).
inline Scalar S(long double x) {
    return Scalar::from_raw(std::llroundl(x * 4294967296.0L));
}
inline Vec3 V(long double x, long double y, long double z) {
    return {S(x), S(y), S(z)};
}
inline long double L(Scalar s) {
    return static_cast<long double>(s.raw()) / 4294967296.0L;
}

struct LV {
    long double x = 0, y = 0, z = 0;
};
inline LV L(const Vec3& v) {
    return {L(v.x), L(v.y), L(v.z)};
}
inline LV operator+(LV a, LV b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline LV operator-(LV a, LV b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline LV operator*(LV a, long double s) {
    return {a.x * s, a.y * s, a.z * s};
}
inline LV operator-(LV a) {
    return {-a.x, -a.y, -a.z};
}
inline long double dotl(LV a, LV b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline LV crossl(LV a, LV b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline long double lenl(LV a) {
    return std::sqrt(dotl(a, a));
}
inline LV unitl(LV a) {
    const long double n = lenl(a);
    return n > 0 ? a * (1.0L / n) : LV{};
}
/// Angle between two directions, radians.
inline long double anglel(LV a, LV b) {
    const LV ua = unitl(a), ub = unitl(b);
    return 2.0L * std::atan2(lenl(ua - ub), lenl(ua + ub));
}

/// The spec's character: radius 0.4 m, height 1.8 m, feet at `feet`.
inline fx::geo::Capsule character(const Vec3& feet) {
    return fx::geo::Capsule::upright(feet, S(0.4L), S(1.8L));
}
inline const Vec3 kDown{Scalar{}, -Scalar::one(), Scalar{}};

/// Every field of two hits equal.
inline bool same_hit(const fx::geo::Hit& a, const fx::geo::Hit& b) {
    return a.distance == b.distance && a.normal == b.normal && a.point == b.point &&
           a.shape == b.shape && a.feature == b.feature && a.start_overlap == b.start_overlap &&
           a.depth == b.depth;
}

} // namespace geotest
