// Closest points between a capsule's core segment and each obstacle core (local frame).
#include "obstacle_cores.h"

#include "geo/tolerances.h"
#include "wide_ops.h"

namespace fx::geo::detail {
namespace {

Closest make_closest(const Vec3& on_seg, const Vec3& on_core, Feature f) {
    Closest c;
    c.on_seg = on_seg;
    c.on_core = on_core;
    c.dist = length(on_seg - on_core);
    c.feature = f;
    return c;
}

/// Closest point to p on segment [a, a + d]: parameter num / den with den = |d|^2.
Vec3 closest_on_segment(const Vec3& p, const Vec3& a, const Vec3& d, Scalar* num_out,
                        Scalar* den_out) {
    const Scalar den = dot(d, d);
    if (den.raw() == 0) {
        *num_out = Scalar{};
        *den_out = Scalar::one();
        return a;
    }
    const Scalar num = clamp(dot(p - a, d), Scalar{}, den);
    *num_out = num;
    *den_out = den;
    return point_on(a, d, num, den);
}

} // namespace

// ----------------------------------------------------------------------------------------
// Segment-segment. Based on: Ericson, Real-Time Collision Detection (RTCD), 5.1.9, with the
// products of dot products (which overflow Scalar for 10 km edges) taken exactly in 128 bits
// and the second point placed with one rounding per component (point_on).
SegSeg closest_seg_seg(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const Scalar a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    SegSeg out;
    if (a.raw() == 0 && e.raw() == 0) {
        out.c1 = p1;
        out.c2 = p2;
        return out;
    }
    if (a.raw() == 0) {
        const Scalar tn = clamp(f, Scalar{}, e);
        out.c1 = p1;
        out.c2 = point_on(p2, d2, tn, e);
        out.t = tn == e ? Scalar::one() : tn / e;
        return out;
    }
    const Scalar c = dot(d1, r);
    if (e.raw() == 0) {
        const Scalar sn = clamp(-c, Scalar{}, a);
        out.c1 = point_on(p1, d1, sn, a);
        out.s = sn == a ? Scalar::one() : sn / a;
        out.c2 = p2;
        return out;
    }
    const Scalar b = dot(d1, d2);
    const W denom = subw(mulw(a, e), mulw(b, b));
    // Non-parallel: s of the closest points of the two lines, clamped to [0, 1]. Parallel (or
    // rounding made denom <= 0): any s works; take 0 (RTCD).
    Scalar s = signw(denom) > 0 ? ratio01_w(subw(mulw(b, f), mulw(c, e)), denom) : Scalar{};
    const Scalar tnom = b * s + f;
    Scalar sn, sd = a;
    bool s_exact = false;
    if (tnom.raw() < 0) {
        out.t = Scalar{};
        out.c2 = p2;
        sn = clamp(-c, Scalar{}, a);
        s_exact = true;
    } else if (tnom > e) {
        out.t = Scalar::one();
        out.c2 = q2;
        sn = clamp(b - c, Scalar{}, a);
        s_exact = true;
    } else {
        out.t = tnom == e ? Scalar::one() : tnom / e;
        out.c2 = point_on(p2, d2, tnom, e);
    }
    if (s_exact) {
        out.s = sn == sd ? Scalar::one() : sn / sd;
        out.c1 = point_on(p1, d1, sn, sd);
    } else {
        out.s = s;
        out.c1 = p1 + d1 * s;
    }
    return out;
}

// ----------------------------------------------------------------------------------------
Scalar plane_distance(const Vec3& p, const TriCore& tri) {
    return div_w(dot_q64(p - tri.v[0], tri.cross), tri.cross_len);
}

// Point-triangle. Based on: RTCD 5.1.5 (Voronoi regions by dot products), with the
// region tests' products taken exactly in 128 bits, edge points placed with one rounding per
// component, and the face point found by the exact plane distance along the unit normal.
Vec3 closest_point_triangle(const Vec3& p, const TriCore& tri, Feature* feature) {
    const Vec3 &v0 = tri.v[0], &v1 = tri.v[1], &v2 = tri.v[2];
    const Vec3 ab = v1 - v0, ac = v2 - v0, ap = p - v0;
    feature->triangle = tri.index;
    const Scalar d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1.raw() <= 0 && d2.raw() <= 0) {
        feature->kind = FeatureKind::kVertex, feature->index = 0;
        return v0;
    }
    const Vec3 bp = p - v1;
    const Scalar d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3.raw() >= 0 && d4 <= d3) {
        feature->kind = FeatureKind::kVertex, feature->index = 1;
        return v1;
    }
    const W vc = subw(mulw(d1, d4), mulw(d3, d2));
    if (signw(vc) <= 0 && d1.raw() >= 0 && d3.raw() <= 0) {
        feature->kind = FeatureKind::kEdge, feature->index = 0;
        return point_on(v0, ab, d1, d1 - d3);
    }
    const Vec3 cp = p - v2;
    const Scalar d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6.raw() >= 0 && d5 <= d6) {
        feature->kind = FeatureKind::kVertex, feature->index = 2;
        return v2;
    }
    const W vb = subw(mulw(d5, d2), mulw(d1, d6));
    if (signw(vb) <= 0 && d2.raw() >= 0 && d6.raw() <= 0) {
        feature->kind = FeatureKind::kEdge, feature->index = 2;
        return point_on(v0, ac, d2, d2 - d6);
    }
    const W va = subw(mulw(d3, d6), mulw(d5, d4));
    if (signw(va) <= 0 && (d4 - d3).raw() >= 0 && (d5 - d6).raw() >= 0) {
        feature->kind = FeatureKind::kEdge, feature->index = 1;
        return point_on(v1, v2 - v1, d4 - d3, (d4 - d3) + (d5 - d6));
    }
    feature->kind = FeatureKind::kFace, feature->index = 0;
    return p - tri.n * plane_distance(p, tri);
}

