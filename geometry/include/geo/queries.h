// Capsule queries against one shape: separation, overlap (penetration) and cast (sweep).
//
// Units are metres; every vector is in world coordinates. Internally each query works in a
// frame centred on the capsule (see kMaxLocalExtent), so positions anywhere in the Scalar
// range work (tested 100 km from the origin).
//
// Contract of cast() (measured in tests/geometry/reference_test.cpp against a long double
// reference on random cases; figures in docs/geometry.md):
//   * Conservative: the capsule moved to the reported distance does not penetrate the shape
//     by more than kCastMaxPenetration (measured worst case: a few raw units).
//   * Complete: a contact that the reference finds before the end of the motion is never
//     missed (cast stops within kContactTolerance of the surface; it also reports "near
//     misses" that pass within that band).
//   * At the reported distance the capsule is within kContactTolerance (+ rounding) of the
//     shape, unless the iteration cap was hit (then it is farther, still before the contact).
//   * The normal is within max(1e-6 rad, 1e-8 m / core distance) of the reference's normal
//     at that position (core distance: between the capsule's segment and the obstacle's
//     core, about the radii at a cast's contact; measured worst 3.6e-8 rad for casts).
//   * Distance along the motion: short of the true contact by at most
//     kContactTolerance / |slope| (slope = cosine between the motion and the normal);
//     measured <= 8.7e-6 m for slopes steeper than 0.1.
// A capsule that starts overlapping or within kContactTolerance of the shape is reported as
// such (Hit::start_overlap, distance 0, with the true separating normal and depth), never as
// an ordinary hit at distance 0 with a made-up normal. Zero-length motion reports only that.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>

#include "geo/shapes.h"
#include "geo/tolerances.h"

namespace fx::geo {

/// Bound on the penetration of the capsule at a cast's reported distance: 2^-26 m (1.5e-8 m),
/// 64 raw units of rounding. Casts aim 2^-21 m short of the surface, so the measured worst
/// case is no penetration at all (docs/geometry.md).
inline constexpr Scalar kCastMaxPenetration = Scalar::from_raw(int64_t{1} << 6);

/// A penetration: the capsule overlaps (or is within the query's margin of) a shape.
struct Contact {
    ShapeId shape = 0;
    Feature feature;
    /// Unit, from the shape toward the capsule: translating the capsule by normal * depth
    /// separates them (minimum translation distance over the shape's separating axes).
    Vec3 normal;
    /// > 0: penetration depth. <= 0 only when a margin was asked for (then -depth is the gap).
    Scalar depth;
    /// On the shape: its point closest to the capsule's core.
    Vec3 point;
};

/// The result of a cast.
struct Hit {
    /// Along the (unit) direction, in [0, max_distance]. 0 when start_overlap.
    Scalar distance;
    /// Unit, from the obstacle toward the capsule.
    Vec3 normal;
    /// Contact point on the obstacle's surface.
    Vec3 point;
    ShapeId shape = 0;
    Feature feature;
    /// The capsule already overlapped or touched (within kContactTolerance) at the start.
    /// Then normal and depth are the minimum translation out (as Contact), and depth >= 0.
    bool start_overlap = false;
    Scalar depth;
};

/// `*to = from` for a query result (Hit: 80 bytes). On wasm32 a struct copy past 64 bytes is one
/// memory.copy, which node runs as a call into the engine (about 4 ns against 1 for the loads
/// and stores; docs/performance.md, issue 55): there, two copies of half the size, each expanded
/// inline, the same bytes. Elsewhere the assignment.
template <class T> inline void copy_result(T* to, const T& from) {
    static_assert(std::is_trivially_copyable_v<T>);
#if defined(__wasm__)
    constexpr size_t kHalf = sizeof(T) / 2;
    auto* const d = reinterpret_cast<unsigned char*>(to);
    const auto* const s = reinterpret_cast<const unsigned char*>(&from);
    std::memcpy(d, s, kHalf);
    std::memcpy(d + kHalf, s + kHalf, sizeof(T) - kHalf);
#else
    *to = from;
#endif
}

/// Lexicographic order of two vectors (x, then y, then z).
constexpr int vec_compare(const Vec3& a, const Vec3& b) noexcept {
    if (a.x != b.x) return a.x < b.x ? -1 : 1;
    if (a.y != b.y) return a.y < b.y ? -1 : 1;
    if (a.z != b.z) return a.z < b.z ? -1 : 1;
    return 0;
}
/// Total order of hits: distance, then shape id, then feature. (shape, feature) is unique per
/// hit of a scene shape, so sorting never depends on input order. Other bodies
/// (LocalScene::set_bodies) all report shape kBodyShape: two of them hit at the same distance
/// are ordered by contact point, then normal, which depend on where the bodies are, not on how
/// they are labelled or listed (two hits equal in all of these are the same contact).
constexpr bool hit_less(const Hit& a, const Hit& b) noexcept {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.shape != b.shape) return a.shape < b.shape;
    if (a.feature != b.feature) return a.feature < b.feature;
    if (const int c = vec_compare(a.point, b.point); c != 0) return c < 0;
    return vec_compare(a.normal, b.normal) < 0;
}
/// Total order of contacts: shape id, then feature (stable from tick to tick, unlike depth);
/// between bodies (shape kBodyShape) the point, the normal, then the depth.
constexpr bool contact_less(const Contact& a, const Contact& b) noexcept {
    if (a.shape != b.shape) return a.shape < b.shape;
    if (a.feature != b.feature) return a.feature < b.feature;
    if (const int c = vec_compare(a.point, b.point); c != 0) return c < 0;
    if (const int c = vec_compare(a.normal, b.normal); c != 0) return c < 0;
    return a.depth < b.depth;
}

