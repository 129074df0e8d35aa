// Tests of the conformance checks (cli/run/src/checks.cpp): the feel metrics against values
// worked out by hand from KCC-SPEC's numbers, the invariants on hand-made states that break
// them, the expectations' verdicts and messages, and the loader's errors for `expect`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness_test_util.h"
#include "records/trace_writer.h"
#include "run/checks.h"
#include "scenario/loader.h"

namespace {

namespace fs = std::filesystem;
using fx::Scalar;
using fx::Vec3;
using namespace fx::harness;
namespace kcc = fx::kcc;

using fxtest::load_err;
using fxtest::load_ok;
using fxtest::r;

CheckReport run_ok(const Scenario& sc) {
    CheckReport report;
    std::string error;
    INFO(error);
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    return report;
}

const MetricValue& metric(const CheckReport& rep, uint32_t id, Metric m) {
    for (const CharacterMetrics& c : rep.metrics) {
        if (c.id == id) return c.values[static_cast<size_t>(m)];
    }
    FAIL("no metrics for character " << id);
    static MetricValue none;
    return none;
}

const std::string kFloor =
    "world:\n  - box: {id: 1, center: [0, -0.5, 0], half_extents: [50, 0.5, 50]}\n";

// A body that runs at full stick for 60 ticks and then lets go.
std::string run_and_release(const std::string& settings = "") {
    return "format: 1\nname: t\ndescription: d\nticks: 100\n" + kFloor +
           "characters:\n  - id: 1\n    spawn: [0, 0.015, 0]\n" + settings +
           "    input: {segments: [{ticks: 60, stick: [0, 1]}, {ticks: 40}]}\n";
}

} // namespace

TEST_CASE("stop time after release matches the braking arithmetic", "[checks][metrics]") {
    // 6.2 m/s braked at 60 m/s^2 loses 1.2 m/s per 50 Hz tick: 6.2 / 1.2 = 5.17, so the sixth
    // tick after release (inclusive) is the first at rest: 6 x 20 ms = 120 ms.
    const CheckReport a = run_ok(load_ok(run_and_release()));
    REQUIRE(metric(a, 1, kStopTimeMs).present);
    CHECK(metric(a, 1, kStopTimeMs).value == Scalar::from_int(120));
    // Braking at 30 m/s^2: 0.6 m/s per tick, 6.2 / 0.6 = 10.33 -> 11 ticks = 220 ms.
    const CheckReport b =
        run_ok(load_ok(run_and_release("    settings: {ground_brake: 30, ground_accel: 25}\n")));
    CHECK(metric(b, 1, kStopTimeMs).value == Scalar::from_int(220));
    // A body that never releases has no stop time.
    const CheckReport c =
        run_ok(load_ok("format: 1\nname: t\ndescription: d\nticks: 20\n" + kFloor +
                       "characters:\n  - {id: 1, spawn: [0, 0.015, 0]}\n"));
    CHECK_FALSE(metric(c, 1, kStopTimeMs).present);
    CHECK(metric(c, 1, kFlickerCount).value == Scalar{});
    CHECK(metric(c, 1, kMaxHorizontalSpeed).value == Scalar{});
}

TEST_CASE("surface speed over flat speed is 1 on a walkable ramp and absent on flat ground",
          "[checks][metrics]") {
    const std::string yaml =
        "format: 1\nname: t\ndescription: d\nticks: 150\n" + kFloor +
        "  - ramp: {id: 2, foot: [0, 0, 3], yaw: 0, angle: 30, length: 20, width: 4}\n"
        "characters:\n  - id: 1\n    spawn: [0, 0.015, 0]\n"
        "    input: {segments: [{ticks: 150, stick: [0, 1]}]}\n";
    const CheckReport rep = run_ok(load_ok(yaml));
    const MetricValue& lo = metric(rep, 1, kSlopeSpeedRatioMin);
    const MetricValue& hi = metric(rep, 1, kSlopeSpeedRatioMax);
    REQUIRE(lo.present);
    REQUIRE(hi.present);
    CHECK(lo.value >= r(9999, 10000));
    CHECK(hi.value <= r(10001, 10000));
    const CheckReport flat = run_ok(load_ok(run_and_release()));
    CHECK_FALSE(metric(flat, 1, kSlopeSpeedRatioMin).present);
}

