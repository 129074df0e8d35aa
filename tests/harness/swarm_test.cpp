// fxkcc swarm: the generator is a function of seed and run index alone, byte for byte on every
// target (the digest below is checked on each of the six targets by their test legs); what it
// emits loads back; the oracles report planted violations; the metamorphic relations hold on the
// runs the generator makes.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "harness_test_util.h"
#include "kcc/checksum.h"
#include "scenario/loader.h"
#include "scenario/writer.h"
#include "swarm/generate.h"
#include "swarm/metamorphic.h"
#include "swarm/oracles.h"

using namespace fx;
using namespace fx::harness;
using namespace fx::harness::swarm;

namespace {

std::string hex64(uint64_t v) {
    static const char* d = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[static_cast<size_t>(i)] = d[v & 15];
    return s;
}

/// XXH3-64 of runs [0, n) of `seed`, concatenated: what `--emit` writes, in order.
std::string emitted_digest(uint64_t seed, int64_t n) {
    std::string all;
    for (int64_t i = 0; i < n; ++i) {
        GeneratedRun run;
        std::string error;
        REQUIRE(generate_run(seed, i, kAllFeatures, false, &run, &error));
        all += run.yaml;
    }
    return hex64(kcc::xxh3_64(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(all.data()), all.size())));
}

} // namespace

TEST_CASE("swarm: a seed's scenarios are the same bytes on every target", "[swarm]") {
    // Seed 11, runs 0..15, as x86-64 Linux generated them; every target's test leg recomputes it
    // (16 runs: under qemu each costs about half a second).
    // A change of the generator changes it: the failure prints the new digest; say why in the
    // commit (docs/swarm.md, "Determinism").
    CHECK(emitted_digest(11, 16) == "9bd7b2cf3657128d");
}

TEST_CASE("swarm: every generated scenario loads back to what was generated and uses its features",
          "[swarm]") {
    FeatureMask seen = 0;
    for (int64_t i = 0; i < 16; ++i) {
        GeneratedRun run;
        std::string error;
        REQUIRE(generate_run(7, i, kAllFeatures, false, &run, &error));
        // Written again from what was loaded: the same text (nothing lost on the way).
        CHECK(scenario_to_yaml(run.scenario) == run.yaml);
        CHECK(run.expect_rules.size() ==
              run.scenario.expect_states.size() + run.scenario.expect_metrics.size());
        CHECK((features_of(run.scenario) & ~run.features & ~bit(Feature::kSettings)) == 0);
        seen |= run.features;
    }
    CHECK(seen == kAllFeatures);
    // --features restricts what a run may enable.
    GeneratedRun one;
    std::string error;
    REQUIRE(generate_run(7, 3, bit(Feature::kLedge), false, &one, &error));
    CHECK(one.features == bit(Feature::kLedge));
    FeatureMask parsed = 0;
    CHECK(parse_features("ledge,crowd", &parsed, &error));
    CHECK(parsed == (bit(Feature::kLedge) | bit(Feature::kCrowd)));
    CHECK_FALSE(parse_features("ledge,wall", &parsed, &error));
    CHECK(error.find("unknown feature 'wall'") != std::string::npos);
}

TEST_CASE("swarm: the rule oracle reports a runner that stands still", "[swarm]") {
    GeneratedRun run;
    std::string error;
    std::vector<Finding> found;
    std::map<std::string, int64_t> checked;
    int64_t ct = 0;
    OracleSet plain;
    plain.metamorphic = false;
    plain.synctest = false;
    auto has = [&found](const std::string& oracle) {
        return std::any_of(found.begin(), found.end(),
                           [&](const Finding& f) { return f.oracle == oracle; });
    };
    // The first run of seed 3 with a runner on a raised floor that the rule bounds and that holds.
    bool before = true;
    for (int64_t i = 0; i < 20 && before; ++i) {
        REQUIRE(generate_run(3, i, bit(Feature::kSeams), true, &run, &error));
        if (std::find(run.expect_rules.begin(), run.expect_rules.end(), "seam-run") ==
            run.expect_rules.end())
            continue;
        found.clear();
        checked.clear();
        REQUIRE(check_run(run, plain, &found, &checked, &ct, &error));
        before = has("rule:seam-run");
    }
    // Planted: the runner's stick taken away. It stands still, which the rule must report.
    for (CharacterDef& c : run.scenario.characters)
        c.input.edit().sticks.clear();
    found.clear();
    REQUIRE(check_run(run, plain, &found, &checked, &ct, &error));
    CHECK_FALSE(before);
    CHECK(has("rule:seam-run"));
    CHECK(checked["rules"] == 2);
}

