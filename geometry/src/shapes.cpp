#include "geo/shapes.h"

#include <algorithm>
#include <array>
#include <tuple>

#include "geo/tolerances.h"

namespace fx::geo {

Aabb Sphere::bounds() const {
    const Vec3 r{radius, radius, radius};
    return {center - r, center + r};
}

Aabb Box::bounds() const {
    // Extent along world axis i: sum_j |R_ij| h_j. Rounded up by one raw unit per term so the
    // box is never smaller than the shape.
    const Scalar h[3] = {half_extents.x, half_extents.y, half_extents.z};
    Scalar e[3];
    for (int i = 0; i < 3; ++i) {
        const Vec3& row = rotation.row[i];
        const Scalar r[3] = {abs(row.x), abs(row.y), abs(row.z)};
        Scalar s;
        for (int j = 0; j < 3; ++j)
            s += r[j] * h[j] + Scalar::epsilon();
        e[i] = s;
    }
    const Vec3 ev{e[0], e[1], e[2]};
    return {center - ev, center + ev};
}

namespace {

/// One triangle's edge k between canonical vertices lo < hi; fwd: the triangle runs lo -> hi.
struct EdgeUse {
    uint32_t lo, hi, tri;
    uint8_t k;
    bool fwd;
};
/// One triangle's corner k at canonical vertex v.
struct CornerUse {
    uint32_t v, tri;
    uint8_t k;
};

/// Marks inactive (internal) edges and vertices (TriangleMesh::build's contract). Every sort
/// key is unique (the index or (triangle, corner) ends it), so the orders are total and no
/// result depends on std::sort's handling of ties.
void mark_inactive(const std::vector<Vec3>& vertices, std::vector<MeshTriangle>& tris) {
    // Vertices at exactly the same position are one vertex: canonical = least such index.
    std::vector<uint32_t> order(vertices.size());
    for (uint32_t v = 0; v < order.size(); ++v)
        order[v] = v;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const Vec3 &p = vertices[a], &q = vertices[b];
        if (p.x != q.x) return p.x < q.x;
        if (p.y != q.y) return p.y < q.y;
        if (p.z != q.z) return p.z < q.z;
        return a < b;
    });
    std::vector<uint32_t> canon(vertices.size());
    for (size_t k = 0; k < order.size(); ++k)
        canon[order[k]] =
            k > 0 && vertices[order[k]] == vertices[order[k - 1]] ? canon[order[k - 1]] : order[k];

    // Edges: shared by exactly two triangles and (consistently oriented) within the angle.
    std::vector<EdgeUse> edges;
    edges.reserve(tris.size() * 3);
    for (uint32_t t = 0; t < tris.size(); ++t)
        for (uint8_t k = 0; k < 3; ++k) {
            const uint32_t a = canon[tris[t].i[k]], b = canon[tris[t].i[(k + 1) % 3]];
            edges.push_back({a < b ? a : b, a < b ? b : a, t, k, a < b});
        }
    std::sort(edges.begin(), edges.end(), [](const EdgeUse& a, const EdgeUse& b) {
        if (a.lo != b.lo) return a.lo < b.lo;
        if (a.hi != b.hi) return a.hi < b.hi;
        if (a.tri != b.tri) return a.tri < b.tri;
        return a.k < b.k;
    });
    for (size_t s = 0; s < edges.size();) {
        size_t e = s + 1;
        while (e < edges.size() && edges[e].lo == edges[s].lo && edges[e].hi == edges[s].hi)
            ++e;
        if (e - s == 2) {
            const EdgeUse &u = edges[s], &w = edges[s + 1];
            // Consistent winding runs a shared edge in opposite directions; otherwise one
            // triangle's normal is flipped to compare the surface's two sides like for like.
            const Scalar d = dot(tris[u.tri].normal, tris[w.tri].normal);
            if ((u.fwd != w.fwd ? d : -d) >= kInactiveEdgeCos) {
                tris[u.tri].inactive |= static_cast<uint8_t>(1u << u.k);
                tris[w.tri].inactive |= static_cast<uint8_t>(1u << w.k);
            }
        }
        s = e;
    }

    // Vertices: every edge at the vertex inactive (so its triangles close into fans) and
    // every pair of its triangles within the angle (no cone tip of many small bends).
    std::vector<CornerUse> corners;
    corners.reserve(tris.size() * 3);
    for (uint32_t t = 0; t < tris.size(); ++t)
        for (uint8_t k = 0; k < 3; ++k)
            corners.push_back({canon[tris[t].i[k]], t, k});
    std::sort(corners.begin(), corners.end(), [](const CornerUse& a, const CornerUse& b) {
        if (a.v != b.v) return a.v < b.v;
        if (a.tri != b.tri) return a.tri < b.tri;
        return a.k < b.k;
    });
    for (size_t s = 0; s < corners.size();) {
        size_t e = s + 1;
        while (e < corners.size() && corners[e].v == corners[s].v)
            ++e;
        bool flat = true;
        for (size_t c = s; c < e && flat; ++c) {
            const MeshTriangle& m = tris[corners[c].tri];
            flat = m.edge_inactive(corners[c].k) && m.edge_inactive((corners[c].k + 2) % 3);
        }
        for (size_t c = s; c < e && flat; ++c)
            for (size_t d = c + 1; d < e && flat; ++d)
                flat = abs(dot(tris[corners[c].tri].normal, tris[corners[d].tri].normal)) >=
                       kInactiveEdgeCos;
        if (flat)
            for (size_t c = s; c < e; ++c)
                tris[corners[c].tri].inactive |= static_cast<uint8_t>(1u << (3 + corners[c].k));
        s = e;
    }
}

} // namespace