namespace {

kcc::CharacterState at(Vec3 p, bool grounded, Vec3 prev) {
    kcc::CharacterState s;
    s.id = 1;
    s.position = p;
    s.previous_position = prev;
    s.grounded = grounded;
    return s;
}

Vec3 v(Scalar x, Scalar y, Scalar z) {
    return Vec3{x, y, z};
}

// A floor (top at y = 0) and a wall box occupying x in [2, 3].
const std::string kHandmade = "format: 1\nname: t\ndescription: d\nticks: 6\n" + kFloor +
                              "  - box: {id: 7, center: [2.5, 1, 0], half_extents: [0.5, 1, 5]}\n"
                              "characters:\n  - {id: 1, spawn: [0, 0, 0]}\n";

CheckReport check(const Scenario& sc, const std::vector<CheckedTick>& ticks,
                  int64_t overflow_at = -1) {
    CheckReport rep;
    std::string error;
    REQUIRE(check_ticks(sc, ticks, overflow_at, &rep, &error));
    return rep;
}

CheckedTick tick_of(kcc::CharacterState s, std::vector<kcc::TraceEvent> events = {}) {
    return CheckedTick{{s}, std::move(events)};
}

} // namespace

TEST_CASE("penetration that grows beyond the tolerance violates the invariant",
          "[checks][invariants]") {
    const Scenario sc = load_ok(kHandmade);
    // The capsule (radius 0.4) at x = 1.61 reaches x = 2.01: 0.01 m into the wall; at 1.63, 0.03 m.
    const Vec3 p0 = v(r(161, 100), Scalar{}, Scalar{});
    const Vec3 p1 = v(r(163, 100), Scalar{}, Scalar{});
    const CheckReport grows = check(sc, {tick_of(at(p0, true, p0)), tick_of(at(p1, true, p0))});
    REQUIRE(grows.invariant_failures() == 1);
    CHECK(grows.failures[0].tick == 1);
    // (Depths print rounded to 6 decimals: 0.4 and 1.63 are not exact in Q31.32.)
    CHECK(
        grows.failures[0].message ==
        "tick 1, character 1: penetrates shape 7 by 0.03 m (tolerance 0.001 m; 0.01 m the tick before: the depth grew)");
    // Shrinking (depenetration at work) is allowed however deep; so is anything within 1 mm.
    const CheckReport shrinks = check(sc, {tick_of(at(p1, true, p1)), tick_of(at(p0, true, p1))});
    CHECK(shrinks.invariant_failures() == 0);
    CHECK(shrinks.metrics[0].values[kMaxPenetration].value >= r(2999999, 100000000));
    CHECK(shrinks.metrics[0].values[kMaxPenetration].value <= r(3000001, 100000000));
    const Vec3 q0 = v(r(1599, 1000), Scalar{}, Scalar{}); // 0 m
    const Vec3 q1 = v(r(16005, 10000), Scalar{}, Scalar{}); // 0.0005 m in
    CHECK(check(sc, {tick_of(at(q0, true, q0)), tick_of(at(q1, true, q0))}).invariant_failures() ==
          0);
}

