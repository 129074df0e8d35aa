// One tick of one character, in the order of KCC-SPEC "One tick, in order".
#include "geo/tolerances.h"
#include "kcc/motion.h"
#include "kcc/world.h"
#include "tick_scene.h"
#include "trace_events.h"

namespace fx::kcc {

using detail::TickScene;

namespace {

/// Faster than kMaxBodySpeedMetresPerSecond: |v|^2 exactly, against 2^88 (4096 m/s squared, in
/// units of 2^-64 m^2/s^2). Every component below 2048 m/s (|v| < 3548 m/s) needs no square.
static_assert(kWorkingVolumeMetres == int64_t{1} << 20,
              "outside_working_volume (state.h) tests bit 52 of the raw value");

bool beyond_speed_bound(const Vec3& v) {
    using B = wide::Default;
    static_assert(kMaxBodySpeedMetresPerSecond == 4096, "the square below is 4096^2 * 2^64 = 2^88");
    const uint64_t x = wide::uabs(v.x.raw()), y = wide::uabs(v.y.raw()), z = wide::uabs(v.z.raw());
    if (((x | y | z) >> 43) == 0) return false; // 2^43 raw = 2048 m/s
    return B::ucmp(B::add(B::add(B::umul(x, x), B::umul(y, y)), B::umul(z, z)),
                   B::make(uint64_t{1} << 24, 0)) > 0;
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

} // namespace

geo::Aabb region_at_speed(const Vec3& feet, Scalar speed, const Params& p) {
    const Scalar reach = speed * p.dt + p.region_margin;
    return capsule_at(feet, p).bounds().expanded(reach);
}

geo::Aabb tick_region(const Vec3& feet, const Vec3& velocity, const Params& p) {
    // max(|v|, max_speed, jump_speed); |v| is rooted only when its exact square says it is the
    // largest (a correctly rounded root of at most m^2 is at most m).
    const bool within = wide::Default::ucmp(length_sq_q64(velocity), p.region_speed_sq) <= 0;
    // Within: the origin's region at region_speed moved to the feet (the same sums, exactly:
    // make_params).
    if (within) return {feet + p.region_lo, feet + p.region_hi};
    return region_at_speed(feet, max(length(velocity), p.region_speed), p);
}

namespace {

/// How near the ledge's height a snap's edge contact counts as the same rim (casts stop within
/// kContactTolerance of a surface).
constexpr Scalar kRimTolerance = Scalar::from_raw(geo::kContactTolerance.raw() * 4);

/// Step 3's motion: the velocity's horizontal part for a tick, along the ground plane at full
/// surface speed when grounded on a face. On an edge (a step's nosing, a ledge) the normal is not
/// the ground's direction (following it at surface speed would slow the body to cos(angle) of
/// its speed on every stair): over a descending edge the body rolls down it at its full
/// horizontal speed, no lower than `lowest`; toward a rising one it moves level and the pass
/// takes the edge as a step. *rolling_off: over a descending edge (its tangent plane leads down
/// along the motion).
Vec3 horizontal_motion(const Vec3& horizontal, const Ground& g, bool on_ground, const Vec3& pos,
                       Scalar lowest, const Params& p, bool* rolling_off) {
    Vec3 motion{horizontal.x * p.dt, Scalar{},
                horizontal.z * p.dt}; // (horizontal * dt: y is 0 * dt)
    if (!on_ground) return motion;
    if (!g.edge) return ground_plane_motion(motion, g.normal);
    motion = edge_motion(motion, g.normal);
    *rolling_off = motion.y.raw() < 0;
    motion.y = max(motion.y, min(lowest - pos.y, Scalar{}));
    return motion;
}

/// Step 5: the ground under the body where the tick ends. A grounded body that did not jump
/// snaps down (no further than `max_drop`), or is probed where it stands when there is nothing
/// to drop onto (or a steep edge in the way); an airborne one that landed stands on its landing,
/// unless the leftover of the fall slid it on along the surface (off a round surface the tangent
/// plane leads into the air): then where it ends decides. *pos: moved by the snap.
Ground end_ground(TickScene& scene, Vec3* pos, bool on_ground, Scalar max_drop, const Ground* rim,
                  Scalar lowest_roll, const SlideResult& vertical, const Params& p, const Tracer& t,
                  const Vec3& ground_normal) {
    if (on_ground) {
        const Snap sn = scene.snap(*pos, max_drop, p, t);
        if (!sn.landed) return scene.probe_end(*pos, p, true, t, ground_normal);
        // Rolling off `rim` (an edge), the snap may take the feet down to max_drop onto ground
        // below the ledge, not further down the ledge's own rim than the roll goes, lowest_roll
        // (behaviour 13: a base wider than the ledge is high, snapped down its rim as far, had
        // the floor within the next probe's band on ledges up to probe_skin higher than
        // snap_distance, and walked off them without a fall).
        if (rim != nullptr && sn.ground.edge && sn.position.y < lowest_roll &&
            sn.ground.support_y >= rim->support_y - kRimTolerance) {
            pos->y = min(pos->y, lowest_roll);
            return scene.probe_end(*pos, p, true, t, ground_normal);
        }
        *pos = sn.position;
        return sn.ground;
    }
    if (vertical.landed && vertical.moved_after_landing) return scene.probe_end(*pos, p, false, t);
    Ground end;
    if (vertical.landed) {
        end.grounded = true;
        end.normal = vertical.landed_normal;
        end.shape = vertical.landed_shape;
        trace::landed(t, end);
    }
    return end;
}

} // namespace

void step_character(const geo::StaticScene& world_scene, const Params& p, CharacterState& state,
                    const Input& input, const Vec3& platform_shift,
                    std::span<const PlatformShift> platforms, std::span<const geo::Body> bodies,
                    TraceObserver* observer, TickCache* cache, const geo::Aabb* known_region) {
    const Tracer t{observer, state.id, observer != nullptr ? observer->kinds() : 0};
    trace::tick_begin(t, state);
    state.previous_position = state.position;
    state.previous_facing = state.facing;
    if (state.halted) { // never moved again (settings.h, kWorkingVolumeMetres)
        trace::tick_end(t, state);
        return;
    }
    // Carried by the platform it stood on (KCC-SPEC "Moving platforms"): swept against the whole
    // scene (the shift may be long), the platform aside.
    Vec3 pos = state.position;
    const bool carried = !platform_shift.is_zero();
    if (carried) {
        pos = carry(geo::LocalScene(world_scene), pos, platform_shift, state.platform, p);
        trace::platform_carry(t, state.platform, platform_shift, state.position, pos);
    }
    // The shapes near the body, gathered once for the tick's queries (tick_region; a query that
    // reaches further walks the whole scene: same results). An airborne body is not held by a
    // platform it is leaving faster than the platform follows (one it jumped off: Movers).
    const geo::Aabb region =
        known_region != nullptr && !carried ? *known_region : tick_region(pos, state.velocity, p);
    const Scalar own_rise = (state.velocity.y - p.gravity_step) * p.dt;
    Movers movers{platforms, state.velocity, p.s.tick_rate_hz,
                  own_rise.raw() > 0 ? own_rise : Scalar{}};
    TickScene scene(world_scene, region, cache, carried,
                    !state.grounded && !platforms.empty() ? &movers : nullptr);

    // 0. Depenetrate, so every sweep of the tick starts clean. Characters are not pushed out of
    //    one another here: the world resolves their overlaps symmetrically after every step.
    const Vec3 push = scene.depenetrate(pos, p, t).push;
    pos += push;
    // Pushed out of something (a platform that closed on it by more than its own rise this tick
    // takes it clear of: it has caught up): the body is met, and the probe takes what it finds
    // whatever that rise (Movers::rise; else a platform faster than a jump carried, tick after
    // tick, a body it pushed while the body's rise kept it airborne).
    if (!push.is_zero()) movers.rise = Scalar{};
    scene.meet(bodies, p); // from here on every query meets the other characters near it too

    // 1. Probe the ground (hysteresis: the stay limit applies to a body that was grounded).
    const Ground g = scene.probe(pos, p, state.grounded, t, state.ground_normal);

    // A body that fell onto a moving platform within the probe's band lands here, at the probe
    // (the platform moved first this tick, up to it): its velocity becomes relative to the
    // platform's before the ground rules act on it, as for a landing at the end of the tick
    // (below). Without this it kept its flight velocity as ground speed while the platform also
    // carried it, and skidded on (a jump off a platform moving sideways landed 0.14 m off).
    Vec3 velocity = state.velocity;
    Scalar run_speed = state.run_speed;
    if (!state.grounded && g.grounded && !platforms.empty()) {
        if (const PlatformShift* pl = find_platform(platforms, g.shape)) {
            const Vec3 pv = platform_velocity(pl->shift, p.s.tick_rate_hz);
            velocity.x -= pv.x;
            velocity.z -= pv.z;
            run_speed = horizontal_speed(velocity, nullptr);
        }
    }

    // 2. Velocity from input.
    const VelocityUpdate vu =
        apply_input(velocity, run_speed, state.facing, g.grounded, input, p, scene.stick());
    state.facing = vu.facing;
    if (beyond_speed_bound(vu.velocity)) {
        halt(state, pos, vu.velocity);
        trace::tick_end(t, state);
        return;
    }
    const bool on_ground = g.grounded && !vu.jumped;
    trace::velocity(t, vu);

    // 3. Horizontal pass, along the ground plane at full surface speed when grounded, with
    //    step-up. Rolling over a ledge's edge descends no lower than where the next tick's
    //    probe reaches exactly snap_distance below the ledge (its band, ground_band = skin +
    //    probe_skin, below the feet), so that ground more than snap_distance below the ledge is
    //    never within it (KCC-SPEC: a drop beyond the snap distance is a fall; behaviour 10: the
    //    roll stopped a skin above snap_distance below the ledge, and a floor up to 0.32 m below
    //    was ground). The snap at the end may land the body one skin above ground up to
    //    snap_distance below the ledge (lowest_landing): the roll and the snap together.
    Vec3 horizontal{vu.velocity.x, Scalar{}, vu.velocity.z};
    const Scalar lowest_roll = g.support_y + p.ground_band - p.s.snap_distance;
    const Scalar lowest_landing = g.support_y + p.s.skin - p.s.snap_distance;
    // Rolling off an edge: the motion leads away from it, down its tangent plane. Toward a
    // rising edge (a nosing climbed, its contact low on the round base) the ledge's limits do
    // not apply (behaviour 13: they refused the snap of a wide body perched on a nosing it was
    // climbing back onto it, and it hopped).
    bool rolling_off = false;
    const Vec3 motion =
        horizontal_motion(horizontal, g, on_ground, pos, lowest_roll, p, &rolling_off);
    Scalar step_hold; // what the horizontal pass held back at a riser this tick
    if (!motion.is_zero()) {
        SlideRequest r;
        r.position = pos;
        r.motion = motion;
        r.velocity = horizontal;
        r.pass = Pass::kHorizontal;
        r.grounded = on_ground;
        r.step_hold = state.step_hold;
        r.rule_out_steps = scene.rule_out_steps();
        r.on_edge = on_ground && g.edge;
        r.edge_support_y = g.support_y;
        const SlideResult sr = collide_and_slide(scene.local(), r, p, t);
        step_hold = sr.step_hold;
        pos = sr.position;
        horizontal = Vec3{sr.velocity.x, Scalar{}, sr.velocity.z};
    }

    // 4. Vertical pass: gravity and jump, separately, so slopes never eat gravity. The whole
    //    velocity is clipped by what the vertical motion meets: sliding down a steep surface,
    //    the velocity follows the surface, so the body neither hops off it nor gains speed that
    //    gravity did not give.
    Scalar vy = vu.velocity.y;
    SlideResult vertical;
    if (vy.raw() != 0) {
        SlideRequest r;
        r.position = pos;
        r.motion = Vec3{Scalar{}, vy * p.dt, Scalar{}};
        r.velocity = Vec3{horizontal.x, vy, horizontal.z};
        r.pass = Pass::kVertical;
        vertical = collide_and_slide(scene.local(), r, p, t);
        pos = vertical.position;
        vy = vertical.velocity.y;
        horizontal = Vec3{vertical.velocity.x, Scalar{}, vertical.velocity.z};
    }

    // 5. Snap to the ground, or land.
    const Scalar max_drop = rolling_off ? pos.y - lowest_landing : p.s.snap_distance;
    const Ground end = end_ground(scene, &pos, on_ground, max_drop, rolling_off ? &g : nullptr,
                                  lowest_roll, vertical, p, t, g.normal);
    if (end.grounded) vy = Scalar{};

    state.position = pos;
    state.velocity = Vec3{horizontal.x, vy, horizontal.z};
    // A jump off a moving platform takes the platform's velocity with it (this tick's shift per
    // tick), from the next tick on (this tick's share was the carry): in the platform's frame it
    // is the same jump as off still ground, so a platform rising faster than the jump speed does
    // not swallow it, and one moving sideways does not slide away under the body.
    const bool leaves_platform =
        vu.jumped && g.grounded && state.platform != kNoId && g.shape == state.platform && carried;
    if (leaves_platform && !end.grounded)
        state.velocity += platform_velocity(platform_shift, p.s.tick_rate_hz);
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
    const Scalar actual = horizontal_speed(state.velocity, scene.stick());
    state.run_speed = on_ground && end.grounded ? max(vu.run_speed, actual) : actual;
    state.step_hold = end.grounded ? step_hold : Scalar{};
    state.grounded = end.grounded;
    state.ground_normal = end.normal;
    state.ground_shape = end.shape;
    if (outside_working_volume(pos)) halt(state, pos, state.velocity);
    trace::tick_end(t, state);
}

} // namespace fx::kcc