namespace {

bool inside_triangle(const Vec3& x, const TriCore& tri) {
    for (int i = 0; i < 3; ++i) {
        const Vec3& vi = tri.v[i];
        const Vec3& vj = tri.v[(i + 1) % 3];
        if (signw(dot_q64(cross(vj - vi, x - vi), tri.cross)) < 0) return false;
    }
    return true;
}

} // namespace

// Segment-triangle: if the segment crosses the triangle the distance is 0; otherwise the
// closest pair involves an endpoint of the segment or an edge of the triangle (RTCD 5.1.10),
// so the answer is the least of two point-triangle and three segment-segment distances,
// ties to the first in that fixed order.
Closest closest(const Vec3& a, const Vec3& b, const TriCore& tri) {
    const Scalar sa = plane_distance(a, tri), sb = plane_distance(b, tri);
    const bool crosses = (sa.raw() <= 0 && sb.raw() >= 0) || (sa.raw() >= 0 && sb.raw() <= 0);
    if (crosses && !(sa.raw() == 0 && sb.raw() == 0)) {
        const Vec3 x = sa.raw() == 0 ? a : (sb.raw() == 0 ? b : a + (b - a) * (sa / (sa - sb)));
        if (inside_triangle(x, tri)) {
            Closest c = make_closest(x, x, Feature{tri.index, FeatureKind::kFace, 0});
            c.dist = Scalar{};
            return c;
        }
    }
    Feature fa, fb;
    const Vec3 qa = closest_point_triangle(a, tri, &fa);
    Closest best = make_closest(a, qa, fa);
    const Vec3 qb = closest_point_triangle(b, tri, &fb);
    Closest cb = make_closest(b, qb, fb);
    if (cb.dist < best.dist) best = cb;
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3;
        const SegSeg ss = closest_seg_seg(a, b, tri.v[i], tri.v[j]);
        Feature f{tri.index, FeatureKind::kEdge, static_cast<uint8_t>(i)};
        if (ss.t.raw() == 0) f = {tri.index, FeatureKind::kVertex, static_cast<uint8_t>(i)};
        if (ss.t == Scalar::one()) f = {tri.index, FeatureKind::kVertex, static_cast<uint8_t>(j)};
        Closest c = make_closest(ss.c1, ss.c2, f);
        if (c.dist < best.dist) best = c;
    }
    if (best.feature.kind == FeatureKind::kFace) {
        best.has_face_normal = true;
        best.face_normal = plane_distance(best.on_seg, tri).raw() >= 0 ? tri.n : -tri.n;
    }
    return best;
}

