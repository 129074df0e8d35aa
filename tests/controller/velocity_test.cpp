// Velocity from input: dead zone, acceleration and braking, turns at once, the run speed, air
// control, jump, facing. Expected values are derived from KCC-SPEC "Velocity and input".
#include "kcc_test_util.h"

#include "kcc/solve.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {
const Params kP = make_params(kDefaults);
constexpr long double kPiL = 3.14159265358979323846L;

/// What apply_input carries from tick to tick, as step_character keeps it on flat open ground.
struct Motion {
    Vec3 velocity;
    Scalar run_speed;
    Scalar facing;
    VelocityUpdate step(const Input& in, bool grounded = true) {
        const VelocityUpdate u = apply_input(velocity, run_speed, facing, grounded, in, kP);
        velocity = u.velocity;
        run_speed = u.run_speed;
        facing = u.facing;
        return u;
    }
};

Motion running(long double speed, long double heading_deg) {
    const long double a = heading_deg * kPiL / 180.0L;
    Motion m;
    m.velocity = v3(speed * std::sin(a), 0, speed * std::cos(a));
    m.run_speed = sc(speed);
    m.facing = sc(a > kPiL ? a - 2 * kPiL : a);
    return m;
}

/// Angle in degrees of the horizontal velocity from +z toward +x.
long double heading_deg(const Vec3& v) {
    return std::atan2(ld(v.x), ld(v.z)) * 180.0L / kPiL;
}
} // namespace

TEST_CASE("input below the dead zone does nothing, just above it moves slowly", "[velocity]") {
    const VelocityUpdate below =
        apply_input(Vec3::zero(), Scalar{}, Scalar{}, true, stick(0.1L, 0.1L), kP); // |.| 0.141
    CHECK(below.velocity.is_zero());
    // 0.2 on the stick: remapped to (0.2 - 0.15) / 0.85 of max speed, reached after a few ticks.
    Motion m;
    for (int i = 0; i < 10; ++i)
        m.step(stick(0.2L, 0));
    const long double expected = (0.2L - 0.15L) / 0.85L * 6.2L;
    CHECK(hlen(m.velocity) == Approx(expected).margin(1e-6));
    // Full stick saturates at max speed; over-long sticks are clamped to 1.
    Motion full;
    for (int i = 0; i < 20; ++i)
        full.step(stick(1, 1));
    CHECK(hlen(full.velocity) == Approx(6.2L).margin(1e-6));
}

TEST_CASE("a stick exactly on the dead zone is inside it, in every direction",
          "[velocity][deadzone]") {
    // 3-4-5 triangles scaled to a magnitude of exactly 0.15 in decimal, in all four quadrants
    // and both orders: the fixed-point length rounds up to 2 raw units above 0.15.
    const long double pairs[][2] = {{0.09L, 0.12L}, {0.12L, 0.09L}, {0.15L, 0}, {0, 0.15L}};
    for (const auto& pr : pairs) {
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                Motion m;
                m.facing = sc(0.3L);
                const VelocityUpdate u = m.step(stick(sx * pr[0], sy * pr[1]));
                INFO("stick " << sx * pr[0] << ", " << sy * pr[1]);
                CHECK(u.velocity.is_zero());
                CHECK(u.facing == sc(0.3L)); // not turned toward the stick
            }
        }
    }
}

TEST_CASE("a stick whose motion rounds to nothing does not turn the body", "[velocity][deadzone]") {
    // Sticks a few raw units outside the dead zone ask for a speed of ~1e-8 m/s. Where a tick's
    // motion at that speed rounds to no raw unit, the body does not turn; where it is a raw unit
    // or more, it does. Slow settings (0.5 m/s) give both kinds.
    Settings slow = kDefaults;
    slow.max_speed = Scalar::half();
    const Params ps = make_params(slow);
    int still = 0, turned = 0;
    for (int extra = 3; extra < 20000; extra += 1 + extra / 3) {
        const Scalar x = kDefaults.dead_zone + Scalar::from_raw(extra);
        const Input in{x, Scalar{}, false, {}};
        const VelocityUpdate u = apply_input(Vec3::zero(), Scalar{}, sc(-1.0L), true, in, ps);
        const Vec3 asked = stick_to_direction(x, Scalar{}, slow.dead_zone) * slow.max_speed;
        const bool moves = !(asked * ps.dt).is_zero();
        INFO("raw units outside: " << extra);
        CHECK(!u.velocity.is_zero());
        CHECK((u.facing != sc(-1.0L)) == moves);
        (moves ? turned : still) += 1;
    }
    CHECK(still > 0);
    CHECK(turned > 0);
    // A stick that moves the body turns it.
    Motion moving;
    moving.step(stick(0.16L, 0));
    CHECK(ld(moving.facing) > 0);
}

