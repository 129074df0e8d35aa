// World stepping: frame clock, platforms, impulses, canonical bytes, trace, determinism.
#include "kcc_test_util.h"

#include "fx/trig.h"
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

TEST_CASE("the same input at 60 Hz and 144 Hz display rate gives identical tick states",
          "[clock]") {
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
    for (int i = 0; i < 10; ++i)
        s.tick(stick(1, 0));
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
    Solo s(
        [](World& w) {
            add_floor(w);
            add_platform(w, 50, v3(0, 0.25L, 0), v3(4, 0.25L, 0), 100);
        },
        v3(0, 0.5L + rest_height(), 0));
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
    Solo s(
        [](World& w) {
            add_floor(w);
            add_platform(w, 50, v3(0, 0.25L, 0), v3(6, 0.25L, 0), 100);
        },
        v3(3, rest_height(), 0));
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
    for (int i = 0; i < 10; ++i)
        s.tick(Input{});
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
    for (World* w : {&w1, &w2})
        level(*w);
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
    for (size_t i = 0; i < 2; ++i)
        CHECK(serialize_state(w1.characters()[i]) == serialize_state(w2.characters()[i]));
}

TEST_CASE("jump spam never raises horizontal speed above the ground maximum", "[velocity][world]") {
    Solo s(level, v3(0, rest_height(), 0));
    for (int t = 0; t < 300; ++t) {
        s.tick(stick((t % 50) < 25 ? 1 : -1, 1, true));
        CHECK(hlen(s.st().velocity) <= 6.2L + 1e-8L);
    }
}

// The working volume and the speed bound (kcc/settings.h, docs/numeric.md): the expected halt
// is computed here from the motion's recurrence in long double (v_n = v_{n-1} - g dt, then
// y_n = y_{n-1} + v_n dt, as KCC-SPEC orders a tick), not from the controller.
namespace {
struct HaltCase {
    int hz;
    long double gravity;
    Vec3 spawn;
    Vec3 impulse; ///< on tick 0
};
struct Expected {
    int64_t tick = -1; ///< the tick whose end state is halted
    bool speed = false; ///< halted by the speed bound (else by the working volume)
};
Expected expected_halt(const HaltCase& c, int64_t max_ticks) {
    const long double dt = 1.0L / c.hz, bound_v = 4096, bound_p = 1048576;
    long double p[3] = {ld(c.spawn.x), ld(c.spawn.y), ld(c.spawn.z)};
    long double v[3] = {ld(c.impulse.x), ld(c.impulse.y), ld(c.impulse.z)};
    for (int64_t n = 0; n < max_ticks; ++n) {
        v[1] -= c.gravity * dt; // the impulse is in v already (it adds on tick 0, after gravity)
        if (std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) > bound_v) return {n, true};
        p[0] += v[0] * dt, p[1] += v[1] * dt, p[2] += v[2] * dt;
        if (std::fabs(p[0]) >= bound_p || std::fabs(p[1]) >= bound_p || std::fabs(p[2]) >= bound_p)
            return {n, false};
    }
    return {};
}
bool outside(const Vec3& p) {
    return std::fabs(ld(p.x)) >= 1048576 || std::fabs(ld(p.y)) >= 1048576 ||
           std::fabs(ld(p.z)) >= 1048576;
}
/// Runs the case until halted (at most max_ticks), then 20 ticks more; checks the rule.
void check_halt(const HaltCase& c, int64_t max_ticks) {
    const Expected e = expected_halt(c, max_ticks);
    REQUIRE(e.tick >= 0);
    Settings s;
    s.tick_rate_hz = c.hz;
    s.gravity = sc(c.gravity);
    Solo solo([](World& w) { add_aabb(w, 1, v3(5000, 5000, 5000), v3(5001, 5001, 5001)); }, c.spawn,
              s);
    int64_t halted_at = -1;
    for (int64_t n = 0; n < max_ticks && halted_at < 0; ++n) {
        const CharacterState before = solo.st();
        Input in;
        if (n == 0) in.impulse = c.impulse;
        solo.tick(in);
        const CharacterState& st = solo.st();
        if (!st.halted) {
            // Until it halts: inside both bounds.
            REQUIRE(std::sqrt(ld(st.velocity.x) * ld(st.velocity.x) +
                              ld(st.velocity.y) * ld(st.velocity.y) +
                              ld(st.velocity.z) * ld(st.velocity.z)) <= 4096);
            REQUIRE_FALSE(outside(st.position));
            continue;
        }
        halted_at = n;
        const long double speed = std::sqrt(ld(st.velocity.x) * ld(st.velocity.x) +
                                            ld(st.velocity.y) * ld(st.velocity.y) +
                                            ld(st.velocity.z) * ld(st.velocity.z));
        // Halted for one of the two reasons, and the one expected.
        CHECK((speed > 4096 || outside(st.position)));
        CHECK(e.speed == !outside(st.position));
        if (e.speed) CHECK(st.position == before.position); // stopped before moving
        CHECK_FALSE(st.grounded);
    }
    INFO("hz " << c.hz << ", gravity " << static_cast<double>(c.gravity) << ": expected tick "
               << e.tick << (e.speed ? " (speed)" : " (volume)") << ", halted at " << halted_at);
    REQUIRE(halted_at >= 0);
    CHECK(std::llabs(halted_at - e.tick) <= 1); // rounding of dt and g dt may move it by one tick
    // Never moved again, whatever the input.
    const auto frozen = serialize_state(solo.st());
    for (int i = 0; i < 20; ++i) {
        Input in = stick(1, 1, i % 3 == 0);
        in.impulse = v3(5, 5, 5);
        solo.tick(in);
        CHECK(solo.st().position == solo.st().previous_position);
        CHECK(serialize_state(solo.st())[61] == 2); // halted, not grounded
    }
    auto now = serialize_state(solo.st());
    CHECK(std::equal(now.begin() + 13, now.begin() + 61,
                     frozen.begin() + 13)); // position, velocity, facing
}
} // namespace

