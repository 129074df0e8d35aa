// Internal: the obstacle "cores" every capsule query is reduced to, in a local frame.
//
// Every query translates the world so that the capsule's first segment point (at the start
// of the motion) is the origin: coordinates then stay small (kMaxLocalExtent) even 100 km
// from the world origin, and rounded dot products cannot overflow. A capsule query becomes a
// question about the closest points between the capsule's core segment and the obstacle's
// core: a point (sphere), a segment (capsule), a box, a triangle, with the two radii added.
#pragma once

#include "fx/mat3.h"
#include "fx/vec3.h"
#include "geo/shapes.h"

namespace fx::geo::detail {

struct PointCore {
    Vec3 c;
    Scalar radius;
};
struct SegCore {
    Vec3 a;
    Vec3 b;
    Scalar radius;
};
struct BoxCore {
    Vec3 c; ///< local centre
    Vec3 h; ///< half extents
    /// The box's own rotation, not a copy: a query builds a core for every box it tests, and 72
    /// bytes copied are on wasm32 a memory.copy, a call into the engine (docs/performance.md,
    /// issue 55). A core lives within the query, the box beyond it (make_core takes no temporary).
    const Mat3* rot;
    /// rot is the identity: rotating by it is exact (each entry is 0 or 1), so the queries skip
    /// the products and get the same bits.
    bool aligned = false;
    /// rot turns about y only (rows and columns 1 are the unit y): an upright segment stays
    /// upright in the box's frame, and its y coordinate there is exact.
    bool yaw_only = false;

