// Internal: bounds of a capsule swept along a unit direction.
#pragma once

#include "geo/shapes.h"
#include "geo/tolerances.h"

namespace fx::geo::detail {

/// Bounds of the capsule at the start and at the end of the motion, grown by
/// kContactTolerance (a cast reports shapes within that band). Per axis: the ends' least
/// coordinate, the offset's part below zero and the grown radius subtracted; above, the same
/// added. (The sums are exact: the same box as start.merged(start + d).expanded(band).)
inline Aabb swept_bounds(const Capsule& c, const Vec3& unit_dir, Scalar distance) {
    // Straight up or down (unit_dir (0, +-1, 0) exactly): the products are 0 and +-distance.
    const bool vertical =
        unit_dir.x.raw() == 0 && unit_dir.z.raw() == 0 &&
        wide::uabs(unit_dir.y.raw()) == static_cast<uint64_t>(Scalar::one().raw());
    const Vec3 d = vertical ? Vec3{Scalar{}, unit_dir.y.raw() < 0 ? -distance : distance, Scalar{}}
                            : unit_dir * distance;
    const Scalar grow = c.radius + (kContactTolerance + Scalar::epsilon().mul_int(4));
    const auto lo = [&](Scalar a, Scalar b, Scalar di) {
        return min(a, b) + min(di, Scalar{}) - grow;
    };
    const auto hi = [&](Scalar a, Scalar b, Scalar di) {
        return max(a, b) + max(di, Scalar{}) + grow;
    };
    return {{lo(c.a.x, c.b.x, d.x), lo(c.a.y, c.b.y, d.y), lo(c.a.z, c.b.z, d.z)},
            {hi(c.a.x, c.b.x, d.x), hi(c.a.y, c.b.y, d.y), hi(c.a.z, c.b.z, d.z)}};
}

} // namespace fx::geo::detail