TEST_CASE(
    "a falling body is halted by the speed bound or the working volume, at every tick rate and gravity",
    "[halt]") {
    // Fast falls end at the speed bound; slow ones (gravity below about 8 m/s^2) leave the volume
    // first (y = -v^2 / 2g reaches 2^20 m before v reaches 4096 m/s).
    for (int hz : {1, 7, 50, 60, 1000}) {
        for (long double g : {9.81L, 37.5L, 10000.0L, 2.0L, 0.5L}) {
            if (hz == 1000 && g < 5)
                continue; // half a million ticks; 1 Hz and 60 Hz cover the volume
            check_halt({hz, g, v3(0, 0, 0), Vec3{}}, 2000000);
        }
    }
}

TEST_CASE("a body carried out of the working volume is halted, in every direction and at any speed",
          "[halt]") {
    const long double edge = 1000000 - 123.456L; // the loader's coordinate bound, less a little
    const long double k = 1000 / std::sqrt(3.0L);
    const struct {
        Vec3 spawn, impulse;
    } dirs[] = {{v3(edge, 0, 0), v3(1000, 0, 0)},      {v3(-edge, 0, 0), v3(-1000, 0, 0)},
                {v3(0, edge, 0), v3(0, 1000, 0)},      {v3(0, -edge, 0), v3(0, -1000, 0)},
                {v3(0, 0, edge), v3(0, 0, 1000)},      {v3(0, 0, -edge), v3(0, 0, -1000)},
                {v3(edge, -edge, edge), v3(k, -k, k)}, {v3(edge, 0, 0), v3(37.25L, 0, 0)}};
    for (int hz : {1, 60}) {
        for (const auto& d : dirs) {
            if (hz == 60 && ld(d.impulse.x) == 37.25L) continue; // 80,000 ticks: 1 Hz is enough
            check_halt({hz, 0, d.spawn, d.impulse}, 200000);
        }
    }
}

TEST_CASE("impulses beyond any bound halt the body instead of overflowing", "[halt]") {
    // A game may pass anything: the largest Scalar, each way. On a checked build an overflow
    // would abort the test.
    for (const Scalar big : {Scalar::max_value(), Scalar::min_value()}) {
        Solo s([](World& w) { add_floor(w); }, v3(0, rest_height(), 0));
        s.settle();
        Input in;
        in.impulse = Vec3{big, big, big};
        s.tick(in);
        CHECK(s.st().halted);
        CHECK(std::fabs(ld(s.st().velocity.x)) ==
              1048576); // the impulse is limited to 2^20 m/s a component
    }
}

