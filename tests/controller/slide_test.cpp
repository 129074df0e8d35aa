// Collide-and-slide and the multi-plane rule.
#include "kcc_test_util.h"

#include "kcc/solve.h"
#include "test_support.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {
Vec3 unit(long double x, long double y, long double z) {
    return fx::normalize(v3(x, y, z));
}

bool enters_any(const Vec3& m, const Vec3* n, int count) {
    for (int i = 0; i < count; ++i)
        if (fx::dot(m, n[i]) < -kPlaneTolerance) return true;
    return false;
}
} // namespace

TEST_CASE("solve_planes: one plane clips, two planes crease, three stop", "[slide][planes]") {
    const Vec3 wall_x = unit(-1, 0, 0); // wall facing -x
    const Vec3 wall_z = unit(0, 0, -1);
    const Vec3 floor = unit(0, 1, 0);
    const Vec3 motion = v3(1, 0, 0.5L);

    Vec3 one[] = {wall_x};
    PlaneSolve r = solve_planes(motion, one, 1);
    CHECK(r.kind == PlaneSolveKind::kSlide);
    CHECK(ld(r.motion.x) == Approx(0).margin(1e-9));
    CHECK(ld(r.motion.z) == Approx(0.5L).margin(1e-9));

    // Corner: each single projection enters the other wall; the crease is vertical, motion has
    // no vertical part, so it stops.
    Vec3 two[] = {wall_x, wall_z};
    r = solve_planes(v3(1, 0, 1), two, 2);
    CHECK_FALSE(enters_any(r.motion, two, 2));
    CHECK(fx::length(r.motion) < Scalar::ratio(1, 1000000));

    // V-wedge (30 degree opening) with a slight downhill: crease along the wedge's bottom line.
    Vec3 wedge[] = {unit(-std::cos(0.2618L), 0, std::sin(0.2618L)),
                    unit(-std::cos(0.2618L), 0, -std::sin(0.2618L))};
    r = solve_planes(v3(1, -0.5L, 0), wedge, 2);
    CHECK(r.kind == PlaneSolveKind::kCrease);
    CHECK_FALSE(enters_any(r.motion, wedge, 2));
    CHECK(ld(r.motion.y) == Approx(-0.5L).margin(1e-8));

    Vec3 three[] = {wall_x, wall_z, floor};
    r = solve_planes(v3(1, -1, 1), three, 3);
    CHECK(r.kind == PlaneSolveKind::kStop);
    CHECK(r.motion.is_zero());

    // Moving away from every plane is left alone.
    r = solve_planes(v3(-1, 1, -1), three, 3);
    CHECK(r.kind == PlaneSolveKind::kFree);
}

TEST_CASE("solve_planes never enters a touched plane (random planes)", "[slide][planes]") {
    fxtest::Rng rng(42);
    for (int c = 0; c < 2000; ++c) {
        Vec3 n[4];
        const int count = 1 + static_cast<int>(rng.next() % 4);
        for (int i = 0; i < count; ++i) {
            n[i] = fx::normalize(Vec3{Scalar::from_raw(rng.range(-(1LL << 32), 1LL << 32)),
                                      Scalar::from_raw(rng.range(-(1LL << 32), 1LL << 32)),
                                      Scalar::from_raw(rng.range(-(1LL << 32), 1LL << 32))});
        }
        const Vec3 m{Scalar::from_raw(rng.range(-(1LL << 30), 1LL << 30)),
                     Scalar::from_raw(rng.range(-(1LL << 30), 1LL << 30)),
                     Scalar::from_raw(rng.range(-(1LL << 30), 1LL << 30))};
        const PlaneSolve r = solve_planes(m, n, count);
        CHECK_FALSE(enters_any(r.motion, n, count));
        // Never longer than the request.
        CHECK(fx::length(r.motion) <= fx::length(m) + Scalar::from_raw(8));
    }
}

