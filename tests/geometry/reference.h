// High-precision reference for the geometry tests (tests only: long double, <cmath>).
//
// Written independently of the library's algorithms: segment-segment by enumerating the
// interior critical point and the four endpoint cases; segment-box and segment-triangle by
// an intersection test plus endpoint-to-shape and segment-to-edge candidates; casts by a
// golden-section search for the minimum of the (convex) separation along the motion and a
// bisection for its first zero. Works in a frame centred on a given origin so that 100 km
// coordinates keep their precision (64-bit mantissa).
#pragma once

#include <algorithm>
#include <cmath>

#include "geo_test_util.h"

namespace geotest::ref {

struct Pair {
    long double dist = 0; ///< between cores
    LV p; ///< on the moving segment
    LV q; ///< on the obstacle core
};

inline LV at(LV a, LV b, long double s) {
    return a + (b - a) * s;
}

inline Pair point_segment(LV p, LV a, LV b) {
    const LV d = b - a;
    const long double dd = dotl(d, d);
    long double t = dd > 0 ? dotl(p - a, d) / dd : 0;
    t = std::clamp(t, 0.0L, 1.0L);
    const LV q = at(a, b, t);
    return {lenl(p - q), p, q};
}

/// Segment [a,b] (moving) to segment [c,d].
inline Pair segment_segment(LV a, LV b, LV c, LV d) {
    Pair best = point_segment(a, c, d);
    auto consider = [&](const Pair& x) {
        if (x.dist < best.dist) best = x;
    };
    consider(point_segment(b, c, d));
    Pair r = point_segment(c, a, b);
    consider({r.dist, r.q, r.p});
    r = point_segment(d, a, b);
    consider({r.dist, r.q, r.p});
    const LV u = b - a, v = d - c, w = a - c;
    const long double A = dotl(u, u), B = dotl(u, v), C = dotl(v, v), D = dotl(u, w),
                      E = dotl(v, w);
    const long double den = A * C - B * B;
    if (den > 1e-30L * A * C && A > 0 && C > 0) {
        const long double s = (B * E - C * D) / den, t = (A * E - B * D) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            const LV p = at(a, b, s), q = at(c, d, t);
            consider({lenl(p - q), p, q});
        }
    }
    return best;
}

struct Box {
    LV c;
    LV h;
    LV axis[3]; ///< columns of the rotation: local axis i in world
};
inline LV to_local(const Box& b, LV p) {
    const LV d = p - b.c;
    return {dotl(b.axis[0], d), dotl(b.axis[1], d), dotl(b.axis[2], d)};
}
inline LV to_world(const Box& b, LV l) {
    return b.c + b.axis[0] * l.x + b.axis[1] * l.y + b.axis[2] * l.z;
}
inline LV clamp_box(const Box& b, LV l) {
    return {std::clamp(l.x, -b.h.x, b.h.x), std::clamp(l.y, -b.h.y, b.h.y),
            std::clamp(l.z, -b.h.z, b.h.z)};
}
/// Liang-Barsky clipping of the local segment against the box.
inline bool segment_hits_box(const Box& b, LV A, LV B) {
    long double t0 = 0, t1 = 1;
    const long double a[3] = {A.x, A.y, A.z}, d[3] = {B.x - A.x, B.y - A.y, B.z - A.z},
                      h[3] = {b.h.x, b.h.y, b.h.z};
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            if (a[i] < -h[i] || a[i] > h[i]) return false;
            continue;
        }
        long double ta = (-h[i] - a[i]) / d[i], tb = (h[i] - a[i]) / d[i];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}
inline Pair segment_box(LV a, LV b, const Box& box) {
    const LV A = to_local(box, a), B = to_local(box, b);
    if (segment_hits_box(box, A, B)) return {0, a, a};
    auto pt = [&](LV Pl, LV Pw) {
        const LV q = clamp_box(box, Pl);
        return Pair{lenl(Pl - q), Pw, to_world(box, q)};
    };
    Pair best = pt(A, a);
    const Pair pb = pt(B, b);
    if (pb.dist < best.dist) best = pb;
    const long double h[3] = {box.h.x, box.h.y, box.h.z};
    for (int ax = 0; ax < 3; ++ax)
        for (int s1 = -1; s1 <= 1; s1 += 2)
            for (int s2 = -1; s2 <= 1; s2 += 2) {
                long double e0[3], e1[3];
                const int o1 = (ax + 1) % 3, o2 = (ax + 2) % 3;
                e0[ax] = -h[ax], e1[ax] = h[ax];
                e0[o1] = e1[o1] = s1 * h[o1];
                e0[o2] = e1[o2] = s2 * h[o2];
                const Pair r = segment_segment(A, B, {e0[0], e0[1], e0[2]}, {e1[0], e1[1], e1[2]});
                if (r.dist < best.dist) best = {r.dist, to_world(box, r.p), to_world(box, r.q)};
            }
    return best;
}

