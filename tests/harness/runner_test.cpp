// The runner: input streams read tick by tick, tick numbering, early stop, the frame clock.
#include <catch2/catch.hpp>

#include "run/runner.h"
#include "test_support.h"

using namespace fx;
using namespace fx::harness;
using fxtest::I;

namespace {

Scenario flat_scenario(int64_t ticks) {
    Scenario sc;
    sc.name = "t";
    sc.ticks = ticks;
    sc.planes.push_back({1, Vec3::unit_y(), Scalar{}});
    CharacterDef c;
    c.id = 4;
    c.spawn = {Scalar{}, Scalar::ratio(15, 1000), Scalar{}};
    c.input.edit().sticks.push_back({0, 10, Scalar{}, Scalar::one()});
    sc.characters.push_back(c);
    return sc;
}

struct Recorder final : RunSink {
    std::vector<int64_t> ticks;
    std::vector<int64_t> render_ticks;
    std::vector<kcc::CharacterState> last;
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3> render,
                 std::string*) override {
        ticks.push_back(tick);
        if (!render.empty()) render_ticks.push_back(tick);
        last.assign(chars.begin(), chars.end());
        return true;
    }
};
} // namespace

TEST_CASE("runner: input cursor plays segments, jumps and summed impulses", "[runner]") {
    InputStream s;
    s.sticks = {{0, 3, I(1), Scalar{}}, {5, 6, Scalar{}, -Scalar::half()}};
    s.jumps = {2, 5};
    s.impulses = {{5, {I(1), Scalar{}, Scalar{}}},
                  {5, {I(2), I(3), Scalar{}}},
                  {7, {Scalar{}, I(1), Scalar{}}}};
    InputCursor c(s);
    const kcc::Input t0 = c.at(0);
    CHECK(t0.stick_x == I(1));
    CHECK_FALSE(t0.jump);
    CHECK(c.at(2).jump);
    const kcc::Input t3 = c.at(3);
    CHECK(t3.stick_x == Scalar{}); // segment [0, 3) is over: idle
    const kcc::Input t5 = c.at(5);
    CHECK(t5.stick_y == -Scalar::half());
    CHECK(t5.jump);
    CHECK(t5.impulse == Vec3{I(3), I(3), Scalar{}});
    CHECK(c.at(6).impulse == Vec3::zero());
    CHECK(c.at(7).impulse == Vec3{Scalar{}, I(1), Scalar{}});
    CHECK(c.at(100).stick_x == Scalar{});
}

TEST_CASE("runner: a cursor read tick after tick gives each tick's input as a fresh one does",
          "[runner]") {
    // The cursor keeps the last input while nothing in the stream changes (held sticks): every
    // tick read in order must be what a cursor that starts at that tick finds, over streams of
    // segments with gaps, jumps and impulses on the same and on separate ticks, read every tick
    // and with strides that step over changes.
    uint64_t seed = 12345;
    auto next = [&seed](int64_t n) { // a small LCG, enough to vary the streams
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        return static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(n));
    };
    int compared = 0;
    for (int k = 0; k < 200; ++k) {
        InputStream s;
        int64_t t = next(4);
        for (int seg = 0; seg < 6; ++seg) {
            const int64_t len = 1 + next(12);
            s.sticks.push_back({t, t + len, Scalar::ratio(next(2001) - 1000, 1000),
                                Scalar::ratio(next(2001) - 1000, 1000)});
            t += len + next(3); // a gap or none
        }
        for (int64_t j = next(5); j < t + 5; j += 1 + next(9))
            s.jumps.push_back(j);
        for (int64_t i = next(7); i < t + 5; i += next(8)) // several on one tick when 0
            s.impulses.push_back({i, {I(next(5) - 2), I(next(3)), Scalar{}}});
        const int64_t stride = 1 + k % 3;
        InputCursor in_order(s);
        for (int64_t tick = 0; tick < t + 8; tick += stride) {
            InputCursor fresh(s);
            const kcc::Input a = in_order.at(tick), b = fresh.at(tick);
            INFO("stream " << k << ", tick " << tick);
            REQUIRE(a.stick_x == b.stick_x);
            REQUIRE(a.stick_y == b.stick_y);
            REQUIRE(a.jump == b.jump);
            REQUIRE(a.impulse == b.impulse);
            ++compared;
        }
    }
    CHECK(compared > 5000);
}

TEST_CASE("runner: ticks are reported 0..N-1 in order, and a run can stop early", "[runner]") {
    Scenario sc = flat_scenario(25);
    Recorder r;
    std::string error;
    REQUIRE(run_scenario(sc, r, RunOptions{}, &error));
    REQUIRE(r.ticks.size() == 25);
    for (size_t i = 0; i < r.ticks.size(); ++i)
        CHECK(r.ticks[i] == static_cast<int64_t>(i));
    CHECK(r.render_ticks.empty());
    // The stick pushed +z for ticks 0..9: the body moved forward.
    CHECK(r.last[0].position.z > Scalar::half());
    Recorder early;
    RunOptions stop;
    stop.stop_after = 6;
    REQUIRE(run_scenario(sc, early, stop, &error));
    CHECK(early.ticks.back() == 6);
}

TEST_CASE("runner: a 1 s display hitch runs 4 ticks, not 50", "[runner][clock]") {
    Scenario sc = flat_scenario(12);
    // 20 ms frames (one tick each), then one 1000 ms frame, then 20 ms frames again.
    sc.frames = {{20000000, 3}, {1000000000, 1}, {20000000, 100}};
    Recorder r;
    std::string error;
    REQUIRE(run_scenario(sc, r, RunOptions{}, &error));
    REQUIRE(r.ticks.size() == 12);
    // A render pose ends every frame: ticks 0, 1, 2 (one per frame), then the hitch's 4 ticks
    // 3..6 end at tick 6, then one per frame again.
    CHECK(r.render_ticks == std::vector<int64_t>{0, 1, 2, 6, 7, 8, 9, 10, 11});
}

TEST_CASE("runner: a world that cannot be built is an error naming the shape", "[runner]") {
    Scenario sc = flat_scenario(5);
    sc.meshes.push_back({9, {Vec3::zero(), Vec3::unit_x(), Vec3::unit_x() * I(2)}, {0, 1, 2}});
    Recorder r;
    std::string error;
    CHECK_FALSE(run_scenario(sc, r, RunOptions{}, &error));
    CHECK(error.rfind("mesh 9: triangle 0: degenerate", 0) == 0);
}