bool TriangleMesh::build(std::vector<Vec3> vertices, const std::vector<uint32_t>& indices,
                         TriangleMesh* out, std::string* error) {
    auto fail = [&](const std::string& msg) {
        if (error != nullptr) *error = msg;
        return false;
    };
    if (indices.size() % 3 != 0)
        return fail("index count " + std::to_string(indices.size()) + " is not a multiple of 3");
    const size_t n = indices.size() / 3;
    std::vector<MeshTriangle> tris(n);
    std::vector<Aabb> boxes(n);
    std::vector<uint32_t> keys(n);
    for (size_t t = 0; t < n; ++t) {
        MeshTriangle& m = tris[t];
        for (int k = 0; k < 3; ++k) {
            m.i[k] = indices[3 * t + static_cast<size_t>(k)];
            if (m.i[k] >= vertices.size())
                return fail("triangle " + std::to_string(t) + ": index " + std::to_string(m.i[k]) +
                            " out of range (" + std::to_string(vertices.size()) + " vertices)");
        }
        const std::string ids = "indices " + std::to_string(m.i[0]) + ", " +
                                std::to_string(m.i[1]) + ", " + std::to_string(m.i[2]);
        const Vec3 &v0 = vertices[m.i[0]], &v1 = vertices[m.i[1]], &v2 = vertices[m.i[2]];
        if (v0 == v1 || v1 == v2 || v2 == v0)
            return fail("triangle " + std::to_string(t) + ": degenerate (repeated vertex: " + ids +
                        ")");
        // Edges are differences of coordinates within the coordinate bound: their lengths fit.
        for (int k = 0; k < 3; ++k) {
            const Scalar edge = length(vertices[m.i[(k + 1) % 3]] - vertices[m.i[k]]);
            if (edge > kMaxTriangleEdge)
                return fail("triangle " + std::to_string(t) + ": too large (edge " +
                            std::to_string(k) + " is " + std::to_string(floor_to_int(edge)) +
                            " m long, at most 30000 m: " + ids + ")");
        }
        m.cross = cross(v1 - v0, v2 - v0);
        m.cross_length = length(m.cross);
        if (m.cross_length < kMinTriangleDoubleArea)
            return fail("triangle " + std::to_string(t) + ": degenerate (zero area: " + ids + ")");
        m.normal = normalize(m.cross);
        boxes[t] = {fx::min(v0, fx::min(v1, v2)), fx::max(v0, fx::max(v1, v2))};
        keys[t] = static_cast<uint32_t>(t);
    }
    mark_inactive(vertices, tris);
    TriangleMesh mesh;
    mesh.bounds_ = boxes.empty() ? Aabb{} : boxes[0];
    for (const Aabb& b : boxes)
        mesh.bounds_ = mesh.bounds_.merged(b);
    mesh.bvh_.build(boxes, keys);
    mesh.vertices_ = std::move(vertices);
    mesh.triangles_ = std::move(tris);
    *out = std::move(mesh);
    return true;
}

/// "" when no two triangles have the same three corners (in any order, whichever vertex
/// entries hold them); else which repeats which. A copy adds no surface, only cost to every
/// query that reaches it (100,000 stacked copies made a 50-tick run take 25 s), and it makes the
/// shared edges count as shared by more than two triangles (docs/geometry.md).
std::string repeated_triangle(std::span<const Vec3> vertices, std::span<const uint32_t> indices) {
    // Each vertex entry -> the first entry with the same coordinates.
    std::vector<uint32_t> order(vertices.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto key = [&](uint32_t i) {
        return std::tuple(vertices[i].x.raw(), vertices[i].y.raw(), vertices[i].z.raw(), i);
    };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    std::vector<uint32_t> same(vertices.size());
    for (size_t k = 0; k < order.size(); ++k) {
        const bool repeat = k > 0 && vertices[order[k]] == vertices[order[k - 1]];
        same[order[k]] = repeat ? same[order[k - 1]] : order[k];
    }
    struct Corners {
        std::array<uint32_t, 3> v;
        uint32_t triangle;
    };
    std::vector<Corners> tris;
    tris.reserve(indices.size() / 3);
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        if (indices[t] >= same.size() || indices[t + 1] >= same.size() ||
            indices[t + 2] >= same.size())
            continue;
        std::array<uint32_t, 3> c{same[indices[t]], same[indices[t + 1]], same[indices[t + 2]]};
        std::sort(c.begin(), c.end());
        tris.push_back({c, static_cast<uint32_t>(t / 3)});
    }
    std::sort(tris.begin(), tris.end(), [](const Corners& a, const Corners& b) {
        return std::tie(a.v, a.triangle) < std::tie(b.v, b.triangle);
    });
    for (size_t k = 1; k < tris.size(); ++k) {
        if (tris[k].v == tris[k - 1].v) {
            return "triangle " + std::to_string(tris[k].triangle) + " repeats triangle " +
                   std::to_string(tris[k - 1].triangle) +
                   " (the same three corners): remove the copy";
        }
    }
    return "";
}

} // namespace fx::geo
