// Ground probe, slopes, edges, snap and steps.
#include "kcc_test_util.h"

using namespace kcctest;
using namespace fx::kcc;

TEST_CASE("standing with the centre 3-4 cm past a ledge stays grounded", "[ground]") {
    Solo s(
        [](World& w) {
            add_floor(w, 1, Scalar::from_int(-5));
            add_aabb(w, 2, v3(-5, -1, -5), v3(0, 0, 5)); // ledge edge at x = 0
        },
        v3(0.035L, rest_height(), 0));
    for (int i = 0; i < 50; ++i) {
        s.tick(Input{});
        CHECK(s.st().grounded);
    }
    CHECK(ld(s.st().position.y) > -0.01L); // did not drop off
}

namespace {
/// Flat floor at y = 0 and a slope of `deg` rising toward +x from x = 1.
void floor_and_slope(World& w, int deg) {
    add_floor(w);
    const Vec3 n = slope_normal(deg);
    const Scalar hy = Scalar::one();
    const Vec3 p = v3(1, 0, 0);
    w.scene().add_box(2, fx::geo::Box::from_yaw_pitch_roll_degrees(
                             p - n * hy, v3(20, 1, 20), Scalar{}, Scalar{}, Scalar::from_int(deg)));
}
} // namespace

TEST_CASE("a 56 degree slope keeps a body that walks onto it grounded", "[ground][slope]") {
    Solo s([](World& w) { floor_and_slope(w, 56); }, v3(0, rest_height(), 0));
    s.settle();
    for (int i = 0; i < 25; ++i) {
        s.tick(stick(1, 0));
        CHECK(s.st().grounded);
    }
    CHECK(ld(s.st().position.y) > 0.5L); // it climbed
}

TEST_CASE("a 56 degree slope does not ground a body landing on it from the air",
          "[ground][slope]") {
    Solo s([](World& w) { add_slope_plane(w, 2, 56); }, feet_on_slope(56, 0) + v3(0, 0.5L, 0));
    for (int i = 0; i < 40; ++i) {
        s.tick(Input{});
        CHECK_FALSE(s.st().grounded);
    }
    CHECK(ld(s.st().position.y) < 0); // it slid down
}

TEST_CASE("a 59 degree slope never grounds", "[ground][slope]") {
    Solo s([](World& w) { add_slope_plane(w, 2, 59); }, feet_on_slope(59, 0));
    s.mut().grounded = true; // even a body that was grounded may not stay on it
    for (int i = 0; i < 30; ++i) {
        s.tick(stick(1, 0));
        CHECK_FALSE(s.st().grounded);
    }
}

TEST_CASE("surface speed on 10, 30 and 50 degree slopes equals flat speed", "[ground][slope]") {
    for (int deg : {10, 30, 50}) {
        for (long double dir : {1.0L, -1.0L}) {
            Solo s([deg](World& w) { add_slope_plane(w, 2, deg); }, feet_on_slope(deg, 0));
            s.mut().grounded = true;
            s.mut().velocity = Vec3{sc(6.2L * dir), Scalar{}, Scalar{}};
            s.mut().run_speed = sc(6.2L);
            s.tick(stick(dir, 0)); // the first tick settles the spawn onto the skin gap
            for (int i = 0; i < 10; ++i) {
                const Vec3 before = s.st().position;
                s.tick(stick(dir, 0));
                INFO("slope " << deg << " dir " << dir << " tick " << i);
                CHECK(s.st().grounded);
                CHECK(dist(before, s.st().position) == Approx(6.2L / 50).margin(1e-5));
            }
        }
    }
}

TEST_CASE("a 60 degree slope slides the body down", "[ground][slope]") {
    Solo s([](World& w) { add_slope_plane(w, 2, 60); }, feet_on_slope(60, 0));
    long double last_y = ld(s.st().position.y);
    for (int i = 0; i < 30; ++i) {
        s.tick(Input{});
        CHECK_FALSE(s.st().grounded);
        CHECK(ld(s.st().position.y) <= last_y);
        last_y = ld(s.st().position.y);
    }
    CHECK(last_y < -0.5L);
    CHECK(ld(s.st().position.x) < -0.2L); // down the slope, not straight through it
}