namespace {

/// The floor oracle's findings on one weightless body (gravity 0) hovering over a surface its own
/// probe cannot reach (probe_distance 1 mm), but the oracle's band (skin + probe_skin) does:
/// `world` is the level, the body's feet at `feet`, its step height `step`.
std::vector<Finding> floor_findings(const std::string& world, const std::string& feet,
                                    const std::string& step) {
    const std::string yaml =
        "format: 1\nname: floor-oracle\ndescription: planted\n"
        "tick_rate: 60\nticks: 12\nworld:\n" +
        world + "characters:\n  - id: 1\n    spawn: " + feet +
        "\n    settings: {gravity: 0, probe_distance: 0.001, step_height: " + step + "}\n";
    GeneratedRun run;
    run.yaml = yaml;
    LoadError load_error;
    REQUIRE(load_scenario_text(yaml, "floor-oracle.yaml", ".", LoadOptions{}, &run.scenario,
                               &load_error));
    std::string error;
    OracleSet plain;
    plain.metamorphic = false;
    plain.synctest = false;
    std::vector<Finding> found;
    std::map<std::string, int64_t> checked;
    int64_t ct = 0;
    REQUIRE(check_run(run, plain, &found, &checked, &ct, &error));
    CHECK(checked["floor"] == 1);
    std::vector<Finding> floor;
    for (const Finding& f : found)
        if (f.oracle == "floor") floor.push_back(f);
    return floor;
}

} // namespace

TEST_CASE("swarm: the floor oracle reports a body held airborne within the band, and nothing "
          "beyond the band or on a rim higher than a step",
          "[swarm]") {
    // Band: skin 0.015 + probe_skin 0.02 = 0.035 m (the defaults).
    const std::string plane = "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n";
    SECTION("a floor within the band: airborne over it is reported, once") {
        for (const char* y : {"0.01", "0.02", "0.033"}) {
            INFO("feet at " << y);
            const std::vector<Finding> f =
                floor_findings(plane, std::string("[0, ") + y + ", 0]", "0.35");
            REQUIRE(f.size() == 1);
            CHECK(f[0].character == 1);
            CHECK(f[0].tick == 2); // the third airborne tick
        }
    }
    SECTION("a floor just beyond the band is no floor (run 30337 of seed 20261220: 0.05 m below "
            "over a 0.05 m band, sliding off a sphere)") {
        for (const char* y : {"0.0355", "0.036", "0.05"}) {
            INFO("feet at " << y);
            CHECK(floor_findings(plane, std::string("[0, ") + y + ", 0]", "0.35").empty());
        }
    }
    // A box's top edge along z at x = 0, y = 0.1, the box at x > 0. The body's round base (r 0.4)
    // is 1 cm above touching it where the contact normal's y is 0.8 (walkable): its centre
    // 0.4 * 0.6 = 0.24 m back and 0.32 + 0.01 above the edge, its feet 0.07 m below the edge.
    const std::string box = "  - box: {id: 2, center: [1, 0, 0], half_extents: [1, 0.1, 2]}\n";
    const std::string feet = "[-0.24, 0.03, 0]";
    SECTION("a walkable rim within a step of the feet is floor") {
        CHECK(floor_findings(box, feet, "0.35").size() == 1);
        CHECK(floor_findings(box, feet, "0.1").size() == 1);
    }
    SECTION("a rim higher than a step above the feet is no floor (docs/controller.md, \"No higher "
            "than a step\"; run 25133 of seed 20261220)") {
        CHECK(floor_findings(box, feet, "0.05").empty());
        CHECK(floor_findings(box, feet, "0.02").empty());
    }
}

