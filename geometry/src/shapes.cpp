#include "geo/shapes.h"

#include <algorithm>

#include "geo/tolerances.h"

namespace fx::geo {

Aabb Capsule::bounds() const {
    const Vec3 r{radius, radius, radius};
    return {fx::min(a, b) - r, fx::max(a, b) + r};
}

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
        for (int j = 0; j < 3; ++j) s += r[j] * h[j] + Scalar::epsilon();
        e[i] = s;
    }
    const Vec3 ev{e[0], e[1], e[2]};
    return {center - ev, center + ev};
}

bool TriangleMesh::build(std::vector<Vec3> vertices, const std::vector<uint32_t>& indices, TriangleMesh* out,
                         std::string* error) {
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
        const std::string ids = "indices " + std::to_string(m.i[0]) + ", " + std::to_string(m.i[1]) + ", " +
                                std::to_string(m.i[2]);
        const Vec3 &v0 = vertices[m.i[0]], &v1 = vertices[m.i[1]], &v2 = vertices[m.i[2]];
        if (v0 == v1 || v1 == v2 || v2 == v0)
            return fail("triangle " + std::to_string(t) + ": degenerate (repeated vertex: " + ids + ")");
        m.cross = cross(v1 - v0, v2 - v0);
        m.cross_length = length(m.cross);
        if (m.cross_length < kMinTriangleDoubleArea)
            return fail("triangle " + std::to_string(t) + ": degenerate (zero area: " + ids + ")");
        m.normal = normalize(m.cross);
        boxes[t] = {fx::min(v0, fx::min(v1, v2)), fx::max(v0, fx::max(v1, v2))};
        keys[t] = static_cast<uint32_t>(t);
    }
    TriangleMesh mesh;
    mesh.bounds_ = boxes.empty() ? Aabb{} : boxes[0];
    for (const Aabb& b : boxes) mesh.bounds_ = mesh.bounds_.merged(b);
    mesh.bvh_.build(boxes, keys);
    mesh.vertices_ = std::move(vertices);
    mesh.triangles_ = std::move(tris);
    *out = std::move(mesh);
    return true;
}

} // namespace fx::geo