TEST_CASE("walking down a 30 degree slope never leaves the ground", "[ground][slope][snap]") {
    Solo s([](World& w) { add_slope_plane(w, 2, 30); }, feet_on_slope(30, 0));
    s.mut().grounded = true;
    for (int i = 0; i < 60; ++i) {
        s.tick(stick(-1, 0)); // downhill
        CHECK(s.st().grounded);
    }
}

namespace {
/// Stairs going down toward +x: step k spans x in [k*run, (k+1)*run) with top at -k*rise.
void stairs_down(World& w, long double rise, long double run, int count) {
    for (int k = 0; k < count; ++k) {
        add_aabb(w, static_cast<fx::geo::ShapeId>(10 + k), v3(k * run, -k * rise - 5, -3),
                 v3((k + 1) * run, -k * rise, 3));
    }
    add_aabb(w, 9, v3(-5, -5, -3), v3(0, 0, 3));
}
/// Floor, and a step of `h` from x = 2 on.
void step_level(World& w, long double h) {
    add_floor(w);
    add_aabb(w, 2, v3(2, 0, -3), v3(30, h, 3));
}
/// Runs at full speed toward +x for `ticks` from a running start and returns the distance.
long double run_distance(Solo& s, int ticks) {
    s.mut().velocity = Vec3{kDefaults.max_speed, Scalar{}, Scalar{}};
    s.mut().run_speed = kDefaults.max_speed;
    const Vec3 start = s.st().position;
    for (int i = 0; i < ticks; ++i)
        s.tick(stick(1, 0));
    return ld(s.st().position.x - start.x);
}
} // namespace

TEST_CASE("walking down stairs never leaves the ground", "[ground][snap][step]") {
    Solo s([](World& w) { stairs_down(w, 0.15L, 0.3L, 24); },
           v3(-1, rest_height(), 0)); // 7.2 m of stairs: 45 ticks at 6.2 m/s stay on them
    s.settle();
    for (int i = 0; i < 45; ++i) {
        s.tick(stick(1, 0));
        CHECK(s.st().grounded);
    }
    CHECK(ld(s.st().position.y) < -1.0L); // went down several steps
}

TEST_CASE("walking up 0.2 m stairs never leaves the ground", "[ground][snap][step]") {
    // Regression: the snap sweep used to stop at its first hit, the steep front edge of the next
    // step 1-2 mm above the walkable edge of the current one, and left the body airborne.
    Solo s(
        [](World& w) {
            add_floor(w);
            for (int k = 0; k < 8; ++k) {
                add_aabb(w, static_cast<fx::geo::ShapeId>(10 + k), v3(2 + k * 0.3L, 0, -3),
                         v3(30, (k + 1) * 0.2L, 3));
            }
        },
        v3(0, rest_height(), 0));
    s.settle();
    for (int i = 0; i < 60; ++i) {
        s.tick(stick(1, 0));
        INFO("tick " << i << " x " << ld(s.st().position.x) << " y " << ld(s.st().position.y));
        CHECK(s.st().grounded);
    }
    CHECK(ld(s.st().position.y) == Approx(1.6L + rest_height()).margin(0.01)); // at the top
}

TEST_CASE("a body pushed into contact with a wall stays grounded", "[ground][snap]") {
    // Regression: depenetration left the body exactly touching the wall (behaviour 11 and
    // before); the wall then was the snap sweep's first hit (a start overlap, not walkable), so a
    // body standing on flat floor was reported airborne. Since behaviour 12 it ends a skin from
    // the wall (docs/controller.md, step 1), and stays grounded either way.
    Solo s(
        [](World& w) {
            add_floor(w);
            add_aabb(w, 2, v3(1, 0, -3), v3(2, 2, 3));
        },
        v3(0.65L, rest_height(), 0)); // 5 cm into the wall
    for (int i = 0; i < 20; ++i) {
        s.tick(fx::kcc::Input{});
        if (i >= 2) {
            INFO("tick " << i << " x " << ld(s.st().position.x));
            CHECK(s.st().grounded);
            CHECK(s.st().ground_shape == 1u);
        }
    }
    CHECK(ld(s.st().position.x) == Approx(0.6L - 0.015L).margin(1e-6)); // out, one skin clear
}

