// Step-up (KCC-SPEC "Steps"): up, forward, down, tried where the horizontal pass of a grounded
// body meets something too steep to walk on.
#include "kcc/motion.h"

#include "geo/tolerances.h"
#include "sweep.h"
#include "trace_events.h"

namespace fx::kcc {

using namespace detail;

namespace {

/// Rounding allowance of the step rise test: casts stop within kContactTolerance of a surface.
constexpr Scalar kRiseTolerance = Scalar::from_raw(geo::kContactTolerance.raw() * 4);

/// Whether another character's body resists `motion` (resists(), above) within `distance`: when
/// one does, sweep() with the same arguments returns true whatever the static shapes add (it
/// returns a resisting hit, the earliest, or stops the motion when more contacts start than its
/// buffer holds), so a caller that needs only that answer is spared the static shapes.
bool body_resists(const geo::LocalScene& scene, const geo::Capsule& c, const Vec3& motion,
                  Scalar distance) {
    if (!scene.has_bodies()) return false;
    Results<geo::Hit, kMaxSweepHits> results;
    const std::span<geo::Hit> hits = results.span();
    size_t count = 0;
    const size_t found = scene.cast_bodies(c, motion, distance, hits, &count);
    for (size_t i = 0; i < count; ++i)
        if (resists(hits[i], motion, kNoId)) return true;
    return found > count; // more of them than the buffer holds: sweep() stops the motion
}

/// Halvings of the forward tried by bisect_forward().
constexpr int kForwardBisections = 4;

/// A body held at a riser (its forward landed too steeply on the step's nosing, `held` long)
/// whose whole forward now lands past the step's walkable part (on the next nosing up, too
/// steeply or too high) or, raised, meets the next nosing up (stairs steeper than the raise
/// clears at that forward): a body wider than the treads, on stairs whose nosings are steeper than
/// its stay limit, has a walkable landing on each nosing only over a short stretch of forward,
/// which `held` falls short of and `held` plus a tick's motion may pass. The forward between the
/// two is halved kForwardBisections times, toward the nosing when a landing is past it and away
/// when one is short of it, and the first accepted landing is the step (behaviour 13; before,
/// such a body alternated between held and a steep landing, and never climbed). Never further
/// than the whole forward: the body is not put ahead of where its speed takes it. No landing
/// found: held at the longest forward that landed short of the walkable part, or, when none
/// did, the whole forward's result.
template <typename Attempt>
void bisect_forward(StepAttempt& a, const Attempt& attempt, const Vec3& fwd, Scalar held,
                    Scalar whole, bool& on_nosing) {
    const StepAttempt past = a;
    Scalar shorter = held; // lands on the nosing too steeply
    Scalar longer = whole; // lands past the walkable part
    for (int i = 0; i < kForwardBisections; ++i) {
        const Scalar tried = shorter + Scalar::from_raw((longer - shorter).raw() / 2);
        if (tried <= shorter) break;
        Scalar along = tried; // attempt() shortens it when the forward slides along a wall
        attempt(scaled(fwd, tried, whole), along);
        if (a.result == StepResult::kAccepted) return;
        if (a.result == StepResult::kSteepLanding && on_nosing) {
            shorter = tried;
        } else if (a.result == StepResult::kSteepLanding || a.result == StepResult::kTooHigh ||
                   a.result == StepResult::kBlocked) {
            longer = tried;
        } else {
            break; // no landing: the stretch between is not a step's nosing
        }
    }
    if (shorter > held) {
        a.result = StepResult::kHeld;
        a.held = shorter;
    } else {
        a = past;
    }
    on_nosing = false;
}

} // namespace

const char* to_string(StepResult r) {
    switch (r) {
    case StepResult::kAccepted:
        return "accepted";
    case StepResult::kCeiling:
        return "ceiling";
    case StepResult::kBlocked:
        return "blocked";
    case StepResult::kNoLanding:
        return "no-landing";
    case StepResult::kSteepLanding:
        return "steep-landing";
    case StepResult::kTooHigh:
        return "too-high";
    case StepResult::kNoMotion:
        return "no-motion";
    case StepResult::kNoRise:
        return "no-rise";
    case StepResult::kHeld:
        return "held";
    case StepResult::kAboveStep:
        return "above-step";
    }
    return "?";
}

StepAttempt try_step_up(const geo::LocalScene& scene, const Vec3& feet, Scalar base,
                        const Vec3& motion, Scalar held, const Vec3& riser, Scalar blocker_y,
                        bool rule_out, const Params& p, const Tracer& t) {
    StepAttempt a;
    a.position = feet;
    const Settings& s = p.s;
    Vec3 fwd{motion.x, Scalar{}, motion.z};
    Scalar len = length(fwd);
    // Straight into the riser, horizontally: the way the motion held back here goes (the slide
    // along the riser took the rest of a held tick's motion, so only this part is held).
    const auto into_riser = [&riser] { return -horizontal_normal(riser); };
    if (len >= kMinMove && held.raw() > 0) { // the motion held back at this riser, added
        const Vec3 into = into_riser();
        if (into.is_zero()) {
            fwd = scaled(fwd, len + held, len);
            len = len + held;
        } else {
            fwd = fwd + into * held;
            len = length(fwd);
        }
    }
    geo::Hit h;
    if (len < kMinMove || s.step_height.raw() <= 0) {
        a.result = StepResult::kNoMotion;
    } else if (rule_out && held.raw() <= 0 && len >= s.step_min_forward &&
               blocker_y - kRiseTolerance > base + s.step_height + kRiseTolerance) {
        // Acceptance needs a landing point no lower than blocker_y - kRiseTolerance (else
        // kNoRise) and no higher than base + step_height + kRiseTolerance (else
        // kTooHigh): none exists. Not kHeld (the forward is long enough, and with nothing held
        // the forward is not shortened along a wall): nothing but the trace tells the sweeps apart.
        a.result = StepResult::kAboveStep;
    } else if (sweep(scene, capsule_at(feet, p), kUp * (s.step_height + s.skin),
                     s.step_height + s.skin, kNoId, &h)) {
        a.result = StepResult::kCeiling;
    } else {
        // Forward by the blocked motion (and what was held back before). When that is shorter
        // than step_min_forward and lands nowhere a grounded body can stand (the round base
        // barely over the step's corner), the body is held at the riser (kHeld) and the motion
        // is remembered, until it adds up to step_min_forward: a step-up never puts the body
        // ahead of where its speed takes it.
        const Vec3 raised = feet + Vec3{Scalar{}, s.step_height, Scalar{}};
        bool on_nosing = false; // kSteepLanding on the nosing of the step climbed
        Scalar blocked_after; // kBlocked: how far the raised forward went before it was blocked
        const auto attempt = [&](Vec3 f, Scalar& flen) {
            on_nosing = false;
            blocked_after = Scalar{};
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
                // still pointing into the wall), else no step. Not a wall the raised forward
                // met only after step_min_forward: that is ahead, over the step (the next nosing
                // up of stairs steeper than the raise clears), and the forward is halved short
                // of it (bisect_forward; slid along it, a forward straight into it kept nothing
                // of the held motion).
                const Vec3 nh = horizontal_normal(h.normal);
                const Scalar into = dot(f, nh);
                const Scalar after = h.start_overlap ? Scalar{} : h.distance;
                if (held.raw() <= 0 || nh.is_zero() || into.raw() >= 0 ||
                    after >= s.step_min_forward) {
                    a.result = StepResult::kBlocked;
                    blocked_after = after;
                    return;
                }
                f = f - nh * into;
                flen = length(f);
                if (flen < kMinMove ||
                    sweep(scene, capsule_at(raised, p), f, flen + s.skin, kNoId, &h)) {
                    a.result = StepResult::kBlocked;
                    return;
                }
            }
            const Vec3 over = raised + f;
            if (!sweep(scene, capsule_at(over, p), kDown * (s.step_height + s.skin),
                       s.step_height + s.skin, kNoId, &h)) {
                a.result = StepResult::kNoLanding;
            } else if (h.start_overlap || h.normal.y < p.cos_stay) {
                a.result = StepResult::kSteepLanding;
                // Too steeply on the nosing of the step it is climbing (an edge, not a steep
                // face; a step's height above the ground under the feet, no lower than the
                // blocking contact): the base has not got far enough over it yet (a wide body,
                // a strict stay limit).
                const Scalar rise = h.point.y - base;
                const bool edge = h.feature.kind == geo::FeatureKind::kEdge ||
                                  h.feature.kind == geo::FeatureKind::kVertex;
                on_nosing = edge && !h.start_overlap && rise > kRiseTolerance &&
                            rise <= s.step_height + kRiseTolerance &&
                            h.point.y >= blocker_y - kRiseTolerance;
            } else {
                // Rise of the landing surface above the ground under the feet (feet - skin),
                // measured at the contact: a capsule resting on a step's rounded corner is lower
                // than the step, so the capsule's own rise would let 0.36 m steps through.
                a.rise = h.point.y - base;
                if (a.rise > s.step_height + kRiseTolerance) {
                    a.result = StepResult::kTooHigh;
                } else if (a.rise <= kRiseTolerance || h.point.y < blocker_y - kRiseTolerance) {
                    // Down onto the ground it stood on: its base did not reach over the step.
                    a.result = StepResult::kNoRise;
                } else {
                    a.result = StepResult::kAccepted;
                    const Scalar drop =
                        max(h.distance - ground_rest_height(h.normal.y, p), Scalar{});
                    a.position = over - Vec3{Scalar{}, drop, Scalar{}};
                }
            }
        };
        const Scalar whole = len;
        attempt(fwd, len); // len: the forward actually tried (along a wall: its part along it)
        if (a.result == StepResult::kTooHigh ||
            (a.result == StepResult::kBlocked &&
             (held.raw() > 0 || blocked_after >= s.step_min_forward)) ||
            (a.result == StepResult::kSteepLanding && !on_nosing))
            bisect_forward(a, attempt, fwd, held, whole, on_nosing);
        // Held, its motion kept for the step, when the forward was too short to stand on the
        // step: shorter than step_min_forward, or landing on the step's nosing too steeply
        // (behaviour 12: such a body lost the tick's motion at the riser, stopping for a tick
        // at every step, or for good when no one tick's motion was enough).
        if ((len < s.step_min_forward &&
             (a.result == StepResult::kSteepLanding || a.result == StepResult::kNoLanding ||
              a.result == StepResult::kNoRise)) ||
            (a.result == StepResult::kSteepLanding && on_nosing)) {
            a.result = StepResult::kHeld;
            // The forward's part into the riser (all of it, straight at the riser): the slide
            // that follows moves the body along the riser by the rest of this tick's motion, and
            // holding that part too would move it along twice (behaviour 16 and before held the
            // whole length: up to 0.28 m more sideways than the body's speed over six risers
            // approached at 25 degrees).
            const Vec3 into = into_riser();
            a.held = into.is_zero() ? len : max(min(dot(fwd, into), len), Scalar{});
        }
    }
    trace::step_attempt(t, a, motion, feet);
    return a;
}

} // namespace fx::kcc
