// World stepping: frame clock, platforms, impulses, canonical bytes, trace, determinism.
#include "kcc_test_util.h"

#include "kcc/clock.h"
#include "kcc/state_bytes.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {
/// The input of tick t of a fixed scripted run: walk, turn, jump now and then.
Input scripted(int64_t t) {
    Input in;
    in.stick_x = Scalar::ratio((t % 40) < 20 ? 1 : -1, 2);
    in.stick_y = Scalar::one();
    in.jump = (t % 37) == 5;
    return in;
}
void level(World& w) {
    add_floor(w);
    add_aabb(w, 2, v3(4, 0, -10), v3(5, 2, 10));
    add_aabb(w, 3, v3(-3, 0, 3), v3(3, 0.2L, 6));
}
/// Plays the scripted input through a frame clock at `hz` display rate for `ms` milliseconds,
/// collecting the state bytes of every tick.
std::vector<std::array<uint8_t, kStateBytes>> play(int hz, int ms) {
    Solo s(level, v3(0, rest_height(), 0));
    FrameClock clock(50, 4);
    std::vector<std::array<uint8_t, kStateBytes>> out;
    int64_t elapsed = 0;
    int64_t shown = 0;
    while (elapsed < int64_t{ms} * 1000000) {
        // Frame times as a display delivers them: 1e9/hz ns, rounded, no drift over a second.
        const int64_t next = (shown + 1) * 1000000000 / hz;
        const int64_t frame = next - elapsed;
        elapsed = next;
        ++shown;
        const int n = clock.advance(frame);
        for (int i = 0; i < n; ++i) {
            s.tick(scripted(s.world.tick()));
            out.push_back(serialize_state(s.st()));
        }
    }
    return out;
}
} // namespace

TEST_CASE("the same input at 60 Hz and 144 Hz display rate gives identical tick states", "[clock]") {
    const auto a = play(60, 3000);
    const auto b = play(144, 3000);
    REQUIRE(a.size() >= 149);
    REQUIRE(b.size() >= 149);
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        INFO("tick " << i);
        REQUIRE(a[i] == b[i]);
    }
}

TEST_CASE("a 1 s hitch runs 4 ticks, not 50", "[clock]") {
    FrameClock clock(50, 4);
    CHECK(clock.advance(1000000000) == 4);
    CHECK(clock.dropped_ticks() == 46);
    CHECK(clock.advance(16666667) == 0); // no catching up afterwards
    CHECK(clock.advance(5000000) == 1);
    // Interpolation fraction: what is left of a tick.
    FrameClock c2(50, 4);
    CHECK(c2.advance(30000000) == 1);
    CHECK(c2.alpha() == Scalar::half());
}

TEST_CASE("render pose interpolates between the last two tick poses", "[clock]") {
    Solo s([](World& w) { add_floor(w); }, v3(0, rest_height(), 0));
    s.settle();
    for (int i = 0; i < 10; ++i) s.tick(stick(1, 0));
    const auto& st = s.st();
    CHECK(s.world.render_position(0, Scalar{}) == st.previous_position);
    CHECK(s.world.render_position(0, Scalar::one()) == st.position);
    const Vec3 mid = s.world.render_position(0, Scalar::half());
    CHECK(ld(mid.x) == Approx((ld(st.previous_position.x) + ld(st.position.x)) / 2).margin(1e-9));
}

namespace {
void add_platform(World& w, fx::geo::ShapeId id, const Vec3& from, const Vec3& to, int64_t ticks) {
    Platform p;
    p.id = id;
    p.half_extents = v3(1, 0.25L, 1);
    p.waypoints = {{from, 0}, {to, ticks}, {from, 2 * ticks}};
    std::string error;
    REQUIRE(w.add_platform(p, &error));
}
} // namespace

TEST_CASE("a platform carries a standing body", "[platform]") {
    // Platform top at y = 0.5, moving 4 m along +x over 100 ticks (2 m/s).
    Solo s([](World& w) {
        add_floor(w);
        add_platform(w, 50, v3(0, 0.25L, 0), v3(4, 0.25L, 0), 100);
    }, v3(0, 0.5L + rest_height(), 0));
    s.settle(2);
    REQUIRE(s.st().grounded);
    const Vec3 start = s.st().position;
    for (int i = 0; i < 60; ++i) {
        s.tick(Input{});
        CHECK(s.st().grounded);
        CHECK(s.st().platform == 50u);
    }
    // The platform moved 60 ticks * 0.04 m = 2.4 m (its pose at tick 62 minus tick 2).
    CHECK(ld(s.st().position.x - start.x) == Approx(2.4L).margin(1e-4));
    CHECK(ld(s.st().position.y) == Approx(ld(start.y)).margin(1e-4));
}

