// The sweeps every step of a tick is built from, shared by the controller's sources (not
// installed): the earliest hit that resists a motion, room for query results, the planes a pass
// has touched, and the platforms an airborne body leaves.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "kcc/motion.h"

namespace fx::kcc::detail {

inline const Vec3 kDown{Scalar{}, -Scalar::one(), Scalar{}};
inline const Vec3 kUp = Vec3::unit_y();

/// Motions shorter than this are not swept (2^-24 m): below any visible movement, above noise.
constexpr Scalar kMinMove = Scalar::from_raw(int64_t{1} << 8);
/// Hits a sweep looks at when its earliest hit is a contact it leaves (see sweep()).
constexpr size_t kMaxSweepHits = 16;

/// Two plane normals this close (dot >= 1 - 2^-20) are the same plane for the solver.
constexpr Scalar kSamePlaneDot = Scalar::from_raw(Scalar::kOneRaw - (int64_t{1} << 12));

/// v * num / den (every caller's den is positive; a level motion's zero y is not divided).
inline Vec3 scaled(const Vec3& v, Scalar num, Scalar den) {
    return mul_div(v, num, den);
}

/// Room for up to N query results, not initialised: zeroing eight hits cost more than the
/// probe's arithmetic. The scene writes the first ones (whole objects, by trivial assignment,
/// which begins their lifetime) and only those are read.
template <class T, size_t N> struct Results {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    Results() {}
    union {
        T items[N];
    };
    std::span<T> span(size_t n = N) { return {items, n < N ? n : N}; }
};

/// Adds n unless an equal plane (dot >= kSamePlaneDot) is there; false when full or equal. An
/// equal plane is replaced by n when `newest` is set: the planes a motion is solved against are
/// the ones it meets now. Rolling over a rounded edge (a box's corner a millimetre out of a
/// wall), each sweep meets it with a normal a fraction of a milliradian on from the last; kept as
/// the first, the motion met the edge again at once until the iteration cap dropped it (the body
/// stopped dead at the joint). Solved against the edge's normal of the moment, it rolls over.
inline bool add_plane(Vec3* normals, int* count, const Vec3& n, bool newest) {
    for (int k = 0; k < *count; ++k) {
        if (dot(normals[k], n) >= kSamePlaneDot) {
            if (newest) normals[k] = n;
            return false;
        }
    }
    if (*count >= kMaxPlanes) return false;
    normals[(*count)++] = n;
    return true;
}

/// Whether a hit resists `motion`: any hit at a distance does; a shape the capsule touches or
/// overlaps at the start (Hit::start_overlap, reported at distance 0 whatever the direction)
/// only if the motion goes into it (dot(motion, n) < -kPlaneTolerance). Moving along or away
/// from such a contact never brings the capsule closer to that (convex) shape or deeper into it:
/// the signed distance is convex along the motion and starts growing at dot(direction, n).
inline bool resists(const geo::Hit& h, const Vec3& motion, geo::ShapeId ignore) {
    if (h.shape == ignore) return false;
    return !h.start_overlap || dot(motion, h.normal) < -kPlaneTolerance;
}

/// Internal edges (docs/controller.md): a hit on an edge or a corner whose normal is this close
/// to the normal of its shape's face there (dot >= 1 - 2^-10, about 2.5 degrees) is met as that
/// face. A wall of boxes laid end to end is such a face at every joint: the next box's edge,
/// reached a skin from the wall, is met grazing, its normal a fraction of a milliradian off the
/// wall's (the boxes' rounding), and so it neither stops nor deflects a slide along the wall.
/// The capsule then enters the edge's rounding by at most (r + skin)(1 - dot), 0.4 mm, inside the
/// skin. The same tolerance as a mesh's inactive edges, a few degrees (TriangleMesh::build).
constexpr Scalar kInternalEdgeDot = Scalar::from_raw(Scalar::kOneRaw - (int64_t{1} << 22));

/// Hit h as the motion meets it: on an internal edge (above) with the face's normal, and then
/// resisting only a motion into the face, as a contact at the start does (resists()): a motion
/// along the face's plane passes the edge. False when h does not resist. *normal: the normal it is
/// met with (h's own, or the face's).
inline bool meets(const geo::LocalScene& scene, const geo::Hit& h, const Vec3& motion,
                  geo::ShapeId ignore, Vec3* normal) {
    *normal = h.normal;
    if (h.shape == ignore) return false;
    if (h.feature.kind == geo::FeatureKind::kEdge || h.feature.kind == geo::FeatureKind::kVertex) {
        Vec3 face;
        if (scene.face_normal(h, &face) && dot(face, h.normal) >= kInternalEdgeDot) {
            *normal = face;
            return dot(motion, face) < -kPlaneTolerance;
        }
    }
    return resists(h, motion, ignore);
}

/// The earliest hit (hit_less order) of the capsule moved along `motion` up to `distance` that
/// the motion meets (meets(): resists, internal edges as their faces), never one with shape
/// `ignore` (kNoId: none): a body touching the floor is not stopped by it when it walks. One
/// query: its earliest hit is the plain cast's (out holds it when nothing resists, as the cast
/// would leave it); where that is such a contact, the hits behind it are looked at.
inline bool sweep(const geo::LocalScene& scene, const geo::Capsule& c, const Vec3& motion,
                  Scalar distance, geo::ShapeId ignore, geo::Hit* out) {
    Results<geo::Hit, kMaxSweepHits> results;
    const std::span<geo::Hit> hits = results.span();
    const size_t found = scene.cast_all(c, motion, distance, hits);
    if (found == 0) return false;
    // One copy of a hit into *out, whichever the answer (80 bytes: geo::copy_result).
    const size_t n = found < hits.size() ? found : hits.size();
    for (size_t i = 0; i < n; ++i) {
        Vec3 normal;
        if (meets(scene, hits[i], motion, ignore, &normal)) {
            geo::copy_result(out, hits[i]);
            out->normal = normal;
            return true;
        }
    }
    // More contacts at the start than the buffer holds: the ones left out may resist, so the
    // motion is stopped where it is (conservative), at the first contact seen that is not the
    // ignored shape (or the last one seen, if all were).
    if (found > n) {
        size_t pick = n - 1;
        for (size_t i = 0; i < n; ++i) {
            if (hits[i].shape != ignore) {
                pick = i;
                break;
            }
        }
        geo::copy_result(out, hits[pick]);
        return true;
    }
    geo::copy_result(out, hits[0]);
    return false;
}

/// Keeps, in order, the first n results that are not contacts with a platform the body leaves
/// faster than it follows (Movers); returns how many are kept. No movers: all n.
template <class T> size_t drop_separating(std::span<T> items, size_t n, const Movers* movers) {
    if (movers == nullptr) return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!movers->separating(items[i].shape, items[i].normal)) items[kept++] = items[i];
    }
    return kept;
}

inline Scalar gap_of(const geo::Hit& h) {
    return h.start_overlap ? Scalar{} : h.distance;
}
inline Scalar gap_of(const geo::Contact& c) {
    return -c.depth;
}

/// Keeps, in order, the results that are not platforms the body's own rise this tick
/// (Movers::rise) takes it beyond `band` of: a hit or a contact `gap` from the body (a contact's
/// gap is minus its depth) with `gap + rise > band`. Returns how many are kept. (Platforms move
/// first in a tick: a platform rising faster than the body closes on it before the body moves,
/// and counted there it grounded a jump, or pushed it, ticks before the platform-frame landing.)
template <class T> size_t drop_outrun(std::span<T> items, const Movers& movers, Scalar band) {
    if (movers.rise.raw() <= 0) return items.size();
    size_t kept = 0;
    for (const T& r : items) {
        if (gap_of(r) + movers.rise > band && find_platform(movers.platforms, r.shape) != nullptr)
            continue;
        items[kept++] = r;
    }
    return kept;
}

} // namespace fx::kcc::detail