TEST_CASE("swarm: crowd-apart reports characters left overlapping at the end", "[swarm]") {
    OracleSet plain;
    plain.metamorphic = false;
    plain.synctest = false;
    std::vector<Finding> found;
    std::map<std::string, int64_t> checked;
    int64_t ct = 0;
    auto apart_fails = [&found] {
        return std::any_of(found.begin(), found.end(),
                           [](const Finding& f) { return f.oracle == "crowd-apart"; });
    };
    // The first crowd of seed 5 that ends apart (and is long enough for its derived bound: a
    // crowd whose run ends before it must be apart has no rule).
    GeneratedRun run;
    std::string error;
    bool before = true;
    for (int64_t i = 0; i < 60 && before; ++i) {
        REQUIRE(generate_run(5, i, bit(Feature::kCrowd), true, &run, &error));
        found.clear();
        REQUIRE(check_run(run, plain, &found, &checked, &ct, &error));
        before = apart_fails() || run.crowds.empty();
    }
    REQUIRE_FALSE(before);
    REQUIRE(run.crowds.size() == 1);
    // Planted, in a way the rule does not look for: two of them teleported onto one another at
    // the last tick, with one tick left to push them apart by the cap at most.
    Scenario& sc = run.scenario;
    const Vec3 far = sc.characters.front().spawn + Vec3{Scalar::from_int(30), Scalar{}, Scalar{}};
    for (size_t k = 0; k < 2; ++k) {
        EventDef e;
        e.tick = sc.ticks - 1;
        e.character = sc.characters[k].id;
        e.kind = EventDef::Kind::kTeleport;
        e.feet = far;
        sc.events.push_back(e);
    }
    found.clear();
    REQUIRE(check_run(run, plain, &found, &checked, &ct, &error));
    CHECK(apart_fails());
}

TEST_CASE(
    "swarm: translation, relabelling, a quarter turn and a snapshot round trip are exact on generated runs",
    "[swarm]") {
    // The relations the metamorphic oracles test, on runs without runtime changes (whose order at
    // one tick is a known finding, docs/swarm.md).
    for (int64_t i = 0; i < 3; ++i) {
        GeneratedRun run;
        std::string error;
        REQUIRE(generate_run(9, i, kAllFeatures & ~bit(Feature::kLifecycle), false, &run, &error));
        std::vector<Finding> found;
        std::map<std::string, int64_t> checked;
        int64_t ct = 0;
        OracleSet set;
        REQUIRE(check_run(run, set, &found, &checked, &ct, &error));
        for (const Finding& f : found) {
            INFO(f.oracle << ": " << f.message);
            CHECK(f.oracle != "translate");
            CHECK(f.oracle != "permute");
            CHECK(f.oracle != "frames");
            CHECK(f.oracle != "turn");
            CHECK(f.oracle != "roundtrip");
            // The checked build (i686 leg, FX_CHECKED) records any arithmetic overflow here.
            CHECK(f.oracle != "invariant:overflow");
        }
        CHECK(checked["translate"] == 1);
        CHECK(checked["permute"] == 1);
        CHECK(checked["turn"] == 1);
    }
    // And a translated scenario really moved: its spawns are the original's plus the offset.
    GeneratedRun run;
    std::string error;
    REQUIRE(generate_run(9, 0, kAllFeatures, false, &run, &error));
    const Vec3 d{Scalar::from_int(1000), Scalar::from_int(-7), Scalar::from_int(20)};
    const Scenario t = translated(run.scenario, d);
    CHECK(t.characters.front().spawn == run.scenario.characters.front().spawn + d);
}
