// Two upright capsules, as every character's is: the cast of one against the other in closed
// form (the characters' queries of one another), and the general path (narrow.cpp) where it does
// not apply.
#include "narrow.h"

#include "fx/sqrt.h"
#include "wide_ops.h"

namespace fx::geo::detail {

// Two upright capsules (both core segments vertical, as every character's is): the cast has a
// closed form. The offsets s at which the moved segment comes within R' = r + core radius +
// kCastTargetSeparation of the other form a capsule in configuration space: the other's axis
// (dx, dz) over y in [lo, hi] = [b0 - a1, b1 - a0] (the y ranges of the two segments), radius R'.
// The motion is a ray from the origin along dir, met first by the side (a quadratic in the
// horizontal plane) or, when that meets the side above hi or below lo, by the end sphere there.
// Each root is taken as c / (b + sqrt(b^2 - a c)), which never divides by a small |dir_xz|^2.
// The body then rests at kCastTargetSeparation, inside the band [kCastTargetSeparation,
// kContactTolerance] where conservative advancement stops. A start within kContactTolerance,
// a segment that is not upright, or coordinates beyond kUprightLimit take the general path.
namespace {

constexpr Scalar kUprightLimit = Scalar::from_int(4096);

/// -kUprightLimit <= v <= kUprightLimit, as one unsigned comparison (v + limit in [0, 2 limit]).
bool within_limit(Scalar v) {
    return static_cast<uint64_t>(v.raw()) + static_cast<uint64_t>(kUprightLimit.raw()) <=
           2 * static_cast<uint64_t>(kUprightLimit.raw());
}

} // namespace

bool cast_upright(const Vec3& o, const Vec3& b, Scalar r, const Vec3& dir, Scalar max_distance,
                  const SegCore& core, Hit* out) {
    const bool upright =
        b.x.raw() == 0 && b.z.raw() == 0 && core.a.x == core.b.x && core.a.z == core.b.z;
    if (!upright || !within_limit(core.a.x) || !within_limit(core.a.z) || !within_limit(core.a.y) ||
        !within_limit(core.b.y) || !within_limit(b.y) || !within_limit(max_distance))
        return cast_core(o, Vec3{}, b, r, dir, max_distance, core, out);
    const Scalar a0 = min(Scalar{}, b.y), a1 = max(Scalar{}, b.y);
    const Scalar b0 = min(core.a.y, core.b.y), b1 = max(core.a.y, core.b.y);
    const Scalar dx = core.a.x, dz = core.a.z;
    const Scalar R = r + core.radius;
    const Scalar lo = b0 - a1, hi = b1 - a0;
    const Scalar hh = dx * dx + dz * dz; // squared horizontal distance of the axes, rounded
    // (Straight up or down, as every probe and snap: both products are exact zeros.)
    const Scalar bh = dir.x.raw() == 0 && dir.z.raw() == 0 ? Scalar{} : dx * dir.x + dz * dir.z;
    const Scalar near = R + kContactTolerance;
    const Scalar near2 = near * near;
    // Touching or overlapping at the start (the exact squared distance of the segments against (R +
    // tolerance)^2), decided only when the axes are near enough horizontally for it to be.
    if (hh <= near2 + Scalar::epsilon().mul_int(4)) {
        const Scalar gap = max(Scalar{}, max(lo, -hi));
        if (cmpw(addw(addw(mulw(dx, dx), mulw(dz, dz)), mulw(gap, gap)), mulw(near, near)) <= 0) {
            // The contact where they stand, between the closest points chosen below; a core
            // distance within kDeepDistance (axes almost through each other) takes the general
            // path, whose separating-axis test gives the push.
            const Scalar y_core = clamp(Scalar{}, b0, b1);
            const Vec3 on_core{dx, y_core, dz};
            const Vec3 v = Vec3{Scalar{}, clamp(y_core, a0, a1), Scalar{}} - on_core;
            const Scalar dist = length(v);
            if (dist <= kDeepDistance)
                return cast_core(o, Vec3{}, b, r, dir, max_distance, core, out);
            Vec3 n;
            if (!try_normalize(v, &n)) n = Vec3::unit_y();
            out->distance = Scalar{};
            out->normal = n;
            out->point = on_core + n * core.radius + o;
            out->feature = Feature{};
            out->start_overlap = true;
            out->depth = max(R - dist, Scalar{});
            return true;
        }
    } else if (bh.raw() <= 0) {
        return false; // apart horizontally and never nearer the axis
    }
    if (max_distance.raw() <= 0 || dir.is_zero()) return false;
    const Scalar Rp = R + kCastTargetSeparation;
    const Scalar c = hh - Rp * Rp;
    Scalar t;
    bool side = false;
    Scalar cap_y;
    if (c.raw() > 0) {
        // Outside the infinite cylinder: its side first.
        const Scalar ah = dir.x * dir.x + dir.z * dir.z;
        if (ah.raw() <= 0 || bh.raw() <= 0) return false; // never nearer the axis
        const W disc = subw(mulw(bh, bh), mulw(ah, c));
        if (signw(disc) < 0) return false; // passes the cylinder by
        t = c / (bh + sqrt_q64(disc));
        const Scalar y = dir.y * t;
        side = y >= lo && y <= hi;
        cap_y = y < lo ? lo : hi;
    } else {
        // Within the cylinder, above or below the segment (the start is not touching).
        cap_y = hi.raw() < 0 ? hi : lo;
    }
    if (!side) {
        const Scalar e = dx * dir.x + cap_y * dir.y + dz * dir.z;
        if (e.raw() <= 0) return false;
        const Scalar k = max(Scalar{}, hh + cap_y * cap_y - Rp * Rp);
        const W disc = subw(mulw(e, e), mulw(k, Scalar::one()));
        if (signw(disc) < 0) return false;
        t = k / (e + sqrt_q64(disc));
    }
    if (t > max_distance) return false;
    t = max(t, Scalar{});
    // Closest points of the two parallel segments at the contact, chosen as closest_seg_seg
    // chooses them: the other's point nearest the moved segment's first point, then the moved
    // segment's point nearest that.
    const Vec3 s = dir * t;
    const Scalar y_core = clamp(s.y, b0, b1);
    const Scalar y_seg = clamp(y_core, a0 + s.y, a1 + s.y);
    const Vec3 on_core{dx, y_core, dz};
    const Vec3 on_seg{s.x, y_seg, s.z};
    Vec3 n;
    if (!try_normalize(on_seg - on_core, &n)) n = -dir;
    out->distance = t;
    out->normal = n;
    out->point = on_core + n * core.radius + o;
    out->feature = Feature{};
    out->start_overlap = false;
    out->depth = Scalar{};
    return true;
}

} // namespace fx::geo::detail
