// Tests of `fxkcc shrink` (cli/forensics/src/shrink.cpp) and of the scenario writer it needs
// (cli/scenario/src/writer.cpp): a failing expectation buried in a bigger level shrinks
// to the few items that make it fail and still fails the same expectation once written and
// loaded back; a desync between two sides (this build, one of them with a fault injected)
// shrinks to the faulted character; and every conformance scenario survives load -> write ->
// load with the same per-tick hashes and the same expectation verdicts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "commands/commands.h"
#include "forensics/shrink.h"
#include "run/checks.h"
#include "run/suite.h"
#include "scenario/loader.h"
#include "scenario/writer.h"

namespace {

namespace fs = std::filesystem;
using namespace fx::harness;

Scenario load_text(const std::string& yaml, const std::string& base = ".") {
    Scenario s;
    LoadError e;
    const bool ok = load_scenario_text(yaml, "scenarios/x.yaml", base, LoadOptions{}, &s, &e);
    INFO(e.to_string());
    REQUIRE(ok);
    return s;
}

/// A 400-tick level: a floor, a 0.3 m high slab from x = 2 in front of character 2, 24 boxes,
/// 4 spheres, a capsule, a ramp, 4 stairs and a platform elsewhere (37 items); five characters
/// with 8 stick segments, 3 jumps and an impulse each; five expectations of which only
/// expect[3] fails: character 2 walks onto the slab (a step up) where it expects to stay low.
/// It fails only with the floor, the slab and a walk toward +x: idle, without the slab, or
/// without the floor (it falls below the slab's edge) it passes.
std::string big_level() {
    std::ostringstream o;
    o << "format: 1\nname: big-level\ndescription: d\nticks: 400\nworld:\n"
      << "  - box: {id: 1, center: [0, -0.5, 0], half_extents: [40, 0.5, 40]}\n"
      << "  - box: {id: 2, center: [12, 0.15, 0], half_extents: [10, 0.15, 3]}\n";
    int id = 3;
    for (int k = 0; k < 24; ++k) {
        o << "  - box: {id: " << id++ << ", center: [" << (k % 6) * 5 - 30 << ", 0.5, "
          << (k / 6) * 5 + 12 << "], half_extents: [0.5, 0.5, 0.5], rotation: [" << k * 7
          << ", 0, 0]}\n";
    }
    for (int k = 0; k < 4; ++k)
        o << "  - sphere: {id: " << id++ << ", center: [" << -20 + k * 3
          << ", 0, -20], radius: 0.7}\n";
    o << "  - capsule: {id: " << id << ", a: [10, 0, -10], b: [10, 2, -10], radius: 0.3}\n";
    o << "  - ramp: {id: " << id + 1 << ", foot: [-10, 0, -30], angle: 20, length: 4, width: 2}\n"
      << "  - stairs: {first_id: " << id + 2
      << ", foot: [20, 0, -20], yaw: 90, steps: 4, rise: 0.2, run: 0.3, width: 1.5}\n"
      << "platforms:\n  - id: 500\n    half_extents: [1, 0.1, 1]\n    waypoints:\n"
      << "      - {tick: 0, center: [25, 1, 25]}\n      - {tick: 100, center: [25, 1, 30]}\n"
      << "characters:\n";
    const char* sticks[] = {"[0.5, 0.5]", "[-1, 0]",    "[0, 1]",   "[1, 0.2]",
                            "[0, 0]",     "[-0.3, -1]", "[0.7, 0]", "[0, -1]"};
    for (int c = 1; c <= 5; ++c) {
        o << "  - id: " << c << "\n    spawn: [" << (c == 2 ? 0 : c * 6 - 20) << ", 0.015, "
          << (c == 2 ? 0 : -c * 4) << "]\n    input:\n      segments:\n";
        for (int s = 0; s < 8; ++s) {
            o << "        - {ticks: 50, stick: "
              << (c == 2 && s < 3 ? "[1, 0]" : sticks[(s + c) % 8]) << "}\n";
        }
        o << "      jumps: [" << 180 + c << ", " << 260 + c << ", " << 330 + c << "]\n"
          << "      impulses:\n        - {tick: " << 200 + c << ", velocity: [0, 2, 1]}\n";
    }
    o << "expect:\n"
      << "  - {character: 1, metrics: {airborne_ticks: [0, 400]}}\n"
      << "  - {tick: 10, character: 3, y: [-1, 10]}\n"
      << "  - {ticks: [100, 300], character: 4, y: [-1, 100]}\n"
      << "  - {tick: 120, character: 2, y: {max: 0.1}}\n"
      << "  - {character: 5, y: [-5, 50]}\n";
    return o.str();
}

TEST_CASE(
    "shrink: a failing expectation in a big level shrinks to the slab, the floor, one body and a walk",
    "[shrink]") {
    const Scenario sc = load_text(big_level());
    FailureSignature sig;
    bool failed = false;
    std::string error;
    REQUIRE(find_check_failure(sc, &sig, &failed, &error));
    REQUIRE(failed);
    REQUIRE(sig.kind == FailureSignature::Kind::kExpectation);
    REQUIRE(sig.expect_index == 3);
    REQUIRE(sig.tick == 120);

    std::vector<std::string> log;
    ShrinkOptions opts;
    opts.progress = [&](const std::string& l) { log.push_back(l); };
    const ShrinkResult r = shrink_scenario(sc, sig, check_oracle(sig, "."), opts);
    INFO(scenario_to_yaml(r.scenario));
    CHECK_FALSE(r.out_of_runs);
    CHECK(r.runs < 200);
    const ShrinkSizes before = shrink_sizes(sc), after = shrink_sizes(r.scenario);
    CHECK(before.world_items == 37);
    CHECK(before.input_events == 5 * (8 + 3 + 1));
    // Just past the failing tick, only character 2, the floor and the slab, one walk.
    CHECK(after.ticks == 121);
    REQUIRE(after.characters == 1);
    CHECK(r.scenario.characters[0].id == 2);
    CHECK(after.world_items == 2);
    REQUIRE(r.scenario.boxes.size() == 2);
    CHECK(r.scenario.boxes[0].id == 1);
    CHECK(r.scenario.boxes[1].id == 2);
    CHECK(r.scenario.platforms.empty());
    CHECK(after.input_events == 1);
    REQUIRE(r.scenario.characters[0].input->sticks.size() == 1);
    CHECK(after.expectations == 1);
    CHECK_FALSE(log.empty());

    // Written and loaded back: it is a valid scenario and fails the same expectation (now
    // expect[0]).
    const Scenario back = load_text(scenario_to_yaml(r.scenario));
    CheckReport rep;
    REQUIRE(run_checked(back, nullptr, RunOptions{}, &rep, &error));
    REQUIRE(rep.expectation_failures() == 1);
    CHECK(rep.failures[0].message.rfind("expect[0] (line ", 0) == 0);
    CHECK(rep.failures[0].message.find("tick 120, character 2: y = 0.3") != std::string::npos);
    CHECK(rep.failures[0].message.find("expected <= 0.1") != std::string::npos);
    // Each remaining piece is needed: without any one of them it passes.
    for (int drop = 0; drop < 3; ++drop) {
        Scenario less = back;
        if (drop < 2) less.boxes.erase(less.boxes.begin() + drop);
        if (drop == 2) less.characters[0].input.edit().sticks.clear();
        REQUIRE(run_checked(less, nullptr, RunOptions{}, &rep, &error));
        CHECK(rep.expectation_failures() == 0);
    }
}

TEST_CASE(
    "shrink: the command refuses a passing scenario and writes a loadable, still failing file",
    "[shrink]") {
    TempFolder tmp;
    REQUIRE(tmp.ok());
    const fs::path dir(tmp.path());
    const std::string in = (dir / "big.yaml").generic_string(),
                      out = (dir / "small.yaml").generic_string();
    {
        std::string text = big_level(), err;
        REQUIRE(write_file_atomic(in, text, &err));
    }
    ShrinkCommand cmd;
    cmd.scenario = in;
    cmd.output = out;
    std::ostringstream o, e;
    REQUIRE(shrink_command(cmd, o, e) == kExitOk);
    INFO(o.str() << e.str());
    CHECK(
        o.str().find(
            "before: ticks 400, characters 5, world items 37, input events 60, expectations 5\n") !=
        std::string::npos);
    CHECK(o.str().find("after:  ticks 121, characters 1, ") != std::string::npos);
    Scenario small;
    LoadError le;
    REQUIRE(load_scenario(out, LoadOptions{}, &small, &le));
    CHECK(small.name == "big-level-shrunk");
    CHECK(small.description.find("big-level") != std::string::npos);
    CHECK(small.description.find("expect[3]") != std::string::npos);

    // The shrunk file passes once its failing expectation is gone: nothing to shrink, exit 2.
    small.expect_states.clear();
    std::string err;
    REQUIRE(write_file_atomic(in, scenario_to_yaml(small), &err));
    std::ostringstream o2, e2;
    CHECK(shrink_command(cmd, o2, e2) == kExitBadInput);
    CHECK(e2.str() == "fxkcc shrink: the scenario does not fail: nothing to shrink\n");
}

#ifdef FXKCC_BINARY
TEST_CASE("shrink: a whole-run lower bound keeps its ticks, an upper bound loses them",
          "[shrink]") {
    // Character 1 walks on flat ground for 100 ticks: never airborne. "airborne at least one
    // tick" fails in every shorter run whatever the controller does, so cutting the run would
    // prove nothing: the ticks stay. "at most 50 ticks airborne" for a body that falls from the
    // start (character 2, 20 m up) fails from tick 50 on: the ticks shrink to that.
    const std::string base =
        "format: 1\nname: n\ndescription: d\nticks: 100\nworld:\n"
        "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n"
        "characters:\n"
        "  - {id: 1, spawn: [0, 0.015, 0], input: {segments: [{ticks: 100, stick: [1, 0]}]}}\n"
        "  - {id: 2, spawn: [5, 20, 5]}\n"
        "expect:\n";
    for (const bool lower : {true, false}) {
        INFO((lower ? "lower bound" : "upper bound"));
        const Scenario sc = load_text(
            base + (lower ? "  - {character: 1, metrics: {airborne_ticks: {min: 1}}}\n"
                          : "  - {character: 2, metrics: {airborne_ticks: {max: 50}}}\n"));
        FailureSignature sig;
        bool failed = false;
        std::string error;
        REQUIRE(find_check_failure(sc, &sig, &failed, &error));
        REQUIRE(failed);
        REQUIRE(sig.tick < 0); // a whole-run check
        const ShrinkResult r = shrink_scenario(sc, sig, check_oracle(sig, "."), ShrinkOptions{});
        if (lower) {
            CHECK(r.scenario.ticks == 100);
        } else {
            CHECK(r.scenario.ticks == 51);
        }
    }
}

TEST_CASE("shrink: a desync of two sides (one faulted) shrinks to the faulted character",
          "[shrink]") {
    const Scenario sc = load_text(big_level());
    Side a, b;
    std::string error;
    REQUIRE(make_side(FXKCC_BINARY, "", &a, &error));
    REQUIRE(make_side(FXKCC_BINARY, "--inject-fault 150:4:vx:3", &b, &error));
    TempFolder tmp;
    REQUIRE(tmp.ok());
    FailureSignature sig;
    bool diverged = false;
    REQUIRE(find_desync(sc, a, b, tmp, &sig, &diverged, &error));
    INFO(error);
    REQUIRE(diverged);
    CHECK(sig.tick == 150);
    CHECK(sig.entity.label() == "c4");
    const ShrinkResult r = shrink_scenario(sc, sig, desync_oracle(sig, a, b, tmp), ShrinkOptions{});
    CHECK(r.scenario.ticks == 151);
    REQUIRE(r.scenario.characters.size() == 1);
    CHECK(r.scenario.characters[0].id == 4);
    CHECK(shrink_sizes(r.scenario).world_items == 0);
    CHECK(shrink_sizes(r.scenario).expectations == 0);
    // Still diverges, at c4 tick 150; a run without the fault on either side agrees.
    FailureSignature again;
    REQUIRE(find_desync(r.scenario, a, b, tmp, &again, &diverged, &error));
    CHECK(diverged);
    CHECK(again.tick == 150);
    CHECK(again.entity.label() == "c4");
    REQUIRE(find_desync(r.scenario, a, a, tmp, &again, &diverged, &error));
    CHECK_FALSE(diverged);
}
#endif

/// Failures with "(line N)" removed: line numbers move when a file is rewritten.
std::vector<std::string> verdicts(const CheckReport& rep) {
    std::vector<std::string> v;
    static const std::regex line(R"( \(line \d+\))");
    for (const CheckFailure& f : rep.failures)
        v.push_back(std::to_string(f.tick) + " " + std::regex_replace(f.message, line, ""));
    return v;
}

TEST_CASE(
    "scenario writer: every conformance scenario round-trips with the same hashes and verdicts",
    "[shrink]") {
    const fs::path dir =
        fs::path(FX_HARNESS_TEST_DATA) / ".." / ".." / ".." / "scenarios" / "conformance";
    std::vector<std::string> paths;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".yaml") paths.push_back(e.path().generic_string());
    }
    std::sort(paths.begin(), paths.end());
    REQUIRE(paths.size() >= 40);
    for (const std::string& p : paths) {
        INFO(p);
        Scenario a, b;
        LoadError le;
        REQUIRE(load_scenario(p, LoadOptions{}, &a, &le));
        const std::string yaml = scenario_to_yaml(a);
        INFO(yaml.substr(0, 2000));
        const bool ok = load_scenario_text(yaml, p, fs::path(p).parent_path().generic_string(),
                                           LoadOptions{}, &b, &le);
        INFO(le.to_string());
        REQUIRE(ok);
        // Written again from what was read back: the same text (the writer is a fixed point).
        CHECK(scenario_to_yaml(b) == yaml);
        HashFile ha, hb;
        std::string error;
        REQUIRE(run_to_hash_file(a, &ha, &error));
        REQUIRE(run_to_hash_file(b, &hb, &error));
        CHECK(ha.ticks == hb.ticks);
        CHECK(ha.header.entities == hb.header.entities);
        CheckReport ra, rb;
        REQUIRE(run_checked(a, nullptr, RunOptions{}, &ra, &error));
        REQUIRE(run_checked(b, nullptr, RunOptions{}, &rb, &error));
        CHECK(ra.expectations == rb.expectations);
        CHECK(verdicts(ra) == verdicts(rb));
    }
}

TEST_CASE("scenario writer: same_as paths are rewritten relative to the output folder, or dropped",
          "[shrink]") {
    const fs::path dir =
        fs::path(FX_HARNESS_TEST_DATA) / ".." / ".." / ".." / "scenarios" / "conformance";
    Scenario a;
    LoadError le;
    REQUIRE(load_scenario((dir / "far-100km.yaml").generic_string(), LoadOptions{}, &a, &le));
    REQUIRE(a.expect_same_as.size() == 1);
    ScenarioWriteOptions wo;
    wo.output_dir = (dir / "sub").generic_string();
    CHECK(scenario_to_yaml(a, wo).find("same_as: \"../" + a.expect_same_as[0].path + "\"") !=
          std::string::npos);
    wo.drop_same_as = true;
    CHECK(scenario_to_yaml(a, wo).find("same_as") == std::string::npos);
}

} // namespace