    Vec3 to_box(const Vec3& v) const { return aligned ? v - c : rot->transpose_mul(v - c); }
    Vec3 rotate(const Vec3& v) const { return aligned ? v : *rot * v; }
};
struct TriCore {
    Vec3 v[3]; ///< local vertices
    Vec3 cross; ///< cross(v1 - v0, v2 - v0), translation invariant
    Scalar cross_len;
    Vec3 n; ///< unit normal
    uint32_t index; ///< triangle index within its mesh (0 for a lone triangle)
    uint8_t inactive = 0; ///< MeshTriangle::inactive (0 for a lone triangle: all active)
};
struct PlaneCore {
    Vec3 n;
    Scalar offset; ///< local: dot(n, x) <= offset is solid
};

inline Scalar core_radius(const PointCore& c) {
    return c.radius;
}
inline Scalar core_radius(const SegCore& c) {
    return c.radius;
}
inline Scalar core_radius(const BoxCore&) {
    return Scalar{};
}
inline Scalar core_radius(const TriCore&) {
    return Scalar{};
}

/// Where p lies against the slab [-h, h]: -1 below it, 1 above it, 0 within.
inline int clamp_state(Scalar p, Scalar h) {
    return p < -h ? -1 : (p > h ? 1 : 0);
}

/// The box feature of a point whose clamp states against the three slabs (box frame) are st:
/// a face where one axis is clamped, an edge where two are, a vertex where all three are.
inline Feature box_feature(const int st[3]) {
    int clamped = 0;
    for (int i = 0; i < 3; ++i)
        clamped += st[i] != 0;
    Feature f;
    if (clamped == 1) {
        const int ax = st[0] != 0 ? 0 : (st[1] != 0 ? 1 : 2);
        f.kind = FeatureKind::kFace;
        f.index = static_cast<uint8_t>(ax * 2 + (st[ax] > 0 ? 1 : 0));
    } else if (clamped == 2) {
        const int free_ax = st[0] == 0 ? 0 : (st[1] == 0 ? 1 : 2);
        const int o1 = (free_ax + 1) % 3, o2 = (free_ax + 2) % 3;
        f.kind = FeatureKind::kEdge;
        f.index = static_cast<uint8_t>(free_ax * 4 + (st[o1] > 0 ? 1 : 0) + (st[o2] > 0 ? 2 : 0));
    } else if (clamped == 3) {
        f.kind = FeatureKind::kVertex;
        f.index =
            static_cast<uint8_t>((st[0] > 0 ? 1 : 0) + (st[1] > 0 ? 2 : 0) + (st[2] > 0 ? 4 : 0));
    }
    return f;
}

/// Closest points between the capsule's core segment [a, b] and an obstacle core.
struct Closest {
    Scalar dist; ///< |on_seg - on_core|, correctly rounded
    Vec3 on_seg;
    Vec3 on_core;
    Feature feature;
    bool has_face_normal = false;
    Vec3 face_normal; ///< unit, outward toward on_seg, when the closest feature is a face
};

Closest closest(const Vec3& a, const Vec3& b, const PointCore& s);
Closest closest(const Vec3& a, const Vec3& b, const SegCore& s);
Closest closest(const Vec3& a, const Vec3& b, const BoxCore& s);
/// The segment-box routine for any segment and rotation; closest() takes shortcuts with the
/// same bits (an upright segment against a box turned about y at most; a segment within one
/// face's slab). Exposed for the tests of those shortcuts.
Closest closest_box_general(const Vec3& a, const Vec3& b, const BoxCore& s);
/// The same with the ends already in the box's frame (A = s.to_box(a), Bl = s.to_box(b)).
Closest closest_box_in_frame(const Vec3& a, const Vec3& b, const BoxCore& s, const Vec3& A,
                             const Vec3& Bl);
Closest closest(const Vec3& a, const Vec3& b, const TriCore& s);

/// *cl = closest(a + off, b + off, s), given *cl = closest(a + prev, b + prev, s) for some
/// earlier offset prev along the same line. A segment above an unrotated box's top face that
/// moves straight up or down and stays above it keeps its closest points' x and z and the
/// face: only the distance and the segment point's y change, exactly (a conservative-advancement
/// step toward a floor). That case is written down; every other case calls closest().
void closest_moved(Closest* cl, const Vec3& a, const Vec3& b, const Vec3& off, const BoxCore& s);
template <class Core>
void closest_moved(Closest* cl, const Vec3& a, const Vec3& b, const Vec3& off, const Core& s) {
    *cl = closest(a + off, b + off, s);
}

/// Minimum translation of the capsule (segment [a, b], radius r) out of a core it is deeply
/// in (core distance <= kDeepDistance), by the separating-axis test: the smallest push over a
/// fixed list of candidate axes, ties to the first in the list. Any candidate axis gives a
/// valid separating push; the list holds every facet normal of the Minkowski difference, so
/// the minimum is the true minimum translation (for the box and triangle exactly; for the
/// round shapes up to the core distance, <= kDeepDistance).
void sat(const Vec3& a, const Vec3& b, Scalar r, const PointCore& s, Vec3* normal, Scalar* depth);
void sat(const Vec3& a, const Vec3& b, Scalar r, const SegCore& s, Vec3* normal, Scalar* depth);
void sat(const Vec3& a, const Vec3& b, Scalar r, const BoxCore& s, Vec3* normal, Scalar* depth);
void sat(const Vec3& a, const Vec3& b, Scalar r, const TriCore& s, Vec3* normal, Scalar* depth);

/// Closest points between segments [p1, q1] and [p2, q2], parameters s and t in [0, 1].
struct SegSeg {
    Vec3 c1;
    Vec3 c2;
    Scalar s;
    Scalar t;
};
SegSeg closest_seg_seg(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

/// Closest point on triangle to p, with its feature (RTCD 5.1.5 regions).
Vec3 closest_point_triangle(const Vec3& p, const TriCore& tri, Feature* feature);

/// Signed distance of p from the triangle's plane (positive on the normal's side), from the
/// exact 128-bit dot product with the unnormalised normal, one rounding.
Scalar plane_distance(const Vec3& p, const TriCore& tri);

/// Builders of cores in the local frame with origin o.
PointCore make_core(const Sphere& s, const Vec3& o);
/// Inline: the scene's casts build one for every other character they test.
inline SegCore make_core(const Capsule& c, const Vec3& o) {
    return {c.a - o, c.b - o, c.radius};
}
BoxCore make_core(const Box& b, const Vec3& o);
BoxCore make_core(const Box&& b, const Vec3& o) = delete; // the core would point into it
/// As above, with the rotation's kind known already (box_frame()). Inline: the scene's casts
/// build one for every box they test.
inline BoxCore make_core(const Box& b, const Vec3& o, uint8_t frame) {
    return {b.center - o, b.half_extents, &b.rotation, frame == 2, frame >= 1};
}
BoxCore make_core(const Box&& b, const Vec3& o, uint8_t frame) = delete;
/// 2: the rotation is the identity; 1: it turns about y only; 0: any other.
uint8_t box_frame(const Mat3& rot);
PlaneCore make_core(const Plane& p, const Vec3& o);
TriCore make_core(const Triangle& t, const Vec3& o);
TriCore make_core(const TriangleMesh& m, uint32_t tri, const Vec3& o);

} // namespace fx::geo::detail
