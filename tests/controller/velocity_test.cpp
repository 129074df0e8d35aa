// Velocity from input: dead zone, acceleration and braking, air control, jump, facing.
#include "kcc_test_util.h"

#include "kcc/solve.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {
const Params kP = make_params(kDefaults);
}

TEST_CASE("input below the dead zone does nothing, just above it moves slowly", "[velocity]") {
    const VelocityUpdate below = apply_input(Vec3::zero(), Scalar{}, true, stick(0.1L, 0.1L), kP); // |.| 0.141
    CHECK(below.velocity.is_zero());
    // 0.2 on the stick: remapped to (0.2 - 0.15) / 0.85 of max speed, reached after a few ticks.
    Vec3 v;
    for (int i = 0; i < 10; ++i) v = apply_input(v, Scalar{}, true, stick(0.2L, 0), kP).velocity;
    const long double expected = (0.2L - 0.15L) / 0.85L * 6.2L;
    CHECK(hlen(v) == Approx(expected).margin(1e-6));
    CHECK(hlen(v) < 0.5L);
    // Full stick saturates at max speed; over-long sticks are clamped to 1.
    Vec3 full;
    for (int i = 0; i < 20; ++i) full = apply_input(full, Scalar{}, true, stick(1, 1), kP).velocity;
    CHECK(hlen(full) == Approx(6.2L).margin(1e-6));
}

TEST_CASE("ground acceleration reaches max speed at 45 m/s^2", "[velocity]") {
    Vec3 v;
    int ticks = 0;
    while (hlen(v) < 6.2L - 1e-9L && ticks < 100) {
        const long double before = hlen(v);
        v = apply_input(v, Scalar{}, true, stick(0, 1), kP).velocity;
        CHECK(hlen(v) - before <= 45.0L / 50.0L + 1e-6L);
        ++ticks;
    }
    CHECK(ticks == 7); // 6.2 / 0.9 = 6.9
}

TEST_CASE("release at 6.2 m/s stops within 6 ticks at 50 Hz", "[velocity]") {
    Vec3 v{Scalar{}, Scalar{}, kDefaults.max_speed};
    int ticks = 0;
    while (!v.is_zero() && ticks < 50) {
        v = apply_input(v, Scalar{}, true, Input{}, kP).velocity;
        ++ticks;
    }
    CHECK(ticks <= 6); // 120 ms: the complaint was 11 frames at 60 Hz (180 ms)
    CHECK(ticks >= 5); // braking is 60 m/s^2, not instant
}

TEST_CASE("air keeps momentum without braking, gravity pulls", "[velocity]") {
    const Vec3 v0{Scalar::from_int(3), Scalar{}, Scalar{}};
    const VelocityUpdate u = apply_input(v0, Scalar{}, false, Input{}, kP);
    CHECK(u.velocity.x == v0.x);
    CHECK(ld(u.velocity.y) == Approx(-9.81L / 50).margin(1e-9));
    // Air acceleration 12 m/s^2 and the clamp at the ground maximum.
    Vec3 v = v0;
    for (int i = 0; i < 100; ++i) v = apply_input(v, Scalar{}, false, stick(1, 0), kP).velocity;
    CHECK(hlen(v) <= 6.2L + 1e-9L);
    CHECK(hlen(v) == Approx(6.2L).margin(1e-6));
}

TEST_CASE("jump gives 5 m/s up only when grounded", "[velocity]") {
    CHECK(apply_input(Vec3::zero(), Scalar{}, true, stick(0, 0, true), kP).velocity.y == Scalar::from_int(5));
    CHECK(apply_input(Vec3::zero(), Scalar{}, true, stick(0, 0, true), kP).jumped);
    CHECK_FALSE(apply_input(Vec3::zero(), Scalar{}, false, stick(0, 0, true), kP).jumped);
}

TEST_CASE("facing turns at 720 deg/s while velocity turns at once", "[velocity]") {
    // Facing +z (0), stick to +x (pi/2): 14.4 degrees per tick, 7 ticks for 90 degrees.
    Scalar facing;
    Vec3 v{Scalar{}, Scalar{}, kDefaults.max_speed};
    const long double per_tick = 720.0L / 50.0L * 3.14159265358979323846L / 180.0L;
    int ticks = 0;
    while (ld(facing) < ld(fx::kHalfPi) - 1e-9L && ticks < 50) {
        const VelocityUpdate u = apply_input(v, facing, true, stick(1, 0), kP);
        CHECK(ld(u.facing) - ld(facing) <= per_tick + 1e-9L);
        facing = u.facing;
        v = u.velocity;
        ++ticks;
        if (ticks == 1) CHECK(ld(facing) == Approx(per_tick).margin(1e-8));
    }
    CHECK(ticks == 7);
    // The turn goes the short way round: from +x to -z is a right turn of 90 degrees.
    const VelocityUpdate back = apply_input(Vec3::zero(), fx::kHalfPi, true, stick(0, -1), kP);
    CHECK(ld(back.facing) == Approx(ld(fx::kHalfPi) + per_tick).margin(1e-8));
    CHECK(ld(wrap_angle(fx::kPi + fx::kHalfPi)) == Approx(-ld(fx::kHalfPi)).margin(1e-8));
}