/// Distance between the capsule and the shape: > 0 apart, 0 touching, < 0 overlapping. For
/// round and polyhedral shapes a negative value is (core distance - radii), not the depth.
Scalar separation(const Capsule& c, const Sphere& s);
Scalar separation(const Capsule& c, const Capsule& s);
Scalar separation(const Capsule& c, const Box& s);
Scalar separation(const Capsule& c, const Plane& s);
Scalar separation(const Capsule& c, const Triangle& s);

/// Overlap: true when separation < margin (margin 0: strictly overlapping), with the
/// minimum translation in *out (out->shape left 0; the scene fills it).
bool overlap(const Capsule& c, const Sphere& s, Scalar margin, Contact* out);
bool overlap(const Capsule& c, const Capsule& s, Scalar margin, Contact* out);
bool overlap(const Capsule& c, const Box& s, Scalar margin, Contact* out);
bool overlap(const Capsule& c, const Plane& s, Scalar margin, Contact* out);
bool overlap(const Capsule& c, const Triangle& s, Scalar margin, Contact* out);

/// Cast: move the capsule along direction (any non-zero vector; normalised inside) up to
/// max_distance (0 <= max_distance <= kMaxLocalExtent). True and *out on a hit or a start
/// overlap (out->shape left 0).
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const Sphere& s, Hit* out);
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const Capsule& s, Hit* out);
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const Box& s, Hit* out);
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const Plane& s, Hit* out);
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const Triangle& s,
          Hit* out);

/// Mesh versions: every triangle is a convex piece; candidates come from the mesh's own BVH.
/// overlap() writes up to out.size() contacts in contact_less order (the least ones) and
/// returns how many triangles overlap in all. cast() reports the least hit (hit_less);
/// cast_all() writes the least out.size() hits and returns how many triangles were hit.
/// A result whose closest feature is an inactive edge or vertex (TriangleMesh::build: inside
/// a flat or nearly flat patch) is reported as a contact with that triangle's face: feature
/// (triangle, kFace, 0), normal +-face normal (the side of the capsule), and for contacts and
/// start overlaps the depth of the push out of the face's plane along it; a cast's distance
/// and point are unchanged. The same holds for meshes in a StaticScene.
size_t overlap(const Capsule& c, const TriangleMesh& m, Scalar margin, std::span<Contact> out);
bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const TriangleMesh& m,
          Hit* out);
size_t cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance, const TriangleMesh& m,
                std::span<Hit> out);

/// Ray cast: a cast of a point (radius 0). The ray stops within kContactTolerance of the
/// surface; a ray starting inside a shape reports start_overlap.
template <class Shape>
bool ray_cast(const Vec3& origin, const Vec3& direction, Scalar max_distance, const Shape& s,
              Hit* out) {
    return cast(Capsule{origin, origin, Scalar{}}, direction, max_distance, s, out);
}

/// Inserts h into the sorted array out[0..*count) of capacity out.size(), keeping the least
/// out.size() elements in hit_less order. Returns false when h was dropped (capacity).
bool insert_hit(std::span<Hit> out, size_t* count, const Hit& h);
bool insert_contact(std::span<Contact> out, size_t* count, const Contact& c);

} // namespace fx::geo