// ----------------------------------------------------------------------------------------
Closest closest(const Vec3& a, const Vec3& b, const PointCore& s) {
    Scalar num, den;
    const Vec3 p = closest_on_segment(s.c, a, b - a, &num, &den);
    return make_closest(p, s.c, Feature{});
}

Closest closest(const Vec3& a, const Vec3& b, const SegCore& s) {
    const SegSeg ss = closest_seg_seg(a, b, s.a, s.b);
    return make_closest(ss.c1, ss.c2, Feature{});
}

// ----------------------------------------------------------------------------------------
// Segment-box, in the box's frame. The squared distance from P(t) = A + t D to the box
// [-h, h] is a convex piecewise quadratic in t whose pieces change where P(t) crosses one of
// the six slab planes. Between consecutive crossings the set of clamped axes is fixed, so the
// minimum on that piece is the clamped vertex of one quadratic; the least over the pieces
// (at most 7) is the exact minimum. Ties go to the earliest piece.
// The common case of every tick: an upright capsule (a and b differ only in y) against a box
// that is not rotated or turns about y only (then the segment is upright in the box's frame
// too: its ends' x and z there are equal dot products, its y exact). The same computation as
// closest_box_general with the axes that do not move folded in: x and z stay put (the general
// loop skips their zero products), the pieces are those of y alone. Every operation and its order
// are the general routine's, so the bits are too (tests/geometry/closest_fast_test.cpp compares the
// two on random and boundary inputs).
namespace {

Closest closest_upright(const Vec3& a, const Vec3& b, const BoxCore& box, const Vec3& A) {
    // A: a in the box's frame (box.to_box(a)); b's x and z there are A's, its y is exact.
    const Scalar ax = A.x, ay = A.y, az = A.z;
    const Scalar dy = (b.y - box.c.y) - ay;
    const Scalar hx = box.h.x, hy = box.h.y, hz = box.h.z;
    const int stx = clamp_state(ax, hx), stz = clamp_state(az, hz);
    const Scalar qx = clamp(ax, -hx, hx), qz = clamp(az, -hz, hz);
    const Scalar gx = ax - qx, gz = az - qz;

    // Breakpoints: where y crosses -hy and +hy inside (0, 1), in ascending order.
    Scalar ts[4];
    int nt = 0;
    ts[nt++] = Scalar{};
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        const Scalar num = (sgn < 0 ? -hy : hy) - ay;
        if ((num.raw() > 0) != (dy.raw() > 0) || num.raw() == 0 || abs(num) >= abs(dy)) continue;
        ts[nt++] = num / dy;
    }
    if (nt == 3 && ts[2] < ts[1]) {
        const Scalar tmp = ts[1];
        ts[1] = ts[2];
        ts[2] = tmp;
    }
    ts[nt++] = Scalar::one();