TEST_CASE("a platform moving into an idle body pushes it without tunnelling", "[platform]") {
    // A 0.5 m tall platform sliding along the floor at 3 m/s toward a body standing at x = 3.
    Solo s([](World& w) {
        add_floor(w);
        add_platform(w, 50, v3(0, 0.25L, 0), v3(6, 0.25L, 0), 100);
    }, v3(3, rest_height(), 0));
    fx::kcc::Platform probe;
    probe.waypoints = {{v3(0, 0.25L, 0), 0}, {v3(6, 0.25L, 0), 100}, {v3(0, 0.25L, 0), 200}};
    for (int i = 0; i < 90; ++i) {
        s.tick(Input{});
        const long double face = ld(probe.center_at(s.world.tick()).x) + 1;
        // Never behind the platform's leading face (no tunnelling); pushed once reached.
        CHECK(ld(s.st().position.x) - 0.4L >= face - 0.2L - 1e-6L);
    }
    CHECK(ld(s.st().position.x) > 6.5L); // carried along in front of it
}

TEST_CASE("a scripted impulse knocks the body back", "[impulse]") {
    Solo s([](World& w) { add_floor(w); }, v3(0, rest_height(), 0));
    s.settle();
    Input kick;
    kick.impulse = v3(-8, 4, 0);
    s.tick(kick);
    CHECK_FALSE(s.st().grounded);
    CHECK(ld(s.st().velocity.x) == Approx(-8).margin(1e-6));
    for (int i = 0; i < 10; ++i) s.tick(Input{});
    CHECK(ld(s.st().position.x) < -1.0L); // momentum kept in the air (no air braking)
}

TEST_CASE("canonical state bytes: version, little-endian layout, round trip", "[bytes]") {
    CharacterState st;
    st.id = 0x01020304u;
    st.position = Vec3{Scalar::from_raw(0x1122334455667788LL), Scalar::from_int(-1), Scalar{}};
    st.grounded = true;
    st.platform = 9;
    const auto b = serialize_state(st);
    CHECK(b[0] == kStateBytesVersion);
    CHECK(b[1] == 0x04);
    CHECK(b[4] == 0x01);
    CHECK(b[5] == 0x88);
    CHECK(b[12] == 0x11);
    CHECK(b[61] == 1);
    CHECK(b[90] == 9);
    CharacterState back;
    REQUIRE(deserialize_state(b, &back));
    CHECK(serialize_state(back) == b);
    auto wrong = b;
    wrong[0] = 99;
    CHECK_FALSE(deserialize_state(wrong, &back));
}

TEST_CASE("the trace does not change the result and reports the solve", "[trace]") {
    struct Log : TraceObserver {
        int sweeps = 0, planes = 0, probes = 0, ends = 0;
        void on_event(const TraceEvent& e) override {
            sweeps += e.kind == TraceKind::kSweep;
            planes += e.kind == TraceKind::kPlaneAdded;
            probes += e.kind == TraceKind::kProbe;
            ends += e.kind == TraceKind::kTickEnd;
            CHECK(e.character == 7u);
        }
    } log;
    Solo a(level, v3(0, rest_height(), 0));
    Solo b(level, v3(0, rest_height(), 0));
    for (int t = 0; t < 200; ++t) {
        a.tick(scripted(t));
        b.tick(scripted(t), &log);
        REQUIRE(serialize_state(a.st()) == serialize_state(b.st()));
    }
    CHECK(log.probes == 200);
    CHECK(log.ends == 200);
    CHECK(log.sweeps >= 200);
    CHECK(log.planes > 0); // it walked into the wall
}

TEST_CASE("characters are stepped by id whatever the order they were added in", "[world]") {
    World w1, w2;
    std::string error;
    for (World* w : {&w1, &w2}) level(*w);
    REQUIRE(w1.add_character(3, v3(0, rest_height(), 0), kDefaults, &error));
    REQUIRE(w1.add_character(1, v3(1, rest_height(), 0), kDefaults, &error));
    REQUIRE(w2.add_character(1, v3(1, rest_height(), 0), kDefaults, &error));
    REQUIRE(w2.add_character(3, v3(0, rest_height(), 0), kDefaults, &error));
    REQUIRE_FALSE(w2.add_character(3, v3(0, 0, 0), kDefaults, &error));
    REQUIRE(w1.build(&error));
    REQUIRE(w2.build(&error));
    CHECK(w1.characters()[0].id == 1u);
    for (int t = 0; t < 50; ++t) {
        const Input in[2] = {scripted(t), scripted(t + 3)};
        w1.step(in);
        w2.step(in);
    }
    for (size_t i = 0; i < 2; ++i) CHECK(serialize_state(w1.characters()[i]) == serialize_state(w2.characters()[i]));
}

TEST_CASE("jump spam never raises horizontal speed above the ground maximum", "[velocity][world]") {
    Solo s(level, v3(0, rest_height(), 0));
    for (int t = 0; t < 300; ++t) {
        s.tick(stick((t % 50) < 25 ? 1 : -1, 1, true));
        CHECK(hlen(s.st().velocity) <= 6.2L + 1e-8L);
    }
}