// The depth the invariant measures is the minimum translation distance (r minus the distance of
// the capsule's segment from the shape when they are apart), not the push a query reports: on an
// inactive mesh edge that push runs along the triangle's face and measures the height of the
// capsule's core above the triangle's plane (docs/geometry.md). fuzz_controller found a body
// spawned around a tiny mesh square (its diagonal an inactive edge) walking away from it and down
// a little: the face push grew, the real depth shrank, and the invariant called that growing
// penetration (docs/fuzzing.md). Depths worked out by hand below; default body, radius 0.4, its
// segment from feet + 0.4 to feet + 1.4.
TEST_CASE("penetration of a mesh is measured as the minimum translation, not the face push",
          "[checks][invariants]") {
    // A 1 cm square at y = 0.5 (two triangles; the diagonal from (0.01, 0) to (0, 0.01) is
    // inactive).
    const std::string yaml =
        "format: 1\nname: t\ndescription: d\nticks: 2\n" + kFloor +
        "  - mesh: {id: 9, vertices: [[0, 0.5, 0], [0.01, 0.5, 0], [0, 0.5, 0.01], [0.01, 0.5, 0.01]], "
        "triangles: [[0, 1, 2], [1, 3, 2]]}\n"
        "characters:\n  - {id: 1, spawn: [-0.2, 0.15, -0.2]}\n";
    const Scenario sc = load_ok(yaml);
    // Segment bottom (-0.2, 0.55, -0.2): 0.2872 m from the corner (0, 0.5, 0), depth 0.1128 m
    // (the face push of the other triangle: 0.4 - 0.05 = 0.35 m).
    const Vec3 p0 = v(-r(2, 10), r(15, 100), -r(2, 10));
    // Away and lower, (-0.22, 0.52, -0.22): 0.3118 m, depth 0.0882 m: shallower (face push 0.38 m,
    // deeper).
    const Vec3 away = v(-r(22, 100), r(12, 100), -r(22, 100));
    const CheckReport leaving =
        check(sc, {tick_of(at(p0, false, p0)), tick_of(at(away, false, p0))});
    INFO(format_failures(leaving, "  "));
    CHECK(leaving.invariant_failures() == 0);
    const Scalar deepest = leaving.metrics[0].values[kMaxPenetration].value;
    CHECK(deepest >= r(1127, 10000));
    CHECK(deepest <= r(1129, 10000));
    // Toward the corner at the same height, (-0.18, 0.55, -0.18): 0.2594 m, depth 0.1406 m: it
    // grew.
    const Vec3 toward = v(-r(18, 100), r(15, 100), -r(18, 100));
    const CheckReport entering =
        check(sc, {tick_of(at(p0, false, p0)), tick_of(at(toward, false, p0))});
    REQUIRE(entering.invariant_failures() == 1);
    INFO(entering.failures[0].message);
    CHECK(entering.failures[0].message.rfind("tick 1, character 1: penetrates shape 9 by 0.1405",
                                             0) == 0);
}

TEST_CASE("grounded without walkable ground under the capsule violates the invariant",
          "[checks][invariants]") {
    const Scenario sc = load_ok(kHandmade);
    const Vec3 on = v(Scalar{}, r(15, 1000), Scalar{});
    const Vec3 above = v(Scalar{}, Scalar::one(), Scalar{});
    CHECK(check(sc, {tick_of(at(on, true, on))}).invariant_failures() == 0);
    const CheckReport floating =
        check(sc, {tick_of(at(on, true, on)), tick_of(at(above, true, on))});
    REQUIRE(floating.invariant_failures() == 1);
    INFO(floating.failures[0].message);
    CHECK(floating.failures[0].message.rfind(
              "tick 1, character 1: grounded but no walkable ground within 0.036 m below", 0) == 0);
    // A ground normal 60 degrees from up is beyond max_slope_stay_deg (58).
    kcc::CharacterState steep = at(on, true, on);
    steep.ground_normal = v(Scalar::ratio(866025, 1000000), Scalar::ratio(1, 2), Scalar{});
    const CheckReport s = check(sc, {tick_of(steep)});
    REQUIRE(s.invariant_failures() == 1);
    CHECK(s.failures[0].message.find("steeper than max_slope_stay_deg 58") != std::string::npos);
}

TEST_CASE("an arithmetic overflow during a tick violates the invariant", "[checks][invariants]") {
    const Scenario sc = load_ok(kHandmade);
    const Vec3 on = v(Scalar{}, r(15, 1000), Scalar{});
    const CheckReport rep = check(
        sc, {tick_of(at(on, true, on)), tick_of(at(on, true, on)), tick_of(at(on, true, on))}, 2);
    REQUIRE(rep.invariant_failures() == 1);
    CHECK(rep.failures[0].tick == 2);
    CHECK(rep.failures[0].message == "arithmetic overflow in test during this tick");
}

