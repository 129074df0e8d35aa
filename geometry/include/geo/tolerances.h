// Every tolerance of the geometry layer, with its unit and the reason for its value.
//
// All values are exact powers of two in metres (or raw counts), so they are exact Scalars and
// their meaning does not depend on decimal rounding. The controller's skin is 0.015 m; every
// tolerance here is at least three orders of magnitude below it.
#pragma once

#include "fx/scalar.h"

namespace fx::geo {

/// 2^-20 m (about 9.5e-7 m). A cast stops advancing once the capsule is this close to the
/// shape, and a capsule this close at the start of a cast is reported as starting in contact.
/// Far above the rounding noise of a separation (a few raw units, ~1e-9 m, so the stop test
/// is reliable) and far below the controller's skin (1.5e-2 m).
inline constexpr Scalar kContactTolerance = Scalar::from_raw(int64_t{1} << 12);

/// 2^-21 m: the separation a cast aims for on each conservative-advancement step (half of
/// kContactTolerance), so that a step that lands exactly (a face approached head on) lands
/// inside the stop band, and rounding of a few raw units can never carry it into the shape.
inline constexpr Scalar kCastTargetSeparation = Scalar::from_raw(int64_t{1} << 11);

/// 2^-16 m (about 1.5e-5 m). When the capsule's core segment is this close to the obstacle
/// (or inside it), the direction between closest points is dominated by rounding (components
/// carry ~1 raw unit of error, 2.3e-10 m, i.e. ~1.5e-5 rad at this length), so penetration
/// direction and depth come from a separating-axis test instead. Above it the closest-point
/// direction is used; its angle error is below 2^-32 / kDeepDistance ~ 1.6e-5 rad.
inline constexpr Scalar kDeepDistance = Scalar::from_raw(int64_t{1} << 16);

/// Iteration cap of conservative advancement. Each step lands on the tangent of a convex
/// function, so a transversal contact converges quadratically (2-5 steps measured) and a
/// grazing one at worst halves the gap per step; 2^-20 m from ~1 m takes ~20 halvings. If the
/// cap is reached, the cast reports a hit where it stopped (before the true contact), which
/// is conservative: a hit is never missed because of the cap.
inline constexpr int kMaxCastIterations = 48;

/// 2^-20 m^2: smallest |cross(b - a, c - a)| (twice the area) of a mesh triangle. Below it the
/// rounded normal's direction error (0.5 raw per component over |cross|) exceeds ~2e-4 rad.
/// Degenerate triangles (repeated vertices, collinear) have 0 and are rejected at build time.
inline constexpr Scalar kMinTriangleDoubleArea = Scalar::from_raw(int64_t{1} << 12);

/// 30,000 m: longest edge of a mesh triangle. A triangle keeps cross(v1 - v0, v2 - v0) as a
/// Vec3, and the queries take exact dot products with it (fx::dot_q64: components below 2^30),
/// so |cross| <= |e1| |e2| must stay below 2^30 m^2: edges up to 32,768 m fit, 30 km leaves a
/// margin. Longer edges are refused at build time (found by fuzzing: an 80 km triangle
/// overflowed in TriangleMesh::build, a 40 km one in the first query).
inline constexpr Scalar kMaxTriangleEdge = Scalar::from_int(30000);

/// 30,000 m: longest segment of a capsule (a static or kinematic shape's |b - a|, a character's
/// height - 2 radius). Segment queries square the segment's direction as a Scalar
/// (closest_seg_seg: dot(d, d) below 2^31 m^2, 46 km); 30 km keeps the margin of triangle
/// edges. Found by fuzzing: a 130 km capsule overflowed in fx::dot. StaticScene::build,
/// the loader and kcc::validate refuse longer ones.
inline constexpr Scalar kMaxCapsuleSegment = Scalar::from_int(30000);

/// 1 - 2^-8 (0.99609375 = cos 5.07 deg): two mesh triangles sharing an edge whose (consistently
/// oriented) normals have a cosine at least this are "the same surface" for contacts: the
/// edge is inactive (internal), and so is a vertex all of whose triangles agree pairwise
/// within it. A hit on an inactive edge or vertex reports the triangle's face normal, never
/// the edge or vertex normal (docs/geometry.md, "Inactive mesh edges"). Coplanar seams have
/// a cosine of 1 minus a few raw units, far above; Jolt's default is cos 5 deg (0.9962).
inline constexpr Scalar kInactiveEdgeCos = Scalar::from_raw(Scalar::kOneRaw - (int64_t{1} << 24));

/// 2^-16 m: smallest half extent of a box, and smallest sphere/capsule radius that a scene
/// accepts (0 is allowed for capsules used as rays). A 1 mm thin box is 64x above this.
inline constexpr Scalar kMinHalfExtent = Scalar::from_raw(int64_t{1} << 16);

/// 2^14 m (16.4 km): largest distance between the query's local origin (the capsule's first
/// segment point at the start of the motion) and any vertex, centre or closest point used by
/// a query, and the largest cast distance. Keeps every rounded dot product of local
/// vectors below 2^31 (the Scalar range): 3 * (2^14)^2 < 2^31. Shapes farther away than this
/// from the capsule are rejected by the broadphase long before. Triangles up to 10 km are
/// fine; positions may be anywhere within the Scalar range (e.g. 100 km from the origin).
inline constexpr Scalar kMaxLocalExtent = Scalar::from_raw(int64_t{1} << 46);

} // namespace fx::geo