TEST_CASE("ground acceleration reaches max speed at 45 m/s^2", "[velocity]") {
    Motion m;
    int ticks = 0;
    while (hlen(m.velocity) < 6.2L - 1e-9L && ticks < 100) {
        const long double before = hlen(m.velocity);
        m.step(stick(0, 1));
        CHECK(hlen(m.velocity) - before == Approx(std::min(0.9L, 6.2L - before)).margin(1e-8));
        ++ticks;
    }
    CHECK(ticks == 7); // 6.2 / 0.9 = 6.9
}

TEST_CASE("release at 6.2 m/s stops within 6 ticks at 50 Hz", "[velocity]") {
    Motion m = running(6.2L, 0);
    int ticks = 0;
    while (!m.velocity.is_zero() && ticks < 50) {
        const long double before = hlen(m.velocity);
        m.step(Input{});
        CHECK(before - hlen(m.velocity) == Approx(std::min(1.2L, before)).margin(1e-8));
        CHECK(heading_deg(m.velocity) == Approx(0).margin(1e-6)); // straight on while braking
        ++ticks;
    }
    CHECK(ticks == 6); // 6.2 / 1.2 = 5.2: 120 ms; the complaint was 11 frames at 60 Hz (180 ms)
}

TEST_CASE("the velocity turns to the stick direction at once, at every angle", "[velocity][turn]") {
    // KCC-SPEC: the velocity changes direction at once; the speed stays (the stick asks for the
    // same speed), reversals included. Headings and stick angles around the circle.
    for (int from = 0; from < 360; from += 45) {
        for (int turn = 15; turn <= 180; turn += 15) {
            for (int sign = -1; sign <= 1; sign += 2) {
                Motion m = running(6.2L, from);
                const long double to = from + sign * turn;
                const long double a = to * kPiL / 180.0L;
                m.step(stick(std::sin(a), std::cos(a)));
                INFO("from " << from << " turn " << sign * turn);
                CHECK(hlen(m.velocity) == Approx(6.2L).margin(1e-6));
                long double err = heading_deg(m.velocity) - to;
                while (err > 180)
                    err -= 360;
                while (err < -180)
                    err += 360;
                CHECK(std::fabs(err) < 1e-4L);
            }
        }
    }
}

TEST_CASE("a lower stick brakes at 60 m/s^2 toward its speed, a higher one accelerates at 45",
          "[velocity]") {
    Motion m = running(6.2L, 30);
    m.step(stick(0, 0.15L + 0.85L * 0.25L)); // asks for a quarter of max speed, 1.55 m/s
    CHECK(hlen(m.velocity) == Approx(5.0L).margin(1e-6));
    CHECK(heading_deg(m.velocity) == Approx(0).margin(1e-4)); // along the stick at once
    for (int i = 0; i < 3; ++i)
        m.step(stick(0, 0.15L + 0.85L * 0.25L));
    CHECK(hlen(m.velocity) == Approx(1.55L).margin(1e-6));
    m.step(stick(-1, 0));
    CHECK(hlen(m.velocity) == Approx(2.45L).margin(1e-6));
    CHECK(heading_deg(m.velocity) == Approx(-90).margin(1e-4));
}