TEST_CASE("flicker counts short airborne spells that no jump explains", "[checks][metrics]") {
    const Scenario sc = load_ok(kHandmade);
    const Vec3 on = v(Scalar{}, r(15, 1000), Scalar{});
    const Vec3 up = v(Scalar{}, r(2, 100), Scalar{});
    // grounded, 2 ticks airborne, grounded: one flicker (0.04 s <= 0.1 s).
    std::vector<CheckedTick> t{tick_of(at(on, true, on)), tick_of(at(up, false, on)),
                               tick_of(at(up, false, up)), tick_of(at(on, true, up))};
    CHECK(check(sc, t).metrics[0].values[kFlickerCount].value == Scalar::from_int(1));
    // The same spell started by a jump is no flicker.
    kcc::TraceEvent jump;
    jump.kind = kcc::TraceKind::kVelocity;
    jump.character = 1;
    jump.flag = true;
    t[1].events.push_back(jump);
    CHECK(check(sc, t).metrics[0].values[kFlickerCount].value == Scalar{});
    // A spell of 6 ticks (0.12 s) is a fall, not a flicker.
    std::vector<CheckedTick> fall{tick_of(at(on, true, on))};
    for (int i = 0; i < 6; ++i)
        fall.push_back(tick_of(at(up, false, up)));
    fall.push_back(tick_of(at(on, true, up)));
    CHECK(check(sc, fall).metrics[0].values[kFlickerCount].value == Scalar{});
}

TEST_CASE("jitter is the largest reversal while pressed into a wall with the stick held",
          "[checks][metrics]") {
    Scenario sc = load_ok(kHandmade);
    sc.characters[0].input.edit().sticks.push_back(StickSegment{0, 6, Scalar::one(), Scalar{}});
    kcc::TraceEvent pressed;
    pressed.kind = kcc::TraceKind::kPlaneAdded;
    pressed.pass = kcc::Pass::kHorizontal;
    pressed.character = 1;
    const Scalar y = r(15, 1000);
    const Vec3 a = v(r(15, 10), y, Scalar{});
    const Vec3 b = v(r(1502, 1000), y, Scalar{}); // 2 mm toward the wall
    const Vec3 c = v(r(1499, 1000), y, Scalar{}); // 3 mm back
    const CheckReport rep =
        check(sc, {tick_of(at(a, true, a), {pressed}), tick_of(at(b, true, a), {pressed}),
                   tick_of(at(c, true, b), {pressed}), tick_of(at(b, true, c), {pressed})});
    // Reversals: +2 mm then -3 mm (min 2 mm), -3 mm then +3 mm (min 3 mm).
    CHECK(rep.metrics[0].values[kJitter].value == r(3, 1000));
    // The same movement without the wall contact is not jitter.
    const CheckReport free =
        check(sc, {tick_of(at(a, true, a)), tick_of(at(b, true, a)), tick_of(at(c, true, b))});
    CHECK(free.metrics[0].values[kJitter].value == Scalar{});
}

TEST_CASE("state expectations report the first failing tick, the value and the bound",
          "[checks][expect]") {
    const std::string yaml =
        run_and_release() +
        "expect:\n"
        "  - {tick: 59, character: 1, horizontal_speed: 6.2, grounded: true}\n"
        "  - {ticks: [0, 99], vy: 0}\n"
        "  - {ticks: [60, 99], z: {max: 7}}\n"
        "  - character: 1\n    metrics: {stop_time_ms: [100, 110], flicker_count: 0}\n";
    const Scenario sc = load_ok(yaml);
    CHECK(sc.expect_states.size() == 3);
    CHECK(sc.expect_metrics.size() == 1);
    const CheckReport rep = run_ok(sc);
    CHECK(rep.expectations == 4);
    REQUIRE(rep.expectation_failures() == 2);
    CHECK(rep.invariant_failures() == 0);
    // The body reaches 6.2 m/s after 7 ticks (0.9 m/s per tick), so in 60 ticks it covers
    // 60 x 0.124 m less about 0.4 m lost while accelerating: about 7.0 m, and more while
    // braking, so z > 7 on every one of the 40 ticks from 60 on; the first is reported.
    CHECK(rep.failures[0].message.rfind("expect[2] (line 14): tick 60, character 1: z = ", 0) == 0);
    CHECK(rep.failures[0].message.find(", expected <= 7 (and 39 more ticks)") != std::string::npos);
    CHECK(rep.failures[1].tick == -1);
    CHECK(rep.failures[1].message ==
          "expect[3] (line 15): character 1: stop_time_ms = 120, expected [100, 110]");
}