struct Tri {
    LV v[3];
};
inline LV tri_normal(const Tri& t) {
    return unitl(crossl(t.v[1] - t.v[0], t.v[2] - t.v[0]));
}
inline bool inside_tri(const Tri& t, LV p, LV n) {
    for (int i = 0; i < 3; ++i)
        if (dotl(crossl(t.v[(i + 1) % 3] - t.v[i], p - t.v[i]), n) < 0) return false;
    return true;
}
inline Pair point_tri(LV p, const Tri& t) {
    const LV n = tri_normal(t);
    const long double sd = dotl(p - t.v[0], n);
    const LV proj = p - n * sd;
    if (inside_tri(t, proj, n)) return {std::fabs(sd), p, proj};
    Pair best = point_segment(p, t.v[0], t.v[1]);
    for (int i = 1; i < 3; ++i) {
        const Pair r = point_segment(p, t.v[i], t.v[(i + 1) % 3]);
        if (r.dist < best.dist) best = r;
    }
    return {best.dist, p, best.q};
}
inline Pair segment_tri(LV a, LV b, const Tri& t) {
    const LV n = tri_normal(t);
    const long double sa = dotl(a - t.v[0], n), sb = dotl(b - t.v[0], n);
    if ((sa <= 0 && sb >= 0) || (sa >= 0 && sb <= 0)) {
        if (sa != sb) {
            const LV x = at(a, b, sa / (sa - sb));
            if (inside_tri(t, x, n)) return {0, x, x};
        }
    }
    Pair best = point_tri(a, t);
    const Pair pb = point_tri(b, t);
    if (pb.dist < best.dist) best = pb;
    for (int i = 0; i < 3; ++i) {
        const Pair r = segment_segment(a, b, t.v[i], t.v[(i + 1) % 3]);
        if (r.dist < best.dist) best = r;
    }
    return best;
}

/// An obstacle in the reference frame.
struct Shape {
    enum Kind { kSphere, kCapsule, kBox, kPlane, kTri } kind = kSphere;
    LV c, a, b; ///< sphere centre; capsule segment
    long double radius = 0;
    Box box;
    LV n;
    long double offset = 0; ///< plane
    Tri tri;
};

/// Separation of the capsule (segment [a,b], radius r) from the shape, and the unit direction
/// from the shape toward the capsule (valid when the separation is > -r - R).
struct Sep {
    long double sep;
    LV normal;
    long double core_dist;
};
inline Sep separation(LV a, LV b, long double r, const Shape& s) {
    Pair p;
    long double R = 0;
    switch (s.kind) {
    case Shape::kSphere: {
        const Pair x = point_segment(s.c, a, b);
        p = {x.dist, x.q, x.p};
        R = s.radius;
        break;
    }
    case Shape::kCapsule:
        p = segment_segment(a, b, s.a, s.b);
        R = s.radius;
        break;
    case Shape::kBox:
        p = segment_box(a, b, s.box);
        break;
    case Shape::kTri:
        p = segment_tri(a, b, s.tri);
        break;
    case Shape::kPlane: {
        const long double da = dotl(s.n, a) - s.offset, db = dotl(s.n, b) - s.offset;
        return {std::min(da, db) - r, s.n, std::min(da, db)};
    }
    }
    LV n = unitl(p.p - p.q);
    if (s.kind == Shape::kTri && p.dist > 0) {
        // exact face normal when the closest point is inside the face
        const LV tn = tri_normal(s.tri);
        if (std::fabs(std::fabs(dotl(n, tn)) - 1) < 1e-12L) n = dotl(n, tn) > 0 ? tn : -tn;
    }
    return {p.dist - r - R, n, p.dist};
}

struct Toi {
    bool start = false; ///< overlapping or touching at the start (sep0 <= 0)
    long double sep0 = 0; ///< separation at the start
    bool hit = false; ///< first contact within the motion
    long double t = 0; ///< its distance
    long double min_sep = 0; ///< least separation over the motion
    long double slope = 0; ///< d sep / d t at the contact (negative)
};
inline Toi time_of_impact(LV a, LV b, long double r, LV dir, long double D, const Shape& s) {
    auto f = [&](long double t) { return separation(a + dir * t, b + dir * t, r, s).sep; };
    Toi out;
    out.sep0 = f(0);
    if (out.sep0 <= 0) {
        out.start = true;
        out.min_sep = out.sep0;
        return out;
    }
    // golden-section search of the convex separation on [0, D]
    const long double g = (std::sqrt(5.0L) - 1) / 2;
    long double lo = 0, hi = D;
    long double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    long double f1 = f(x1), f2 = f(x2);
    for (int i = 0; i < 60 && hi - lo > 1e-13L; ++i) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo), f1 = f(x1);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo), f2 = f(x2);
        }
    }
    long double tmin = (lo + hi) / 2, fmin = f(tmin);
    const long double fend = f(D);
    if (fend < fmin) tmin = D, fmin = fend;
    out.min_sep = fmin;
    if (fmin > 0) return out;
    out.hit = true;
    long double l = 0, h = tmin;
    for (int i = 0; i < 80 && h - l > 1e-15L; ++i) {
        const long double m = (l + h) / 2;
        (f(m) > 0 ? l : h) = m;
    }
    out.t = h;
    const Sep at_t = separation(a + dir * h, b + dir * h, r, s);
    out.slope = dotl(dir, at_t.normal);
    return out;
}

} // namespace geotest::ref