    Closest best;
    bool have = false;
    Scalar best_t, best_qy;
    Wide best_sq{};
    int best_sty = 0;
    for (int k = 0; k + 1 < nt; ++k) {
        const Scalar t0 = ts[k], t1 = ts[k + 1];
        if (t1 < t0 || (have && t1 == t0)) continue;
        const Scalar mid = Scalar::from_raw(t0.raw() + ((t1.raw() - t0.raw()) >> 1));
        Scalar t = t0;
        const int st = clamp_state(ay + dy * mid, hy);
        if (st != 0) {
            const Scalar num = (ay - (st < 0 ? -hy : hy)) * dy;
            const Scalar den = dy * dy;
            if (den.raw() > 0) {
                const Scalar mnum = -num;
                // (Products with a zero factor are exact zeros: written as such.)
                if (mnum <= (t0.raw() == 0 ? Scalar{} : den * t0))
                    t = t0;
                else if (mnum >= den * t1)
                    t = t1;
                else
                    t = mnum / den;
            }
        }
        const Scalar py = t.raw() == 0 ? ay : ay + dy * t;
        const Scalar qy = clamp(py, -hy, hy);
        const Vec3 gap{gx, py - qy, gz};
        // The square is needed only to compare pieces; the length of a gap along one axis
        // is that component's magnitude (length() takes the same shortcut).
        Wide sq{};
        if (nt > 2) {
            sq = length_sq_q64(gap);
            if (have && wide::Default::ucmp(sq, best_sq) >= 0) continue;
        }
        const Scalar d = length(gap);
        if (!have || d < best.dist) {
            have = true;
            best.dist = d;
            best_sq = sq;
            best_t = t;
            best_sty = clamp_state(py, hy);
            best_qy = qy;
        }
        if (d.raw() == 0) break;
    }
    const int st[3] = {stx, best_sty, stz};
    best.feature = box_feature(st);
    best.on_seg = {a.x, best_t.raw() == 0 ? a.y : a.y + (b.y - a.y) * best_t, a.z};
    best.on_core = box.c + box.rotate(Vec3{qx, best_qy, qz});
    if (best.feature.kind == FeatureKind::kFace) {
        const int ax_i = best.feature.index / 2;
        const Vec3 col = box.rot->column(ax_i);
        best.has_face_normal = true;
        best.face_normal = (best.feature.index & 1) != 0 ? col : -col;
    }
    return best;
}

} // namespace

