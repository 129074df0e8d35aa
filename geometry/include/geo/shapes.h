// Shapes of the geometry layer: capsule (the character), sphere, oriented box, infinite plane
// (a ground half-space) and triangle mesh. Plain data in world coordinates, metres, y up.
//
// Shapes carry no identity themselves; a StaticScene (geo/scene.h) pairs each with a ShapeId
// chosen by whoever builds the world (never an address or a global counter).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fx/mat3.h"
#include "fx/vec3.h"
#include "geo/aabb.h"
#include "geo/bvh.h"

namespace fx::geo {

/// Stable identity of a shape, chosen by the world's author. Orders every result.
using ShapeId = uint32_t;

/// The character: all points within `radius` of the segment [a, b]. a == b gives a sphere,
/// radius 0 a segment (radius 0 and a == b: a point, used by ray casts).
struct Capsule {
    Vec3 a;
    Vec3 b;
    Scalar radius;

    /// Upright capsule standing on `feet` (the lowest point), total height >= 2 * radius.
    static Capsule upright(const Vec3& feet, Scalar radius, Scalar height) {
        const Vec3 a{feet.x, feet.y + radius, feet.z};
        const Vec3 b{feet.x, feet.y + (height - radius), feet.z};
        return {a, b, radius};
    }
    Capsule translated(const Vec3& d) const { return {a + d, b + d, radius}; }
    Aabb bounds() const {
        const Vec3 r{radius, radius, radius};
        return {fx::min(a, b) - r, fx::max(a, b) + r};
    }
};

struct Sphere {
    Vec3 center;
    Scalar radius;
    Aabb bounds() const;
};

/// Oriented box: centre, half extents along its local axes, and a rotation taking local
/// coordinates to world ones (world = center + rotation * local).
struct Box {
    Vec3 center;
    Vec3 half_extents;
    Mat3 rotation;

    /// Rotation R = Ry(yaw) Rx(pitch) Rz(roll) in degrees (fx::Mat3::from_yaw_pitch_roll_degrees).
    static Box from_yaw_pitch_roll_degrees(const Vec3& center, const Vec3& half_extents, Scalar yaw,
                                           Scalar pitch, Scalar roll) {
        return {center, half_extents, Mat3::from_yaw_pitch_roll_degrees(yaw, pitch, roll)};
    }
    Aabb bounds() const;
};

/// Infinite half-space {x : dot(normal, x) <= offset}: the solid side is below the plane.
/// normal must be unit length (fx::normalize). Ground: normal (0,1,0), offset = ground height.
struct Plane {
    Vec3 normal;
    Scalar offset;
};

/// One triangle, counter-clockwise seen from the side its normal points to (both sides collide).
struct Triangle {
    Vec3 v[3];
};

/// Which part of a shape a contact is on. Ordered (triangle, kind, index), so a mesh's
/// contacts sort by triangle first.
enum class FeatureKind : uint8_t {
    kFace = 0, ///< box face index 0..5 = -x,+x,-y,+y,-z,+z; triangle/plane face 0
    kEdge = 1, ///< box edge 0..11 (axis*4 + signs); triangle edge i = (v[i], v[(i+1)%3])
    kVertex = 2, ///< box corner 0..7 (bit0 +x, bit1 +y, bit2 +z); triangle vertex i
    kInterior = 3, ///< the capsule's core is inside the shape, or the shape is round
};

struct Feature {
    uint32_t triangle = 0; ///< triangle index within its mesh; 0 for other shapes
    FeatureKind kind = FeatureKind::kInterior;
    uint8_t index = 0;