TEST_CASE("a 0.2 m step is climbed without losing more than 10% speed", "[step]") {
    Solo flat([](World& w) { add_floor(w); }, v3(0, rest_height(), 0));
    Solo stepped([](World& w) { step_level(w, 0.2L); }, v3(0, rest_height(), 0));
    const long double d_flat = run_distance(flat, 50);
    const long double d_step = run_distance(stepped, 50);
    CHECK(ld(stepped.st().position.y) == Approx(0.2L + rest_height()).margin(0.01));
    CHECK(d_step >= 0.9L * d_flat);
    CHECK(hlen(stepped.st().velocity) >= 0.9L * 6.2L);
}

TEST_CASE("a 0.35 m step is climbed, 0.36 m and 0.4 m block", "[step]") {
    for (long double h : {0.35L, 0.36L, 0.4L}) {
        Solo s([h](World& w) { step_level(w, h); }, v3(0, rest_height(), 0));
        run_distance(s, 50);
        INFO("step " << h);
        if (h <= 0.35L) {
            CHECK(ld(s.st().position.x) > 3);
            CHECK(ld(s.st().position.y) == Approx(h + rest_height()).margin(0.01));
        } else {
            CHECK(ld(s.st().position.x) < 2);
            CHECK(ld(s.st().position.y) < 0.1L);
        }
    }
}

TEST_CASE("a low ceiling cancels a step", "[step]") {
    // A 0.2 m step under a ceiling 2.0 m above the floor: raising the body 0.35 m hits it.
    Solo s(
        [](World& w) {
            step_level(w, 0.2L);
            add_aabb(w, 3, v3(-5, 2.0L, -3), v3(6, 3, 3));
        },
        v3(0, rest_height(), 0));
    struct Count : TraceObserver {
        int ceiling = 0;
        void on_event(const TraceEvent& e) override {
            if (e.kind == TraceKind::kStepAttempt &&
                e.reason == static_cast<uint8_t>(StepResult::kCeiling))
                ++ceiling;
        }
    } count;
    s.mut().velocity = Vec3{kDefaults.max_speed, Scalar{}, Scalar{}};
    s.mut().run_speed = kDefaults.max_speed;
    for (int i = 0; i < 50; ++i)
        s.tick(stick(1, 0), &count);
    CHECK(ld(s.st().position.y) + 1.8L <= 2.0L);
    CHECK(ld(s.st().position.y) < 0.2L); // not on the step
    CHECK(count.ceiling > 0); // because the step attempts hit the ceiling
}

TEST_CASE("no step-up in the air", "[step]") {
    // Jumping into the face of a 0.3 m step: no step attempt while airborne (the probe of the
    // tick said airborne), only after landing.
    Solo s([](World& w) { step_level(w, 0.3L); }, v3(1.5L, rest_height(), 0));
    struct Count : TraceObserver {
        bool airborne = false;
        int airborne_attempts = 0;
        int airborne_ticks = 0;
        void on_event(const TraceEvent& e) override {
            if (e.kind == TraceKind::kProbe) {
                airborne = !e.flag;
                if (airborne) ++airborne_ticks;
            }
            if (e.kind == TraceKind::kStepAttempt && airborne) ++airborne_attempts;
        }
    } count;
    s.settle();
    s.tick(stick(1, 0, true), &count);
    for (int i = 0; i < 10; ++i)
        s.tick(stick(1, 0), &count);
    CHECK(count.airborne_ticks >= 5);
    CHECK(count.airborne_attempts == 0);
}

