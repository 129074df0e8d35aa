// Internal: capsule-vs-core overlap and cast in the local frame with origin o (results are
// returned in world coordinates). See narrow.cpp and upright.cpp.
#pragma once

#include "geo/queries.h"
#include "geo/scene.h"
#include "obstacle_cores.h"

namespace fx::geo::detail {

template <class Core>
bool overlap_core(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Core& core,
                  Scalar margin, Contact* out);
template <class Core>
bool cast_core(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
               Scalar max_distance, const Core& core, Hit* out);
/// The general paths of the two above (closest points, then conservative advancement), which
/// they short-cut for an upright segment against a box turned about y at most with the same
/// bits (narrow.cpp). Exposed for the test of that shortcut.
template <class Core>
bool overlap_core_general(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Core& core,
                          Scalar margin, Contact* out);
template <class Core>
bool cast_core_general(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
                       Scalar max_distance, const Core& core, Hit* out);
/// cast_core for an obstacle segment, in closed form when both segments are upright (see
/// upright.cpp); the moving segment is [0, b] in the local frame.
bool cast_upright(const Vec3& o, const Vec3& b, Scalar r, const Vec3& dir, Scalar max_distance,
                  const SegCore& core, Hit* out);
bool overlap_plane(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const PlaneCore& p,
                   Scalar margin, Contact* out);
bool cast_plane(const Vec3& o, const Vec3& a, const Vec3& b, Scalar r, const Vec3& dir,
                Scalar max_distance, const PlaneCore& p, Hit* out);

} // namespace fx::geo::detail
