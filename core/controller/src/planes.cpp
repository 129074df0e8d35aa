// Pure plane and ground logic: the multi-plane rule, ground selection, motion along the ground.
#include "kcc/solve.h"

#include "geo/scene.h"
#include "geo/tolerances.h"

namespace fx::kcc {

Vec3 clip_into(const Vec3& v, const Vec3& n) {
    const Scalar d = dot(v, n);
    if (d.raw() >= 0) return v;
    return v - n * d;
}

namespace {
bool enters_none(const Vec3& m, const Vec3* normals, int count) {
    for (int k = 0; k < count; ++k) {
        if (dot(m, normals[k]) < -kPlaneTolerance) return false;
    }
    return true;
}
} // namespace

// Based on the classic Quake PM_SlideMove clip loop and Box2D's b2SolvePlanes contract (plain
// planes in, motion out); here every candidate is checked against every plane, in a fixed order.
PlaneSolve solve_planes(const Vec3& motion, const Vec3* normals, int count, const Vec3* against) {
    PlaneSolve r;
    r.motion = motion;
    r.candidates = 1;
    // The motion's dot product with each plane, once: whether it enters any, and each projection.
    Scalar into[kMaxPlanes];
    bool enters = false;
    for (int k = 0; k < count; ++k) {
        into[k] = dot(motion, normals[k]);
        if (into[k] < -kPlaneTolerance) enters = true;
    }
    if (!enters) return r;
    // (One plane cannot turn a motion along `against` back: m . a = |a|^2 - (a . n)^2 >= 0. Only
    // a second plane can, so with one the check is not made.)
    const auto backwards = [against, count](const Vec3& m) {
        return against != nullptr && count >= 2 && dot(m, *against).raw() < 0;
    };
    for (int i = count - 1; i >= 0; --i) {
        if (into[i].raw() >= 0) continue;
        ++r.candidates;
        const Vec3 m = motion - normals[i] * into[i];
        if (enters_none(m, normals, count) && !backwards(m)) {
            r.motion = m;
            r.kind = PlaneSolveKind::kSlide;
            r.plane_a = static_cast<uint8_t>(i);
            return r;
        }
    }
    for (int i = count - 1; i >= 1; --i) {
        for (int j = i - 1; j >= 0; --j) {
            Vec3 c;
            if (!try_normalize(cross(normals[i], normals[j]), &c)) continue; // parallel planes
            ++r.candidates;
            const Vec3 m = c * dot(motion, c);
            if (enters_none(m, normals, count) && !backwards(m)) {
                r.motion = m;
                r.kind = PlaneSolveKind::kCrease;
                r.plane_a = static_cast<uint8_t>(i);
                r.plane_b = static_cast<uint8_t>(j);
                return r;
            }
        }
    }
    r.motion = Vec3::zero();
    r.kind = PlaneSolveKind::kStop;
    return r;
}

namespace {

/// The highest an edge or corner may be and still be ground (select_ground): step_height, and
/// the step-up's rounding allowance of a rise (four contact tolerances, as in slide.cpp), above
/// the ground under the feet, which is where the round base touched the ground it stood on: a
/// skin below the feet on level ground, (r + skin)(1 - n.y) higher on a slope or a rim.
Scalar highest_ground_edge(const Params& p, bool was_grounded, Scalar feet_y,
                           const Vec3& last_normal) {
    // (feet_y - skin [+ lift] + step_height + 4 tolerances, summed in another order: integer
    // sums, the same bits)
    Scalar h = feet_y + p.edge_allowance;
    if (was_grounded && last_normal.y.raw() > 0 && last_normal.y < Scalar::one())
        h += p.grown_radius * (Scalar::one() - last_normal.y);
    return h;
}

} // namespace

bool inside_body(const geo::Hit& h, const Params& p) {
    return h.start_overlap && h.shape == geo::kBodyShape && h.depth > p.s.skin;
}

Ground select_ground(std::span<const geo::Hit> hits, const Params& p, bool was_grounded,
                     Scalar feet_y, const Vec3& last_normal) {
    Ground g;
    const Scalar limit = was_grounded ? p.cos_stay : p.cos_enter;
    bool found = false;
    const Scalar highest_edge = highest_ground_edge(p, was_grounded, feet_y, last_normal);
    for (const geo::Hit& h : hits) {
        const Scalar d = h.start_overlap ? Scalar{} : h.distance;
        if (d > p.ground_band) continue;
        if (h.normal.y < limit) continue;
        const bool edge = h.feature.kind == geo::FeatureKind::kEdge ||
                          h.feature.kind == geo::FeatureKind::kVertex;
        if (edge && h.point.y > highest_edge) continue;
        // Steepest walkable wins (least normal.y); strict < keeps the earlier hit on ties.
        if (!found || h.normal.y < g.normal.y) {
            found = true;
            g.grounded = true;
            g.normal = h.normal;
            g.shape = h.shape;
            g.distance = d;
            g.edge = edge;
            g.support_y = h.point.y;
        }
    }
    return g;
}

Scalar approach_distance(Scalar d, Scalar c, Scalar skin) {
    if (c.raw() <= 0) return max(d - skin, Scalar{});
    if (skin.raw() <= 0)
        return d; // (d c - 0) / c, without d c's rounding (to zero, when c is tiny)
    const Scalar gap = d * c;
    if (gap <= skin) return Scalar{};
    return min((gap - skin) / c, d);
}

Scalar ground_rest_height(Scalar ny, const Params& p) {
    const Scalar limit = max(p.ground_band - geo::kContactTolerance, p.s.skin);
    if (ny.raw() <= 0 || ny * limit <= p.s.skin) return limit;
    return ny == Scalar::one() ? p.s.skin : p.s.skin / ny; // (level ground: the exact quotient)
}

SnapLanding select_snap(std::span<const geo::Hit> hits, const Params& p) {
    SnapLanding out;
    // The nearest steep surface that opposes the downward motion, if any (hits are sorted).
    const geo::Hit* blocker = nullptr;
    for (const geo::Hit& h : hits) {
        if (h.normal.y.raw() <= 0) continue; // a side contact: moving down does not approach it
        if (h.normal.y < p.cos_stay) {
            if (blocker == nullptr) blocker = &h;
            continue;
        }
        // One skin above the landing along its normal; a body that ended closer (a slope's
        // motion met the floor at a shallow angle, which a sweep only sees a skin ahead along
        // the motion) is lifted back to it: drop down to -skin.
        Scalar drop;
        if (!h.start_overlap) {
            drop = max(h.distance - ground_rest_height(h.normal.y, p), -p.s.skin);
        } else if (h.depth <= geo::kContactTolerance) {
            drop = -p.s.skin; // touching (a depenetration ends there): lifted to one skin
        }
        // A cast stops within kContactTolerance short of a surface: a lift smaller than that is
        // the cast's rounding, not a body closer than a skin.
        if (drop.raw() < 0 && drop > -geo::kContactTolerance) drop = Scalar{};
        if (blocker != nullptr) {
            const Scalar limit = blocker->start_overlap ? Scalar{} : blocker->distance;
            if (drop > limit) { // the steep surface is in the way
                out.edge_blocks = blocker->feature.kind == geo::FeatureKind::kEdge ||
                                  blocker->feature.kind == geo::FeatureKind::kVertex;
                out.edge_normal = blocker->normal;
                return out;
            }
        }
        out.landed = true;
        out.drop = drop;
        out.ground.grounded = true;
        out.ground.normal = h.normal;
        out.ground.shape = h.shape;
        out.ground.distance = h.start_overlap ? Scalar{} : h.distance;
        out.ground.edge = h.feature.kind == geo::FeatureKind::kEdge ||
                          h.feature.kind == geo::FeatureKind::kVertex;
        out.ground.support_y = h.point.y;
        return out;
    }
    return out;
}

Vec3 ground_plane_motion(const Vec3& horizontal, const Vec3& n) {
    const Vec3 h{horizontal.x, Scalar{}, horizontal.z};
    if ((h.x.raw() == 0 && h.z.raw() == 0) || n.y.raw() <= 0) return h;
    // Level ground (n.x = n.z = 0): the y below is -(0 + 0) / n.y = 0 exactly, d is h (below).
    if (n.x.raw() == 0 && n.z.raw() == 0) return h;
    // Point on the plane straight above/below h: y such that dot((h.x, y, h.z), n) = 0.
    const Vec3 d{h.x, -((n.x * h.x + n.z * h.z) / n.y), h.z};
    // Level ground (or a motion along the slope's level line): d is h, and h * |h| / |h| is h
    // exactly (mul_div rounds an exact quotient), so the two lengths are not taken.
    if (d.y.raw() == 0) return h;
    const Scalar len = length(h);
    const Scalar dl = length(d);
    return {mul_div(d.x, len, dl), mul_div(d.y, len, dl), mul_div(d.z, len, dl)};
}

Vec3 edge_motion(const Vec3& horizontal, const Vec3& n) {
    const Vec3 h{horizontal.x, Scalar{}, horizontal.z};
    if (n.y.raw() <= 0) return h;
    const Scalar y = -((n.x * h.x + n.z * h.z) / n.y);
    if (y.raw() >= 0) return h;
    return {h.x, y, h.z};
}

Vec3 horizontal_normal(const Vec3& n) {
    Vec3 out;
    if (!try_normalize(Vec3{n.x, Scalar{}, n.z}, &out)) return Vec3::zero();
    return out;
}

} // namespace fx::kcc