TEST_CASE("select_snap: side contacts are ignored, a steep edge blocks only what lies past it",
          "[snap]") {
    const fx::kcc::Params p = fx::kcc::make_params(kDefaults);
    auto hit = [](long double d, const Vec3& n, fx::geo::ShapeId id, bool start = false) {
        fx::geo::Hit h;
        h.distance = sc(d);
        h.normal = n;
        h.shape = id;
        h.start_overlap = start;
        return h;
    };
    const Vec3 up = Vec3::unit_y();
    const Vec3 wall = Vec3::unit_x();
    const Vec3 edge =
        fx::normalize(v3(-1, 0.3L, 0)); // steep, faces up a little: opposes moving down
    // A wall touched at the side comes first; the floor below is still the landing.
    const fx::geo::Hit a[] = {hit(0, wall, 2, true), hit(0.1L, up, 1)};
    fx::kcc::SnapLanding l = fx::kcc::select_snap(a, p);
    CHECK(l.landed);
    CHECK(l.ground.shape == 1u);
    CHECK(l.drop == sc(0.1L) - kDefaults.skin);
    // A steep edge 1.3 mm above a walkable one: the body stops a skin short of the walkable
    // one, not past the steep one.
    const fx::geo::Hit b[] = {hit(0.0500L, edge, 11), hit(0.0513L, up, 10)};
    l = fx::kcc::select_snap(b, p);
    CHECK(l.landed);
    CHECK(l.ground.shape == 10u);
    // A steep surface 10 cm above the ground blocks the snap.
    const fx::geo::Hit c[] = {hit(0.05L, edge, 11), hit(0.25L, up, 10)};
    CHECK_FALSE(fx::kcc::select_snap(c, p).landed);
    // Already touching walkable ground (where a depenetration ends): lifted to one skin above it.
    const fx::geo::Hit d[] = {hit(0, up, 1, true)};
    l = fx::kcc::select_snap(d, p);
    CHECK(l.landed);
    CHECK(l.drop == -kDefaults.skin);
    // Inside it (1 cm): no drop, no lift (depenetration's work).
    fx::geo::Hit inside = hit(0, up, 1, true);
    inside.depth = sc(0.01L);
    const fx::geo::Hit d2[] = {inside};
    CHECK(fx::kcc::select_snap(d2, p).drop == Scalar{});
    // Nothing walkable.
    const fx::geo::Hit e[] = {hit(0.05L, edge, 11)};
    CHECK_FALSE(fx::kcc::select_snap(e, p).landed);
}

TEST_CASE("approach_distance keeps one skin along the contact's normal at every angle", "[skin]") {
    // A plane 0.2 m away along its normal, met by a motion at angle a from the normal: the hit is
    // at d = 0.2 / cos a along the motion; the body must end one skin (0.015) from the plane.
    const long double skin = ld(kDefaults.skin);
    for (int deg = 0; deg <= 85; deg += 5) {
        const long double c = std::cos(deg * 3.14159265358979323846L / 180.0L);
        const long double d = 0.2L / c;
        const Scalar move = fx::kcc::approach_distance(sc(d), sc(c), kDefaults.skin);
        INFO("angle " << deg);
        CHECK(0.2L - ld(move) * c == Approx(skin).margin(1e-7));
    }
    // Already a skin or less away: no motion toward it, never backwards.
    CHECK(fx::kcc::approach_distance(sc(0.05L), sc(0.3L), kDefaults.skin) ==
          Scalar{}); // 15 mm away
    CHECK(fx::kcc::approach_distance(sc(0.01L), sc(1), kDefaults.skin) == Scalar{});
    // A normal that does not oppose the motion (c <= 0): d - skin along the motion, at least 0.
    CHECK(fx::kcc::approach_distance(sc(0.1L), Scalar{}, kDefaults.skin) ==
          sc(0.1L) - kDefaults.skin);
}

