// Internal: bounds of a capsule swept along a unit direction.
#pragma once

#include "geo/shapes.h"
#include "geo/tolerances.h"

namespace fx::geo::detail {

/// Bounds of the capsule at the start and at the end of the motion, grown by
/// kContactTolerance (a cast reports shapes within that band).
inline Aabb swept_bounds(const Capsule& c, const Vec3& unit_dir, Scalar distance) {
    const Aabb start = c.bounds();
    // Straight up or down (unit_dir (0, +-1, 0) exactly): the products are 0 and +-distance.
    const bool vertical = unit_dir.x.raw() == 0 && unit_dir.z.raw() == 0 &&
                          wide::uabs(unit_dir.y.raw()) == static_cast<uint64_t>(Scalar::one().raw());
    const Vec3 d = vertical ? Vec3{Scalar{}, unit_dir.y.raw() < 0 ? -distance : distance, Scalar{}} : unit_dir * distance;
    const Aabb end{start.lo + d, start.hi + d};
    return start.merged(end).expanded(kContactTolerance + Scalar::epsilon().mul_int(4));
}

} // namespace fx::geo::detail