namespace {

/// The face part of a closest-point answer: face (axis, side) of `box`, the box-frame point q
/// on it, the face's outward normal.
inline void set_face(const BoxCore& box, int axis, int side, const Scalar q[3], Closest* out) {
    out->feature =
        Feature{0, FeatureKind::kFace, static_cast<uint8_t>(axis * 2 + (side > 0 ? 1 : 0))};
    out->on_core = box.c + box.rotate(Vec3{q[0], q[1], q[2]});
    const Vec3 col = box.rot->column(axis);
    out->has_face_normal = true;
    out->face_normal = side > 0 ? col : -col;
}

/// closest_box_general for a segment wholly within one face's slab: both ends strictly beyond
/// that face's plane and within the face's extent along the other two axes (in the box's frame).
/// There the general routine finds no breakpoint (a breakpoint is a crossing of some axis's
/// bound between the ends, and no bound lies between them), so one piece, [0, 1]; its
/// midpoint lies between the ends, so its clamp states are the face's; any t in [0, 1] keeps
/// the point in the slab, so the gap is along the face's axis alone, and the rounded root of its
/// square is its magnitude. Below: that piece's arithmetic, the same operations in the same
/// order, without the breakpoints, the sort and the root (tests/geometry/closest_fast_test.cpp). A
/// tilted ramp's or wedge's face under or beside a body. False (nothing written) outside such a
/// slab.
bool closest_in_face_slab(const Vec3& a, const Vec3& b, const BoxCore& box, const Vec3& A,
                          const Vec3& Bl, Closest* out) {
    const Scalar h[3] = {box.h.x, box.h.y, box.h.z};
    const Scalar Ai[3] = {A.x, A.y, A.z};
    const Scalar Bi[3] = {Bl.x, Bl.y, Bl.z};
    int axis = -1, side = 0;
    for (int i = 0; i < 3; ++i) {
        const int sa = clamp_state(Ai[i], h[i]), sb = clamp_state(Bi[i], h[i]);
        if (sa == 0 && sb == 0) continue;
        if (sa != sb || axis >= 0)
            return false; // across a face's plane, or an edge's or a vertex's region
        axis = i;
        side = sa;
    }
    if (axis < 0) return false; // inside the box
    const Scalar Di = Bi[axis] - Ai[axis];
    const Scalar bound = side < 0 ? -h[axis] : h[axis];
    // The piece's t* = -num / den clamped to [0, 1], num and den the general routine's (only the
    // face's axis is clamped at the midpoint, so only it adds to them). Toward the face, -num is
    // |A - bound| * |D| > D^2 = den exactly (the far end lies beyond the plane too), and rounding
    // keeps that order: t = 1. Away from it (or parallel) -num <= 0: t = 0. Never between.
    Scalar t;
    if (Di.raw() != 0) {
        const Scalar num = (Ai[axis] - bound) * Di;
        const Scalar den = Di * Di;
        if (den.raw() > 0 && (-num).raw() > 0) t = Scalar::one();
    }
    Scalar q[3];
    for (int i = 0; i < 3; ++i) {
        const Scalar di = Bi[i] - Ai[i];
        const Scalar pi = di.raw() != 0 ? Ai[i] + di * t : Ai[i];
        q[i] = i == axis ? bound : pi; // within the other axes' extent: unclamped
        if (i == axis) out->dist = side > 0 ? pi - bound : bound - pi;
    }
    const Vec3 ab = b - a;
    out->on_seg = {ab.x.raw() == 0 ? a.x : a.x + ab.x * t, ab.y.raw() == 0 ? a.y : a.y + ab.y * t,
                   ab.z.raw() == 0 ? a.z : a.z + ab.z * t};
    set_face(box, axis, side, q, out);
    return true;
}

} // namespace

namespace {

/// How far inside a face's extent the first end must lie for closest_receding_from_face(), and
/// the longest segment (along each axis of the box) it takes.
constexpr Scalar kRecedeInset = kContactTolerance;
constexpr Scalar kRecedeMaxAxis = Scalar::from_int(256);

/// closest_box_general for a segment that starts beyond one face's plane, inside the face's
/// extent along the other two axes by kRecedeInset, and does not come nearer that plane: A (the
/// first end, box frame) beyond the face, D = Bl - A along the face's axis pointing away from
/// the box or zero (an upright body's segment above a tilted ramp's top, whose upper end may lie
/// beyond the top's extent, outside closest_in_face_slab). The general routine's first piece,
/// [0, t1] (t1 the earliest crossing of any slab bound), keeps the face's clamp state alone at
/// its midpoint: the crossing of the other axes' bounds lies at least kRecedeInset / |D_i| in,
/// the midpoint at most half way plus 2^-32, and the rounded point moves at most 2^-33 m more
/// (|D_i| <= 2^8 m: 2^-25 m, against the inset's 2^-20). So its num = (A_k - bound) D_k has the
/// sign of D_k times the side, never negative, -num <= 0 = den t0 and t = 0: the point A, the
/// face point q = A with the face's coordinate set to the bound, a gap along the face's axis
/// alone, whose square's rounded root is its magnitude. Every later piece's point has its face
/// coordinate no nearer the bound (A_k + D_k t, D_k t rounded with D_k's sign) and is clamped on
/// that axis, so its exact square is at least the first's: not kept (ties go to the earlier
/// piece). The result: the first piece's, written down. False (nothing written) otherwise.
bool closest_receding_from_face(const Vec3& a, const BoxCore& box, const Vec3& A, const Vec3& Bl,
                                Closest* out) {
    const Scalar h[3] = {box.h.x, box.h.y, box.h.z};
    const Scalar Ai[3] = {A.x, A.y, A.z};
    const Scalar Bi[3] = {Bl.x, Bl.y, Bl.z};
    int axis = -1, side = 0;
    for (int i = 0; i < 3; ++i) {
        const Scalar d = Bi[i] - Ai[i];
        if (!(abs(d) <= kRecedeMaxAxis)) return false;
        const int st = clamp_state(Ai[i], h[i]);
        if (st == 0) {
            if (!(abs(Ai[i]) < h[i] - kRecedeInset))
                return false; // near or on the face's edge lines
            continue;
        }
        if (axis >= 0) return false; // beyond two faces' planes: an edge's or a vertex's region
        if ((st > 0 && d.raw() < 0) || (st < 0 && d.raw() > 0)) return false; // nearing the plane
        axis = i;
        side = st;
    }
    if (axis < 0) return false; // inside the box
    const Scalar bound = side < 0 ? -h[axis] : h[axis];
    Scalar q[3] = {Ai[0], Ai[1], Ai[2]};
    q[axis] = bound;
    out->dist = side > 0 ? Ai[axis] - bound : bound - Ai[axis];
    out->on_seg = a;
    set_face(box, axis, side, q, out);
    return true;
}

} // namespace