namespace {
/// Runs ticks with `in` and returns the largest position change over the last `tail` ticks.
long double jitter_after(Solo& s, const Input& in, int ticks, int tail) {
    long double worst = 0;
    for (int i = 0; i < ticks; ++i) {
        const Vec3 before = s.st().position;
        s.tick(in);
        if (i >= ticks - tail) worst = std::max(worst, dist(before, s.st().position));
    }
    return worst;
}
} // namespace

TEST_CASE("sliding along a wall hit at 30 degrees keeps the along-wall speed", "[slide]") {
    // Wall: the plane x = 2 (box from x = 2 to 3). Walk at 30 degrees to the wall.
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(2, 0, -50), v3(3, 3, 50));
        },
        v3(0, rest_height(), 0));
    const long double a = 30.0L * 3.14159265358979323846L / 180.0L;
    const Input in = stick(std::sin(a), std::cos(a)); // 30 degrees from the wall direction (+z)
    for (int i = 0; i < 40; ++i)
        s.tick(in); // reach the wall at full speed
    const long double wall_limit = 2.0L - ld(kDefaults.radius);
    const long double along = 6.2L * std::cos(a) / 50.0L;
    for (int i = 0; i < 20; ++i) {
        const Vec3 before = s.st().position;
        s.tick(in);
        const Vec3 after = s.st().position;
        CHECK(ld(after.z - before.z) == Approx(along).margin(1e-4));
        CHECK(ld(after.x) <= wall_limit);
        CHECK(ld(after.x) >= wall_limit - 0.02L); // pressed against it, within the skin
        CHECK(s.st().grounded);
    }
}

TEST_CASE("a 90 degree corner stops the body without jitter", "[slide]") {
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(2, 0, -5), v3(3, 3, 5)); // +x wall
            add_aabb(w, 3, v3(-5, 0, 2), v3(3, 3, 3)); // +z wall
        },
        v3(0, rest_height(), 0));
    CHECK(jitter_after(s, stick(0.7L, 0.7L), 80, 20) < 1e-6L);
    CHECK(ld(s.st().position.x) <= 2 - 0.4L);
    CHECK(ld(s.st().position.z) <= 2 - 0.4L);
    CHECK(ld(s.st().position.x) > 2 - 0.4L - 0.03L); // it did reach the corner
}

TEST_CASE("a 30 degree V-wedge stops the body without jitter", "[slide]") {
    // Two thin walls meeting at (3, 0) along +x, opening 30 degrees toward -x.
    Solo s(
        [](World& w) {
            add_floor(w);
            for (int k = 0; k < 2; ++k) {
                const int yaw = k == 0 ? 15 : -15;
                // Ry(yaw) maps local +x to (cos, 0, -sin yaw): the wall runs from the apex back
                // toward -x, at z = +-t sin 15; its centre is 2 m back from the apex.
                const long double a = 15.0L * 3.14159265358979323846L / 180.0L;
                const Vec3 c = v3(3 - 2 * std::cos(a), 1.5L, (k == 0 ? 2 : -2) * std::sin(a));
                w.scene().add_box(static_cast<fx::geo::ShapeId>(2 + k),
                                  fx::geo::Box::from_yaw_pitch_roll_degrees(c, v3(2, 1.5L, 0.05L),
                                                                            Scalar::from_int(yaw),
                                                                            Scalar{}, Scalar{}));
            }
        },
        v3(0, rest_height(), 0));
    CHECK(jitter_after(s, stick(1, 0), 80, 20) < 1e-6L);
    CHECK(ld(s.st().position.x) < 3);
    CHECK(ld(s.st().position.x) > 1); // it went into the wedge
}

