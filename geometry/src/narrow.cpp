// Capsule against one convex core: overlap (minimum translation) and cast (conservative
// advancement). Shared by the per-shape API below, meshes and the scene.
#include "narrow.h"

#include <type_traits>

#include "fx/sqrt.h"
#include "wide_ops.h"

namespace fx::geo::detail {

namespace {

/// Direction from the obstacle toward the capsule at a closest-point pair: the face normal
/// when the closest feature is a face (exact even when the gap is tiny, as for rays), else
/// the normalised difference of the closest points. `fallback` when that has no direction.
Vec3 contact_normal(const Closest& c, const Vec3& fallback) {
    if (c.has_face_normal) return c.face_normal;
    Vec3 n;
    return try_normalize(c.on_seg - c.on_core, &n) ? n : fallback;
}

/// Inactive mesh edges and vertices (TriangleMesh::build): the triangle's neighbours across
/// them continue its plane (within kInactiveEdgeCos), so touching one is touching the
/// surface, not a ridge. The contact becomes a contact with the triangle's face: feature
/// (triangle, face), normal +-n and depth from the separating-axis push along n alone: out of
/// the plane along +n (r - least signed distance of the segment's ends) or along -n
/// (r + greatest), the smaller, ties to +n. That push separates the capsule from the plane,
/// hence from the triangle; at a seam between coplanar triangles it is exactly the
/// neighbour's face push. Lone triangles (inactive == 0) and other cores are left alone.
bool resolve_inactive(const Vec3& a, const Vec3& b, Scalar r, const TriCore& tri, Feature* feature,
                      Vec3* normal, Scalar* depth) {
    if (tri.inactive == 0) return false;
    const Feature& f = *feature;
    const bool inactive =
        (f.kind == FeatureKind::kEdge && ((tri.inactive >> f.index) & 1u) != 0) ||
        (f.kind == FeatureKind::kVertex && ((tri.inactive >> (3 + f.index)) & 1u) != 0);
    if (!inactive) return false;
    const Scalar sa = plane_distance(a, tri), sb = plane_distance(b, tri);
    const Scalar up = r - min(sa, sb);
    const Scalar down = r + max(sa, sb);
    *feature = Feature{tri.index, FeatureKind::kFace, 0};
    *normal = up <= down ? tri.n : -tri.n;
    *depth = up <= down ? up : down;
    return true;
}
template <class Core>
bool resolve_inactive(const Vec3&, const Vec3&, Scalar, const Core&, Feature*, Vec3*, Scalar*) {
    return false;
}

template <class Core>
void fill_contact(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Core& core,
                  const Closest& cl, Contact* out) {
    const Scalar R = r + core_radius(core);
    Vec3 n;
    Scalar depth;
    if (cl.dist > kDeepDistance) {
        n = contact_normal(cl, Vec3::unit_y());
        depth = R - cl.dist;
    } else {
        sat(a, b, r, core, &n, &depth);
    }
    Feature feature = cl.feature;
    resolve_inactive(a, b, r, core, &feature, &n, &depth);
    out->feature = feature;
    out->normal = n;
    out->depth = depth;
    out->point = cl.on_core + n * core_radius(core) + o;
}

} // namespace

template <class Core>
bool overlap_core_general(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Core& core,
                          Scalar margin, Contact* out) {
    const Closest cl = closest(a, b, core);
    const Scalar sep = cl.dist - (r + core_radius(core));
    if (!(sep < margin)) return false;
    fill_contact(o, a, b, r, core, cl, out);
    return true;
}

// Conservative advancement. For a translating convex body against a convex one, the gap
// g(t) = |core distance| - radii is a convex function of the travelled distance t whose slope
// is dot(direction, n) (n the unit direction between closest points). Its tangent lies below
// it, so stepping to where the tangent reaches kCastTargetSeparation never passes the first
// contact; a non-negative slope means no later contact; a tangent that stays above the
// target until max_distance means no contact within the motion.
// Based on: Mirtich, "Timewarp rigid body simulation" (1996, conservative advancement), and
// Ericson RTCD 5.5.6 (interval halving / CA for moving convex objects).
template <class Core>
bool cast_core_general(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
                       Scalar max_distance, const Core& core, Hit* out) {
    const Scalar R = r + core_radius(core);
    Closest cl = closest(a, b, core);
    Scalar sep = cl.dist - R;
    if (sep <= kContactTolerance) {
        Contact c;
        fill_contact(o, a, b, r, core, cl, &c);
        out->distance = Scalar{};
        out->normal = c.normal;
        out->point = c.point;
        out->feature = c.feature;
        out->start_overlap = true;
        out->depth = max(c.depth, Scalar{});
        return true;
    }
    if (max_distance.raw() <= 0 || dir.is_zero()) return false;
    Scalar t;
    Vec3 n = contact_normal(cl, -dir);
    for (int it = 0; it < kMaxCastIterations; ++it) {
        const Scalar g = dot(dir, n);
        if (g.raw() >= 0) return false;
        const Scalar ng = -g;
        const Scalar gap = sep - kCastTargetSeparation;
        if (gap > ng * (max_distance - t)) return false;
        t = min(t + gap / ng, max_distance);
        const Vec3 off = dir * t;
        closest_moved(&cl, a, b, off, core);
        sep = cl.dist - R;
        n = contact_normal(cl, n);
        if (sep <= kContactTolerance) break;
    }
    // On an inactive mesh edge or vertex only the reported feature and normal change: the
    // advancement above followed the true gap, and the point stays where the capsule touches.
    Feature feature = cl.feature;
    const Vec3 off = dir * t;
    Scalar unused_depth;
    Vec3 normal = n;
    resolve_inactive(a + off, b + off, r, core, &feature, &normal, &unused_depth);
    out->distance = t;
    out->normal = normal;
    out->point = cl.on_core + n * core_radius(core) + o;
    out->feature = feature;
    out->start_overlap = false;
    out->depth = Scalar{};
    return true;
}

// An upright segment (a below b) against a box turned about y at most (BoxCore::yaw_only): in
// the box's frame the segment stays upright and its y coordinates are exact, so the gap along
// each axis the motion does not change is known before any closest-point routine runs. Where
// that decides the answer, it is given here with the general path's bits (each case below
// says why); everything else returns kUndecided and takes the general path.
//   - Overlap: the distance the general routine finds is at least the gap along x or z (a
//     component of every piece's gap vector) and the y gap of a segment wholly above or below
//     (its piece is the end point, exactly). At least the margin beyond the radius: no contact.
//   - A level motion over (or under) the box, the axis over its top face (bottom face): the
//     closest feature is that face, whose normal is (0, +-1, 0); the general path's first step
//     finds dot(dir, n) = 0 and reports no hit (the gap never closes).
//   - A vertical motion with the segment's lower end inside the box's y range (a margin
//     inside): the closest points are level with each other (the first piece, t = 0), so the
//     normal has y = 0 and again dot(dir, n) = 0: no hit, when the body is not already touching.
//   - Downward onto the top face, the axis over it: the general path steps once by the gap less
//     kCastTargetSeparation (dot(dir, n) = -1, exact) and stops there; written down.
//   - A level motion toward a side face: the general path's steps, with the closest points
//     written down while they stay on that face (level_to_side); a start contact with that face
//     (not a deep one) written down too.
//   - Any other motion with the segment's lower end above an unrotated box's top (a drop onto
//     the top's edge or corner, a slanted motion over it): the general path's steps, with the
//     closest points written down while the lower end stays above the top (above_box).
namespace {

enum class Decided { kNo, kHit, kUndecided };

struct UprightInBox {
    Vec3 A; ///< the segment's lower end in the box's frame
    Scalar top_y; ///< its upper end's y there (exact)
    Scalar gx, gz; ///< the axis's gap outside the box along x and z (0 within its extent)
};

bool upright_in_box(const Vec3& a, const Vec3& b, const BoxCore& box, UprightInBox* u) {
    if (!box.yaw_only || a.x != b.x || a.z != b.z || !(a.y < b.y)) return false;
    u->A = box.to_box(a);
    u->top_y = u->A.y + (b.y - a.y);
    u->gx = u->A.x - clamp(u->A.x, -box.h.x, box.h.x);
    u->gz = u->A.z - clamp(u->A.z, -box.h.z, box.h.z);
    return true;
}

/// The segment's gap outside the box's y range (0 when they share a height).
Scalar gap_y(const UprightInBox& u, const BoxCore& box) {
    if (u.A.y > box.h.y) return u.A.y - box.h.y;
    if (u.top_y < -box.h.y) return -box.h.y - u.top_y;
    return Scalar{};
}

Decided overlap_upright_box(const Vec3& a, const Vec3& b, Scalar r, const BoxCore& box,
                            Scalar margin) {
    UprightInBox u;
    if (!upright_in_box(a, b, box, &u)) return Decided::kUndecided;
    const Scalar g = max(max(abs(u.gx), abs(u.gz)), gap_y(u, box));
    return g - r >= margin ? Decided::kNo : Decided::kUndecided;
}

/// The segment's lower end inside the box's y range by a margin: its closest points to any
/// side are level with each other (the first piece, t = 0, see closest_upright).
bool within_height(Scalar y, const BoxCore& box) {
    return y > -box.h.y + kContactTolerance && y < box.h.y - kContactTolerance;
}

/// A level motion toward a side face (the axis outside the box along exactly one of x and z,
/// the lower end within its height): the general path's advancement, step for step, with the
/// closest points written down for as long as they stay on that face (the distance is the gap
/// along that axis, exactly; the normal the face's, so dot(dir, n) is the same every step). A
/// step that leaves the face (past its end, onto an edge) hands the whole cast to the general
/// path, which then retraces these steps.
/// A start contact with that face (the gap within the radius and the contact tolerance) is the
/// general path's first piece: the lower end, its foot on the face, the face's normal.
Decided level_to_side(const Vec3& o, const Vec3& a, Scalar r, const Vec3& dir, Scalar max_distance,
                      const BoxCore& box, const UprightInBox& u, Hit* out) {
    const bool on_x = u.gx.raw() != 0;
    if (on_x == (u.gz.raw() != 0) || !within_height(u.A.y, box)) return Decided::kUndecided;
    const Scalar g0 = on_x ? u.gx : u.gz;
    const bool positive = g0.raw() > 0;
    Scalar sep = abs(g0) - r;
    const int axis = on_x ? 0 : 2;
    const Vec3 col = box.rot->column(axis);
    const Vec3 n = positive ? col : -col;
    // The hit at distance t, the lower end at A in the box's frame: its foot on the face.
    const auto hit = [&](Scalar t, const Vec3& A, bool start, Scalar depth) {
        const Scalar f = on_x ? (positive ? box.h.x : -box.h.x) : (positive ? box.h.z : -box.h.z);
        const Vec3 q = on_x ? Vec3{f, A.y, A.z} : Vec3{A.x, A.y, f};
        out->distance = t;
        out->normal = n;
        out->point = box.c + box.rotate(q) + o;
        out->feature =
            Feature{0, FeatureKind::kFace, static_cast<uint8_t>(axis * 2 + (positive ? 1 : 0))};
        out->start_overlap = start;
        out->depth = depth;
        return Decided::kHit;
    };
    if (sep <= kContactTolerance) {
        // A start contact (a body sliding along a wall one skin off, its grown capsule touching
        // it): the general path's closest points are those of its first piece, the lower end
        // and its foot on the face (the gap along the other axes is zero there), at the distance
        // |g0|; beyond kDeepDistance its contact has the face's normal and depth r - |g0|.
        if (!(abs(g0) > kDeepDistance)) return Decided::kUndecided; // deep: the separating axes
        return hit(Scalar{}, u.A, true, max(r - abs(g0), Scalar{}));
    }
    if (max_distance.raw() <= 0) return Decided::kNo;
    const Scalar g = dot(dir, n);
    if (g.raw() >= 0) return Decided::kNo;
    const Scalar ng = -g;
    Scalar t;
    Vec3 A = u.A;
    for (int it = 0; it < kMaxCastIterations; ++it) {
        const Scalar gap = sep - kCastTargetSeparation;
        if (gap > ng * (max_distance - t)) return Decided::kNo;
        t = min(t + gap / ng, max_distance);
        A = box.to_box(a + dir * t);
        const Scalar along = on_x ? A.x : A.z, across = on_x ? A.z : A.x;
        const Scalar h_along = on_x ? box.h.x : box.h.z, h_across = on_x ? box.h.z : box.h.x;
        // (A.y is the lower end's height, which a level motion does not change, exactly.)
        const bool same_face = (positive ? along > h_along : along < -h_along) &&
                               across >= -h_across && across <= h_across;
        if (!same_face) return Decided::kUndecided;
        sep = (positive ? along - h_along : -h_along - along) - r;
        if (sep <= kContactTolerance) break;
    }
    return hit(t, A, false, Scalar{});
}

/// The gap from the point A (box frame) above an unrotated box's top (A.y > h.y) to the box:
/// closest_upright's one piece for a segment wholly above the top (t = 0, its lower end A; the
/// box point below or beside it on the top face, q = (clamp(A.x), h.y, clamp(A.z))). *on_face:
/// that point lies on the top face (x and z within it), not on an edge or a corner of the top.
Vec3 gap_above(const Vec3& A, const BoxCore& box, Scalar* qx, Scalar* qz, bool* on_face) {
    *qx = clamp(A.x, -box.h.x, box.h.x);
    *qz = clamp(A.z, -box.h.z, box.h.z);
    const Vec3 g{A.x - *qx, A.y - box.h.y, A.z - *qz};
    *on_face = g.x.raw() == 0 && g.z.raw() == 0;
    return g;
}

/// Any motion of an upright segment whose lower end stays above an unrotated box's top (a
/// drop onto the top's edge or corner, a jump or a slope's motion over the box): the general
/// path's advancement, step for step. While the lower end is above the top, closest() finds one
/// piece (no crossing of the y slab) and t = 0 on it: the lower end A, the box point q above
/// (gap_above()), the distance the rounded length of their difference; the contact normal the
/// top face's where q is on it, else that difference normalised (on_seg - on_core is exactly
/// A - q: the box is not rotated, so both are sums of the same coordinates). A step that ends
/// with the lower end at or below the top hands the whole cast to the general path (which then
/// retraces these steps), as does a start within the contact tolerance (fill_contact's push).
Decided above_box(const Vec3& o, const Vec3& a, Scalar r, const Vec3& dir, Scalar max_distance,
                  const BoxCore& box, const Vec3& A0, Hit* out) {
    const Vec3 up = box.rot->column(1);
    Scalar qx, qz;
    bool on_face = false;
    Vec3 g = gap_above(A0, box, &qx, &qz, &on_face);
    Scalar sep = length(g) - r;
    if (sep <= kContactTolerance) return Decided::kUndecided;
    if (max_distance.raw() <= 0 || dir.is_zero()) return Decided::kNo;
    Vec3 n;
    if (on_face)
        n = up;
    else if (!try_normalize(g, &n))
        n = -dir;
    Scalar t;
    Scalar ax = A0.x, az = A0.z;
    for (int it = 0; it < kMaxCastIterations; ++it) {
        const Scalar gd = dot(dir, n);
        if (gd.raw() >= 0) return Decided::kNo;
        const Scalar ng = -gd;
        const Scalar gap = sep - kCastTargetSeparation;
        if (gap > ng * (max_distance - t)) return Decided::kNo;
        t = min(t + gap / ng, max_distance);
        const Vec3 A = (a + dir * t) - box.c;
        if (!(A.y > box.h.y)) return Decided::kUndecided;
        ax = A.x, az = A.z;
        g = gap_above(A, box, &qx, &qz, &on_face);
        sep = length(g) - r;
        Vec3 m;
        if (on_face)
            n = up;
        else if (try_normalize(g, &m))
            n = m;
        if (sep <= kContactTolerance) break;
    }
    const int st[3] = {clamp_state(ax, box.h.x), 1, clamp_state(az, box.h.z)};
    out->distance = t;
    out->normal = n;
    out->point = box.c + Vec3{qx, box.h.y, qz} + o;
    out->feature = box_feature(st);
    out->start_overlap = false;
    out->depth = Scalar{};
    return Decided::kHit;
}

Decided cast_upright_box_level_or_vertical(const Vec3& o, const Vec3& a, Scalar r, const Vec3& dir,
                                           Scalar max_distance, const BoxCore& box,
                                           const UprightInBox& u, Hit* out) {
    const bool vertical = dir.x.raw() == 0 && dir.z.raw() == 0 && dir.y.raw() != 0;
    if (!vertical && dir.y.raw() != 0) return Decided::kUndecided;
    const Scalar hy = box.h.y;
    const bool over_top = u.gx.raw() == 0 && u.gz.raw() == 0;
    const Scalar touch = r + kContactTolerance; // closer than this: a start contact (general path)
    if (!vertical) {
        if (over_top && (u.A.y - hy > touch || -hy - u.top_y > touch)) return Decided::kNo;
        return level_to_side(o, a, r, dir, max_distance, box, u, out);
    }
    if (within_height(u.A.y, box)) {
        return abs(u.gx) > touch || abs(u.gz) > touch ? Decided::kNo : Decided::kUndecided;
    }
    if (dir.y.raw() < 0 && over_top && u.A.y > hy) {
        const Scalar sep = (u.A.y - hy) - r;
        if (sep <= kContactTolerance) return Decided::kUndecided;
        const Scalar gap = sep - kCastTargetSeparation;
        if (max_distance.raw() <= 0 || gap > max_distance) return Decided::kNo;
        out->distance = gap;
        out->normal = Vec3::unit_y();
        out->point = box.c + box.rotate(Vec3{u.A.x, hy, u.A.z}) + o;
        out->feature = Feature{0, FeatureKind::kFace, 3};
        out->start_overlap = false;
        out->depth = Scalar{};
        return Decided::kHit;
    }
    return Decided::kUndecided;
}

Decided cast_upright_box(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
                         Scalar max_distance, const BoxCore& box, Hit* out) {
    UprightInBox u;
    if (!upright_in_box(a, b, box, &u)) return Decided::kUndecided;
    const Decided d = cast_upright_box_level_or_vertical(o, a, r, dir, max_distance, box, u, out);
    if (d != Decided::kUndecided || !box.aligned || !(u.A.y > box.h.y)) return d;
    return above_box(o, a, r, dir, max_distance, box, u.A, out);
}

} // namespace

template <class Core>
bool overlap_core(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Core& core,
                  Scalar margin, Contact* out) {
    if constexpr (std::is_same_v<Core, BoxCore>) {
        if (overlap_upright_box(a, b, r, core, margin) == Decided::kNo) return false;
    }
    return overlap_core_general(o, a, b, r, core, margin, out);
}

template <class Core>
bool cast_core(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
               Scalar max_distance, const Core& core, Hit* out) {
    if constexpr (std::is_same_v<Core, BoxCore>) {
        const Decided d = cast_upright_box(o, a, b, r, dir, max_distance, core, out);
        if (d != Decided::kUndecided) return d == Decided::kHit;
    }
    return cast_core_general(o, a, b, r, dir, max_distance, core, out);
}

// The plane is a half-space: its gap is linear in t, so both queries are closed form.
bool overlap_plane(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const PlaneCore& p,
                   Scalar margin, Contact* out) {
    const Scalar sa = dot(p.n, a) - p.offset, sb = dot(p.n, b) - p.offset;
    const Scalar s = min(sa, sb) - r;
    if (!(s < margin)) return false;
    const Vec3& low = sa <= sb ? a : b;
    out->feature = Feature{0, FeatureKind::kFace, 0};
    out->normal = p.n;
    out->depth = -s;
    out->point = low - p.n * min(sa, sb) + o;
    return true;
}

bool cast_plane(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
                Scalar max_distance, const PlaneCore& p, Hit* out) {
    const Scalar sa = dot(p.n, a) - p.offset, sb = dot(p.n, b) - p.offset;
    const Scalar s = min(sa, sb) - r;
    const Vec3& low = sa <= sb ? a : b;
    out->feature = Feature{0, FeatureKind::kFace, 0};
    out->normal = p.n;
    if (s <= kContactTolerance) {
        out->distance = Scalar{};
        out->point = low - p.n * min(sa, sb) + o;
        out->start_overlap = true;
        out->depth = max(-s, Scalar{});
        return true;
    }
    const Scalar g = dot(dir, p.n);
    if (g.raw() >= 0 || max_distance.raw() <= 0) return false;
    const Scalar gap = s - kCastTargetSeparation;
    if (gap > (-g) * max_distance) return false;
    const Scalar t = min(gap / (-g), max_distance);
    const Vec3 moved = low + dir * t;
    out->distance = t;
    out->point = moved - p.n * (dot(p.n, moved) - p.offset) + o;
    out->start_overlap = false;
    out->depth = Scalar{};
    return true;
}

template bool overlap_core_general(const Vec3&, const Vec3&, const Vec3&, Scalar, const BoxCore&,
                                   Scalar, Contact*);
template bool cast_core_general(const Vec3&, const Vec3&, const Vec3&, Scalar, const Vec3&, Scalar,
                                const BoxCore&, Hit*);
template bool overlap_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const PointCore&, Scalar,
                           Contact*);