Closest closest(const Vec3& a, const Vec3& b, const BoxCore& box) {
    if (box.yaw_only && a.x == b.x && a.z == b.z && a.y != b.y)
        return closest_upright(a, b, box,
                               box.aligned ? a - box.c : box.rot->transpose_mul(a - box.c));
    const Vec3 A = box.to_box(a), Bl = box.to_box(b);
    Closest c;
    if (closest_in_face_slab(a, b, box, A, Bl, &c)) return c;
    if (closest_receding_from_face(a, box, A, Bl, &c)) return c;
    return closest_box_in_frame(a, b, box, A, Bl);
}

// For an upright segment (a below b) over the top face (feature y+: x and z lie inside the face
// and the whole segment is above it, or some part would be at distance 0), closest_upright finds
// one piece (no crossing of the y slab), t = 0: the point a, the face point straight below it
// and the distance a.y - top, a perfect square's root. Moving by any vertical offset that keeps
// the segment above the face changes only a.y and that distance.
void closest_moved(Closest* cl, const Vec3& a, const Vec3& b, const Vec3& off, const BoxCore& box) {
    if (box.aligned && a.x == b.x && a.z == b.z && a.y < b.y && off.x.raw() == 0 &&
        off.z.raw() == 0 && cl->feature == Feature{0, FeatureKind::kFace, 3}) {
        const Scalar ay = (a.y + off.y) - box.c.y;
        const Scalar gap = ay - box.h.y;
        if (gap.raw() > 0) {
            cl->dist = gap;
            cl->on_seg.y = a.y + off.y;
            return;
        }
    }
    *cl = closest(a + off, b + off, box);
}

Closest closest_box_general(const Vec3& a, const Vec3& b, const BoxCore& box) {
    return closest_box_in_frame(a, b, box, box.to_box(a), box.to_box(b));
}