    friend constexpr bool operator==(const Feature&, const Feature&) noexcept = default;
    friend constexpr bool operator<(const Feature& a, const Feature& b) noexcept {
        if (a.triangle != b.triangle) return a.triangle < b.triangle;
        if (a.kind != b.kind) return a.kind < b.kind;
        return a.index < b.index;
    }
};

/// Precomputed per-triangle data of a mesh: indices, the exact-ish unnormalised normal
/// cross(v1 - v0, v2 - v0) (each component rounded once), its length, the unit normal, and
/// which of its edges and vertices are inactive (internal to a flat or nearly flat surface).
struct MeshTriangle {
    uint32_t i[3];
    Vec3 cross;
    Scalar cross_length;
    Vec3 normal;
    /// Bit k (0..2): edge k = (v[k], v[(k+1)%3]) is inactive. Bit 3 + k: vertex k is inactive.
    /// Set by TriangleMesh::build (see there); a hit or contact on an inactive feature is
    /// reported as one on the face (feature and normal; geo/queries.h). 0 (every feature
    /// active) for triangles with only boundary, non-manifold, folded or bent edges.
    uint8_t inactive = 0;

    bool edge_inactive(int k) const { return ((inactive >> k) & 1u) != 0; }
    bool vertex_inactive(int k) const { return ((inactive >> (3 + k)) & 1u) != 0; }
};

/// A triangle mesh with its own bounding-volume tree over triangles. Immutable once built.
class TriangleMesh {
public:
    /// Builds a mesh from vertices and index triples. Fails, with a message naming the first
    /// offending triangle (by index), when indices.size() is not a multiple of 3, an index is
    /// out of range, a triangle is degenerate: repeated vertices or
    /// |cross(v1 - v0, v2 - v0)| < kMinTriangleDoubleArea (zero area), or an edge is longer
    /// than kMaxTriangleEdge (30 km: "triangle 0: too large (edge 1 is 52000 m long, at most
    /// 30000 m: indices 0, 1, 2)"). Examples:
    ///   "triangle 4: index 12 out of range (9 vertices)"
    ///   "triangle 2: degenerate (repeated vertex: indices 3, 3, 5)"
    ///   "triangle 7: degenerate (zero area: indices 1, 2, 3)"
    ///
    /// Edge activity (once, here; integer and fixed-point arithmetic, total orders only):
    /// vertices at exactly the same position are one vertex (whatever their indices). An edge
    /// shared by exactly two triangles is inactive when their normals, oriented consistently
    /// across the edge (one flipped when both triangles run along the edge the same way), have
    /// dot >= kInactiveEdgeCos (coplanar, or bent by less than about 5 deg either way; both
    /// sides of a triangle collide, so a valley is a ridge seen from below). Boundary edges,
    /// edges of 3 or more triangles and folds stay active. A vertex is inactive when every
    /// edge touching it is inactive and the normals of all its triangles agree pairwise
    /// (|dot| >= kInactiveEdgeCos): a vertex inside a flat patch, never a corner or a cone tip.
    static bool build(std::vector<Vec3> vertices, const std::vector<uint32_t>& indices,
                      TriangleMesh* out, std::string* error);

    std::span<const Vec3> vertices() const { return vertices_; }
    std::span<const MeshTriangle> triangles() const { return triangles_; }
    Triangle triangle(uint32_t t) const {
        const MeshTriangle& m = triangles_[t];
        return {{vertices_[m.i[0]], vertices_[m.i[1]], vertices_[m.i[2]]}};
    }
    Aabb bounds() const { return bounds_; }
    const Bvh& bvh() const { return bvh_; }

private:
    std::vector<Vec3> vertices_;
    std::vector<MeshTriangle> triangles_;
    Aabb bounds_;
    Bvh bvh_; // over triangles, keyed by triangle index
};

/// "" when no two triangles have the same three corners (in any order, whichever vertex entries
/// hold them); else "triangle 5 repeats triangle 2 (the same three corners): remove the copy".
/// TriangleMesh::build accepts such a copy; the scenario loader refuses it (it adds no surface,
/// only cost to every query that reaches it), and so does kcc::Recorder for a level it records.
std::string repeated_triangle(std::span<const Vec3> vertices, std::span<const uint32_t> indices);

} // namespace fx::geo