TEST_CASE("a door frame narrower than the capsule blocks cleanly", "[slide]") {
    // Two posts leaving a 0.7 m gap (capsule diameter 0.8) centred on the path.
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(3, 0, -2), v3(3.2L, 3, -0.35L));
            add_aabb(w, 3, v3(3, 0, 0.35L), v3(3.2L, 3, 2));
        },
        v3(0, rest_height(), 0));
    CHECK(jitter_after(s, stick(1, 0), 80, 20) < 1e-6L);
    CHECK(ld(s.st().position.x) < 3);
    // The two posts' edges are met one at a time (contact order), each keeping one skin along
    // its own normal: the body stops in the gap within 0.03 mm of its centre line, not pushed
    // aside through either post.
    CHECK(ld(s.st().position.z) == Approx(0).margin(1e-4));
}

TEST_CASE("three planes stop the body", "[slide]") {
    // A corner of two walls and a sloped roof: jump into it and keep pushing.
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(1, 0, -5), v3(2, 5, 5));
            add_aabb(w, 3, v3(-5, 0, 1), v3(2, 5, 2));
            add_aabb(w, 4, v3(-5, 2.0L, -5), v3(2, 3, 2));
        },
        v3(0, rest_height(), 0));
    // One jump into the corner under the roof (walls and roof touched in the same ticks), then
    // keep pushing: the body comes to rest and never passes any of the three.
    for (int i = 0; i < 40; ++i) {
        s.tick(stick(0.7L, 0.7L, i == 0));
        CHECK(ld(s.st().position.y) + 1.8L <= 2.0L);
        CHECK(ld(s.st().position.x) <= 1 - 0.4L);
        CHECK(ld(s.st().position.z) <= 1 - 0.4L);
    }
    CHECK(jitter_after(s, stick(0.7L, 0.7L), 40, 20) < 1e-6L);
}

TEST_CASE("a capsule spawned 1 m deep in a box comes out at no more than 0.2 m per tick",
          "[depenetration]") {
    // Box 4 m wide, 4 m deep; body 1 m inside its +x face, standing on the floor.
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(-4, 0, -2), v3(0, 3, 2));
        },
        v3(-0.6L, rest_height(), 0)); // capsule spans x in [-1, -0.2]: 1 m past the face
    int ticks = 0;
    while (ld(s.st().position.x) < 0.4L - 1e-6L && ticks < 50) {
        const Vec3 before = s.st().position;
        s.tick(Input{});
        CHECK(dist(before, s.st().position) <= 0.2L + 1e-6L);
        ++ticks;
    }
    CHECK(ticks >= 5); // 1 m at 0.2 m per tick
    CHECK(ticks <= 7);
    CHECK(ld(s.st().position.x) >= 0.4L - 1e-6L);
}

namespace {

/// A floor (top y = 0) and a 0.3 m step whose riser, at x = 0.5, faces -x.
void build_step_scene(fx::geo::StaticScene& s) {
    s.add_box(1, fx::geo::Box{v3(0, -0.5L, 0), v3(20, 0.5L, 20), fx::Mat3::identity()});
    s.add_box(2, fx::geo::Box{v3(2, 0.15L, 0), v3(1.5L, 0.15L, 3), fx::Mat3::identity()});
    std::string error;
    REQUIRE(s.build(&error));
}

} // namespace