TEST_CASE("same_as holds for a level shifted by whole metres and fails for a wrong offset",
          "[checks][expect]") {
    const fs::path dir = fs::temp_directory_path() / "fxkcc-checks-test";
    fs::create_directories(dir);
    auto level = [](int dx) {
        auto x = [&](int v) { return std::to_string(v + dx); };
        return "world:\n  - box: {id: 1, center: [" + x(0) +
               ", -0.5, 0], half_extents: [20, 0.5, 20]}\n"
               "  - box: {id: 2, center: [" +
               x(3) +
               ", 1, 4], half_extents: [0.5, 1, 3]}\n"
               "  - ramp: {id: 3, foot: [" +
               x(-3) +
               ", 0, 2], yaw: 0, angle: 30, length: 6, width: 3}\n"
               "characters:\n  - id: 1\n    spawn: [" +
               x(0) +
               ", 0.015, 0]\n"
               "    input: {segments: [{ticks: 60, stick: [0.7, 0.7]}, {ticks: 60, stick: [-1, 0.3]}]}\n";
    };
    {
        std::ofstream(dir / "origin.yaml")
            << "format: 1\nname: origin\ndescription: d\nticks: 120\n"
            << level(0);
    }
    const std::string far = "format: 1\nname: far\ndescription: d\nticks: 120\n" + level(100000) +
                            "expect:\n  - {same_as: origin.yaml, offset: [100000, 0, 0]}\n";
    const CheckReport ok = run_ok(load_ok(far, dir.string()));
    CHECK(ok.passed());
    CHECK(ok.expectations == 1);
    const std::string wrong = "format: 1\nname: far\ndescription: d\nticks: 120\n" + level(100000) +
                              "expect:\n  - {same_as: origin.yaml, offset: [99999, 0, 0]}\n";
    const CheckReport bad = run_ok(load_ok(wrong, dir.string()));
    REQUIRE(bad.expectation_failures() == 1);
    INFO(bad.failures[0].message);
    CHECK(bad.failures[0].message.rfind(
              "expect[0] (line 14): same_as 'origin.yaml': tick 0: character 1: position (100000",
              0) == 0);
    fs::remove_all(dir);
}

TEST_CASE("expect errors name the line, column, key path and what was expected",
          "[checks][expect][loader]") {
    const std::string head = run_and_release();
    CHECK(load_err(head + "expect:\n  - {tick: 5, sped: 1}\n") ==
          "scenarios/x.yaml:12:15: expect[0]: unknown key 'sped', did you mean 'speed'?");
    CHECK(load_err(head + "expect:\n  - {tick: 100, y: 0}\n") ==
          "scenarios/x.yaml:12:12: expect[0].tick: expected an integer from 0 to 99, found '100'");
    CHECK(
        load_err(head + "expect:\n  - {tick: 5, character: 2, y: 0}\n") ==
        "scenarios/x.yaml:12:26: expect[0].character: expected the id of a character of this scenario (1), found '2'");
    CHECK(load_err(head + "expect:\n  - {tick: 5, y: [2, 1]}\n") ==
          "scenarios/x.yaml:12:22: expect[0].y[1]: expected a maximum >= the minimum 2, found '1'");
    CHECK(load_err(head + "expect:\n  - {tick: 5, ticks: [1, 2], y: 0}\n") ==
          "scenarios/x.yaml:12:15: expect[0].ticks: expected either 'tick' or 'ticks', found both");
    CHECK(
        load_err(head + "expect:\n  - {tick: 5}\n") ==
        "scenarios/x.yaml:12:5: expect[0]: expected at least one check (grounded, platform, or one of x, y, z, vx, "
        "vy, vz, speed, horizontal_speed, surface_speed, ground_angle, facing, character_overlap), found none");
    CHECK(load_err(head + "expect:\n  - {tick: 5, grounded: yes}\n") ==
          "scenarios/x.yaml:12:25: expect[0].grounded: expected true or false, found 'yes'");
    CHECK(
        load_err(head + "expect:\n  - metrics: {stop_time: 1}\n") ==
        "scenarios/x.yaml:12:15: expect[0].metrics: unknown key 'stop_time', did you mean 'stop_time_ms'?");
    CHECK(
        load_err(head + "expect:\n  - {tick: 5, y: abc}\n") ==
        "scenarios/x.yaml:12:18: expect[0].y: expected a number, found 'abc' (expected a number, found 'a')");
}

