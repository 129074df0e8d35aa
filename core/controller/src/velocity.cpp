// Velocity from input: dead zone, ground acceleration/braking, air control and clamp, jump,
// gravity, facing. KCC-SPEC "Velocity and input".
#include "fx/trig.h"
#include "kcc/solve.h"

namespace fx::kcc {

Vec3 stick_to_direction(Scalar stick_x, Scalar stick_y, Scalar dead_zone) {
    const Vec3 v{stick_x, Scalar{}, stick_y};
    const Scalar m = length(v);
    if (m.raw() == 0 || m < dead_zone) return Vec3::zero();
    const Scalar clamped = min(m, Scalar::one());
    // Remap [dead_zone, 1] onto [0, 1] linearly, keeping the direction: v / m * r.
    const Scalar r = (clamped - dead_zone) / (Scalar::one() - dead_zone);
    return {mul_div(v.x, r, m), Scalar{}, mul_div(v.z, r, m)};
}

Scalar wrap_angle(Scalar a) {
    while (a > kPi) a -= kTwoPi;
    while (a <= -kPi) a += kTwoPi;
    return a;
}

namespace {

/// v moved toward target by at most step (exact arrival when closer).
Vec3 move_toward(const Vec3& v, const Vec3& target, Scalar step) {
    const Vec3 d = target - v;
    const Scalar len = length(d);
    if (len <= step) return target;
    return v + Vec3{mul_div(d.x, step, len), mul_div(d.y, step, len), mul_div(d.z, step, len)};
}

/// v scaled to length limit when longer.
Vec3 clamp_length(const Vec3& v, Scalar limit) {
    const Scalar len = length(v);
    if (len <= limit) return v;
    return {mul_div(v.x, limit, len), mul_div(v.y, limit, len), mul_div(v.z, limit, len)};
}

} // namespace

VelocityUpdate apply_input(const Vec3& velocity, Scalar facing, bool grounded, const Input& in,
                           const Params& p) {
    const Settings& s = p.s;
    VelocityUpdate out;
    const Vec3 dir = stick_to_direction(in.stick_x, in.stick_y, s.dead_zone);
    Vec3 h{velocity.x, Scalar{}, velocity.z};
    Scalar vy = velocity.y;
    if (grounded) {
        // The velocity vector moves straight toward stick * max_speed, independent of the
        // facing. KCC-SPEC turns it at once; stepping toward the target instead is an accepted
        // deviation (docs/conformance.md: snapping the direction made walls sticky). A change
        // that opposes the current motion brakes (releases, turns, reversals); only speeding
        // up along it accelerates.
        const Vec3 target = dir * s.max_speed;
        const bool braking = dot(target - h, h) < Scalar{};
        h = move_toward(h, target, (braking ? s.ground_brake : s.ground_accel) * p.dt);
        vy = Scalar{};
        if (in.jump) {
            vy = s.jump_speed;
            out.jumped = true;
        }
    } else {
        // Air: momentum kept, no braking; input may not raise the speed above the ground maximum
        // (nor above the speed the body already had, e.g. from a knock-back).
        const Scalar before = length(h);
        h += dir * (s.air_accel * p.dt);
        h = clamp_length(h, max(s.max_speed, before));
        vy -= s.gravity * p.dt;
    }
    out.velocity = Vec3{h.x, vy, h.z};
    if (!in.impulse.is_zero()) out.velocity += limit_impulse(in.impulse);
    // An upward impulse lifts the body off the ground like a jump (no snap back down).
    if (grounded && out.velocity.y.raw() > 0) out.jumped = true;

    out.facing = facing;
    if (!dir.is_zero()) {
        const Scalar target = atan2(dir.x, dir.z);
        const Scalar diff = wrap_angle(target - facing);
        if (abs(diff) <= p.turn_per_tick) {
            out.facing = target;
        } else {
            out.facing = wrap_angle(facing + (diff.raw() > 0 ? p.turn_per_tick : -p.turn_per_tick));
        }
    }
    return out;
}

} // namespace fx::kcc