template bool overlap_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const SegCore&, Scalar,
                           Contact*);
template bool overlap_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const BoxCore&, Scalar,
                           Contact*);
template bool overlap_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const TriCore&, Scalar,
                           Contact*);
template bool cast_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const Vec3&, Scalar,
                        const PointCore&, Hit*);
template bool cast_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const Vec3&, Scalar,
                        const SegCore&, Hit*);
template bool cast_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const Vec3&, Scalar,
                        const BoxCore&, Hit*);
template bool cast_core(const Vec3&, const Vec3&, const Vec3&, Scalar, const Vec3&, Scalar,
                        const TriCore&, Hit*);

} // namespace fx::geo::detail

// ------------------------------------------------------------------------------------------
// Public per-shape API: local frame at the capsule's first point.
namespace fx::geo {

using namespace detail;

namespace {

template <class Shape> Scalar separation_impl(const Capsule& c, const Shape& s) {
    const Vec3 o = c.a;
    const auto core = make_core(s, o);
    return closest(Vec3{}, c.b - o, core).dist - (c.radius + core_radius(core));
}

template <class Shape>
bool overlap_impl(const Capsule& c, const Shape& s, Scalar margin, Contact* out) {
    const Vec3 o = c.a;
    return overlap_core(o, Vec3{}, c.b - o, c.radius, make_core(s, o), margin, out);
}

template <class Shape>
bool cast_impl(const Capsule& c, const Vec3& direction, Scalar max_distance, const Shape& s,
               Hit* out) {
    const Vec3 o = c.a;
    return cast_core(o, Vec3{}, c.b - o, c.radius, normalize(direction), max_distance,
                     make_core(s, o), out);
}

} // namespace

Scalar separation(const Capsule& c, const Sphere& s) {
    return separation_impl(c, s);
}
Scalar separation(const Capsule& c, const Capsule& s) {
    return separation_impl(c, s);
}
Scalar separation(const Capsule& c, const Box& s) {
    return separation_impl(c, s);
}
Scalar separation(const Capsule& c, const Triangle& s) {
    return separation_impl(c, s);
}
Scalar separation(const Capsule& c, const Plane& s) {
    const PlaneCore p = make_core(s, c.a);
    const Vec3 b = c.b - c.a;
    return min(-p.offset, dot(p.n, b) - p.offset) - c.radius;
}

bool overlap(const Capsule& c, const Sphere& s, Scalar margin, Contact* out) {
    return overlap_impl(c, s, margin, out);
}
bool overlap(const Capsule& c, const Capsule& s, Scalar margin, Contact* out) {
    return overlap_impl(c, s, margin, out);
}
bool overlap(const Capsule& c, const Box& s, Scalar margin, Contact* out) {
    return overlap_impl(c, s, margin, out);
}
bool overlap(const Capsule& c, const Triangle& s, Scalar margin, Contact* out) {
    return overlap_impl(c, s, margin, out);
}
bool overlap(const Capsule& c, const Plane& s, Scalar margin, Contact* out) {
    return overlap_plane(c.a, Vec3{}, c.b - c.a, c.radius, make_core(s, c.a), margin, out);
}

bool cast(const Capsule& c, const Vec3& d, Scalar m, const Sphere& s, Hit* out) {
    return cast_impl(c, d, m, s, out);
}
bool cast(const Capsule& c, const Vec3& d, Scalar m, const Capsule& s, Hit* out) {
    return cast_impl(c, d, m, s, out);
}
bool cast(const Capsule& c, const Vec3& d, Scalar m, const Box& s, Hit* out) {
    return cast_impl(c, d, m, s, out);
}
bool cast(const Capsule& c, const Vec3& d, Scalar m, const Triangle& s, Hit* out) {
    return cast_impl(c, d, m, s, out);
}
bool cast(const Capsule& c, const Vec3& d, Scalar m, const Plane& s, Hit* out) {
    return cast_plane(c.a, Vec3{}, c.b - c.a, c.radius, normalize(d), m, make_core(s, c.a), out);
}

bool insert_hit(std::span<Hit> out, size_t* count, const Hit& h) {
    size_t pos = *count;
    while (pos > 0 && hit_less(h, out[pos - 1]))
        --pos;
    if (pos >= out.size()) return false;
    size_t end = *count < out.size() ? *count : out.size() - 1;
    for (size_t i = end; i > pos; --i)
        copy_result(&out[i], out[i - 1]);
    copy_result(&out[pos], h);
    if (*count < out.size()) ++*count;
    return true;
}

bool insert_contact(std::span<Contact> out, size_t* count, const Contact& c) {
    size_t pos = *count;
    while (pos > 0 && contact_less(c, out[pos - 1]))
        --pos;
    if (pos >= out.size()) return false;
    size_t end = *count < out.size() ? *count : out.size() - 1;
    for (size_t i = end; i > pos; --i)
        out[i] = out[i - 1];
    out[pos] = c;
    if (*count < out.size()) ++*count;
    return true;
}

} // namespace fx::geo
