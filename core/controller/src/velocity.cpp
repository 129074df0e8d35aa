// Velocity from input: dead zone, ground acceleration/braking, air control and clamp, jump,
// gravity, facing. KCC-SPEC "Velocity and input".
#include "fx/trig.h"
#include "kcc/solve.h"

namespace fx::kcc {

Vec3 stick_to_direction(Scalar stick_x, Scalar stick_y, Scalar dead_zone) {
    const Vec3 v{stick_x, Scalar{}, stick_y};
    const Scalar m = length(v);
    // A stick whose decimal magnitude is exactly the dead zone, e.g. (0.09, 0.12), can come out
    // up to 2 raw units above it (each component and the length are rounded): still inside.
    if (m.raw() == 0 || m <= dead_zone + Scalar::from_raw(kDeadZoneRounding)) return Vec3::zero();
    const Scalar clamped = min(m, Scalar::one());
    // Remap [dead_zone, 1] onto [0, 1] linearly, keeping the direction: v / m * r.
    const Scalar r = (clamped - dead_zone) / (Scalar::one() - dead_zone);
    return {mul_div(v.x, r, m), Scalar{}, mul_div(v.z, r, m)};
}

Scalar wrap_angle(Scalar a) {
    while (a > kPi)
        a -= kTwoPi;
    while (a <= -kPi)
        a += kTwoPi;
    return a;
}

namespace {

/// v scaled to length limit when longer.
Vec3 clamp_length(const Vec3& v, Scalar limit) {
    const Scalar len = length(v);
    if (len <= limit) return v;
    return mul_div(v, limit, len); // (len > limit >= 0)
}

/// d (horizontal, length len > 0) scaled to length speed.
Vec3 with_length(const Vec3& d, Scalar len, Scalar speed) {
    return {mul_div(d.x, speed, len), Scalar{}, mul_div(d.z, speed, len)};
}

} // namespace

namespace {

/// length(h) of a horizontal h (y 0), through memo's flat entry (null: computed).
Scalar flat_length(const Vec3& h, StickMemo* memo) {
    if (memo == nullptr) return length(h);
    if (memo->has_flat && h.x == memo->flat.x && h.z == memo->flat.z) return memo->flat_length;
    memo->flat = h;
    memo->flat_length = length(h);
    memo->has_flat = true;
    return memo->flat_length;
}

} // namespace

Scalar horizontal_speed(const Vec3& v, StickMemo* memo) {
    if (memo != nullptr && memo->valid && memo->has_run && v.x == memo->run.x && v.z == memo->run.z)
        return memo->run_length;
    return flat_length(Vec3{v.x, Scalar{}, v.z}, memo);
}

VelocityUpdate apply_input(const Vec3& velocity, Scalar run_speed, Scalar facing, bool grounded,
                           const Input& in, const Params& p, StickMemo* memo) {
    if (memo == nullptr) { // a memo of this call alone (built only here: it is not small)
        StickMemo local;
        return apply_input(velocity, run_speed, facing, grounded, in, p, &local);
    }
    const Settings& s = p.s;
    VelocityUpdate out;
    StickMemo& m = *memo;
    if (!m.valid || m.stick_x != in.stick_x || m.stick_y != in.stick_y ||
        m.dead_zone != s.dead_zone) {
        m.valid = true;
        m.stick_x = in.stick_x;
        m.stick_y = in.stick_y;
        m.dead_zone = s.dead_zone;
        m.dir = stick_to_direction(in.stick_x, in.stick_y, s.dead_zone);
        m.dir_len = length(m.dir);
        m.has_heading = false;
        m.has_run = false;
    }
    const Vec3 dir = m.dir;
    const Scalar dir_len = m.dir_len;
    Vec3 h{velocity.x, Scalar{}, velocity.z};
    Scalar vy = velocity.y;
    if (grounded) {
        // KCC-SPEC: the velocity changes direction at once; its speed moves toward
        // |stick| * max_speed at the accel rate, or the brake rate when the stick asks for less.
        // The speed that carries over is the run speed, not the speed the last slide left: along
        // a wall the slide removes the part into the wall every tick, and accelerating again
        // from that clipped speed would settle far below the stick's component along the wall
        // (1.35 m/s instead of 3.7 at 53 degrees). Released, the body brakes from the speed it
        // really has.
        if (dir.is_zero() || dir_len.raw() == 0) {
            const Scalar actual = length(h);
            const Scalar speed = max(actual - p.brake_step, Scalar{});
            h = actual.raw() == 0 ? Vec3::zero() : with_length(h, actual, speed);
            out.run_speed = speed;
        } else {
            const Scalar target = min(dir_len, Scalar::one()) * s.max_speed;
            const Scalar from = run_speed;
            const Scalar speed = target >= from ? min(target, from + p.accel_step)
                                                : max(target, from - p.brake_step);
            if (!m.has_run || m.run_speed != speed) { // at a steady speed: the last tick's
                m.run = with_length(dir, dir_len, speed);
                m.run_length = length(m.run);
                m.run_speed = speed;
                m.has_run = true;
            }
            h = m.run;
            out.run_speed = speed;
        }
        vy = Scalar{};
        if (in.jump) {
            vy = s.jump_speed;
            out.jumped = true;
        }
    } else {
        // Air: momentum kept, no braking; input may not raise the speed above the ground maximum
        // (nor above the speed the body already had, e.g. from a knock-back).
        const Scalar actual = flat_length(h, memo);
        h += dir * p.air_accel_step;
        const Scalar limit = max(s.max_speed, actual);
        const Scalar len = flat_length(h, memo);
        if (len > limit) h = mul_div(h, limit, len); // clamp_length(h, limit)
        vy -= p.gravity_step;
        out.run_speed = len > limit ? flat_length(h, memo) : len;
    }
    out.velocity = Vec3{h.x, vy, h.z};
    if (!in.impulse.is_zero()) out.velocity += limit_impulse(in.impulse);
    // An upward impulse lifts the body off the ground like a jump (no snap back down).
    if (grounded && out.velocity.y.raw() > 0) out.jumped = true;

    // The facing turns toward the stick, unless what the stick asks for rounds to no motion in a
    // tick (a stick a hair outside the dead zone): a body that cannot move does not turn.
    out.facing = facing;
    if (!dir.is_zero() && (dir_len * s.max_speed * p.dt).raw() != 0) {
        if (!m.has_heading) {
            m.heading = atan2(dir.x, dir.z);
            m.has_heading = true;
        }
        const Scalar target = m.heading;
        const Scalar diff = wrap_angle(target - facing);
        if (abs(diff) <= p.turn_per_tick) {
            out.facing = target;
        } else {
            out.facing = wrap_angle(facing + (diff.raw() > 0 ? p.turn_per_tick : -p.turn_per_tick));
        }
    }
    return out;
}

Vec3 keep_air_clamp(const Vec3& velocity, const Vec3& before, Scalar max_speed) {
    const Vec3 h = clamp_length(Vec3{velocity.x, Scalar{}, velocity.z},
                                max(max_speed, length(Vec3{before.x, Scalar{}, before.z})));
    return {h.x, velocity.y, h.z};
}

} // namespace fx::kcc
