// Minimum translation out of deep contact by separating axes (see obstacle_cores.h), and the
// builders of the cores.
#include "obstacle_cores.h"

#include "wide_ops.h"

namespace fx::geo::detail {
namespace {

struct Best {
    Scalar depth = Scalar::max_value();
    Vec3 normal = Vec3::unit_y();
};

/// Pushing the segment (projection [smin, smax]) along +L by up, or along -L by down, leaves
/// the shape's projection [cmin, cmax] at distance r: a valid separation. Strict < keeps the
/// first of equal candidates (the axis lists are in a fixed order).
void try_axis(Best* best, const Vec3& L, Scalar smin, Scalar smax, Scalar cmin, Scalar cmax,
              Scalar r) {
    const Scalar up = cmax - smin + r;
    const Scalar down = smax - cmin + r;
    if (up < best->depth) *best = {up, L};
    if (down < best->depth) *best = {down, -L};
}

void seg_proj(const Vec3& L, const Vec3& a, const Vec3& b, Scalar* lo, Scalar* hi) {
    const Scalar pa = dot(L, a), pb = dot(L, b);
    *lo = min(pa, pb);
    *hi = max(pa, pb);
}

/// Appends normalize(v) when v has a direction.
void add_axis(Vec3* axes, int* n, const Vec3& v) {
    Vec3 u;
    if (try_normalize(v, &u)) axes[(*n)++] = u;
}

const Vec3 kUp = Vec3::unit_y(), kX = Vec3::unit_x(), kZ = Vec3::unit_z();

} // namespace

void sat(const Vec3& a, const Vec3& b, Scalar r, const SegCore& s, Vec3* normal, Scalar* depth) {
    const Vec3 d1 = b - a, d2 = s.b - s.a;
    const Vec3 n = cross(d1, d2);
    // Facets of the Minkowski difference of two segments (a parallelogram): its normal and
    // its in-plane edge normals; for parallel or point segments, directions perpendicular to
    // them, the segments themselves, and the world axes (up first).
    Vec3 axes[14];
    int count = 0;
    add_axis(axes, &count, n);
    add_axis(axes, &count, cross(n, d1));
    add_axis(axes, &count, cross(n, d2));
    for (const Vec3& d : {d1, d2}) {
        add_axis(axes, &count, cross(d, kUp));
        add_axis(axes, &count, cross(d, kX));
        add_axis(axes, &count, cross(d, kZ));
    }
    add_axis(axes, &count, d1);
    add_axis(axes, &count, d2);
    axes[count++] = kUp;
    axes[count++] = kX;
    axes[count++] = kZ;
    Best best;
    for (int i = 0; i < count; ++i) {
        Scalar smin, smax, cmin, cmax;
        seg_proj(axes[i], a, b, &smin, &smax);
        seg_proj(axes[i], s.a, s.b, &cmin, &cmax);
        try_axis(&best, axes[i], smin, smax, cmin - s.radius, cmax + s.radius, r);
    }
    *normal = best.normal;
    *depth = best.depth;
}

void sat(const Vec3& a, const Vec3& b, Scalar r, const PointCore& s, Vec3* normal, Scalar* depth) {
    sat(a, b, r, SegCore{s.c, s.c, s.radius}, normal, depth);
}

void sat(const Vec3& a, const Vec3& b, Scalar r, const BoxCore& box, Vec3* normal, Scalar* depth) {
    const Vec3 A = box.to_box(a);
    const Vec3 Bl = box.to_box(b);
    const Vec3 D = Bl - A;
    // Box face normals, then segment x box edges: every facet normal of segment (-) box.
    Vec3 axes[6] = {kX, kUp, kZ};
    int count = 3;
    add_axis(axes, &count, cross(D, kX));
    add_axis(axes, &count, cross(D, kUp));
    add_axis(axes, &count, cross(D, kZ));
    Best best;
    for (int i = 0; i < count; ++i) {
        const Vec3& L = axes[i];
        const Scalar rb = abs(L.x) * box.h.x + abs(L.y) * box.h.y + abs(L.z) * box.h.z;
        Scalar smin, smax;
        seg_proj(L, A, Bl, &smin, &smax);
        try_axis(&best, L, smin, smax, -rb, rb, r);
    }
    *normal = box.rotate(best.normal);
    *depth = best.depth;
}

void sat(const Vec3& a, const Vec3& b, Scalar r, const TriCore& tri, Vec3* normal, Scalar* depth) {
    const Vec3 D = b - a;
    // Triangle normal, segment x edges, and in-plane edge normals (for a segment parallel
    // to the plane or to an edge): every facet normal of segment (-) triangle.
    Vec3 axes[7] = {tri.n};
    int count = 1;
    for (int i = 0; i < 3; ++i)
        add_axis(axes, &count, cross(D, tri.v[(i + 1) % 3] - tri.v[i]));
    for (int i = 0; i < 3; ++i)
        add_axis(axes, &count, cross(tri.n, tri.v[(i + 1) % 3] - tri.v[i]));
    Best best;
    for (int i = 0; i < count; ++i) {
        const Vec3& L = axes[i];
        const Scalar p0 = dot(L, tri.v[0]), p1 = dot(L, tri.v[1]), p2 = dot(L, tri.v[2]);
        Scalar smin, smax;
        seg_proj(L, a, b, &smin, &smax);
        try_axis(&best, L, smin, smax, min(p0, min(p1, p2)), max(p0, max(p1, p2)), r);
    }
    *normal = best.normal;
    *depth = best.depth;
}

// ----------------------------------------------------------------------------------------
PointCore make_core(const Sphere& s, const Vec3& o) {
    return {s.center - o, s.radius};
}
uint8_t box_frame(const Mat3& rot) {
    if (rot == Mat3::identity()) return 2;
    const bool yaw =
        rot.row[1] == Vec3::unit_y() && rot.row[0].y.raw() == 0 && rot.row[2].y.raw() == 0;
    return yaw ? 1 : 0;
}
BoxCore make_core(const Box& b, const Vec3& o) {
    return make_core(b, o, box_frame(b.rotation));
}
PlaneCore make_core(const Plane& p, const Vec3& o) {
    return {p.normal, p.offset - dot(p.normal, o)};
}

TriCore make_core(const Triangle& t, const Vec3& o) {
    TriCore c;
    for (int i = 0; i < 3; ++i)
        c.v[i] = t.v[i] - o;
    c.cross = cross(c.v[1] - c.v[0], c.v[2] - c.v[0]);
    c.cross_len = length(c.cross);
    c.n = normalize(c.cross);
    c.index = 0;
    return c;
}

TriCore make_core(const TriangleMesh& m, uint32_t tri, const Vec3& o) {
    const MeshTriangle& mt = m.triangles()[tri];
    const auto verts = m.vertices();
    TriCore c;
    for (int i = 0; i < 3; ++i)
        c.v[i] = verts[mt.i[i]] - o;
    c.cross = mt.cross;
    c.cross_len = mt.cross_length;
    c.n = mt.normal;
    c.index = tri;
    c.inactive = mt.inactive;
    return c;
}

} // namespace fx::geo::detail