Closest closest_box_in_frame(const Vec3& a, const Vec3& b, const BoxCore& box, const Vec3& A,
                             const Vec3& Bl) {
    const Vec3 D = Bl - A;
    const Scalar h[3] = {box.h.x, box.h.y, box.h.z};
    const Scalar Ai[3] = {A.x, A.y, A.z};
    const Scalar Di[3] = {D.x, D.y, D.z};

    // Breakpoints in (0, 1), sorted (insertion sort of at most 6 values; equal values are
    // interchangeable, so the order of ties cannot matter).
    Scalar ts[8];
    int nt = 0;
    ts[nt++] = Scalar{};
    for (int i = 0; i < 3; ++i) {
        if (Di[i].raw() == 0) continue;
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            const Scalar bound = sgn < 0 ? -h[i] : h[i];
            const Scalar num = bound - Ai[i];
            // t = num / D in (0, 1)  <=>  num and D have the same sign and |num| < |D|.
            if ((num.raw() > 0) != (Di[i].raw() > 0) || num.raw() == 0 || abs(num) >= abs(Di[i]))
                continue;
            ts[nt++] = num / Di[i];
        }
    }
    ts[nt++] = Scalar::one();
    for (int i = 1; i < nt; ++i)
        for (int j = i; j > 0 && ts[j] < ts[j - 1]; --j) {
            const Scalar tmp = ts[j];
            ts[j] = ts[j - 1];
            ts[j - 1] = tmp;
        }

    // Axes the segment does not move along (D = 0: an upright capsule in an upright box) keep
    // their coordinate: their products with D are exact zeros, so they are skipped, not computed.
    const bool moves[3] = {Di[0].raw() != 0, Di[1].raw() != 0, Di[2].raw() != 0};
    Closest best;
    bool have = false;
    Scalar best_t;
    Wide best_sq{};
    int best_st[3] = {0, 0, 0};
    Scalar best_q[3];
    for (int k = 0; k + 1 < nt; ++k) {
        const Scalar t0 = ts[k], t1 = ts[k + 1];
        if (t1 < t0 || (have && t1 == t0)) continue;
        const Scalar mid = Scalar::from_raw(t0.raw() + ((t1.raw() - t0.raw()) >> 1));
        Scalar num, den;
        for (int i = 0; i < 3; ++i) {
            if (!moves[i]) continue;
            const int st = clamp_state(Ai[i] + Di[i] * mid, h[i]);
            if (st == 0) continue;
            num += (Ai[i] - (st < 0 ? -h[i] : h[i])) * Di[i];
            den += Di[i] * Di[i];
        }
        Scalar t = t0;
        if (den.raw() > 0) {
            // t* = -num / den clamped to [t0, t1], without dividing out of range.
            const Scalar mnum = -num;
            if (mnum <= den * t0)
                t = t0;
            else if (mnum >= den * t1)
                t = t1;
            else
                t = mnum / den;
        }
        int sp[3];
        Scalar q[3];
        Vec3 gap;
        for (int i = 0; i < 3; ++i) {
            const Scalar pi = moves[i] ? Ai[i] + Di[i] * t : Ai[i];
            sp[i] = clamp_state(pi, h[i]);
            q[i] = clamp(pi, -h[i], h[i]);
            (i == 0 ? gap.x : (i == 1 ? gap.y : gap.z)) = pi - q[i];
        }
        // The rounded length is monotone in the exact squared length: a piece whose square is
        // not smaller cannot have a smaller length, so only a smaller square is rooted (and
        // kept when its rounded length is smaller, as before: ties go to the earlier piece).
        const Wide sq = length_sq_q64(gap);
        if (have && wide::Default::ucmp(sq, best_sq) >= 0) continue;
        const Scalar d = sqrt_q64(sq);
        if (!have || d < best.dist) {
            have = true;
            best.dist = d;
            best_sq = sq;
            best_t = t;
            for (int i = 0; i < 3; ++i)
                best_st[i] = sp[i], best_q[i] = q[i];
        }
        if (d.raw() == 0) break;
    }
    best.feature = box_feature(best_st);
    const Vec3 ab = b - a;
    best.on_seg = {ab.x.raw() == 0 ? a.x : a.x + ab.x * best_t,
                   ab.y.raw() == 0 ? a.y : a.y + ab.y * best_t,
                   ab.z.raw() == 0 ? a.z : a.z + ab.z * best_t};
    best.on_core = box.c + box.rotate(Vec3{best_q[0], best_q[1], best_q[2]});
    if (best.feature.kind == FeatureKind::kFace) {
        const int ax = best.feature.index / 2;
        const Vec3 col = box.rot->column(ax);
        best.has_face_normal = true;
        best.face_normal = (best.feature.index & 1) != 0 ? col : -col;
    }
    return best;
}

} // namespace fx::geo::detail
