// Steps 1 and 5 of a tick: the ground probe (KCC-SPEC "Ground detection") and the snap down at
// the end of a grounded tick; the last downward cast kept for the next tick (GroundMemo).
#include "kcc/motion.h"

#include <algorithm>
#include <optional>

#include "sweep.h"
#include "trace_events.h"

namespace fx::kcc {

using namespace detail;

namespace {

/// How many of `hits` (hit_less order) lie within the ground band, the ones select_ground()
/// looks at: a prefix (start overlaps have distance 0).
size_t within_band(std::span<const geo::Hit> hits, const Params& p) {
    size_t n = 0;
    while (n < hits.size() && (hits[n].start_overlap || hits[n].distance <= p.ground_band))
        ++n;
    return n;
}

/// Keeps a downward cast of capsule `c` for the next tick (GroundMemo) when it kept every hit it
/// found and every shape it could meet, other characters aside, is static: its hits on the
/// shapes, in order (the other characters' hits, shape kBodyShape, are left out: they move).
void remember(GroundMemo* memo, const geo::LocalScene& scene, const geo::Capsule& c, Scalar reach,
              std::span<const geo::Hit> kept, size_t found) {
    if (memo == nullptr || found > kept.size() || found > memo->hits.size() ||
        !scene.static_below(c, reach))
        return;
    memo->valid = true;
    memo->capsule = c;
    memo->reach = reach;
    memo->clear = true;
    size_t count = 0;
    for (size_t i = 0; i < found; ++i) {
        if (kept[i].shape == geo::kBodyShape) continue;
        geo::copy_result(&memo->hits[count++], kept[i]);
        if (kept[i].start_overlap) memo->clear = false;
    }
    memo->count = static_cast<uint8_t>(count);
}

} // namespace

Ground probe_ground(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                    bool was_grounded, const Tracer& t, const Movers* movers, GroundMemo* memo,
                    const Vec3& last_normal) {
    Results<geo::Hit, kMaxProbeHits> hits;
    const std::span<geo::Hit> out = hits.span(static_cast<size_t>(p.s.probe_max_hits));
    const geo::Capsule body = capsule_at(feet, p);
    const size_t found = scene.cast_all(body, kDown, p.s.probe_distance, out);
    // Platforms it leaves faster than they follow are no ground.
    size_t n = drop_separating(out, found < out.size() ? found : out.size(), movers);
    if (movers != nullptr) n = drop_outrun(out.first(n), *movers, p.ground_band);
    const Ground g = select_ground(out.first(n), p, was_grounded, feet.y, last_normal);
    trace::probe(t, g, within_band(out.first(n), p), feet);
    if (movers == nullptr) remember(memo, scene, body, p.s.probe_distance, out.first(n), found);
    return g;
}

bool memo_fits(const GroundMemo& memo, const geo::LocalScene& scene, const geo::Capsule& body,
               const Params& p) {
    return memo.valid && memo.capsule.a == body.a && memo.capsule.b == body.b &&
           memo.capsule.radius == body.radius && memo.reach >= p.ground_band + kMemoMargin &&
           p.s.probe_distance >= p.ground_band + kMemoMargin &&
           scene.static_below(body, p.s.probe_distance);
}

Ground probe_from_memo(GroundMemo& memo, const geo::LocalScene& scene, const Vec3& feet,
                       const Params& p, bool was_grounded, const Tracer& t,
                       const Vec3& last_normal) {
    // The probe keeps its first probe_max_hits hits; those within the band come first.
    const std::span<const geo::Hit> all{memo.hits.data(), memo.count};
    const size_t max_hits = static_cast<size_t>(p.s.probe_max_hits);
    size_t n = std::min(within_band(all, p), max_hits);
    uint8_t reused = memo.clear ? 2 : 1;
    if (scene.has_bodies()) {
        // Other characters near: the probe's list is the least probe_max_hits of the shapes'
        // hits and theirs, and its part within the band the least of those within the band on
        // each side (a hit within the band is less than any beyond it). The shapes' are the
        // memo's first n; theirs are cast afresh, as the probe would cast them
        // (LocalScene::cast_bodies), and merged in, in the memo's own list: the memo is used up
        // (step_character() has invalidated it; this tick's own cast replaces it, or nothing).
        const std::span<geo::Hit> list{memo.hits.data(), max_hits};
        scene.cast_bodies(capsule_at(feet, p), kDown, p.s.probe_distance, list, &n);
        n = within_band(list.first(n), p);
        reused |= kProbeBodiesCast;
    }
    const Ground g = select_ground(std::span<const geo::Hit>{memo.hits.data(), n}, p, was_grounded,
                                   feet.y, last_normal);
    trace::probe(t, g, n, feet, reused);
    return g;
}

namespace {

/// The snap of a body whose sweep down is blocked at the start by the steep rim of a ledge it is
/// rolling off (SnapLanding::edge_blocks, normal n): it slides down along the rim's tangent plane
/// (down and away from the ledge, as the round base rolls off it) by at most max_drop, then looks
/// for ground below from there, within what is left of max_drop. Where it would land: the
/// position and the ground; nothing when it lands nowhere.
std::optional<Snap> slide_off_rim(const geo::LocalScene& scene, const Vec3& feet, Scalar max_drop,
                                  const Vec3& n, const Params& p) {
    // Down along the plane: (0, -1, 0) less its part along n, a unit vector over its length,
    // which is n's horizontal length nh; it descends nh per unit.
    const Scalar nh = length(Vec3{n.x, Scalar{}, n.z});
    if (nh < Scalar::ratio(1, 16)) return std::nullopt; // nearly level: no way down along it
    const Vec3 along = Vec3{n.x * n.y, -(nh * nh), n.z * n.y} / nh;
    const Scalar travel = max_drop / nh;
    geo::Hit h;
    Scalar move = travel;
    if (sweep(scene, capsule_at(feet, p), along, travel, kNoId, &h)) {
        const Scalar c = h.start_overlap ? Scalar{} : -dot(along, h.normal);
        move = h.start_overlap ? Scalar{} : min(approach_distance(h.distance, c, p.s.skin), travel);
    }
    if (move.raw() <= 0) return std::nullopt;
    const Vec3 at = feet + along * move;
    const Scalar left = max_drop - (feet.y - at.y);
    Results<geo::Hit, kMaxProbeHits> hits;
    const std::span<geo::Hit> found_hits = hits.span();
    const size_t found =
        scene.cast_all(capsule_at(at, p), kDown, p.s.snap_distance + p.s.skin, found_hits);
    const SnapLanding landing =
        select_snap(found_hits.first(found < found_hits.size() ? found : found_hits.size()), p);
    if (!landing.landed || landing.drop > left) return std::nullopt;
    Snap out;
    out.landed = true;
    out.drop = feet.y - at.y + landing.drop;
    out.position = at - Vec3{Scalar{}, landing.drop, Scalar{}};
    out.ground = landing.ground;
    return out;
}

} // namespace

Snap snap_to_ground(const geo::LocalScene& scene, const Vec3& feet, Scalar max_drop,
                    const Params& p, const Tracer& t, GroundMemo* memo) {
    Snap out;
    out.position = feet;
    Results<geo::Hit, kMaxProbeHits> hits;
    const std::span<geo::Hit> found_hits = hits.span();
    const geo::Capsule body = capsule_at(feet, p);
    const Scalar reach = p.s.snap_distance + p.s.skin;
    const size_t found = scene.cast_all(body, kDown, reach, found_hits);
    const size_t n = found < found_hits.size() ? found : found_hits.size();
    SnapLanding landing = select_snap(found_hits.first(n), p);
    if (landing.edge_blocks) {
        // Rolling off a ledge's rim that has turned steeper than the stay limit: slide off it
        // and land below when the ledge is within the snap (KCC-SPEC: no hops down steps).
        if (const std::optional<Snap> off =
                slide_off_rim(scene, feet, max_drop, landing.edge_normal, p)) {
            trace::snap(t, *off, feet);
            return *off;
        }
    }
    if (landing.landed && landing.drop.raw() < 0) {
        // A lift back to one skin: not into anything above.
        geo::Hit h;
        const Scalar up = -landing.drop;
        if (sweep(scene, capsule_at(feet, p), kUp * up, up, kNoId, &h)) landing.drop = Scalar{};
    }
    if (landing.landed && landing.drop > max_drop) landing.landed = false; // a fall, not a snap
    if (landing.landed) {
        out.landed = true;
        out.drop = landing.drop;
        out.position = feet - Vec3{Scalar{}, out.drop, Scalar{}};
        out.ground = landing.ground;
    }
    if (out.position == feet) remember(memo, scene, body, reach, found_hits.first(n), found);
    trace::snap(t, out, feet);
    return out;
}

} // namespace fx::kcc