TEST_CASE("ground rest height: one skin along the normal, within the probe band", "[skin]") {
    const fx::kcc::Params p = fx::kcc::make_params(kDefaults);
    for (int deg = 0; deg <= 58; deg += 2) {
        const long double ny = std::cos(deg * 3.14159265358979323846L / 180.0L);
        const Scalar r = fx::kcc::ground_rest_height(sc(ny), p);
        INFO("slope " << deg);
        CHECK(ld(r) * ny ==
              Approx(ld(kDefaults.skin)).margin(1e-8)); // the default band never binds
        CHECK(r < p.ground_band);
    }
    // A small probe_skin: capped at the band less the contact tolerance, so the probe finds it.
    fx::kcc::Settings s = kDefaults;
    s.probe_skin = sc(0.001L);
    const fx::kcc::Params q = fx::kcc::make_params(s);
    const Scalar steep = fx::kcc::ground_rest_height(sc(0.6L), q);
    CHECK(steep == q.ground_band - fx::geo::kContactTolerance);
    CHECK(fx::kcc::ground_rest_height(Scalar::one(), q) == s.skin);
}

TEST_CASE("select_snap lifts a body closer than a skin, by at most a skin", "[skin][snap]") {
    const fx::kcc::Params p = fx::kcc::make_params(kDefaults);
    auto hit = [](long double d, const Vec3& n) {
        fx::geo::Hit h;
        h.distance = sc(d);
        h.normal = n;
        h.shape = 1;
        return h;
    };
    const Vec3 up = Vec3::unit_y();
    // 9 mm above the floor: lifted 6 mm to one skin.
    const fx::geo::Hit a[] = {hit(0.009L, up)};
    CHECK(ld(fx::kcc::select_snap(a, p).drop) == Approx(-0.006L).margin(1e-8));
    // Touching (1 raw unit away): lifted by at most a skin.
    const fx::geo::Hit b[] = {hit(0, up)};
    CHECK(fx::kcc::select_snap(b, p).drop == -kDefaults.skin);
    // Within the cast's tolerance of one skin: left where it is.
    const fx::geo::Hit c[] = {hit(ld(kDefaults.skin) - 1e-7L, up)};
    CHECK(fx::kcc::select_snap(c, p).drop == Scalar{});
}

TEST_CASE("grown capsule: a contact leaves grown_keep of the skin, so the body ends one skin away",
          "[skin]") {
    // The distance from a plane with unit normal n (toward the capsule) to a capsule is the
    // smaller of its segment ends' distances, less its radius. The grown capsule must be nearer
    // by exactly skin - grown_keep(n) for every normal, so that backing off grown_keep leaves the
    // body itself one skin from the plane; its top and bottom must stay where the body's are
    // less (skin - lift) at the bottom, so that ground a skin below never touches it.
    const fx::kcc::Params p = fx::kcc::make_params(kDefaults);
    const Vec3 feet = v3(1.25L, 0.015L, -3);
    const fx::geo::Capsule own = fx::kcc::capsule_at(feet, p);
    const fx::geo::Capsule grown = fx::kcc::grown_capsule_at(feet, p);
    const long double skin = ld(kDefaults.skin);
    const long double lift = ld(fx::kcc::grown_base_lift(p));
    CHECK(lift == Approx(skin / 16).margin(1e-9));
    auto dist = [](const fx::geo::Capsule& c, long double nx, long double ny) {
        const long double da = ld(c.a.x) * nx + ld(c.a.y) * ny,
                          db = ld(c.b.x) * nx + ld(c.b.y) * ny;
        return std::min(da, db) - ld(c.radius); // plane through the origin, body on its + side
    };
    for (int deg = -90; deg <= 90; deg += 5) {
        const long double a = deg * 3.14159265358979323846L / 180.0L;
        const long double nx = std::cos(a), ny = std::sin(a); // from the plane toward the body
        const Vec3 n = v3(nx, ny, 0);
        INFO("normal.y " << ny);
        const long double nearer = dist(own, nx, ny) - dist(grown, nx, ny);
        CHECK(nearer == Approx(skin - ld(fx::kcc::grown_keep(n, p))).margin(1e-8));
    }
    // Lowest and highest points.
    CHECK(ld(grown.a.y) - ld(grown.radius) == Approx(ld(feet.y) - (skin - lift)).margin(1e-9));
    CHECK(ld(grown.b.y) + ld(grown.radius) ==
          Approx(ld(feet.y) + ld(kDefaults.height)).margin(1e-9));
}