TEST_CASE("a body must start inside the working volume", "[halt]") {
    World w;
    add_floor(w);
    std::string error;
    const Scalar edge = Scalar::from_int(1048576);
    const Scalar in = edge - Scalar::from_raw(1); // the last raw value inside
    CHECK(w.add_character(1, Vec3{in, Scalar{}, Scalar{}}, kDefaults, &error));
    CHECK(w.add_character(2, Vec3{Scalar{}, -in, -in}, kDefaults, &error));
    CHECK_FALSE(w.add_character(3, Vec3{edge, Scalar{}, Scalar{}}, kDefaults, &error));
    CHECK(error ==
          "character 3: feet outside the working volume (each coordinate less than 1048576 m)");
    CHECK_FALSE(w.add_character(4, Vec3{Scalar{}, -edge, Scalar{}}, kDefaults, &error));
    CHECK_FALSE(w.add_character(5, v3(0, 0, -2000000), kDefaults, &error));
    CHECK_FALSE(
        w.add_character(6, Vec3{Scalar::min_value(), Scalar{}, Scalar{}}, kDefaults, &error));
}

TEST_CASE("state bytes carry the halted flag in bit 1 of the flags byte", "[bytes][halt]") {
    CharacterState st;
    st.grounded = true;
    st.halted = true;
    const auto b = serialize_state(st);
    CHECK(b[61] == 3);
    CharacterState back;
    REQUIRE(deserialize_state(b, &back));
    CHECK(back.halted);
    CHECK(back.grounded);
    st.halted = false;
    CHECK(serialize_state(st)[61] == 1); // unchanged for a body that never halts
}

namespace {
/// Nine characters close together (a 3 x 3 grid 0.9 m apart, between a wall and a low box),
/// each with its own input: converging, turning, jumping. Character k (0..8) gets id ids[k]
/// and is added to the world in the order `add_order`. Returns every tick's state of each k,
/// with the id cleared, so that two runs compare up to relabelling. `far_company` adds two
/// idle characters 400 m away in x and z on either side (ids 1000, 1001), which the nine never
/// meet.
std::vector<std::vector<std::array<uint8_t, kStateBytes>>>
crowd_run(const std::array<CharacterId, 9>& ids, const std::array<int, 9>& add_order,
          bool far_company = false) {
    World w;
    add_floor(w);
    add_aabb(w, 2, v3(2.2L, 0, -5), v3(3, 2, 5)); // a wall at x = 2.2
    add_aabb(w, 3, v3(-3, 0, 1.6L), v3(-1.5L, 0.2L, 3)); // a 0.2 m box
    for (int k : add_order) {
        const long double x = -0.9L + 0.9L * (k % 3), z = -0.9L + 0.9L * (k / 3);
        std::string error;
        REQUIRE(w.add_character(ids[static_cast<size_t>(k)], v3(x, rest_height(), z), kDefaults,
                                &error));
    }
    if (far_company) {
        std::string error;
        REQUIRE(w.add_character(1000, v3(400, rest_height(), 400), kDefaults, &error));
        REQUIRE(w.add_character(1001, v3(-400, rest_height(), -400), kDefaults, &error));
    }
    const size_t n = far_company ? 11 : 9;
    std::string error;
    REQUIRE(w.build(&error));
    auto input = [](int k, int64_t t) {
        const long double a = 0.7L * k + 0.05L * static_cast<long double>(t % 23); // radians
        Input in = stick(-std::sin(a), -std::cos(a) * ((k % 2) ? 1 : -1), (t + 3 * k) % 41 == 0);
        if (k == 4 && t > 60) in = stick(0, 0); // the centre one stops
        return in;
    };
    std::vector<std::vector<std::array<uint8_t, kStateBytes>>> out(9);
    std::vector<Input> inputs(n);
    for (int64_t t = 0; t < 150; ++t) {
        for (size_t i = 0; i < n; ++i) {
            const CharacterId id = w.characters()[i].id;
            const int k = static_cast<int>(std::find(ids.begin(), ids.end(), id) - ids.begin());
            inputs[i] = k < 9 ? input(k, t) : Input{};
        }
        w.step(inputs);
        for (size_t i = 0; i < n; ++i) {
            CharacterState s = w.characters()[i];
            const int k = static_cast<int>(std::find(ids.begin(), ids.end(), s.id) - ids.begin());
            if (k == 9) continue; // the far company
            s.id = 0;
            out[static_cast<size_t>(k)].push_back(serialize_state(s));
        }
    }
    return out;
}
} // namespace