TEST_CASE("the run speed, not the speed a wall left, is what the next tick starts from",
          "[velocity][turn]") {
    // Along a wall the slide leaves only the stick's component along it (6.2 cos theta); the next
    // tick must start from the run speed again, so the slide speed does not decay tick on tick.
    for (int deg = 10; deg < 90; deg += 10) {
        const long double th = deg * kPiL / 180.0L;
        Motion m = running(6.2L, 0);
        m.velocity = v3(0, 0, 6.2L * std::cos(th)); // what last tick's slide left
        const VelocityUpdate u = m.step(stick(0, 1));
        INFO("wall at " << deg << " degrees");
        CHECK(hlen(u.velocity) == Approx(6.2L).margin(1e-6));
        CHECK(ld(u.run_speed) == Approx(6.2L).margin(1e-6));
    }
    // Released, the body brakes from the speed it has: 2 m/s left by a wall stops in 2 ticks.
    Motion m = running(6.2L, 0);
    m.velocity = v3(0, 0, 2);
    m.step(Input{});
    CHECK(hlen(m.velocity) == Approx(0.8L).margin(1e-6));
    CHECK(ld(m.run_speed) == Approx(0.8L).margin(1e-6));
    m.step(Input{});
    CHECK(m.velocity.is_zero());
    // Faster than the maximum (landed from a knock-back): brakes toward it at 60 m/s^2.
    Motion fast = running(10, 90);
    fast.step(stick(1, 0));
    CHECK(hlen(fast.velocity) == Approx(8.8L).margin(1e-6));
}

TEST_CASE("air keeps momentum without braking, gravity pulls", "[velocity]") {
    Motion m;
    m.velocity = v3(3, 0, 0);
    const VelocityUpdate u = m.step(Input{}, false);
    CHECK(ld(u.velocity.x) == Approx(3.0L).margin(1e-12));
    CHECK(ld(u.velocity.y) == Approx(-9.81L / 50).margin(1e-9));
    CHECK(ld(u.run_speed) == Approx(3.0L).margin(1e-9));
    // Air acceleration 12 m/s^2 and the clamp at the ground maximum.
    for (int i = 0; i < 100; ++i)
        m.step(stick(1, 0), false);
    CHECK(hlen(m.velocity) <= 6.2L + 1e-9L);
    CHECK(hlen(m.velocity) == Approx(6.2L).margin(1e-6));
}

TEST_CASE("jump gives 5 m/s up only when grounded", "[velocity]") {
    CHECK(apply_input(Vec3::zero(), Scalar{}, Scalar{}, true, stick(0, 0, true), kP).velocity.y ==
          Scalar::from_int(5));
    CHECK(apply_input(Vec3::zero(), Scalar{}, Scalar{}, true, stick(0, 0, true), kP).jumped);
    CHECK_FALSE(apply_input(Vec3::zero(), Scalar{}, Scalar{}, false, stick(0, 0, true), kP).jumped);
}

TEST_CASE("facing turns at 720 deg/s while velocity turns at once", "[velocity]") {
    // Facing +z (0), stick to +x (pi/2): 14.4 degrees per tick, 7 ticks for 90 degrees.
    Motion m = running(6.2L, 0);
    const long double per_tick = 720.0L / 50.0L * kPiL / 180.0L;
    int ticks = 0;
    while (ld(m.facing) < ld(fx::kHalfPi) - 1e-9L && ticks < 50) {
        const Scalar before = m.facing;
        m.step(stick(1, 0));
        CHECK(ld(m.facing) - ld(before) <= per_tick + 1e-9L);
        CHECK(heading_deg(m.velocity) == Approx(90).margin(1e-4)); // the velocity already turned
        ++ticks;
        if (ticks == 1) CHECK(ld(m.facing) == Approx(per_tick).margin(1e-8));
    }
    CHECK(ticks == 7);
    // The turn goes the short way round: from +x to -z is a right turn of 90 degrees.
    const VelocityUpdate back =
        apply_input(Vec3::zero(), Scalar{}, fx::kHalfPi, true, stick(0, -1), kP);
    CHECK(ld(back.facing) == Approx(ld(fx::kHalfPi) + per_tick).margin(1e-8));
    CHECK(ld(wrap_angle(fx::kPi + fx::kHalfPi)) == Approx(-ld(fx::kHalfPi)).margin(1e-8));
}
