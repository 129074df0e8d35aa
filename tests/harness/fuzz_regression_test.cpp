// Regression tests for what fuzzing found (scripts/fuzz.sh, tests/fuzz, docs/fuzzing.md): each
// feeds the crashing input (as the scenario the fuzz target decoded it to) through the same
// path. In the checked build (FX_CHECKED, build-portable/ of scripts/test.sh) an overflow
// aborts the test binary, so these fail loudly if a fix is undone.
#include <catch2/catch.hpp>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kcc/settings.h"
#include "kcc/state.h"
#include "records/hash_file.h"
#include "run/checks.h"
#include "run/runner.h"
#include "scenario/loader.h"

namespace {

using namespace fx::harness;

std::string scenario(const std::string& vertices) {
    return "format: 1\nname: fuzz-regression\ndescription: x\nticks: 3\nworld:\n"
           "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n"
           "  - mesh: {id: 2, vertices: " +
           vertices +
           ", triangles: [[0, 1, 2]]}\n"
           "characters:\n  - {id: 1, spawn: [1, 0.015, 1], input: {segments: [{ticks: 3, stick: [1, 0]}]}}\n";
}

} // namespace

// fuzz_controller, tests/fuzz/corpus/controller/seed4: a mesh triangle with 80 km edges made
// TriangleMesh::build overflow (|cross(e1, e2)| beyond 2^31 m^2: "fx::sqrt_q64" in the checked
// build, a wrapped normal otherwise); a 40 km triangle then overflowed in the first query
// ("fx::dot (component beyond 2^30)": |cross| beyond 2^30 m^2). Edges are now bounded by
// geo::kMaxTriangleEdge (30 km).
TEST_CASE("fuzz regression: a mesh triangle with edges over 30 km is refused, not an overflow") {
    Scenario sc;
    LoadError err;
    REQUIRE_FALSE(load_scenario_text(scenario("[[0, 0, 0], [80000, 0, 0], [0, 1, 80000]]"),
                                     "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(
        err.to_string() ==
        "x.yaml:7:11: world[1].mesh: triangle 0: too large (edge 0 is 80000 m long, at most 30000 m: indices 0, 1, 2)");
    // 40 km edges: |cross| = 1.36e9 m^2, beyond the 2^30 of the queries' dot products.
    REQUIRE_FALSE(load_scenario_text(scenario("[[0, 0, 0], [40000, 0, 0], [20000, 0, 34000]]"),
                                     "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.message ==
          "triangle 0: too large (edge 0 is 40000 m long, at most 30000 m: indices 0, 1, 2)");
    // The seed's own triangle: 80,282 m, as far as 1,000 km from the origin.
    REQUIRE_FALSE(load_scenario_text(
        scenario(
            "[[-791040, -46017, 645740], [-791040, -46000, 725990], [-751000, -46017, 645740]]"),
        "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.message.find("too large") != std::string::npos);
}

TEST_CASE(
    "fuzz regression: a mesh triangle with edges up to 30 km loads and runs without overflow") {
    Scenario sc;
    LoadError err;
    // Edges 30000, 29999.3 and 29999.3 m; |cross| = 30000 * 25980 = 7.8e8 m^2 < 2^30.
    REQUIRE(load_scenario_text(scenario("[[0, 0, 0], [30000, 0, 0], [15000, 0, 25980]]"), "x.yaml",
                               ".", LoadOptions{}, &sc, &err));
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    INFO(format_failures(report, "  "));
    CHECK(report.failures.empty());
}

// fuzz_controller, tests/fuzz/known/controller-overflow-dot: a static capsule 130 km long
// overflowed in fx::dot (closest_seg_seg squares the segment's direction as a Scalar) while the
// world was built. Static capsule segments are now bounded by geo::kMaxCapsuleSegment (30 km;
// loader, StaticScene::build). A character's segment was bounded the same way until the bounds
// generator (bounds_test.cpp) found overflows in the casts of long step and probe settings: every
// length setting, the height included, is now at most 1000 m (loader, kcc::validate).
TEST_CASE("fuzz regression: a capsule segment over 30 km is refused, not an overflow") {
    auto text = [](const std::string& item, const std::string& settings) {
        return "format: 1\nname: fuzz-regression\ndescription: x\nticks: 3\nworld:\n"
               "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n" +
               item + "characters:\n  - {id: 1, spawn: [0, 0.015, 0]" + settings + "}\n";
    };
    Scenario sc;
    LoadError err;
    REQUIRE_FALSE(load_scenario_text(
        text(
            "  - capsule: {id: 12, a: [2663.102128848, -5, 83116.698596304], b: [101875.935917199, 35524.97, 9162.067467134], radius: 42148}\n",
            ""),
        "x.yaml", ".", LoadOptions{}, &sc, &err));
    INFO(err.to_string());
    CHECK(err.path == "world[1].capsule.b");
    CHECK(err.message.rfind(
              "expected a capsule segment of at most 30000 m, found 128743.3595257148 m from a",
              0) == 0);
    REQUIRE_FALSE(load_scenario_text(text("", ", settings: {radius: 1, height: 1000.000001}"),
                                     "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.path == "characters[0].settings.height");
    CHECK(err.message == "expected a length from -1000 to 1000 metres, found '1000.000001'");
    // A 30 km capsule and a body 1000 m tall (the largest): load, build and run checked.
    REQUIRE(load_scenario_text(
        text("  - capsule: {id: 12, a: [5, 1, -15000], b: [5, 1, 15000], radius: 1}\n",
             ", settings: {radius: 1, height: 1000}"),
        "x.yaml", ".", LoadOptions{}, &sc, &err));
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    INFO(format_failures(report, "  "));
    CHECK(report.failures.empty());
}

// kcc::validate, for a game that builds Settings without the loader: each length setting over
// 1000 m is named.
TEST_CASE("kcc::validate refuses each length setting over 1000 m by name") {
    const Scalar over = Scalar::from_int(1000) + Scalar::from_raw(1);
    const struct {
        Scalar kcc::Settings::*field;
        const char* message;
    } cases[] = {{&kcc::Settings::radius, "radius: must be at most 1000 m"},
                 {&kcc::Settings::height, "height: must be at most 1000 m"},
                 {&kcc::Settings::skin, "skin: must be at most 1000 m"},
                 {&kcc::Settings::probe_distance, "probe_distance: must be at most 1000 m"},
                 {&kcc::Settings::probe_skin, "probe_skin: must be at most 1000 m"},
                 {&kcc::Settings::snap_distance, "snap_distance: must be at most 1000 m"},
                 {&kcc::Settings::depenetration_cap, "depenetration_cap: must be at most 1000 m"},
                 {&kcc::Settings::step_height, "step_height: must be at most 1000 m"},
                 {&kcc::Settings::step_min_forward, "step_min_forward: must be at most 1000 m"}};
    for (const auto& c : cases) {
        kcc::Settings s;
        std::string error;
        s.*c.field = over;
        CHECK_FALSE(kcc::validate(s, &error));
        CHECK(error == c.message);
        s.*c.field = Scalar::from_int(1000);
        // At the bound the length check passes (other rules, e.g. skin < radius, may still refuse).
        error.clear();
        kcc::validate(s, &error);
        CHECK(error != c.message);
    }
    kcc::Settings big;
    big.radius = Scalar::from_int(500);
    big.height = Scalar::from_int(1000);
    big.skin = Scalar::from_int(1);
    big.probe_distance = big.snap_distance = big.depenetration_cap = big.step_height =
        big.step_min_forward = Scalar::from_int(1000);
    big.probe_skin = Scalar::from_int(1000);
    std::string error;
    const bool valid = kcc::validate(big, &error);
    INFO(error);
    CHECK(valid);
}

// fuzz_loader, tests/fuzz/corpus/loader/regress-comma-hang: a ',' outside any flow collection
// made yaml-cpp 0.7.0's LoadAll loop for ever, allocating (it reads the ',' as an empty document
// without consuming it). The loader now walks the documents first and stops where the reader
// does not move. If this regresses, the test hangs (ctest's timeout) instead of failing.
TEST_CASE("fuzz regression: a stray ',' at the top level is a syntax error, not a hang") {
    Scenario sc;
    LoadError err;
    REQUIRE_FALSE(load_scenario_text(",", "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(
        err.to_string() ==
        "x.yaml:1:1: YAML syntax error: unexpected ',' outside a flow sequence [...] or flow mapping {...}");
    REQUIRE_FALSE(
        load_scenario_text("format: 1\n---\n[1, 2]\n,\n", "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(
        err.to_string() ==
        "x.yaml:4:1: YAML syntax error: unexpected ',' outside a flow sequence [...] or flow mapping {...}");
}

// ---- controller findings of fuzz_controller (docs/fuzzing.md, Findings) --------------------
// Each scenario is in tests/harness/data/fuzz/: the decoded reproducers as fuzz_controller
// printed them (FXKCC_FUZZ_PRINT=1) and small hand-made levels that isolate each cause.

namespace {

std::string fuzz_data(const std::string& name) {
#ifdef FX_HARNESS_TEST_DATA
    return std::string(FX_HARNESS_TEST_DATA) + "/fuzz/" + name;
#else
    return "tests/harness/data/fuzz/" + name;
#endif
}

/// Runs a scenario of data/fuzz/ checked; every failure (invariants included) goes to *report.
void run_fuzz_scenario(const std::string& name, CheckReport* report, RunSink* sink = nullptr) {
    Scenario sc;
    LoadError err;
    INFO(name);
    LoadOptions opts;
    opts.allow_repeated_triangles = true; // levels as fuzz_controller decoded them
    REQUIRE(load_scenario(fuzz_data(name), opts, &sc, &err));
    std::string error;
    REQUIRE(run_checked(sc, sink, RunOptions{}, report, &error));
}

/// Records every character's state of every tick.
class StatesSink final : public RunSink {
public:
    std::vector<std::vector<fx::kcc::CharacterState>> ticks;
    bool on_tick(int64_t, std::span<const fx::kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, fx::Vec3>>, std::span<const fx::Vec3>,
                 std::string*) override {
        ticks.emplace_back(chars.begin(), chars.end());
        return true;
    }
};

/// Runs a scenario of data/fuzz/ checked and requires every check to hold; returns every
/// character's state of every tick.
std::vector<std::vector<fx::kcc::CharacterState>> run_clean(const std::string& name) {
    CheckReport report;
    StatesSink states;
    run_fuzz_scenario(name, &report, &states);
    INFO(name << "\n" << format_failures(report, "  "));
    CHECK(report.failures.empty());
    return std::move(states.ticks);
}

} // namespace

// corpus/controller/regress-penetration-1, -4 and regress-teleport-into-floor: the platform
// carry translated a rider unswept, into static geometry (a mesh triangle, a stair block, the
// floor: a looping platform jumping back to its first waypoint sank 0.17 m), faster than the
// capped depenetration could undo. The carry is now swept (kcc::carry).
TEST_CASE("fuzz regression: a platform carry does not take its rider into static geometry") {
    for (const char* name :
         {"penetration-1.yaml", "penetration-4.yaml", "teleport-into-floor.yaml"}) {
        run_clean(name);
    }
    // Hand-made: a platform sinking through the floor at 0.45 m a tick; its rider stops on the
    // floor (skin above it) instead of going down with it.
    const auto ticks = run_clean("carry-into-floor.yaml");
    REQUIRE(ticks.size() == 12);
    for (const auto& tick : ticks)
        CHECK(tick[0].position.y >= fx::Scalar::ratio(14, 1000));
}

// corpus/controller/regress-penetration-2, -3 and thin-slab-push-through.yaml (a reduced case):
// depenetration resolved contacts one by one, so the push out of one shape (a platform's slanted
// face, a slab's bottom face) carried the body into another (the floor), and the depth there
// grew. The push is now kept out of every shape within its reach (kcc::depenetrate).
// regress-deep-spawn-penetration: a body spawned inside a 19 m capsule half sunk in the floor
// was pushed out of the capsule into the floor, 3 cm deeper each tick.
TEST_CASE("fuzz regression: depenetration does not push a body into other geometry") {
    // escape-into-steep-ramp: a thin platform pressing a body into the corner of the floor and a
    // steep ramp; the stalled push's escape went sideways, unconstrained, 4 cm into the ramp.
    for (const char* name : {"penetration-2.yaml", "penetration-3.yaml", "push-into-floor.yaml",
                             "deep-spawn-penetration.yaml", "escape-into-steep-ramp.yaml"}) {
        run_clean(name);
    }
    // A 2.6 mm body spawned inside a 3 mm slab lying on the floor: it was pushed through the
    // slab's bottom face into the floor on tick 0, back up on tick 1, and so on (the depth
    // alternated, so only the fuzzer's bounds oracle saw it). It now stays above the floor.
    const auto ticks = run_clean("thin-slab-push-through.yaml");
    REQUIRE(ticks.size() == 5);
    for (const auto& tick : ticks)
        CHECK(tick[0].position.y >= fx::Scalar{});
}

// docs/fuzzing.md: a body spawned with its feet exactly on the floor (gap 0, less than skin)
// never moved: every sweep of the horizontal pass hit the floor at distance 0 (a start overlap,
// reported whatever the direction), and the iteration cap dropped the motion. Sweeps now look
// past contacts the motion does not go into.
TEST_CASE("fuzz regression: a body touching the floor with no gap walks") {
    const auto ticks = run_clean("floor-gap-zero.yaml");
    REQUIRE(ticks.size() == 20);
    const fx::kcc::CharacterState& last = ticks.back()[0];
    CHECK(last.position.x > fx::Scalar::one()); // 20 ticks accelerating toward 6.2 m/s: about 2 m
    CHECK(last.position.y >= fx::Scalar{});
    CHECK(last.grounded);
}

// corpus/controller/regress-grounded-no-ground: at 1 Hz a body fell 8 m onto the round side of
// a capsule, landed on a 35 degree normal, slid the rest of the fall along that tangent plane off
// the capsule and ended the tick in the air, still grounded (the landing set the ground without a
// look where the body ended). A body that slides on after landing is now probed where it ends.
TEST_CASE("fuzz regression: a landing that slides off a round surface is not grounded in the air") {
    run_clean("grounded-no-ground.yaml");
}

// Oracle findings (run/checks.h), with FXKCC_FUZZ_OVERLAPPING_SPAWNS=1 FXKCC_FUZZ_GROUND=1
// (corpus/controller/regress-ground-check-many-hits, regress-stuck-in-stairs-rounding):
// - the grounded check read past its 8-hit buffer when more hits lay in the probe band
//   (cast_all returns how many there are in all): an out-of-bounds read that UBSan/ASan builds
//   report on this level;
// - a body spawned inside a stair block that touches the next block cannot be pushed out (the
//   push is dropped), slides along the block's face and drifts deeper by rounding (far below a
//   micrometre a tick), which "deeper than the tick before" reported as growing penetration.
TEST_CASE("fuzz regression: the checks' grounded cast and rounding drift of a stuck body") {
    for (const char* name : {"ground-check-many-hits.yaml", "stuck-in-stairs-rounding.yaml"}) {
        run_clean(name);
    }
}

// corpus/controller/regress-overlap-spawn-tiny-mesh (469 s into a run with
// FXKCC_FUZZ_OVERLAPPING_SPAWNS=1 FXKCC_FUZZ_GROUND=1): a large body (radius 0.93 m) spawned around
// an 8 mm mesh square walked away from it and down a little; the invariant measured the square's
// triangle whose closest feature is the inactive diagonal by its face push (the height of the
// body's core above the square: 0.31, then 0.41 m, "the depth grew") while the body's real depth
// in the square shrank (0.31 to 0.25 m). The invariant now measures the minimum translation
// distance (checks.cpp, penetration; checks_test.cpp has the hand-worked case).
// The first version of that measure took the cores as apart whenever the computed gap was above
// 0: a body whose core crossed a 15 km mesh triangle had a gap of 1 raw unit from rounding, read
// 0.4 m (its radius) instead of its 0.67 m, and "grew" to 0.47 m the next tick while it rose out
// (corpus/controller/regress-core-crosses-large-mesh, 3 such findings in 19 min of fuzzing). The
// cores now count as apart beyond 2^-20 m.
TEST_CASE(
    "fuzz regression: a body walking away from a tiny mesh inside it is not growing penetration") {
    run_clean("overlap-spawn-tiny-mesh.yaml");
    run_clean("core-crosses-large-mesh.yaml");
}

// Review of the depenetration constraints: a shape nearer than skin used to forbid any approach,
// so a body 5 mm inside one wall of a corridor whose other wall was 10 mm away stayed inside the
// first wall for ever (its depth did not grow, so no invariant saw it). A push may now close a
// gap, never cross it: the body leaves the left wall and stops short of the right one.
TEST_CASE("fuzz regression: a push out of one wall may close the gap to the other, not cross it") {
    const auto ticks = run_clean("corridor-push.yaml");
    REQUIRE(ticks.size() == 5);
    const fx::Scalar x = ticks.back()[0].position.x;
    INFO("x = " << x.raw());
    CHECK(x >= fx::Scalar::ratio(5, 1000) -
                   fx::Scalar::ratio(1, 100000)); // out of the left wall (its face at x - 0.395)
    CHECK(x <= fx::Scalar::ratio(10, 1000)); // not into the right one (its face at x + 0.41)
}

// fuzz_formats, tests/fuzz/corpus/formats/regress-hash-control-character (76 s into a run of
// scripts/fuzz.sh 900): a hash file whose header values held control characters (a CR before
// the line's CRLF end, NULs) was read, and written back as text that read differently (the
// reader drops one CR per line). Header values are now refused with a control character.
TEST_CASE("fuzz regression: a hash file header value with a control character is refused") {
    const std::string head =
        "fxkcc-hashes 1\nhash xxh3-64\nstate-bytes 2\nplatform-bytes 1\nengine fxkcc 0.1.0\n"
        "behaviour 4\nscenario tiny\ndigest 0123456789abcdef\ntarget x86_64-linux\n"
        "compiler gcc-12.2.0\n";
    HashFile f;
    std::string err;
    REQUIRE_FALSE(
        parse_hash_file(head + "flags -O3\r\r\nwide int128\nticks 1\n", "g.hashes", &f, &err));
    CHECK(err ==
          "g.hashes:11: expected text after 'flags', found the control character 0x0D in '-O3\\r'");
    REQUIRE_FALSE(
        parse_hash_file(std::string(head).replace(head.find("tiny"), 4, std::string("ti\0ny", 5)),
                        "g.hashes", &f, &err));
    CHECK(
        err ==
        "g.hashes:7: expected text after 'scenario', found the control character 0x00 in 'ti\\x00ny'");
}