TEST_CASE("characters that collide: the same trajectories whatever their ids and listing order",
          "[characters]") {
    const auto a = crowd_run({1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
    const auto b = crowd_run({90, 17, 55, 3, 71, 8, 42, 26, 64}, {5, 2, 8, 0, 7, 3, 1, 6, 4});
    const auto c = crowd_run({9, 8, 7, 6, 5, 4, 3, 2, 1}, {8, 7, 6, 5, 4, 3, 2, 1, 0});
    for (size_t k = 0; k < 9; ++k) {
        for (size_t t = 0; t < a[k].size(); ++t) {
            INFO("character " << k << ", tick " << t);
            REQUIRE(a[k][t] == b[k][t]);
            REQUIRE(a[k][t] == c[k][t]);
        }
    }
    // They did meet: at some tick two of them were within a skin of touching.
    bool met = false;
    auto deserialize_for_test = [](const std::array<uint8_t, kStateBytes>& bytes) {
        CharacterState st;
        REQUIRE(deserialize_state(bytes, &st));
        return st;
    };
    for (size_t t = 0; t < a[0].size() && !met; ++t) {
        for (size_t i = 0; i < 9 && !met; ++i) {
            for (size_t j = i + 1; j < 9 && !met; ++j) {
                const CharacterState si = deserialize_for_test(a[i][t]);
                const CharacterState sj = deserialize_for_test(a[j][t]);
                met = hlen(si.position - sj.position) < 0.8L + 0.016L &&
                      std::fabs(ld(si.position.y - sj.position.y)) < 1.0L;
            }
        }
    }
    CHECK(met);
}

TEST_CASE("characters that collide: the same trajectories whether their grid is dense or sparse",
          "[characters]") {
    // Nine characters alone span a small block of the world's 2 m cells: their grid is dense
    // (World::index_bodies' counting sort, a cell's bodies found directly). Two more 400 m
    // away on either side spread the eleven over 401 x 401 cells, more than 4 per body plus
    // 64: the grid falls back to a sorted list of cells and binary search. The nine must not
    // notice.
    const std::array<CharacterId, 9> ids{1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::array<int, 9> order{0, 1, 2, 3, 4, 5, 6, 7, 8};
    const auto dense = crowd_run(ids, order);
    const auto sparse = crowd_run(ids, order, true);
    for (size_t k = 0; k < 9; ++k) {
        for (size_t t = 0; t < dense[k].size(); ++t) {
            INFO("character " << k << ", tick " << t);
            REQUIRE(dense[k][t] == sparse[k][t]);
        }
    }
}

TEST_CASE(
    "characters that collide: the resolution meets each pair that touches exactly once at any size",
    "[characters]") {
    // World::resolve_bodies visits each pair of bodies whose boxes meet once: from the dense grid,
    // a body against the later ones of its own cell and the cells beside it in one direction, when
    // two of the widest bodies and a skin fit in a 2 m cell; else every body looks up the cells
    // around it. Crowds of each kind, bunched over cell borders on both sides of zero and at the
    // grid's edges, walking into each other, are compared with every pair tested at every tick.
    struct Crowd {
        const char* what;
        long double small,
            large; // radii: every fifth character small; the rest large, or a few giants
        bool giants;
    };
    for (const Crowd& crowd :
         {Crowd{"2 m cells hold a pair", 0.25L, 0.4L, false},
          Crowd{"0.99 m radii: 2 m and a skin in a cell", 0.3L, 0.99L, false},
          Crowd{"giants among them: every body looks around", 0.25L, 1.3L, true}}) {
        INFO(crowd.what);
        World w;
        add_floor(w);
        std::string error;
        for (int k = 0; k < 36; ++k) {
            Settings st = kDefaults;
            st.radius = sc(k % 5 == 0                    ? crowd.small
                           : !crowd.giants || k % 7 == 3 ? crowd.large
                                                         : 0.4L);
            st.height = max(st.height, st.radius.mul_int(2) + sc(0.1L));
            // Around the corner of four cells at (2, -2), 0.75 m apart.
            const long double x = 2 + 0.75L * (k % 6 - 2.5L), z = -2 + 0.75L * (k / 6 - 2.5L);
            REQUIRE(w.add_character(static_cast<CharacterId>(k + 1), v3(x, rest_height(), z), st,
                                    &error));
        }
        if (crowd.giants) { // two giants whose boxes meet two cells apart (x = 1.9 and 4.2)
            Settings st = kDefaults;
            st.radius = sc(crowd.large);
            st.height = sc(3);
            REQUIRE(w.add_character(101, v3(1.9L, rest_height(), -6), st, &error));
            REQUIRE(w.add_character(102, v3(4.2L, rest_height(), -6), st, &error));
        }
        REQUIRE(w.build(&error));
        REQUIRE(w.body_pairs_complete()); // as they start
        size_t most = 0;
        for (int64_t t = 0; t < 120; ++t) {
            std::vector<Input> in(w.characters().size());
            for (size_t i = 0; i < in.size(); ++i) { // toward the corner, turning
                const CharacterState& c = w.characters()[i];
                const long double a =
                    0.3L * static_cast<long double>(i) + 0.04L * static_cast<long double>(t);
                in[i] = stick((ld(c.position.x) > 2 ? -0.8L : 0.8L) + 0.2L * std::sin(a),
                              (ld(c.position.z) > -2 ? -0.8L : 0.8L) + 0.2L * std::cos(a));
            }
            w.step(in);
            size_t pairs = 0;
            INFO("tick " << t);
            REQUIRE(w.body_pairs_complete(&pairs));
            most = std::max(most, pairs);
        }
        CHECK(most > 36); // they bunched: more pairs than bodies
    }
}

TEST_CASE("characters that collide: a crowd's pairs are the ones its two orders name, each once",
          "[characters]") {
    // Cells holding more bodies than could stand in them apart are crowded (docs/controller.md,
    // "Crowded cells"): two of their bodies meet in the resolution when at most a few places
    // apart in either of the crowd's two orders by place, a crowd's body meets every other body
    // near it. Two dense blocks in neighbouring cells around (2, -2) and (4.3, -2), a ring of
    // bodies standing apart around them, all walking into and out of each other:
    // World::body_pairs_complete() counts the pairs from that definition (ranks counted, not
    // looked up) at every tick.
    World w;
    add_floor(w);
    std::string error;
    CharacterId id = 1;
    for (const long double cx : {2.0L, 4.3L}) {
        for (int k = 0; k < 70; ++k) { // 0.13 m apart, a little off a lattice
            const long double x = cx + 0.13L * (k % 10 - 4.5L) + 0.01L * (k % 3);
            const long double z = -2 + 0.13L * (k / 10 - 3.5L) - 0.007L * (k % 4);
            REQUIRE(w.add_character(id++, v3(x, rest_height(), z), kDefaults, &error));
        }
    }
    for (int k = 0; k < 24; ++k) { // the ring: 1.2 m apart, 2.6 to 3.4 m from (3.15, -2)
        const long double a = 6.2831853L * k / 24, r = 3 + 0.4L * (k % 2);
        REQUIRE(w.add_character(id++,
                                v3(3.15L + r * std::cos(a), rest_height(), -2 + r * std::sin(a)),
                                kDefaults, &error));
    }
    REQUIRE(w.build(&error));
    size_t crowd = 0, most_crowd = 0, fewest_crowd = SIZE_MAX;
    REQUIRE(w.body_pairs_complete(nullptr, &crowd));
    CHECK(crowd >= 140); // both blocks are crowded (and ring bodies that stand in their cells)
    CHECK(crowd < 164);
    for (int64_t t = 0; t < 160; ++t) {
        std::vector<Input> in(w.characters().size());
        for (size_t i = 0; i < in.size(); ++i) { // the ring inward, the blocks wandering
            const CharacterState& c = w.characters()[i];
            const long double a =
                0.5L * static_cast<long double>(i) + 0.05L * static_cast<long double>(t);
            in[i] = i >= 140 ? stick(3.15L - ld(c.position.x), -2 - ld(c.position.z))
                             : stick(std::sin(a), std::cos(a));
        }
        w.step(in);
        INFO("tick " << t);
        size_t pairs = 0;
        REQUIRE(w.body_pairs_complete(&pairs, &crowd));
        most_crowd = std::max(most_crowd, crowd);
        fewest_crowd = std::min(fewest_crowd, crowd);
        REQUIRE(w.grid_is_fresh());
    }
    CHECK(most_crowd >= 140);
    CHECK(fewest_crowd < 140); // the blocks spread: some cells were no longer crowded
}

namespace {
/// A level with everything a snapshot must bring back: a platform carrying a body, colliding
/// bodies pressing into each other, a body at a riser (step_hold), jumps in the air.
void snapshot_level(World& w) {
    add_floor(w);
    add_aabb(w, 2, v3(3, 0, -5), v3(4, 0.3L, 5)); // a 0.3 m riser
    add_platform(w, 50, v3(-4, 0.25L, 0), v3(-4, 0.25L, 6), 80);
    std::string error;
    REQUIRE(
        w.add_character(1, v3(-4, 0.5L + rest_height(), 0), kDefaults, &error)); // on the platform
    REQUIRE(w.add_character(2, v3(0, rest_height(), 0), kDefaults, &error));
    REQUIRE(w.add_character(3, v3(0, rest_height(), 1), kDefaults, &error));
    REQUIRE(w.add_character(4, v3(1.5L, rest_height(), 3), kDefaults, &error));
    REQUIRE(w.build(&error));
}
std::vector<Input> snapshot_inputs(int64_t t) {
    std::vector<Input> in(4);
    in[1] = stick(0, 1); // 2 runs into 3
    in[2] = stick(0, -1); // 3 runs into 2
    // 4 walks slowly (1.9 m/s: less than step_min_forward a tick) to the riser, is held there and
    // steps up, then jumps.
    in[3] = stick(0.3L, 0.01L * static_cast<long double>(t % 7), t == 100);
    return in;
}
std::vector<std::array<uint8_t, kStateBytes>> states_of(const World& w) {
    std::vector<std::array<uint8_t, kStateBytes>> out;
    for (const CharacterState& s : w.characters())
        out.push_back(serialize_state(s));
    return out;
}
} // namespace

TEST_CASE("a restored snapshot steps on to the same bits, from any tick", "[snapshot]") {
    World w;
    snapshot_level(w);
    std::vector<std::vector<uint8_t>> snaps;
    std::vector<std::vector<std::array<uint8_t, kStateBytes>>> after; // states after tick t
    for (int64_t t = 0; t < 120; ++t) {
        snaps.emplace_back();
        w.snapshot(&snaps.back()); // the state at the start of tick t
        REQUIRE(snaps.back().size() == w.snapshot_size());
        w.step(snapshot_inputs(t));
        after.push_back(states_of(w));
    }
    // The level did what it is for: a ride, a held riser, a contact between bodies.
    bool rode = false, held = false;
    for (const auto& tick : after) {
        CharacterState s1, s4;
        REQUIRE(deserialize_state(tick[0], &s1));
        REQUIRE(deserialize_state(tick[3], &s4));
        rode = rode || s1.platform == 50u;
        held = held || s4.step_hold.raw() != 0;
    }
    CHECK(rode);
    CHECK(held);
    // Back to every tick and on to the end: identical, and the snapshots retaken agree.
    for (int64_t from = 0; from < 120; ++from) {
        std::string error;
        REQUIRE(w.restore(snaps[static_cast<size_t>(from)], &error));
        CHECK(w.tick() == from);
        std::vector<uint8_t> again;
        w.snapshot(&again);
        REQUIRE(again == snaps[static_cast<size_t>(from)]);
        for (int64_t t = from; t < 120; ++t) {
            w.step(snapshot_inputs(t));
            INFO("restored at " << from << ", tick " << t);
            REQUIRE(states_of(w) == after[static_cast<size_t>(t)]);
        }
    }
}

TEST_CASE("a snapshot that is not of this world is refused and changes nothing", "[snapshot]") {
    World w;
    snapshot_level(w);
    for (int64_t t = 0; t < 10; ++t)
        w.step(snapshot_inputs(t));
    std::vector<uint8_t> good;
    w.snapshot(&good);
    const auto before = states_of(w);
    std::string error;
    auto refused = [&](std::vector<uint8_t> bytes, const char* why) {
        INFO(why);
        CHECK_FALSE(w.restore(bytes, &error));
        CHECK(error.find(why) != std::string::npos);
        CHECK(states_of(w) == before);
        CHECK(w.tick() == 10);
    };
    std::vector<uint8_t> b = good;
    b[0] = 'X';
    refused(b, "no FXKS magic");
    b = good;
    b[4] = 1;
    refused(b, "snapshot version 1, this library reads 2");
    b = good;
    b.pop_back();
    refused(b, "bytes, a snapshot of 4 characters has");
    b = good;
    b[14] = 3; // three characters, four records
    refused(b, "a snapshot of 3 characters has");
    const size_t record = kStateBytes + kSettingsBytes;
    b = good;
    b[18 + 2 * record + 1] = 1; // the third character's id: 1, after 2
    refused(b, "character 1 after 2: ids not in ascending order");
    b = good;
    b[18 + record] = 7; // the second character's state-bytes version
    refused(b, "unreadable state bytes");
    b = good;
    b[18 + record + kStateBytes + 8 * 19 + 8] = 2; // the second one's collide_characters byte
    refused(b, "character 2: unreadable settings bytes");
    b = good;
    for (size_t k = 0; k < 8; ++k)
        b[18 + kStateBytes + k] = 0; // the first one's radius: 0
    refused(b, "character 1: radius");
    const auto with_tick = [&](uint64_t tick) {
        std::vector<uint8_t> t = good;
        for (size_t k = 0; k < 8; ++k)
            t[6 + k] = static_cast<uint8_t>(tick >> (8 * k));
        return t;
    };
    refused(with_tick(uint64_t{1} << 63), "negative tick");
    // Past 2^60 the platforms' tick arithmetic would come near int64's end (kMaxWorldTick).
    refused(with_tick((uint64_t{1} << 60) + 1), "tick 1152921504606846977 beyond");
    refused(with_tick(uint64_t{INT64_MAX}), "beyond 1152921504606846976");
    refused(std::vector<uint8_t>(5, 0), "not a snapshot");
    World unbuilt;
    CHECK_FALSE(unbuilt.restore(good, &error));
    CHECK(error.find("not built") != std::string::npos);
    REQUIRE(w.restore(good, &error));
    REQUIRE(w.restore(with_tick(uint64_t{1} << 60), &error)); // the last tick taken
    CHECK(w.tick() == kMaxWorldTick);
    w.step(snapshot_inputs(0)); // and stepped on from it
    CHECK(w.tick() == kMaxWorldTick + 1);
}

TEST_CASE("a platform's waypoint ticks lie within +-kMaxWorldTick", "[snapshot]") {
    const auto platform_with = [](int64_t t0, int64_t t1) {
        Platform p;
        p.id = 7;
        p.half_extents = Vec3{Scalar::one(), Scalar::one(), Scalar::one()};
        p.rotation = fx::Mat3::identity();
        p.waypoints = {{Vec3::zero(), t0}, {Vec3{Scalar::one(), Scalar{}, Scalar{}}, t1}};
        return p;
    };
    std::string error;
    {
        World w;
        CHECK_FALSE(w.add_platform(platform_with(INT64_MIN, 0), &error));
        CHECK(error ==
              "platform 7: waypoint tick -9223372036854775808 beyond +-1152921504606846976");
    }
    {
        World w;
        CHECK_FALSE(w.add_platform(platform_with(0, kMaxWorldTick + 1), &error));
        CHECK(error.find("waypoint tick 1152921504606846977 beyond") != std::string::npos);
    }
    World w; // the widest span taken: the pose halfway is exactly halfway
    REQUIRE(w.add_platform(platform_with(-kMaxWorldTick, kMaxWorldTick), &error));
    REQUIRE(w.build(&error));
    const Platform p = platform_with(-kMaxWorldTick, kMaxWorldTick);
    CHECK(p.center_at(0) == Vec3{Scalar::ratio(1, 2), Scalar{}, Scalar{}});
    CHECK(p.center_at(kMaxWorldTick) == p.waypoints.front().center); // a loop: back at the start
}

TEST_CASE("a snapshot whose states step() could not have made is refused, field by field",
          "[snapshot]") {
    // Issue 51: restore checked the bytes' form and the settings, not the states: a position far
    // outside the working volume or a speed past the bound went into the solver's arithmetic.
    World w;
    snapshot_level(w);
    for (int64_t t = 0; t < 10; ++t)
        w.step(snapshot_inputs(t));
    std::vector<uint8_t> good;
    w.snapshot(&good);
    const auto before = states_of(w);
    const size_t record = kStateBytes + kSettingsBytes;
    std::string error;
    // The second character's state, changed by `edit`, written back into a copy of the snapshot.
    auto with = [&](auto&& edit) {
        CharacterState st;
        REQUIRE(deserialize_state(std::span<const uint8_t>(good).subspan(18 + record, kStateBytes),
                                  &st));
        edit(st);
        std::vector<uint8_t> b = good;
        const std::array<uint8_t, kStateBytes> bytes = serialize_state(st);
        std::copy(bytes.begin(), bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(18 + record));
        return b;
    };
    auto refused = [&](const std::vector<uint8_t>& bytes, const char* why) {
        INFO(why);
        CHECK_FALSE(w.restore(bytes, &error));
        CHECK(error.find(why) != std::string::npos);
        CHECK(states_of(w) == before);
    };
    const Scalar volume = Scalar::from_int(kWorkingVolumeMetres);
    const Scalar bound = Scalar::from_int(kMaxBodySpeedMetresPerSecond);
    const Scalar eps = Scalar::from_raw(1);
    refused(with([&](CharacterState& s) { s.position.x = volume + eps; }),
            "character 2: a position beyond the working volume");
    refused(with([&](CharacterState& s) { s.previous_position.z = -volume - eps; }),
            "a position beyond the working volume");
    refused(with([&](CharacterState& s) { s.velocity.y = -bound - eps; }),
            "a speed beyond the speed bound");
    refused(with([&](CharacterState& s) { s.run_speed = -eps; }), "a speed beyond the speed bound");
    refused(with([&](CharacterState& s) { s.step_hold = -eps; }), "a held motion out of range");
    refused(with([&](CharacterState& s) { s.facing = fx::kPi + eps; }), "a facing beyond pi");
    refused(with([&](CharacterState& s) { s.previous_facing = -fx::kPi - eps; }),
            "a facing beyond pi");
    refused(with([&](CharacterState& s) {
                s.ground_normal = Vec3{Scalar{}, Scalar::from_int(2), Scalar{}};
            }),
            "a ground normal that is not a unit vector pointing up");
    refused(with([&](CharacterState& s) {
                s.ground_normal = Vec3{Scalar{}, -Scalar::one(), Scalar{}};
            }),
            "a ground normal that is not a unit vector pointing up");
    refused(with([&](CharacterState& s) { s.platform = 4242; }),
            "platform 4242, which the world does not have");
    // At the limits, and a halted body beyond them (kept where it left), it is restored.
    REQUIRE(w.restore(with([&](CharacterState& s) {
                          s.position.x = volume;
                          s.velocity.y = -bound;
                          s.facing = fx::kPi;
                      }),
                      &error));
    REQUIRE(w.restore(with([&](CharacterState& s) {
                          s.halted = true;
                          s.position.x = volume + volume;
                          s.velocity.x = bound + bound;
                      }),
                      &error));
    REQUIRE(w.restore(good, &error));
    CHECK(states_of(w) == before);
}
