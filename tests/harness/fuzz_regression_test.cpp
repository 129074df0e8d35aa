// Regression tests for what fuzzing found (scripts/fuzz.sh, tests/fuzz, docs/fuzzing.md): each
// feeds the crashing input (as the scenario the fuzz target decoded it to) through the same
// path. In the checked build (FX_CHECKED, build-portable/ of scripts/test.sh) an overflow
// aborts the test binary, so these fail loudly if a fix is undone.
#include <catch2/catch.hpp>

#include <string>

#include "harness/checks.h"
#include "harness/loader.h"

namespace {

using namespace fx::harness;

std::string scenario(const std::string& vertices) {
    return "format: 1\nname: fuzz-regression\ndescription: x\nticks: 3\nworld:\n"
           "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n"
           "  - mesh: {id: 2, vertices: " + vertices + ", triangles: [[0, 1, 2]]}\n"
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
    REQUIRE_FALSE(load_scenario_text(scenario("[[0, 0, 0], [80000, 0, 0], [0, 1, 80000]]"), "x.yaml", ".",
                                     LoadOptions{}, &sc, &err));
    CHECK(err.to_string() ==
          "x.yaml:7:11: world[1].mesh: triangle 0: too large (edge 0 is 80000 m long, at most 30000 m: indices 0, 1, 2)");
    // 40 km edges: |cross| = 1.36e9 m^2, beyond the 2^30 of the queries' dot products.
    REQUIRE_FALSE(load_scenario_text(scenario("[[0, 0, 0], [40000, 0, 0], [20000, 0, 34000]]"), "x.yaml", ".",
                                     LoadOptions{}, &sc, &err));
    CHECK(err.message == "triangle 0: too large (edge 0 is 40000 m long, at most 30000 m: indices 0, 1, 2)");
    // The seed's own triangle: 80,282 m, as far as 1,000 km from the origin.
    REQUIRE_FALSE(load_scenario_text(
        scenario("[[-791040, -46017, 645740], [-791040, -46000, 725990], [-751000, -46017, 645740]]"), "x.yaml", ".",
        LoadOptions{}, &sc, &err));
    CHECK(err.message.find("too large") != std::string::npos);
}

TEST_CASE("fuzz regression: a mesh triangle with edges up to 30 km loads and runs without overflow") {
    Scenario sc;
    LoadError err;
    // Edges 30000, 29999.3 and 29999.3 m; |cross| = 30000 * 25980 = 7.8e8 m^2 < 2^30.
    REQUIRE(load_scenario_text(scenario("[[0, 0, 0], [30000, 0, 0], [15000, 0, 25980]]"), "x.yaml", ".",
                               LoadOptions{}, &sc, &err));
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    INFO(format_failures(report, "  "));
    CHECK(report.failures.empty());
}

// fuzz_controller, tests/fuzz/known/controller-overflow-dot: a static capsule 130 km long
// overflowed in fx::dot (closest_seg_seg squares the segment's direction as a Scalar) while the
// world was built. Capsule segments are now bounded by geo::kMaxCapsuleSegment (30 km), for
// static capsules (loader, StaticScene::build) and characters (kcc::validate).
TEST_CASE("fuzz regression: a capsule segment over 30 km is refused, not an overflow") {
    auto text = [](const std::string& item, const std::string& settings) {
        return "format: 1\nname: fuzz-regression\ndescription: x\nticks: 3\nworld:\n"
               "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n" +
               item + "characters:\n  - {id: 1, spawn: [0, 0.015, 0]" + settings + "}\n";
    };
    Scenario sc;
    LoadError err;
    REQUIRE_FALSE(load_scenario_text(
        text("  - capsule: {id: 12, a: [2663.102128848, -5, 83116.698596304], b: [101875.935917199, 35524.97, 9162.067467134], radius: 42148}\n", ""),
        "x.yaml", ".", LoadOptions{}, &sc, &err));
    INFO(err.to_string());
    CHECK(err.path == "world[1].capsule.b");
    CHECK(err.message.rfind("expected a capsule segment of at most 30000 m, found 128743.3595257148 m from a", 0) == 0);
    REQUIRE_FALSE(load_scenario_text(text("", ", settings: {radius: 1, height: 30002.5}"), "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.message == "height: must be at most 2 * radius + 30000 m (the capsule's segment)");
    // 30 km long and as tall: loads, builds and runs checked.
    REQUIRE(load_scenario_text(text("  - capsule: {id: 12, a: [5, 1, -15000], b: [5, 1, 15000], radius: 1}\n",
                                    ", settings: {radius: 1, height: 30002}"),
                               "x.yaml", ".", LoadOptions{}, &sc, &err));
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    INFO(format_failures(report, "  "));
    CHECK(report.failures.empty());
}

// fuzz_loader, tests/fuzz/corpus/loader/regress-comma-hang: a ',' outside any flow collection
// made yaml-cpp 0.7.0's LoadAll loop for ever, allocating (it reads the ',' as an empty document
// without consuming it). The loader now walks the documents first and stops where the reader
// does not move. If this regresses, the test hangs (ctest's timeout) instead of failing.
TEST_CASE("fuzz regression: a stray ',' at the top level is a syntax error, not a hang") {
    Scenario sc;
    LoadError err;
    REQUIRE_FALSE(load_scenario_text(",", "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.to_string() == "x.yaml:1:1: YAML syntax error: unexpected ',' outside a flow sequence [...] or flow mapping {...}");
    REQUIRE_FALSE(load_scenario_text("format: 1\n---\n[1, 2]\n,\n", "x.yaml", ".", LoadOptions{}, &sc, &err));
    CHECK(err.to_string() == "x.yaml:4:1: YAML syntax error: unexpected ',' outside a flow sequence [...] or flow mapping {...}");
}