TEST_CASE("character overlap: measured between colliding characters, none for ghosts",
          "[checks][metrics][characters]") {
    // Two colliding bodies spawned with their axes 0.2 m apart overlap by 0.6 m; the tick's
    // resolution pushes each 0.2 m (depenetration_cap) apart: 0.6 m apart, 0.2 m overlap left
    // after tick 0, none once they are 0.815 apart.
    const std::string two =
        "format: 1\nname: t\ndescription: d\nticks: 10\n" + kFloor +
        "characters:\n  - {id: 1, spawn: [-0.1, 0.015, 0]}\n  - {id: 2, spawn: [0.1, 0.015, 0]}\n";
    const CheckReport a = run_ok(load_ok(two));
    CHECK(metric(a, 1, kMaxCharacterOverlap).value >= r(19999, 100000));
    CHECK(metric(a, 1, kMaxCharacterOverlap).value <= r(20001, 100000));
    CHECK(metric(a, 2, kMaxCharacterOverlap).value == metric(a, 1, kMaxCharacterOverlap).value);
    // Ghosts: they stay where they are and measure nothing.
    const std::string ghosts =
        "format: 1\nname: t\ndescription: d\nticks: 10\n" + kFloor +
        "characters:\n  - {id: 1, spawn: [-0.1, 0.015, 0], settings: {collide_characters: false}}\n"
        "  - {id: 2, spawn: [0.1, 0.015, 0], settings: {collide_characters: false}}\n";
    const CheckReport b = run_ok(load_ok(ghosts));
    CHECK(metric(b, 1, kMaxCharacterOverlap).value == Scalar{});
    // An expectation on it fails when they overlap.
    const CheckReport c =
        run_ok(load_ok(two + "expect:\n  - metrics: {max_character_overlap: {max: 0.01}}\n"));
    CHECK_FALSE(c.failures.empty());
}

// docs/conformance.md, "inside too long": a body deeper than the tolerance in static geometry
// tick after tick, its depth not growing (so the growth invariant says nothing), must be out
// within inside_allowance(deepest, depenetration_cap) ticks: 2 * ceil(0.1 / 0.2) + 10 = 12 for a
// body 0.1 m into the wall with the default 0.2 m cap. Held there, the 13th tick fails it, once;
// out on the 12th tick, nothing fails.
TEST_CASE("a body held inside a wall longer than depenetration needs violates the invariant",
          "[checks][invariants]") {
    const std::string level = "format: 1\nname: t\ndescription: d\nticks: 20\n" + kFloor +
                              "  - box: {id: 7, center: [2.5, 1, 0], half_extents: [0.5, 1, 5]}\n"
                              "characters:\n  - {id: 1, spawn: [0, 0, 0]}\n";
    const Scenario sc = load_ok(level);
    REQUIRE(inside_allowance(r(1, 10), r(2, 10)) == 12);
    // The capsule (radius 0.4) at x = 1.7 reaches x = 2.1: 0.1 m into the wall (x in [2, 3]).
    const Vec3 in = v(r(17, 10), Scalar{}, Scalar{});
    const Vec3 out = v(r(15, 10), Scalar{}, Scalar{});
    std::vector<CheckedTick> held;
    for (int k = 0; k < 20; ++k)
        held.push_back(tick_of(at(in, true, in)));
    const CheckReport stays = check(sc, held);
    REQUIRE(stays.invariant_failures() == 1);
    CHECK(stays.failures[0].tick == 12);
    CHECK(stays.failures[0].message ==
          "tick 12, character 1: inside shape 7 for 13 ticks (0.1 m deep, 0.1 m at most): "
          "depenetration, up to 0.2 m a tick, gets a body out within 12 ticks");
    std::vector<CheckedTick> leaves(held.begin(), held.begin() + 12);
    for (int k = 12; k < 20; ++k)
        leaves.push_back(tick_of(at(out, true, k == 12 ? in : out)));
    CHECK(check(sc, leaves).invariant_failures() == 0);
}

