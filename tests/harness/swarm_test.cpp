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
    CHECK(emitted_digest(11, 16) == "d674f5c9715b8c69");
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