TEST_CASE("a step-up is not stopped by a character it moves away from but is by one in its way",
          "[slide][step][characters]") {
    // try_step_up answers "blocked" from the other characters alone when one of them resists the
    // raised forward motion, before it sweeps the scene's shapes. A character the stepping body
    // touches but moves away from (behind it, at every overlap below the deep one) must not stop
    // it; one on the step in front must, at every distance within the forward's reach.
    fx::geo::StaticScene s;
    build_step_scene(s);
    const Params p = make_params(kDefaults);
    const long double r = ld(kDefaults.radius), skin = ld(kDefaults.skin);
    const Vec3 feet = v3(0.5L - r - skin, skin, 0);
    const auto body_at = [&](long double x, long double y, long double z) {
        return fx::geo::Body::of(capsule_at(v3(x, y, z), p));
    };
    const auto attempt = [&](const std::vector<fx::geo::Body>& bodies, const Vec3& motion) {
        fx::geo::LocalScene local(s, fx::geo::Aabb{v3(-4, -1, -4), v3(4, 4, 4)});
        local.set_bodies(bodies);
        return try_step_up(local, feet, feet.y - p.s.skin, motion, Scalar{}, -Vec3::unit_x(),
                           sc(0.3L), false, p, Tracer{});
    };
    for (const long double forward : {0.12L, 0.2L, 0.35L}) { // at least step_min_forward (0.1 m)
        INFO("forward " << static_cast<double>(forward));
        const Vec3 motion = v3(forward, 0, 0);
        const StepAttempt alone = attempt({}, motion);
        REQUIRE(alone.result == StepResult::kAccepted);
        for (const long double overlap : {0.0L, 0.001L, 0.05L, 0.2L}) {
            for (const long double side : {0.0L, 0.3L}) { // straight behind, and behind to one side
                INFO("behind, overlap " << static_cast<double>(overlap) << ", side "
                                        << static_cast<double>(side));
                const long double back =
                    std::sqrt((2 * r - overlap) * (2 * r - overlap) - side * side);
                const StepAttempt a = attempt({body_at(ld(feet.x) - back, skin, side)}, motion);
                CHECK(a.result == alone.result);
                CHECK(a.position == alone.position);
            }
        }
        for (const long double gap : {0.0L, 0.5L, 1.0L}) { // on the step, the forward reaching it
            INFO("in front, gap " << static_cast<double>(gap));
            const long double ahead = 2 * r + gap * (forward + skin);
            CHECK(attempt({body_at(ld(feet.x) + ahead, 0.3L + skin, 0)}, motion).result ==
                  StepResult::kBlocked);
        }
    }
}

TEST_CASE("motion held back at a riser approached at an angle is its part into the riser",
          "[slide][step]") {
    // A body held at a riser (its forward too short to stand on the step) slides along the riser
    // by the rest of its motion in the same pass; only the part into the riser is held, and it is
    // added straight into the riser at the next attempt. Holding the whole length moved the body
    // along the riser twice (behaviour 16: up to 0.34 m more sideways over six risers at 25 deg).
    fx::geo::StaticScene s;
    build_step_scene(s);
    const Params p = make_params(kDefaults);
    const long double r = ld(kDefaults.radius), skin = ld(kDefaults.skin);
    const Vec3 feet = v3(0.5L - r - skin, skin, 0);
    const Vec3 riser = -Vec3::unit_x(); // the step's face at x = 0.5 faces -x
    fx::geo::LocalScene local(s, fx::geo::Aabb{v3(-4, -1, -4), v3(4, 4, 4)});
    const auto attempt = [&](const Vec3& motion, Scalar held) {
        return try_step_up(local, feet, feet.y - p.s.skin, motion, held, riser, sc(0.3L), false, p,
                           Tracer{});
    };
    for (const int deg : {0, 10, 25, 40}) {
        INFO("angle " << deg);
        const long double a = deg * 3.14159265358979323846L / 180;
        const long double len = 0.06L; // under step_min_forward (0.1 m): held
        const Vec3 motion = v3(len * std::cos(a), 0, len * std::sin(a));
        const StepAttempt first = attempt(motion, Scalar{});
        REQUIRE(first.result == StepResult::kHeld);
        CHECK(ld(first.held) == Approx(len * std::cos(a)).margin(1e-8L));
        // The next tick's motion with it: the step is taken by the forward plus the held part
        // straight into the riser; sideways, the body moves by this tick's motion alone.
        const StepAttempt next = attempt(motion, first.held);
        REQUIRE(next.result == StepResult::kAccepted);
        CHECK(ld(next.position.z) == Approx(ld(feet.z) + len * std::sin(a)).margin(1e-6L));
        CHECK(ld(next.position.x) == Approx(ld(feet.x) + 2 * len * std::cos(a)).margin(1e-6L));
    }
}