namespace {

std::string report_text(const CheckReport& rep) {
    std::string t = "ticks " + std::to_string(rep.ticks) + " expectations " +
                    std::to_string(rep.expectations) + "\n";
    for (const CharacterMetrics& c : rep.metrics) {
        t += "character " + std::to_string(c.id) + ":";
        for (const MetricValue& v : c.values)
            t += v.present ? " " + std::to_string(v.value.raw()) : " -";
        t += "\n";
    }
    for (const CheckFailure& f : rep.failures)
        t += std::to_string(f.tick) + " " + f.message + "\n";
    return t;
}

} // namespace

TEST_CASE("the checks read the same trace whether or not a run is traced as well",
          "[checks][metrics]") {
    // The checker asks the solve for the kinds of trace event it reads (Checker::kinds); a traced
    // run sends it every kind. Each bundled scenario small enough gives the same report both
    // ways: the metrics built from the trace (jitter from presses, flicker from jumps, steps,
    // iteration caps, pushes) would differ if kinds() left out one that on_event reads. (A
    // carry only excuses a slope ratio already left out for a body on a platform: the one kind
    // whose absence no report shows.)
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(FX_SCENARIOS_DIR))
        if (entry.is_regular_file() && entry.path().extension() == ".yaml")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 60);
    int compared = 0;
    for (const std::string& f : files) {
        Scenario sc;
        LoadError err;
        REQUIRE(load_scenario(f, LoadOptions{}, &sc, &err));
        if (sc.ticks * static_cast<int64_t>(sc.characters.size()) > fxtest::scaled(20000)) continue;
        INFO(f);
        CheckReport plain, traced;
        std::string error;
        REQUIRE(run_checked(sc, nullptr, RunOptions{}, &plain, &error));
        std::ostringstream discard;
        TraceWriter writer(discard);
        RunOptions all;
        all.trace = &writer;
        all.trace_to = sc.ticks;
        REQUIRE(run_checked(sc, nullptr, all, &traced, &error));
        REQUIRE(writer.events() > 0);
        CHECK(report_text(plain) == report_text(traced));
        ++compared;
    }
    CHECK(compared >= 40);
    // A jump under a ceiling 1.5 cm above the head: airborne for one tick, which the jump
    // explains (no flicker); read from the trace's velocity event (none of the bundled scenarios
    // has a spell that short after a jump).
    const Scenario bonk = load_ok("format: 1\nname: bonk\ndescription: d\nticks: 40\n" + kFloor +
                                  "  - box: {id: 2, center: [0, 2.33, 0], half_extents: [5, 0.5, "
                                  "5]}\ncharacters:\n  - id: 1\n    spawn: [0, 0.015, 0]\n"
                                  "    input: {segments: [{ticks: 40}], jumps: [10]}\n");
    const CheckReport plain = run_ok(bonk);
    CHECK(metric(plain, 1, kAirborneTicks).value == Scalar::from_int(1));
    CHECK(metric(plain, 1, kFlickerCount).value == Scalar{});
}
