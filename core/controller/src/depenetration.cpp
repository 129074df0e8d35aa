// Step 0 of a tick: out of whatever the body overlaps (KCC-SPEC "Depenetration") and a skin
// clear of it, the deepest contact first and the overlaps found again after it, capped, kept out
// of the shapes around it; the shortest way out of a union of solids whose own translations
// disagree; no way across a pinch.
#include "kcc/motion.h"

#include <array>

#include "geo/tolerances.h"
#include "sweep.h"
#include "trace_events.h"

namespace fx::kcc {

using namespace detail;

namespace {

/// Shapes near a depenetration push that constrain it, and rounds of projection onto them
/// (see constrain_push()).
constexpr size_t kMaxPushConstraints = 16;
constexpr int kPushRounds = 8;
/// Longest depenetration push that is checked against the shapes around it (2^10 m); a longer
/// one (a body deep inside a kilometre-sized solid, depenetration_cap raised) is shortened to it.
constexpr Scalar kMaxPushReach = Scalar::from_int(1024);

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
        for (const geo::Contact& c : leaving)
            free[k] = free[k] || c.shape == near[k].shape;
    }
    auto violated = [&](size_t k) {
        return !free[k] && dot(push, near[k].normal) < bound[k] - kPlaneTolerance;
    };
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
Scalar escape_along(const geo::LocalScene& scene, const Vec3& feet, const Vec3& d,
                    const Params& p) {
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
                if (h.shape != c.shape || h.feature.triangle != c.feature.triangle)
                    continue; // a mesh: each triangle
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
Vec3 escape_direction(const geo::LocalScene& scene, const Vec3& feet,
                      std::span<const geo::Contact> contacts, const Params& p, Scalar* distance) {
    std::array<Vec3, kMaxContacts + 5> candidates;
    size_t count = 0;
    for (const geo::Contact& c : contacts)
        candidates[count++] = c.normal;
    const Scalar one = Scalar::one();
    for (const Vec3& a : {Vec3{Scalar{}, one, Scalar{}}, Vec3{one, Scalar{}, Scalar{}},
                          Vec3{-one, Scalar{}, Scalar{}}, Vec3{Scalar{}, Scalar{}, one},
                          Vec3{Scalar{}, Scalar{}, -one}}) {
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

/// The deepest of `contacts` (ties to the earlier, contact_less order), or null when none.
const geo::Contact* deepest_of(std::span<const geo::Contact> contacts) {
    const geo::Contact* deepest = nullptr;
    for (const geo::Contact& c : contacts)
        if (deepest == nullptr || c.depth > deepest->depth) deepest = &c;
    return deepest;
}

/// How far inside a shape a capped push leaves a body that the cap would have left less than a
/// skin outside it (2 mm, above kStuckDepth so the rest of the way is found the next tick).
constexpr Scalar kCappedStop = Scalar::ratio(2, 1000);

/// The push `push` (length `wanted`, more than `cap`) at the cap. Where that would take the body
/// out of the deepest contact's shape but less than a skin clear of it, it stops kCappedStop
/// inside that shape instead: the next tick finds the contact again and pushes the body the rest
/// of the way and one skin, and what else is then within a skin (depenetrate()'s rounds).
/// Without this the body ended between touching and a skin from the shape, with nothing to
/// overlap and so nothing to push it on. (Only the deepest: stopping short of a shallow contact
/// the push nearly covers shortened the whole push to a third, in a corner.)
Vec3 capped_push(const Vec3& push, Scalar wanted, std::span<const geo::Contact> contacts,
                 Scalar cap, Scalar skin) {
    const Vec3 out = scaled(push, cap, wanted);
    const geo::Contact* deepest = deepest_of(contacts);
    if (deepest == nullptr || deepest->depth <= kCappedStop) return out;
    const Scalar cover = dot(out, deepest->normal);
    const Scalar stop = deepest->depth - kCappedStop;
    return cover > stop && cover < deepest->depth + skin ? out * (stop / cover) : out;
}

/// Rounds of depenetrate()'s resolution: the deepest contact, then the deepest where that leaves
/// the body, and so on (a corner of three walls takes three).
constexpr int kResolveRounds = 4;

/// The push out of the deepest of `contacts` (deepest_of) and one skin clear of it, when that is
/// more than `least`; else zero.
Vec3 deepest_push(std::span<const geo::Contact> contacts, Scalar skin, Scalar least) {
    const geo::Contact* deepest = deepest_of(contacts);
    if (deepest == nullptr || deepest->depth + skin <= least) return Vec3::zero();
    return deepest->normal * (deepest->depth + skin);
}

/// A body pinched between static solids closer than its width: a contact deeper than kStuckDepth
/// and another pushing the opposite way (touching or deeper), and every contact a static shape
/// the body's axis is outside of (depth < radius). The body straddles free space (a slot narrower
/// than it); every way out crosses one of the solids or slides along the pinch for as long as it
/// lasts, so there is none: it gets the usual push, kept out of the shapes around it, which leaves
/// it where it is (docs/controller.md, "Pinched"). A body whose axis is inside a solid (a union of
/// overlapping boxes), or pressed by a platform, is not pinched: it escapes.
bool pinched(std::span<const geo::Contact> contacts, const geo::LocalScene& scene,
             const Params& p) {
    bool opposed = false;
    for (size_t i = 0; i < contacts.size(); ++i) {
        const geo::Contact& a = contacts[i];
        if (a.depth >= p.s.radius || scene.scene().is_kinematic(a.shape)) return false;
        if (a.depth <= kStuckDepth) continue;
        for (size_t j = 0; j < contacts.size() && !opposed; ++j)
            opposed = j != i && dot(a.normal, contacts[j].normal).raw() < 0;
    }
    return opposed;
}

} // namespace

Depenetration depenetrate(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                          const Tracer& t, const Movers* movers) {
    Results<geo::Contact, kMaxContacts> results;
    const std::span<geo::Contact> contacts = results.span();
    Depenetration out;
    const size_t found = scene.overlap(capsule_at(feet, p), Scalar{}, contacts);
    // Platforms it leaves faster than they follow are no contacts.
    size_t n = drop_separating(contacts, found < contacts.size() ? found : contacts.size(), movers);
    if (movers != nullptr) n = drop_outrun(contacts.first(n), *movers, p.ground_band);
    out.contacts = static_cast<uint32_t>(found);
    // Out of the deepest contact and one skin clear of it (collide-and-slide never ends closer: a
    // body pushed only to touching meets the shape at distance zero on its next sweep); then,
    // where others were met, the overlaps are found again where that push leaves the body (and
    // what is within a skin of it) and the deepest is resolved the same way, a few rounds. Each
    // shape is met where the body really is: summing the contacts' own translations, the edge of
    // a box inside a union (its minimum translation diagonal) pushed the body sideways along the
    // union's face, and a push out of a neighbour's corner carried a body on the middle of three
    // boxes 5 cm sideways (behaviour 12).
    Vec3 push = deepest_push(contacts.first(n), p.s.skin, Scalar{});
    if (n > 1) {
        Results<geo::Contact, kMaxContacts> again_room;
        const std::span<geo::Contact> again = again_room.span();
        for (int round = 1; round < kResolveRounds; ++round) {
            const size_t m = scene.overlap(capsule_at(feet + push, p), p.s.skin, again);
            size_t k = drop_separating(again, m < again.size() ? m : again.size(), movers);
            if (movers != nullptr) k = drop_outrun(again.first(k), *movers, p.ground_band);
            const Vec3 more = deepest_push(again.first(k), p.s.skin, geo::kContactTolerance);
            if (more.is_zero()) break;
            push += more;
        }
    }
    out.wanted = length(push);
    if (out.wanted > p.s.depenetration_cap)
        push = capped_push(push, out.wanted, contacts.first(n), p.s.depenetration_cap, p.s.skin);
    if (!push.is_zero()) push = constrain_push(scene, feet, push, p);
    // Shapes whose minimum translations oppose one another (a solid built of overlapping boxes:
    // their sum cancels or leads back in), or a push that the shapes around cut to less than half
    // of what it should be: the body is moved along the direction that gets it out of all of
    // them soonest instead (KCC-SPEC: overlap with several shapes at once).
    bool opposed = false;
    for (size_t i = 0; i < n && !opposed; ++i) {
        if (contacts[i].depth <= kStuckDepth) continue;
        for (size_t j = 0; j < n && !opposed; ++j) {
            opposed = j != i && contacts[j].depth > kStuckDepth &&
                      dot(contacts[i].normal, contacts[j].normal).raw() < 0;
        }
    }
    const Scalar due = min(out.wanted, p.s.depenetration_cap);
    const bool stalled = out.wanted > kStuckDepth && length(push) < due.div_int(2);
    if ((opposed || stalled) && !pinched(contacts.first(n), scene, p)) {
        Scalar escape;
        const Vec3 d = escape_direction(scene, feet, contacts.first(n), p, &escape);
        if (!d.is_zero()) {
            out.wanted = escape + p.s.skin; // out, and one skin clear of what it left
            const Scalar cap = p.s.depenetration_cap;
            // Capped within a skin of the way out: kCappedStop short of it (capped_push).
            push = d * (out.wanted <= cap                                    ? out.wanted
                        : cap > escape - kCappedStop && escape > kCappedStop ? escape - kCappedStop
                                                                             : cap);
            // Squeezed by platforms alone (every contact kinematic) against the shapes around:
            // out of the platforms, but not into any other shape (constrain_push). A thin
            // platform pressing a body into the corner of the floor and a steep ramp escaped it
            // sideways, 4 cm into the ramp (docs/fuzzing.md, escape-into-steep-ramp). A body
            // inside static solids keeps its free escape (it may have to cross one to get out).
            // A static shape it only touches (no deeper than kStuckDepth) is not one it is inside,
            // and the push may not go into it: a rider the last tick's push left touching a
            // ceiling escaped up through the slab at the cap a tick (swarm seed 20261228 run
            // 80616), and one squeezed sideways up to a wall went on into it (run 28869).
            std::array<geo::Contact, kMaxContacts> platforms;
            size_t np = 0;
            bool inside_static = false;
            for (size_t i = 0; i < n; ++i) {
                if (scene.scene().is_kinematic(contacts[i].shape))
                    platforms[np++] = contacts[i];
                else
                    inside_static = inside_static || contacts[i].depth > kStuckDepth;
            }
            if (np > 0 && !inside_static)
                push = constrain_push(scene, feet, push, p, std::span(platforms).first(np));
        }
    }
    out.push = push;
    trace::depenetrate(t, out, feet);
    return out;
}

Depenetration nothing_to_depenetrate(const Vec3& feet, const Tracer& t) {
    const Depenetration out; // no contacts, no push, nothing wanted: as depenetrate() finds
    trace::depenetrate(t, out, feet);
    return out;
}

} // namespace fx::kcc
