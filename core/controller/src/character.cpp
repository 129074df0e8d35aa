// One tick of one character, in the order of KCC-SPEC "One tick, in order".
#include <memory>
#include <type_traits>

#include "kcc/motion.h"
#include "kcc/world.h"
#include "trace_events.h"

namespace fx::kcc {

namespace {

/// Faster than kMaxBodySpeedMetresPerSecond: |v|^2 exactly, against 2^88 (4096 m/s squared, in
/// units of 2^-64 m^2/s^2). Every component below 2048 m/s (|v| < 3548 m/s) needs no square.
static_assert(kWorkingVolumeMetres == int64_t{1} << 20, "outside_working_volume (state.h) tests bit 52 of the raw value");

bool beyond_speed_bound(const Vec3& v) {
    using B = wide::Default;
    static_assert(kMaxBodySpeedMetresPerSecond == 4096, "the square below is 4096^2 * 2^64 = 2^88");
    const uint64_t x = wide::uabs(v.x.raw()), y = wide::uabs(v.y.raw()), z = wide::uabs(v.z.raw());
    if (((x | y | z) >> 43) == 0) return false; // 2^43 raw = 2048 m/s
    return B::ucmp(B::add(B::add(B::umul(x, x), B::umul(y, y)), B::umul(z, z)), B::make(uint64_t{1} << 24, 0)) > 0;
}

/// Stops the body for good where it is: airborne, on no platform, flagged.
void halt(CharacterState& state, const Vec3& pos, const Vec3& velocity) {
    state.position = pos;
    state.velocity = velocity;
    state.grounded = false;
    state.ground_normal = Vec3::unit_y();
    state.ground_shape = kNoId;
    state.halted = true;
}

/// Room for a LocalScene, constructed only when needed (std::optional zeroed all ~500 bytes of
/// it on every tick, used or not). Nothing to destroy: a LocalScene is trivially destructible.
union OwnScene {
    OwnScene() {}
    geo::LocalScene scene;
};
static_assert(std::is_trivially_destructible_v<geo::LocalScene>);

} // namespace

geo::Aabb tick_region(const Vec3& feet, const Vec3& velocity, const Params& p) {
    // max(|v|, max_speed, jump_speed); |v| is rooted only when its exact square says it is the
    // largest (a correctly rounded root of at most m^2 is at most m).
    const Scalar floor_speed = p.region_speed;
    const uint64_t m = wide::uabs(floor_speed.raw());
    const bool within = wide::Default::ucmp(length_sq_q64(velocity), wide::Default::umul(m, m)) <= 0;
    // Within: the origin's region moved to the feet (the same sums, exactly: make_params).
    if (within && !p.region_hi.is_zero()) return {feet + p.region_lo, feet + p.region_hi};
    const Scalar speed = within ? floor_speed : max(length(velocity), floor_speed);
    const Scalar reach = speed * p.dt + p.region_margin;
    return capsule_at(feet, p).bounds().expanded(reach);
}

void step_character(const geo::StaticScene& world_scene, const Params& p, CharacterState& state,
                    const Input& input, const Vec3& platform_shift, std::span<const PlatformShift> platforms,
                    std::span<const geo::Body> bodies, TraceObserver* observer, TickCache* cache,
                    const geo::Aabb* known_region) {
    GroundMemo* const memo = cache != nullptr ? &cache->ground : nullptr;
    const Tracer t{observer, state.id};
    trace::tick_begin(t, state);
    state.previous_position = state.position;
    state.previous_facing = state.facing;
    if (state.halted) { // never moved again (settings.h, kWorkingVolumeMetres)
        trace::tick_end(t, state);
        return;
    }
    Vec3 pos = state.position;
    if (!platform_shift.is_zero()) {
        // Swept against the scene (the whole scene: the shift may be long), the platform aside.
        pos = carry(geo::LocalScene(world_scene), pos, platform_shift, state.platform, p);
        trace::platform_carry(t, state.platform, platform_shift, state.position, pos);
    }

    // The shapes near the body, gathered once for the tick's queries (tick_region). A query
    // that reaches further walks the whole scene: same results. The other characters near it
    // are bodies of every query after depenetration's: characters are not pushed out of one
    // another there; the world resolves their overlaps symmetrically after every step.
    // Kept from earlier ticks (a wider region) while this tick's lies inside it (TickCache).
    const geo::Aabb region = known_region != nullptr && platform_shift.is_zero() ? *known_region
                                                                                 : tick_region(pos, state.velocity, p);
    OwnScene own; // built only when the kept one cannot serve
    geo::LocalScene* kept = nullptr;
    if (cache != nullptr && !world_scene.has_kinematic()) {
        std::optional<geo::LocalScene>& c = cache->scene;
        if (!c || &c->scene() != &world_scene || !c->covers(region)) c.emplace(world_scene, region.expanded(kTickRegionPadding));
        if (c->covers(region)) kept = &*c; // (not when the wider region holds too many shapes)
    }
    if (kept == nullptr) std::construct_at(&own.scene, world_scene, region);
    geo::LocalScene& scene = kept != nullptr ? *kept : own.scene;
    scene.set_bodies({}); // depenetration meets no other character

    // An airborne body is not held by a platform it is leaving faster than the platform follows
    // (one it jumped off, rising faster than the jump: Movers).
    const Movers movers{platforms, state.velocity, p.s.tick_rate_hz};
    const Movers* leaving = !state.grounded && !platforms.empty() ? &movers : nullptr;

    // Where the body ended its last tick, unmoved, with only static shapes around (other
    // characters aside: the probe casts against them and merges their hits in): that tick's
    // last downward cast answers this tick's overlap and probe queries (GroundMemo).
    const bool reuse = memo != nullptr && platform_shift.is_zero() && leaving == nullptr &&
                       memo_fits(*memo, scene, capsule_at(pos, p), p);
    if (memo != nullptr) memo->valid = false; // this tick's own cast replaces it (or nothing does)

    // 0. Depenetrate, so every sweep of the tick starts clean.
    const Vec3 push = reuse && memo->clear ? nothing_to_depenetrate(pos, t).push : depenetrate(scene, pos, p, t, leaving).push;
    pos += push;
    scene.set_bodies(bodies); // from here on every query meets the other characters too

    // 1. Ground probe (hysteresis: the stay limit applies to a body that was grounded).
    const Ground g = reuse && push.is_zero() ? probe_from_memo(*memo, scene, pos, p, state.grounded, t)
                                             : probe_ground(scene, pos, p, state.grounded, t, leaving);

    // 2. Velocity from input.
    const VelocityUpdate vu = apply_input(state.velocity, state.run_speed, state.facing, g.grounded, input, p,
                                         cache != nullptr ? &cache->stick : nullptr);
    // A jump off a moving platform takes the platform's velocity with it (this tick's shift per
    // tick), from the next tick on (this tick's share is the carry above): in the platform's
    // frame it is the same jump as off still ground, so a platform rising faster than the jump
    // speed does not swallow it, and one moving sideways does not slide away under the body.
    const bool leaves_platform =
        vu.jumped && g.grounded && state.platform != kNoId && g.shape == state.platform && !platform_shift.is_zero();
    state.facing = vu.facing;
    if (beyond_speed_bound(vu.velocity)) {
        halt(state, pos, vu.velocity);
        trace::tick_end(t, state);
        return;
    }
    const bool on_ground = g.grounded && !vu.jumped;
    trace::velocity(t, vu);

    // 3. Horizontal pass, along the ground plane at full surface speed when grounded.
    Vec3 horizontal{vu.velocity.x, Scalar{}, vu.velocity.z};
    Vec3 motion{horizontal.x * p.dt, Scalar{}, horizontal.z * p.dt}; // (horizontal * dt: y is 0 * dt)
    Scalar step_hold; // what the horizontal pass held back at a riser this tick
    // On an edge (a step's nosing, a ledge) the normal is not the ground's direction: following
    // it at surface speed would slow the body to cos(angle) of its speed on every stair. Over
    // a descending edge the body rolls down it at its full horizontal speed; toward a rising
    // one it moves level and the horizontal pass takes the edge as a step.
    if (on_ground && !g.edge) motion = ground_plane_motion(motion, g.normal);
    // Rolling over a ledge's edge descends no more than snap_distance below the ledge (KCC-SPEC:
    // a drop beyond the snap distance is a fall): the roll and the snap after it together.
    const Scalar lowest = g.support_y + p.s.skin - p.s.snap_distance;
    if (on_ground && g.edge) {
        motion = edge_motion(motion, g.normal);
        motion.y = max(motion.y, min(lowest - pos.y, Scalar{}));
    }
    if (!motion.is_zero()) {
        SlideRequest r;
        r.position = pos;
        r.motion = motion;
        r.velocity = horizontal;
        r.pass = Pass::kHorizontal;
        r.grounded = on_ground;
        r.step_hold = state.step_hold;
        r.rule_out_steps = cache != nullptr; // World::set_reuse_casts
        const SlideResult sr = collide_and_slide(scene, r, p, t);
        step_hold = sr.step_hold;
        pos = sr.position;
        horizontal = Vec3{sr.velocity.x, Scalar{}, sr.velocity.z};
    }

    // 4. Vertical pass: gravity and jump, separately, so slopes never eat gravity.
    Scalar vy = vu.velocity.y;
    SlideResult vertical;
    if (vy.raw() != 0) {
        SlideRequest r;
        r.position = pos;
        r.motion = Vec3{Scalar{}, vy * p.dt, Scalar{}};
        // The whole velocity is clipped by what the vertical motion meets: sliding down a steep
        // surface, the velocity follows the surface (its part into the surface is removed, once),
        // so the body neither leaves the surface in hops nor gains speed that gravity did not give.
        r.velocity = Vec3{horizontal.x, vy, horizontal.z};
        r.pass = Pass::kVertical;
        vertical = collide_and_slide(scene, r, p, t);
        pos = vertical.position;
        vy = vertical.velocity.y;
        horizontal = Vec3{vertical.velocity.x, Scalar{}, vertical.velocity.z};
    }

    // 5. Ground state for the next tick: snap a grounded body down; land an airborne one.
    Ground end;
    if (on_ground) {
        const Scalar max_drop = g.edge ? pos.y - lowest : p.s.snap_distance;
        const Snap sn = snap_to_ground(scene, pos, max_drop, p, t, memo);
        if (sn.landed) {
            pos = sn.position;
            end = sn.ground;
        } else {
            // Nothing to drop onto (or a steep edge in the way of the drop): the body may
            // still be touching ground where it stands.
            end = probe_ground(scene, pos, p, true, t, nullptr, memo);
        }
    } else if (vertical.landed && vertical.moved_after_landing) {
        // The leftover of the fall slid on along the surface it landed on: off a round surface
        // (a capsule's side, a sphere) the tangent plane leads into the air, and the landing
        // said grounded where there was no ground (docs/fuzzing.md). Where the body ends decides.
        end = probe_ground(scene, pos, p, false, t, nullptr, memo);
    } else if (vertical.landed) {
        end.grounded = true;
        end.normal = vertical.landed_normal;
        end.shape = vertical.landed_shape;
        trace::landed(t, end);
    }
    if (end.grounded) vy = Scalar{};

    state.position = pos;
    state.velocity = Vec3{horizontal.x, vy, horizontal.z};
    if (leaves_platform && !end.grounded) state.velocity += platform_velocity(platform_shift, p.s.tick_rate_hz);
    // Landing on a moving platform from the air: from now on the platform carries the body, so
    // its velocity becomes relative to the platform's (a body that jumped off it lands with the
    // platform's velocity it took along, and stands still on it again).
    if (!g.grounded && end.grounded && !platforms.empty()) {
        if (const PlatformShift* pl = find_platform(platforms, end.shape)) {
            const Vec3 pv = platform_velocity(pl->shift, p.s.tick_rate_hz);
            state.velocity.x -= pv.x;
            state.velocity.z -= pv.z;
        }
    }
    // The run speed carries over while the body stays on the ground: a wall or a step that took
    // part of this tick's motion does not slow the next tick's start. A tick that ends in the
    // air (or leaves the ground) carries the speed the body really has.
    const Scalar actual = horizontal_speed(state.velocity, cache != nullptr ? &cache->stick : nullptr);
    state.run_speed = on_ground && end.grounded ? max(vu.run_speed, actual) : actual;
    state.step_hold = end.grounded ? step_hold : Scalar{};
    state.grounded = end.grounded;
    state.ground_normal = end.normal;
    state.ground_shape = end.shape;
    if (outside_working_volume(pos)) halt(state, pos, state.velocity);
    trace::tick_end(t, state);
}

} // namespace fx::kcc
