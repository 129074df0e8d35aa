// Axis-aligned bounding boxes in world coordinates (metres).
#pragma once

#include "fx/vec3.h"

namespace fx::geo {

/// Axis-aligned bounding box, lo <= hi component-wise.
struct Aabb {
    Vec3 lo;
    Vec3 hi;

    friend constexpr bool operator==(const Aabb&, const Aabb&) noexcept = default;
    constexpr bool overlaps(const Aabb& o) const noexcept {
        return !(hi.x < o.lo.x || o.hi.x < lo.x || hi.y < o.lo.y || o.hi.y < lo.y ||
                 hi.z < o.lo.z || o.hi.z < lo.z);
    }
    constexpr Aabb merged(const Aabb& o) const { return {fx::min(lo, o.lo), fx::max(hi, o.hi)}; }
    /// Grown by m on every side.
    constexpr Aabb expanded(Scalar m) const { return {lo - Vec3{m, m, m}, hi + Vec3{m, m, m}}; }
};

} // namespace fx::geo
