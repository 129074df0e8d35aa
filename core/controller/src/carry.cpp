// Moving platforms as a character meets them: a platform's shift and velocity, and the carry of
// a body standing on one (KCC-SPEC "Moving platforms").
#include "kcc/motion.h"

#include <algorithm>

#include "sweep.h"

namespace fx::kcc {

using namespace detail;

namespace {
/// Longest piece of a platform carry swept at once (2^10 m; see carry()).
constexpr Scalar kMaxCarryPiece = Scalar::from_int(1024);
} // namespace

const PlatformShift* find_platform(std::span<const PlatformShift> platforms, geo::ShapeId id) {
    const auto it =
        std::lower_bound(platforms.begin(), platforms.end(), id,
                         [](const PlatformShift& pl, geo::ShapeId v) { return pl.id < v; });
    return it != platforms.end() && it->id == id ? &*it : nullptr;
}

Vec3 platform_velocity(const Vec3& shift, int tick_rate_hz) {
    const Scalar lim = Scalar::from_int(int64_t{1} << 20) / Scalar::from_int(tick_rate_hz);
    const auto one = [&](Scalar c) { return min(max(c, -lim), lim).mul_int(tick_rate_hz); };
    return {one(shift.x), one(shift.y), one(shift.z)};
}

bool Movers::separating(geo::ShapeId id, const Vec3& n) const {
    const PlatformShift* pl = find_platform(platforms, id);
    return pl != nullptr &&
           dot(body_velocity - platform_velocity(pl->shift, tick_rate_hz), n).raw() > 0;
}

Vec3 carry(const geo::LocalScene& scene, const Vec3& feet, const Vec3& shift, geo::ShapeId platform,
           const Params& p) {
    const Settings& s = p.s;
    Vec3 pos = feet;
    Vec3 motion = shift;
    Results<Vec3, kMaxPlanes> planes;
    int plane_count = 0;
    if (length(motion) < kMinMove) return pos + motion; // below a sweep's resolution: not swept
    int slides = 0;
    while (slides < s.max_slide_iterations) {
        const Scalar len = length(motion);
        if (len < kMinMove) break;
        // A cast reaches at most kMaxCarryPiece (queries are bounded by the geometry's local
        // extent): a longer shift (a platform looping back from its last waypoint to its first
        // in one tick) is swept in pieces, each free piece costing no slide iteration.
        const bool long_shift = len > kMaxCarryPiece;
        const Scalar piece_len = long_shift ? kMaxCarryPiece : len;
        const Vec3 piece = long_shift ? scaled(motion, kMaxCarryPiece, len) : motion;
        geo::Hit h;
        if (!sweep(scene, capsule_at(pos, p), piece, piece_len + s.skin, platform, &h)) {
            pos += piece;
            if (!long_shift) break;
            motion -= piece;
            continue;
        }
        const Scalar c = h.start_overlap ? Scalar{} : -(dot(piece, h.normal) / piece_len);
        const Scalar move =
            h.start_overlap ? Scalar{} : min(approach_distance(h.distance, c, s.skin), piece_len);
        const Vec3 advance = scaled(piece, move, piece_len);
        pos += advance;
        add_plane(planes.items, &plane_count, h.normal, true);
        const PlaneSolve ps = solve_planes(motion - advance, planes.items, plane_count);
        if (ps.kind == PlaneSolveKind::kStop) break;
        motion = ps.motion;
        ++slides;
    }
    return pos;
}

} // namespace fx::kcc
