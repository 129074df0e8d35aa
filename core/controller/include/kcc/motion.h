// The geometry-facing steps of a tick: depenetration, ground probe, collide-and-slide, step-up
// and snap. Each takes the scene, a position and plain data, returns plain data, and reports
// what it did through an optional trace.
#pragma once

#include <array>
#include <optional>

#include <cstdint>
#include <span>

#include "geo/scene.h"
#include "kcc/settings.h"
#include "kcc/solve.h"
#include "kcc/state.h"
#include "kcc/trace.h"

namespace fx::kcc {

/// Forwards events to an optional observer, stamped with the character id. Null: no cost
/// beyond one branch per event.
struct Tracer {
    TraceObserver* observer = nullptr;
    uint32_t character = 0;
    uint32_t kinds = 0; ///< observer's kinds() (trace_bit), 0 without an observer
    bool on() const { return observer != nullptr; }
    bool wants(TraceKind k) const { return (kinds & trace_bit(k)) != 0; }
    void emit(TraceEvent e) const {
        if (observer == nullptr) return;
        e.character = character;
        observer->on_event(e);
    }
};

/// The body's capsule standing on `feet` (inline: every tick asks for it, for every body).
inline geo::Capsule capsule_at(const Vec3& feet, const Params& p) {
    return geo::Capsule::upright(feet, p.s.radius, p.s.height);
}

/// The push of upright capsule `a` (character `id_a`) away from upright capsule `b` (`id_b`)
/// that leaves them, with b pushed as much the other way, `gap` apart: horizontal, half of
/// what is missing; zero when they are that far apart already. Exactly antisymmetric (b's push is
/// the negation). Axes on one vertical line have no direction from where they are: bodies told
/// apart by place or size separate along x (the first in place order toward -x), the same
/// capsule in the same place along tie_direction(lower id, higher id), the lower id along it.
Vec3 body_separation(const geo::Capsule& a, const geo::Capsule& b, Scalar gap, CharacterId id_a,
                     CharacterId id_b);
/// Lexicographic order of two upright capsules by their lowest centre (x, z, y), then their
/// top, then radius: -1, 0 (the same capsule in the same place) or 1.
int body_compare(const geo::Capsule& a, const geo::Capsule& b);
/// A horizontal unit direction computed from two ids alone (an integer mix of the pair):
/// the way two characters with the same capsule in the same place separate.
Vec3 tie_direction(CharacterId lo, CharacterId hi);
/// How far a body at `feet` can move along `push` against the scene: all of it, or, where a
/// sweep meets something, up to one skin from it along its normal, the rest slid along what
/// it met (up to three sweeps). `scene` meets no bodies (LocalScene::set_bodies).
Vec3 clear_of_statics(const geo::LocalScene& scene, const Vec3& feet, const Vec3& push,
                      const Params& p);
/// The body's capsule grown by a skin for the horizontal pass's sweeps: radius + skin, its
/// highest point the body's, its lowest grown_base_lift() above the body's lowest less a skin.
/// Ground the body rests on (a skin below along its normal n) stays grown_base_lift() * n.y away,
/// so sweeping along it meets nothing at the start; a wall (n.y = 0) is met a whole skin early.
/// A body shorter than 2 * radius + skin + lift: a sphere of radius + skin at half its height.
geo::Capsule grown_capsule_at(const Vec3& feet, const Params& p);
/// Skin / 16 (0.94 mm for the default skin).
Scalar grown_base_lift(const Params& p);
/// How much of the skin is left between the body's capsule and a contact of the grown capsule
/// with normal n (toward the body): grown_base_lift() * n.y below its axis, skin * -n.y above.
Scalar grown_keep(const Vec3& n, const Params& p);

/// This tick's displacement of one moving platform.
struct PlatformShift {
    geo::ShapeId id = 0;
    Vec3 shift;
};

/// The platform `id` among `platforms` (ascending id), or null.
const PlatformShift* find_platform(std::span<const PlatformShift> platforms, geo::ShapeId id);
/// A platform's velocity from its shift this tick: shift * tick rate, each component limited to
/// 2^20 m/s like an impulse (a platform looping back from its last waypoint to its first moves
/// kilometres in a tick).
Vec3 platform_velocity(const Vec3& shift, int tick_rate_hz);

/// The moving platforms as an airborne body sees them at the start of its tick: a platform it
/// moves away from faster than the platform follows (dot(v_body - v_platform, n) > 0 at the
/// contact; a body that jumped off a platform rising faster than the jump speed, which the
/// platform's move this tick put back into its skin) is no contact and no ground for the
/// depenetration and the first probe: the body's own motion takes it out (sweeps look past a
/// start contact they move away from). Empty: every contact counts.
struct Movers {
    std::span<const PlatformShift> platforms; ///< ascending id
    Vec3 body_velocity;
    int tick_rate_hz = 0;
    /// How far the body rises on its own this tick ((v.y - gravity * dt) * dt, at least 0): a
    /// platform the first probe finds is ground only where the body will be within the probe's
    /// band of it after that rise (a platform rising faster than a jump closes on the body, but
    /// the body also rises this tick; counted where the probe ran, it landed two ticks early).
    Scalar rise;
    /// Whether the body separates from shape `id` at a contact with normal n (from the shape).
    bool separating(geo::ShapeId id, const Vec3& n) const;
};

struct Depenetration {
    Vec3 push; ///< applied (length <= depenetration_cap)
    Scalar wanted; ///< length of the push before the cap
    uint32_t contacts = 0;
};
/// Out of every overlapped shape and one skin clear of it: the deepest contact's minimum
/// translation and a skin, then the deepest where that leaves the body (overlaps found again,
/// within a skin), a few rounds; capped per tick (stopping 2 mm inside the deepest shape when the
/// cap falls within its skin), then shortened or dropped where it would go into another shape
/// nearby; a pinched body is not moved across the pinch, a body inside a union escapes it.
Depenetration depenetrate(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                          const Tracer& t, const Movers* movers = nullptr);

/// The last downward cast of a character's tick, made where the body ended it (the snap's, when
/// it left the body where it was, or the probe's after it), kept for the next tick: its hits on
/// the shapes (other characters' left out). Where the body has not moved since and every shape
/// that cast could meet is static (LocalScene::static_below), the next tick's queries there have
/// known answers:
///   - the overlap query of depenetrate() finds nothing when no hit started in contact (the
///     cast's candidates include the overlap's, and a shape the capsule overlaps is a start hit);
///   - the probe's hits within the ground band (the only ones select_ground() looks at) are this
///     cast's within the band, bit for bit, when both casts reach at least kMemoMargin beyond the
///     band (docs/controller.md, "Reused casts"); with other characters near, their hits, cast
///     afresh, merged in.
/// So step_character() skips those two queries. Not state: it only ever gives what the queries
/// would, and a tick without it (after World::restore(), say) makes them.
struct GroundMemo {
    bool valid = false;
    geo::Capsule capsule; ///< the capsule cast, exactly
    Scalar reach; ///< how far down it was cast
    uint8_t count = 0; ///< every hit on the shapes the cast found (it found no more than it kept)
    bool clear = false; ///< no hit on the shapes started in contact
    std::array<geo::Hit, kMaxProbeHits> hits; ///< the first `count`, hit_less order
};
/// What a character keeps from one tick to the next besides its state (World keeps one per
/// character). None of it is state: each part only ever gives what would be computed afresh,
/// and a tick without it (after World::restore(), or with World::set_reuse_casts(false))
/// computes the same bits.
struct TickCache {
    GroundMemo ground;
    StickMemo stick;
    /// The shapes gathered around the body, for a region kTickRegionPadding wider than its
    /// tick's (tick_region): kept while each new tick's region lies inside it, in a scene
    /// without kinematic shapes (a gathered region larger than a query needs gives the same
    /// answers: every query tests its own bounds).
    std::optional<geo::LocalScene> scene;
};
/// How much wider than a tick's region the kept gathered region is (1 m).
inline constexpr Scalar kTickRegionPadding = Scalar::from_int(1);

/// How far beyond the ground band both casts must reach for GroundMemo's probe answer (1 mm;
/// any reach 1e-5 m beyond the band would do, docs/controller.md).
inline constexpr Scalar kMemoMargin = Scalar::ratio(1, 1000);

/// Ground probe: the capsule cast down probe_distance, up to probe_max_hits, select_ground().
/// With `memo`, the cast is remembered there when it can be reused (GroundMemo).
Ground probe_ground(const geo::LocalScene& scene, const Vec3& feet, const Params& p,
                    bool was_grounded, const Tracer& t, const Movers* movers = nullptr,
                    GroundMemo* memo = nullptr, const Vec3& last_normal = Vec3::unit_y());
/// The probe's answer at `feet` from a memo that fits it (memo_fits()): without a query, or,
/// with other characters near (`scene`'s bodies), with a cast against them alone, whose hits are
/// merged into the memo's list (the memo is used up: step_character() has invalidated it).
Ground probe_from_memo(GroundMemo& memo, const geo::LocalScene& scene, const Vec3& feet,
                       const Params& p, bool was_grounded, const Tracer& t,
                       const Vec3& last_normal = Vec3::unit_y());
/// Whether `memo` answers the next queries of a body with capsule `body` in `scene` (above).
bool memo_fits(const GroundMemo& memo, const geo::LocalScene& scene, const geo::Capsule& body,
               const Params& p);
/// depenetrate()'s answer for a body that overlaps nothing (a memo that fits and is clear).
Depenetration nothing_to_depenetrate(const Vec3& feet, const Tracer& t);

struct SlideResult {
    Vec3 position;
    Vec3 velocity;
    bool hit = false; ///< some sweep hit
    bool capped = false; ///< the last iteration still hit: rest dropped
    bool stepped = false; ///< a step-up was taken
    bool landed = false; ///< (vertical pass) hit walkable ground moving down
    Vec3 landed_normal;
    geo::ShapeId landed_shape = kNoId;
    bool moved_after_landing =
        false; ///< (vertical pass) the leftover slid the body on past the landing
    Scalar step_hold; ///< (horizontal pass) motion held back at a riser this tick, for the next
                      ///< (kHeld)
};

struct SlideRequest {
    Vec3 position;
    Vec3 motion; ///< m, for this tick
    Vec3 velocity; ///< clipped by the pass's planes, except walkable ones in the horizontal pass
    Pass pass = Pass::kHorizontal;
    bool grounded = false; ///< horizontal pass: enables step-up, steep hits become walls
    Scalar step_hold; ///< horizontal pass: motion held back at a riser before
                      ///< (CharacterState::step_hold)
    bool rule_out_steps =
        false; ///< step-ups whose blocking contact is too high: kAboveStep, no sweeps (try_step_up)
    /// Horizontal pass of a body grounded on an edge: the height of its contact with the edge
    /// (Ground::support_y), which step-up rises are measured from when it is above feet.y - skin.
    bool on_edge = false;
    Scalar edge_support_y;
};

/// Collide-and-slide (KCC-SPEC): sweep length = distance + skin, move until one skin from the
/// contact along its normal (approach_distance; the spec measures it along the motion), clip
/// the leftover with solve_planes() over every plane touched in this pass, at most
/// max_slide_iterations sweeps (the rest is dropped when the last one still hits). In the
/// horizontal pass a steep hit is a vertical wall (its horizontal normal), and a grounded
/// pass tries a step-up at each one.
SlideResult collide_and_slide(const geo::LocalScene& scene, const SlideRequest& r, const Params& p,
                              const Tracer& t);

enum class StepResult : uint8_t {
    kAccepted = 0,
    kCeiling = 1, ///< the upward sweep hit something
    kBlocked = 2, ///< the forward sweep hit something
    kNoLanding = 3, ///< the downward sweep found nothing within the step height
    kSteepLanding = 4, ///< the landing surface is not walkable
    kTooHigh = 5, ///< the rise exceeds the step height
    kNoMotion = 6, ///< nothing to step with
    kNoRise = 7, ///< the landing is the ground the body stands on: no step there
    kHeld = 8, ///< the motion so far is too short to land on the step: held (StepAttempt::held)
    kAboveStep =
        9, ///< the blocking contact is higher than any landing that could be accepted: no sweeps
};
const char* to_string(StepResult r);

struct StepAttempt {
    StepResult result = StepResult::kNoMotion;
    Vec3 position; ///< the landing position when accepted
    Scalar rise;
    Scalar held; ///< kHeld: the horizontal motion held back at the riser so far, into it (m)
};
/// Up by step_height, forward by the (horizontal) blocked motion plus `held` (the motion held back
/// at this riser on earlier ticks), down again. Accepted only if neither the up nor the forward
/// sweep hits, the down sweep lands on ground walkable for a grounded body, and the rise (the
/// landing contact's height above the ground under the feet, feet.y - skin) is within
/// step_height and a rounding allowance. A forward shorter than step_min_forward that lands on
/// the step's corner too steeply, or not on the step, is kHeld: the caller keeps `held` for the
/// next tick, so the body waits at the riser until its motion adds up, and is never put ahead.
/// A landing lower than `blocker_y` (the height of the blocking contact) is not on the step
/// (kNoRise): a body rolling over one nosing and meeting the next riser landed on the tread it
/// was rolling onto, a "step" of a few millimetres.
/// So no landing is accepted when `blocker_y` - kRiseTolerance lies above base +
/// step_height + kRiseTolerance (a wall met at the height of the round base's centre, a ledge
/// taller than a step): with no motion held back (`held` = 0) and a forward of at least
/// step_min_forward (so the result cannot be kHeld either), that is kAboveStep without a sweep,
/// when `rule_out` is set. The outcome for the body is the one the three sweeps would give: not
/// accepted, nothing held (tests compare both ways, World::set_reuse_casts).
/// `base` is the height of the ground under the feet that rises are measured from: feet.y - skin,
/// or, for a body resting on an edge (a step's nosing, SlideRequest::edge_support_y), the higher
/// of that and the nosing's contact: the round base sits lower than a skin above the nosing, and
/// measured from a skin below its feet the next riser of stairs a step high was out of reach.
/// `riser` is the blocking contact's normal: motion held back goes straight into the riser (its
/// horizontal normal, reversed), and what is held is the forward's part that way (the slide
/// along the riser moves the body by the rest).
StepAttempt try_step_up(const geo::LocalScene& scene, const Vec3& feet, Scalar base,
                        const Vec3& motion, Scalar held, const Vec3& riser, Scalar blocker_y,
                        bool rule_out, const Params& p, const Tracer& t);

/// Where a body riding `platform` ends when the platform moved by `shift` this tick: the shift
/// swept and slid like collide-and-slide (max_slide_iterations, skin) against everything but
/// that platform, so a platform sinking into the floor or rising through a solid does not carry
/// its rider into static geometry faster than depenetration undoes it (docs/fuzzing.md). No
/// hit: feet + shift exactly.
Vec3 carry(const geo::LocalScene& scene, const Vec3& feet, const Vec3& shift, geo::ShapeId platform,
           const Params& p);

/// Downward sweep of snap_distance + skin; lands on ground walkable for a grounded body, no
/// further down than max_drop (a body rolling over a ledge's edge may descend snap_distance
/// below the ledge in all, the roll included).
struct Snap {
    bool landed = false;
    Vec3 position;
    Ground ground;
    Scalar drop;
};
/// With `memo`, the cast is remembered there when the body stays where it was (GroundMemo).
Snap snap_to_ground(const geo::LocalScene& scene, const Vec3& feet, Scalar max_drop,
                    const Params& p, const Tracer& t, GroundMemo* memo = nullptr);

} // namespace fx::kcc
