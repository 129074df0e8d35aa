// The geometry-facing steps of a tick: each gathers contacts through the scene, then hands them
// to the pure functions of solve.h.
#include "kcc/motion.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "geo/tolerances.h"
#include "trace_events.h"

namespace fx::kcc {

namespace {

const Vec3 kDown{Scalar{}, -Scalar::one(), Scalar{}};
const Vec3 kUp = Vec3::unit_y();

/// Motions shorter than this are not swept (2^-24 m): below any visible movement, above noise.
constexpr Scalar kMinMove = Scalar::from_raw(int64_t{1} << 8);
/// Hits a sweep looks at when its earliest hit is a contact it leaves (see sweep()).
constexpr size_t kMaxSweepHits = 16;
/// Shapes near a depenetration push that constrain it, and rounds of projection onto them
/// (see constrain_push()).
constexpr size_t kMaxPushConstraints = 16;
constexpr int kPushRounds = 8;
/// Longest depenetration push that is checked against the shapes around it (2^10 m); a longer
/// one (a body deep inside a kilometre-sized solid, depenetration_cap raised) is shortened to it.
constexpr Scalar kMaxPushReach = Scalar::from_int(1024);
/// Longest piece of a platform carry swept at once (2^10 m; see carry()).
constexpr Scalar kMaxCarryPiece = Scalar::from_int(1024);
/// Two plane normals this close (dot >= 1 - 2^-20) are the same plane for the solver.
constexpr Scalar kSamePlaneDot = Scalar::from_raw(Scalar::kOneRaw - (int64_t{1} << 12));
/// Rounding allowance of the step rise test: casts stop within kContactTolerance of a surface.
constexpr Scalar kRiseTolerance = Scalar::from_raw(geo::kContactTolerance.raw() * 4);

/// A contact with an edge or a corner of a shape (its normal is not a face's).
bool is_edge(const geo::Feature& f) {
    return f.kind == geo::FeatureKind::kEdge || f.kind == geo::FeatureKind::kVertex;
}

/// v * num / den (every caller's den is positive; a level motion's zero y is not divided).
Vec3 scaled(const Vec3& v, Scalar num, Scalar den) { return mul_div(v, num, den); }

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

/// Adds n unless an equal plane is there; false when full or duplicate.
bool add_plane(Vec3* normals, int* count, const Vec3& n) {
    for (int k = 0; k < *count; ++k) {
        if (dot(normals[k], n) >= kSamePlaneDot) return false;
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
bool resists(const geo::Hit& h, const Vec3& motion, geo::ShapeId ignore) {
    if (h.shape == ignore) return false;
    return !h.start_overlap || dot(motion, h.normal) < -kPlaneTolerance;
}

/// The earliest hit (hit_less order) of the capsule moved along `motion` up to `distance` that
/// resists the motion (above), never one with shape `ignore` (kNoId: none). Without the filter
/// a body touching the floor with no gap (less than skin) had every horizontal sweep stopped at
/// distance 0 by the floor, and never moved (docs/fuzzing.md). One query: its earliest hit is
/// the plain cast's (out holds it when nothing resists, as the cast would leave it); where that
/// is such a contact, the hits behind it are looked at (before, a second query found them: a
/// body on the floor or touching another made it on most sweeps).
bool sweep(const geo::LocalScene& scene, const geo::Capsule& c, const Vec3& motion, Scalar distance,
           geo::ShapeId ignore, geo::Hit* out) {
    Results<geo::Hit, kMaxSweepHits> results;
    const std::span<geo::Hit> hits = results.span();
    const size_t found = scene.cast_all(c, motion, distance, hits);
    if (found == 0) return false;
    *out = hits[0];
    if (resists(hits[0], motion, ignore)) return true;
    const size_t n = found < hits.size() ? found : hits.size();
    for (size_t i = 0; i < n; ++i) {
        if (resists(hits[i], motion, ignore)) {
            *out = hits[i];
            return true;
        }
    }
    // More contacts at the start than the buffer holds: the ones left out may resist, so the
    // motion is stopped where it is (conservative), at the first contact seen that is not the
    // ignored shape (or the last one seen, if all were).
    if (found > n) {
        *out = hits[n - 1];
        for (size_t i = 0; i < n; ++i) {
            if (hits[i].shape != ignore) {
                *out = hits[i];
                break;
            }
        }
        return true;
    }
    return false;
}

/// Whether another character's body resists `motion` (resists(), above) within `distance`: when
/// one does, sweep() with the same arguments returns true whatever the static shapes add (it
/// returns a resisting hit, the earliest, or stops the motion when more contacts start than its
/// buffer holds), so a caller that needs only that answer is spared the static shapes.
bool body_resists(const geo::LocalScene& scene, const geo::Capsule& c, const Vec3& motion, Scalar distance) {
    if (!scene.has_bodies()) return false;
    Results<geo::Hit, kMaxSweepHits> results;
    const std::span<geo::Hit> hits = results.span();
    size_t count = 0;
    const size_t found = scene.cast_bodies(c, motion, distance, hits, &count);
    for (size_t i = 0; i < count; ++i)
        if (resists(hits[i], motion, kNoId)) return true;
    return found > count; // more of them than the buffer holds: sweep() stops the motion
}

/// A body met a wall (a contact too steep to stand on, normal n) while `inside` its skin (along
/// n; <= 0: not inside): `feet` moves horizontally away from the wall until the body is one
/// skin from it (at most a skin back), unless that move would meet something. Before, a body
/// that came down along a step's edge onto the floor rested 4.6 mm from the edge, and one held
/// against a wall it had come within the skin of stayed there.
/// hn_known: horizontal_normal(n), when the caller has it (else computed here).
void restore_skin(const geo::LocalScene& scene, const Vec3& n, Scalar inside, const Params& p, Vec3* feet,
                  const Vec3* hn_known = nullptr) {
    const Scalar want = min(inside, p.s.skin);
    if (want <= geo::kContactTolerance) return;
    const Vec3 hn = hn_known != nullptr ? *hn_known : horizontal_normal(n);
    if (hn.is_zero()) return;
    const Scalar along = dot(hn, n); // > 0: the normal's horizontal part
    if (along.raw() <= 0) return;
    const Scalar dist = min(want / along, p.s.skin.mul_int(2));
    geo::Hit blocked;
    if (sweep(scene, capsule_at(*feet, p), hn, dist + geo::kContactTolerance, kNoId, &blocked)) return;
    *feet += hn * dist;
}

} // namespace

geo::Capsule grown_capsule_at(const Vec3& feet, const Params& p) {
    // The ends' heights above the feet and the radius from make_params (grown_low, grown_high).
    return {Vec3{feet.x, feet.y + p.grown_low, feet.z}, Vec3{feet.x, feet.y + p.grown_high, feet.z}, p.grown_radius};
}

namespace {
/// Lexicographic order of two upright capsules by their lowest centre (x, z, y), then radius.
int body_compare(const geo::Capsule& a, const geo::Capsule& b) {
    if (a.a.x != b.a.x) return a.a.x < b.a.x ? -1 : 1;
    if (a.a.z != b.a.z) return a.a.z < b.a.z ? -1 : 1;
    if (a.a.y != b.a.y) return a.a.y < b.a.y ? -1 : 1;
    if (a.b.y != b.b.y) return a.b.y < b.b.y ? -1 : 1;
    if (a.radius != b.radius) return a.radius < b.radius ? -1 : 1;
    return 0;
}
} // namespace

Vec3 body_separation(const geo::Capsule& a, const geo::Capsule& b, Scalar gap) {
    const int order = body_compare(a, b);
    if (order == 0) return Vec3::zero();
    if (order > 0) return -body_separation(b, a, gap); // oriented by place: exactly antisymmetric
    const Vec3 d{a.a.x - b.a.x, Scalar{}, a.a.z - b.a.z};
    const Scalar dh = length(d);
    if (dh.raw() == 0) return Vec3::zero();
    const Scalar want = a.radius + b.radius + gap;
    // Vertical gap between the axes (segments a.a..a.b and b.a..b.b, upright).
    const Scalar gy = max(max(a.a.y - b.b.y, b.a.y - a.b.y), Scalar{});
    if (gy >= want) return Vec3::zero();
    const Scalar need = gy.raw() == 0 ? want : sqrt(want * want - gy * gy); // horizontal
    if (dh >= need) return Vec3::zero();
    return scaled(d, (need - dh).div_int(2), dh);
}

Vec3 clear_of_statics(const geo::LocalScene& scene, const Vec3& feet, const Vec3& push, const Params& p) {
    const Scalar len = length(push);
    if (len < kMinMove) return Vec3::zero();
    // The grown capsule (as collide-and-slide): a push at a shallow angle to a wall the body
    // rests a skin from is stopped there, not carried into the skin (crowd-corridor).
    geo::Hit h;
    if (!sweep(scene, grown_capsule_at(feet, p), push, len, kNoId, &h)) return push;
    const Scalar c = h.start_overlap ? Scalar{} : -(dot(push, h.normal) / len);
    const Scalar move =
        h.start_overlap ? Scalar{} : min(approach_distance(h.distance, c, grown_keep(h.normal, p)), len);
    return scaled(push, move, len);
}

Scalar grown_base_lift(const Params& p) { return p.s.skin.div_int(16); }

Scalar grown_keep(const Vec3& n, const Params& p) {
    return n.y.raw() > 0 ? grown_base_lift(p) * n.y : p.s.skin * -n.y;
}

namespace {

/// The push of depenetrate() kept from going into anything else: contacts are resolved one by
/// one, so the push out of one shape could carry the body into another (a platform pushing it
/// down into the floor, a capsule pushing it into the floor it is half sunk in, a thin slab
/// pushing it through its bottom face into the floor under it), and the depth there grew tick
/// after tick (docs/fuzzing.md). Every shape within the push's reach (plus skin) is a
/// constraint dot(push, n) >= c: c = -gap for a shape at a distance (the push may close the gap,
/// not cross it), 0 for one touched or overlapped (the push may not go deeper into it). Every
/// c <= 0, so every constraint is a half-space holding zero. The push is projected onto the
/// violated ones in turn (contact_less order, a few rounds), which never lengthens it; if some
/// are still violated, it is shortened along its direction until it meets them all (always
/// possible, zero meets them all: the body is pushed as far as the other shapes allow and no
/// depth grows). A push that meets them all, the usual case, is returned unchanged. With more
/// shapes in reach than the query keeps, the push is dropped: a shape left out could be the one
/// it goes into.
Vec3 constrain_push(const geo::LocalScene& scene, const Vec3& feet, Vec3 push, const Params& p,
                    std::span<const geo::Contact> leaving = {}) {
    Results<geo::Contact, kMaxPushConstraints> results;
    const std::span<geo::Contact> near = results.span();
    // The reach is bounded so that the query stays within the geometry's local extent; a push
    // is never longer than the reach, so nothing beyond it can be met.
    const Scalar reach = min(length(push) + p.s.skin, kMaxPushReach);
    const Scalar len = length(push);
    if (len > reach) push = scaled(push, reach, len);
    const size_t found = scene.overlap(capsule_at(feet, p), reach, near);
    if (found > near.size()) return Vec3::zero();
    const size_t n = found;
    std::array<Scalar, kMaxPushConstraints> bound;
    std::array<bool, kMaxPushConstraints> free{}; // shapes in `leaving`: no constraint
    for (size_t k = 0; k < n; ++k) {
        bound[k] = min(near[k].depth, Scalar{});
        for (const geo::Contact& c : leaving) free[k] = free[k] || c.shape == near[k].shape;
    }
    auto violated = [&](size_t k) { return !free[k] && dot(push, near[k].normal) < bound[k] - kPlaneTolerance; };
    for (int round = 0; round < kPushRounds; ++round) {
        bool changed = false;
        for (size_t k = 0; k < n; ++k) {
            if (!violated(k)) continue;
            push += near[k].normal * (bound[k] - dot(push, near[k].normal));
            changed = true;
        }
        if (!changed) return push;
    }
    // Shortened: t = the least bound_k / dot(push, n_k) over the violated k (both negative, so
    // 0 <= t < 1); t * push meets every constraint, the ones it met already included.
    Scalar t = Scalar::one();
    for (size_t k = 0; k < n; ++k) {
        if (!violated(k)) continue;
        const Scalar into = dot(push, near[k].normal);
        const Scalar r = bound[k].raw() == 0 ? Scalar{} : bound[k] / into;
        t = min(t, max(r, Scalar{}));
    }
    push = push * t;
    for (size_t k = 0; k < n; ++k) {
        if (violated(k)) return Vec3::zero(); // rounding: never push into anything
    }
    return push;
}

/// Longest escape looked for out of a union of overlapping shapes (kMaxEscape), and overlap
/// queries per candidate direction.
constexpr Scalar kMaxEscape = Scalar::from_int(16);
/// A push wanted deeper than this (1 mm) that the shapes around cut short is a body stuck.
constexpr Scalar kStuckDepth = Scalar::ratio(1, 1000);
constexpr int kEscapeSteps = 24;
/// Shapes an escape may have to leave at once (more: no way out is looked for along that line).
constexpr size_t kMaxEscapeShapes = 32;

/// How far the body must move along unit d to overlap nothing (the union of every shape it is
/// in), or kMaxEscape when it does not get out within that. Each step: a cast from kMaxEscape
/// further along d back toward the body meets each shape at its far side along d, so
/// kMaxEscape - (that hit's distance) is where the body leaves the shape; the body moves to
/// where it has left every shape it overlaps, and the overlaps are found again there (it may
/// have entered another). A shape the cast does not meet on its way in (longer than
/// kMaxEscape along d, or beyond the hits' buffer) has no exit within reach.
Scalar escape_along(const geo::LocalScene& scene, const Vec3& feet, const Vec3& d, const Params& p) {
    Results<geo::Contact, kMaxEscapeShapes> contact_room;
    Results<geo::Hit, kMaxEscapeShapes> hit_room;
    const std::span<geo::Contact> cs = contact_room.span();
    const std::span<geo::Hit> hs = hit_room.span();
    Scalar t;
    for (int i = 0; i < kEscapeSteps; ++i) {
        const Vec3 at = feet + d * t;
        const size_t found = scene.overlap(capsule_at(at, p), Scalar{}, cs);
        if (found == 0) return t;
        if (found > cs.size()) return kMaxEscape;
        const size_t hits = scene.cast_all(capsule_at(at + d * kMaxEscape, p), -d, kMaxEscape, hs);
        const size_t nh = hits < hs.size() ? hits : hs.size();
        Scalar exit;
        for (size_t k = 0; k < found; ++k) {
            const geo::Contact& c = cs[k];
            bool met = false;
            for (size_t j = 0; j < nh; ++j) {
                const geo::Hit& h = hs[j];
                if (h.shape != c.shape || h.feature.triangle != c.feature.triangle) continue; // a mesh: each triangle
                if (h.start_overlap) return kMaxEscape; // the shape reaches past kMaxEscape
                exit = max(exit, kMaxEscape - h.distance);
                met = true;
            }
            if (!met) return kMaxEscape;
        }
        // Past every exit, and at least a contact tolerance on (a cast stops that short).
        t = t + exit + geo::kContactTolerance.mul_int(2);
        if (t >= kMaxEscape) return kMaxEscape;
    }
    return kMaxEscape;
}

/// The direction out of a union of overlapping shapes whose own minimum translations disagree
/// (two boxes pushing opposite ways add up to nothing, or to a push back into the other): the
/// candidate with the shortest escape_along, among the contacts' normals, then up, +-x and +-z
/// (a fixed order; ties to the earlier). Zero when none gets out within kMaxEscape.
Vec3 escape_direction(const geo::LocalScene& scene, const Vec3& feet, std::span<const geo::Contact> contacts,
                      const Params& p, Scalar* distance) {
    std::array<Vec3, kMaxContacts + 5> candidates;
    size_t count = 0;
    for (const geo::Contact& c : contacts) candidates[count++] = c.normal;
    const Scalar one = Scalar::one();
    for (const Vec3& a : {Vec3{Scalar{}, one, Scalar{}}, Vec3{one, Scalar{}, Scalar{}}, Vec3{-one, Scalar{}, Scalar{}},
                          Vec3{Scalar{}, Scalar{}, one}, Vec3{Scalar{}, Scalar{}, -one}}) {
        candidates[count++] = a;
    }
    Vec3 best;
    Scalar best_t = kMaxEscape;
    for (size_t i = 0; i < count; ++i) {
        const Scalar t = escape_along(scene, feet, candidates[i], p);
        if (t < best_t) {
            best_t = t;
            best = candidates[i];
        }
    }
    *distance = best_t;
    return best;
}

} // namespace

const PlatformShift* find_platform(std::span<const PlatformShift> platforms, geo::ShapeId id) {
    const auto it = std::lower_bound(platforms.begin(), platforms.end(), id,
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
    return pl != nullptr && dot(body_velocity - platform_velocity(pl->shift, tick_rate_hz), n).raw() > 0;
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

Depenetration depenetrate(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                          const Tracer& t, const Movers* movers) {
    Results<geo::Contact, kMaxContacts> results;
    const std::span<geo::Contact> contacts = results.span();
    Depenetration out;
    const size_t found = scene.overlap(capsule_at(feet, p), Scalar{}, contacts);
    // Platforms it leaves faster than they follow are no contacts.
    const size_t n = drop_separating(contacts, found < contacts.size() ? found : contacts.size(), movers);
    out.contacts = static_cast<uint32_t>(found);
    Vec3 push;
    for (size_t i = 0; i < n; ++i) {
        // Only the depth not already covered by the push so far (contact_less order).
        const Scalar remaining = contacts[i].depth - dot(push, contacts[i].normal);
        if (remaining.raw() > 0) push += contacts[i].normal * remaining;
    }
    out.wanted = length(push);
    if (out.wanted > p.s.depenetration_cap) push = scaled(push, p.s.depenetration_cap, out.wanted);
    if (!push.is_zero()) push = constrain_push(scene, feet, push, p);
    // Shapes whose minimum translations oppose one another (a solid built of overlapping boxes:
    // their sum cancels or leads back in), or a push that the shapes around cut to less than half
    // of what it should be: the body is moved along the direction that gets it out of all of
    // them soonest instead (KCC-SPEC: overlap with several shapes at once).
    bool opposed = false;
    for (size_t i = 0; i < n && !opposed; ++i) {
        if (contacts[i].depth <= kStuckDepth) continue;
        for (size_t j = 0; j < n && !opposed; ++j) {
            opposed = j != i && contacts[j].depth > kStuckDepth && dot(contacts[i].normal, contacts[j].normal).raw() < 0;
        }
    }
    const Scalar due = min(out.wanted, p.s.depenetration_cap);
    const bool stalled = out.wanted > kStuckDepth && length(push) < due.div_int(2);
    if (opposed || stalled) {
        Scalar escape;
        const Vec3 d = escape_direction(scene, feet, contacts.first(n), p, &escape);
        if (!d.is_zero()) {
            out.wanted = escape + p.s.skin; // out, and one skin clear of what it left
            push = d * min(out.wanted, p.s.depenetration_cap);
            // Squeezed by platforms alone (every contact kinematic) against the shapes around:
            // out of the platforms, but not into any other shape (constrain_push). A thin
            // platform pressing a body into the corner of the floor and a steep ramp escaped it
            // sideways, 4 cm into the ramp (docs/fuzzing.md, escape-into-steep-ramp). A body
            // inside static solids keeps its free escape (it may have to cross one to get out).
            bool platforms_only = n > 0;
            for (size_t i = 0; i < n; ++i) platforms_only = platforms_only && scene.scene().is_kinematic(contacts[i].shape);
            if (platforms_only) push = constrain_push(scene, feet, push, p, contacts.first(n));
        }
    }
    out.push = push;
    trace::depenetrate(t, out, feet);
    return out;
}

namespace {

/// How many of `hits` (hit_less order) lie within the ground band, the ones select_ground()
/// looks at: a prefix (start overlaps have distance 0).
size_t within_band(std::span<const geo::Hit> hits, const Params& p) {
    size_t n = 0;
    while (n < hits.size() && (hits[n].start_overlap || hits[n].distance <= p.ground_band)) ++n;
    return n;
}

/// Keeps a downward cast of capsule `c` for the next tick (GroundMemo) when it kept every hit it
/// found and every shape it could meet, other characters aside, is static: its hits on the
/// shapes, in order (the other characters' hits, shape kBodyShape, are left out: they move).
void remember(GroundMemo* memo, const geo::LocalScene& scene, const geo::Capsule& c, Scalar reach,
              std::span<const geo::Hit> kept, size_t found) {
    if (memo == nullptr || found > kept.size() || found > memo->hits.size() || !scene.static_below(c, reach))
        return;
    memo->valid = true;
    memo->capsule = c;
    memo->reach = reach;
    memo->clear = true;
    size_t count = 0;
    for (size_t i = 0; i < found; ++i) {
        if (kept[i].shape == geo::kBodyShape) continue;
        memo->hits[count++] = kept[i];
        if (kept[i].start_overlap) memo->clear = false;
    }
    memo->count = static_cast<uint8_t>(count);
}

} // namespace

Ground probe_ground(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                    bool was_grounded, const Tracer& t, const Movers* movers, GroundMemo* memo) {
    Results<geo::Hit, kMaxProbeHits> hits;
    const std::span<geo::Hit> out = hits.span(static_cast<size_t>(p.s.probe_max_hits));
    const geo::Capsule body = capsule_at(feet, p);
    const size_t found = scene.cast_all(body, kDown, p.s.probe_distance, out);
    // Platforms it leaves faster than they follow are no ground.
    const size_t n = drop_separating(out, found < out.size() ? found : out.size(), movers);
    const Ground g = select_ground(out.first(n), p, was_grounded);
    trace::probe(t, g, within_band(out.first(n), p), feet);
    if (movers == nullptr) remember(memo, scene, body, p.s.probe_distance, out.first(n), found);
    return g;
}

bool memo_fits(const GroundMemo& memo, const geo::LocalScene& scene, const geo::Capsule& body, const Params& p) {
    return memo.valid && memo.capsule.a == body.a && memo.capsule.b == body.b && memo.capsule.radius == body.radius &&
           memo.reach >= p.ground_band + kMemoMargin && p.s.probe_distance >= p.ground_band + kMemoMargin &&
           scene.static_below(body, p.s.probe_distance);
}

Ground probe_from_memo(GroundMemo& memo, const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                       bool was_grounded, const Tracer& t) {
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
    const Ground g = select_ground(std::span<const geo::Hit>{memo.hits.data(), n}, p, was_grounded);
    trace::probe(t, g, n, feet, reused);
    return g;
}

Depenetration nothing_to_depenetrate(const Vec3& feet, const Tracer& t) {
    const Depenetration out; // no contacts, no push, nothing wanted: as depenetrate() finds
    trace::depenetrate(t, out, feet);
    return out;
}

const char* to_string(StepResult r) {
    switch (r) {
    case StepResult::kAccepted: return "accepted";
    case StepResult::kCeiling: return "ceiling";
    case StepResult::kBlocked: return "blocked";
    case StepResult::kNoLanding: return "no-landing";
    case StepResult::kSteepLanding: return "steep-landing";
    case StepResult::kTooHigh: return "too-high";
    case StepResult::kNoMotion: return "no-motion";
    case StepResult::kNoRise: return "no-rise";
    case StepResult::kHeld: return "held";
    case StepResult::kAboveStep: return "above-step";
    }
    return "?";
}

StepAttempt try_step_up(const geo::LocalScene& scene, const Vec3& feet, const Vec3& motion, Scalar held,
                        Scalar blocker_y, bool rule_out,
                        const Params& p, const Tracer& t) {
    StepAttempt a;
    a.position = feet;
    const Settings& s = p.s;
    Vec3 fwd{motion.x, Scalar{}, motion.z};
    Scalar len = length(fwd);
    if (len >= kMinMove && held.raw() > 0) { // the motion held back at this riser, added
        fwd = scaled(fwd, len + held, len);
        len = len + held;
    }
    geo::Hit h;
    if (len < kMinMove || s.step_height.raw() <= 0) {
        a.result = StepResult::kNoMotion;
    } else if (rule_out && held.raw() <= 0 && len >= s.step_min_forward &&
               blocker_y - kRiseTolerance > feet.y - s.skin + s.step_height + kRiseTolerance) {
        // Acceptance needs a landing point no lower than blocker_y - kRiseTolerance (else
        // kNoRise) and no higher than feet.y - skin + step_height + kRiseTolerance (else
        // kTooHigh): none exists. Not kHeld (the forward is long enough, and with nothing held
        // the forward is not shortened along a wall): nothing but the trace tells the sweeps apart.
        a.result = StepResult::kAboveStep;
    } else if (sweep(scene, capsule_at(feet, p), kUp * (s.step_height + s.skin), s.step_height + s.skin, kNoId, &h)) {
        a.result = StepResult::kCeiling;
    } else {
        // Forward by the blocked motion (and what was held back before). When that is shorter
        // than step_min_forward and lands nowhere a grounded body can stand (the round base
        // barely over the step's corner), the body is held at the riser (kHeld) and the motion
        // is remembered, until it adds up to step_min_forward: a step-up never puts the body
        // ahead of where its speed takes it.
        const Vec3 raised = feet + Vec3{Scalar{}, s.step_height, Scalar{}};
        const auto attempt = [&](Vec3 f, Scalar& flen) {
            // With nothing held, blocked is all a stopped forward gives: another character in
            // the way (the common case in a crowd) says so without the scene's shapes.
            if (held.raw() <= 0 && body_resists(scene, capsule_at(raised, p), f, flen + s.skin)) {
                a.result = StepResult::kBlocked;
                return;
            }
            if (sweep(scene, capsule_at(raised, p), f, flen + s.skin, kNoId, &h)) {
                // Blocked up there by a wall while held at this riser: the forward slides along
                // the wall once (a body pressed into a wall beside the step was held at the riser
                // and then met the step before the wall in the next tick's pass, its forward
                // still pointing into the wall), else no step.
                const Vec3 nh = horizontal_normal(h.normal);
                const Scalar into = dot(f, nh);
                if (held.raw() <= 0 || nh.is_zero() || into.raw() >= 0) {
                    a.result = StepResult::kBlocked;
                    return;
                }
                f = f - nh * into;
                flen = length(f);
                if (flen < kMinMove || sweep(scene, capsule_at(raised, p), f, flen + s.skin, kNoId, &h)) {
                    a.result = StepResult::kBlocked;
                    return;
                }
            }
            const Vec3 over = raised + f;
            if (!sweep(scene, capsule_at(over, p), kDown * (s.step_height + s.skin), s.step_height + s.skin, kNoId, &h)) {
                a.result = StepResult::kNoLanding;
            } else if (h.start_overlap || h.normal.y < p.cos_stay) {
                a.result = StepResult::kSteepLanding;
            } else {
                // Rise of the landing surface above the ground under the feet (feet - skin),
                // measured at the contact: a capsule resting on a step's rounded corner is lower
                // than the step, so the capsule's own rise would let 0.36 m steps through.
                a.rise = h.point.y - (feet.y - s.skin);
                if (a.rise > s.step_height + kRiseTolerance) {
                    a.result = StepResult::kTooHigh;
                } else if (a.rise <= kRiseTolerance || h.point.y < blocker_y - kRiseTolerance) {
                    // Down onto the ground it stood on: its base did not reach over the step.
                    a.result = StepResult::kNoRise;
                } else {
                    a.result = StepResult::kAccepted;
                    const Scalar drop = max(h.distance - ground_rest_height(h.normal.y, p), Scalar{});
                    a.position = over - Vec3{Scalar{}, drop, Scalar{}};
                }
            }
        };
        attempt(fwd, len); // len: the forward actually tried (along a wall: its part along it)
        if (len < s.step_min_forward &&
            (a.result == StepResult::kSteepLanding || a.result == StepResult::kNoLanding ||
             a.result == StepResult::kNoRise)) {
            a.result = StepResult::kHeld;
            a.held = len;
        }
    }
    trace::step_attempt(t, a, motion, feet);
    return a;
}

SlideResult collide_and_slide(const geo::LocalScene& scene, const SlideRequest& r,
                              const Params& p, const Tracer& t) {
    const Settings& s = p.s;
    SlideResult out;
    out.position = r.position;
    out.velocity = r.velocity;
    Vec3 motion = r.motion;
    Results<Vec3, kMaxPlanes> planes; // (written before read: not zeroed every pass)
    Results<Vec3, kMaxPlanes> velocity_planes;
    int plane_count = 0;
    int velocity_plane_count = 0;
    // Both passes sweep the body grown by a skin (grown_capsule_at): a wall is met where the
    // body comes within a skin of it, at any angle. Swept as it is, a skin further along the
    // motion, the body missed walls it passed at a shallow angle (gap between c * (length +
    // skin) and skin + c * length, c the cosine between motion and normal) and ended inside the
    // skin: 2.6 mm from a wall met at 3 degrees, 12.4 at 8, 3.4 mm from a step's edge it fell
    // past (behaviour 5). Landings are the exception (below).
    bool paid = false; // r.step_hold given back (below)
    // Step-up is tried at every steep hit of the pass (KCC-SPEC: "when the horizontal pass is
    // blocked by a surface that is not walkable"), not only the first: a body sliding along a
    // wall meets the step after the wall, and trying only the wall stopped it dead there.
    // Bounded by the pass's iterations.
    for (int iter = 0; iter < s.max_slide_iterations; ++iter) {
        const Scalar len = iter == 0 ? scene.length_of(motion) : length(motion);
        if (len < kMinMove) break;
        geo::Hit h;
        bool hit = sweep(scene, grown_capsule_at(out.position, p), motion, len, kNoId, &h);
        // Falling onto something walkable for the grown capsule: whether and where the body lands
        // is its own capsule's (swept a skin further): the grown one, a skin wider, reaches the
        // rim of ground beside the body and "landed" it on an edge its own probe then missed.
        bool own = false;
        if (hit && r.pass == Pass::kVertical && r.motion.y.raw() < 0 && h.normal.y >= p.cos_enter) {
            own = true;
            hit = sweep(scene, capsule_at(out.position, p), motion, len + s.skin, kNoId, &h);
        }
        trace::sweep(t, r.pass, iter, motion, out.position, hit, h);
        if (!hit) {
            out.position += motion;
            if (out.landed) out.moved_after_landing = true;
            motion = Vec3::zero();
            break;
        }
        out.hit = true;
        // One skin from the contact along its normal (approach_distance); a start contact: none.
        // The grown capsule's contact is already part of a skin out along n: the rest is left.
        const Scalar c = h.start_overlap ? Scalar{} : -(dot(motion, h.normal) / len);
        const Scalar keep = own ? s.skin : grown_keep(h.normal, p);
        Scalar move = h.start_overlap ? Scalar{} : approach_distance(h.distance, c, keep);
        // Falling onto ground: no higher above it than the next tick's probe reaches.
        if (!h.start_overlap && r.pass == Pass::kVertical && r.motion.y.raw() < 0 && h.normal.y >= p.cos_stay)
            move = max(move, h.distance + (s.skin - keep) / c - ground_rest_height(h.normal.y, p));
        move = min(move, len);
        const Vec3 advance = scaled(motion, move, len);
        out.position += advance;
        if (out.landed && !advance.is_zero()) out.moved_after_landing = true;
        // How far inside the skin the body is of this contact, along its normal (> 0: inside).
        const Scalar inside = h.start_overlap ? h.depth + keep : keep - c * h.distance;
        const Vec3 leftover = motion - advance;

        Vec3 n = h.normal;
        bool clips_velocity = true;
        if (r.pass == Pass::kHorizontal) {
            const Scalar limit = r.grounded ? p.cos_stay : p.cos_enter;
            if (n.y >= limit) {
                // Walkable: the motion climbs it; the (horizontal) velocity is kept so that
                // walking onto a ramp costs no speed.
                clips_velocity = false;
            } else {
                if (r.grounded) {
                    const StepAttempt a = try_step_up(scene, out.position, leftover, paid ? Scalar{} : r.step_hold,
                                                       h.point.y, r.rule_out_steps, p, t);
                    if (a.result == StepResult::kHeld) out.step_hold = a.held;
                    if (a.result == StepResult::kAccepted) {
                        out.position = a.position;
                        out.stepped = true;
                        motion = Vec3::zero();
                        break;
                    }
                }
                // Too steep: a wall for the horizontal pass (its horizontal normal), so the
                // body never climbs it. Vertical pass slides it down instead.
                const Vec3 hn = horizontal_normal(n); // (n is h.normal)
                restore_skin(scene, h.normal, inside, p, &out.position, &hn);
                if (!hn.is_zero()) n = hn;
            }
        } else if (r.pass == Pass::kVertical && r.motion.y.raw() < 0 && n.y >= p.cos_enter &&
                   !out.landed) {
            out.landed = true;
            out.landed_normal = h.normal;
            out.landed_shape = h.shape;
        } else if (r.pass == Pass::kVertical && n.y < p.cos_enter && -n.y < p.cos_enter) {
            restore_skin(scene, h.normal, inside, p, &out.position); // sliding along a wall
        }
        if (add_plane(planes.items, &plane_count, n))
            trace::plane_added(t, r.pass, iter, n, h.shape, plane_count);
        if (clips_velocity) {
            add_plane(velocity_planes.items, &velocity_plane_count, n);
            out.velocity = solve_planes(out.velocity, velocity_planes.items, velocity_plane_count).motion;
        }
        if (iter == s.max_slide_iterations - 1) {
            out.capped = true;
            trace::iteration_cap(t, r.pass, iter, leftover);
            break;
        }
        const PlaneSolve ps = solve_planes(leftover, planes.items, plane_count);
        motion = ps.motion;
        // A walkable-angle contact with an edge is the round base meeting a step's nosing (57.5
        // degrees for a 0.2 m step), not a slope: it is climbed at the full horizontal speed
        // (projected onto it, the motion would keep only cos(angle) of its length: stairs
        // cost 44% of the speed). Faces (real ramps) keep the spec's surface speed.
        if (r.pass == Pass::kHorizontal && r.grounded && !clips_velocity && is_edge(h.feature) &&
            ps.kind == PlaneSolveKind::kSlide) {
            // Held back at this riser the tick before (StepResult::kHeld), the body rolls up
            // its nosing instead of stepping: it moves by the held motion too, once (dropped, a
            // walker slower than step_min_forward a tick lost 2.3 cm at every riser).
            Scalar want = length(Vec3{leftover.x, Scalar{}, leftover.z});
            if (!paid) {
                want += r.step_hold;
                paid = true;
            }
            // Exactly that long: neither less (above) nor more (the slide turned part of an
            // edge roll's drop into forward motion where it met the next nosing; below).
            const Scalar have = length(Vec3{motion.x, Scalar{}, motion.z});
            if (have.raw() > 0 && have != want) motion = scaled(motion, want, have);
        } else if (r.pass == Pass::kHorizontal && r.grounded) {
            // A slide never carries the body further horizontally than its motion asked: a
            // drop along an edge's tangent met by the next nosing was turned into forward motion
            // by the projection (4.9 cm ahead of a flat runner down eight stairs).
            const Scalar want = length(Vec3{leftover.x, Scalar{}, leftover.z});
            const Scalar have = length(Vec3{motion.x, Scalar{}, motion.z});
            if (have > want) motion = scaled(motion, want, have);
        }
        trace::plane_solve(t, r.pass, iter, ps);
        if (ps.kind == PlaneSolveKind::kStop) break;
    }
    return out;
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
        const Scalar move = h.start_overlap ? Scalar{} : min(approach_distance(h.distance, c, s.skin), piece_len);
        const Vec3 advance = scaled(piece, move, piece_len);
        pos += advance;
        add_plane(planes.items, &plane_count, h.normal);
        const PlaneSolve ps = solve_planes(motion - advance, planes.items, plane_count);
        if (ps.kind == PlaneSolveKind::kStop) break;
        motion = ps.motion;
        ++slides;
    }
    return pos;
}

Snap snap_to_ground(const geo::LocalScene& scene, const Vec3& feet, Scalar max_drop, const Params& p,
                    const Tracer& t, GroundMemo* memo) {
    Snap out;
    out.position = feet;
    Results<geo::Hit, kMaxProbeHits> hits;
    const std::span<geo::Hit> found_hits = hits.span();
    const geo::Capsule body = capsule_at(feet, p);
    const Scalar reach = p.s.snap_distance + p.s.skin;
    const size_t found = scene.cast_all(body, kDown, reach, found_hits);
    const size_t n = found < found_hits.size() ? found : found_hits.size();
    SnapLanding landing = select_snap(found_hits.first(n), p);
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
