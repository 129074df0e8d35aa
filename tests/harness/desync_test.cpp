// Tests of the desync tools (cli/forensics/src/desync.cpp, cli/run/src/fault.cpp): a fault injected
// at a random tick, character, field and bit count is located exactly, every time: the first
// divergent tick, the character, the one field that differs (with both raw values) and the first
// trace line where the two solves part (that character's tick-begin on the next tick).
#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "forensics/desync.h"
#include "run/runner.h"
#include "run/suite.h"
#include "scenario/loader.h"
#include "test_support.h"

namespace {

using namespace fx::harness;
namespace kcc = fx::kcc;

// Three bodies that walk, turn, jump and slide along walls and up a ramp: every field of the
// state changes during the run.
const char* kScenario = R"(format: 1
name: faults
description: d
ticks: 160
world:
  - box: {id: 1, center: [0, -0.5, 0], half_extents: [20, 0.5, 20]}
  - box: {id: 2, center: [3, 1, 2], half_extents: [0.5, 1, 4]}
  - ramp: {id: 3, foot: [-4, 0, 3], yaw: 0, angle: 25, length: 6, width: 3}
characters:
  - id: 1
    spawn: [0, 0.015, 0]
    input:
      segments: [{ticks: 40, stick: [0.8, 0.6]}, {ticks: 60, stick: [-0.2, 1]}, {ticks: 60, stick: [-1, -0.3]}]
      jumps: [70, 120]
  - id: 4
    spawn: [-4, 0.015, 0]
    input:
      segments: [{ticks: 90, stick: [0, 1]}, {ticks: 70, stick: [0.5, -1]}]
  - id: 9
    spawn: [2, 0.015, -3]
    input:
      segments: [{ticks: 160, stick: [0.7, 0.7]}]
      jumps: [30, 31, 32, 100]
)";

struct Collect final : public RunSink {
    HashFile hashes;
    std::vector<std::vector<kcc::CharacterState>> states;
    TickHasher hasher;
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, fx::Vec3>> platforms,
                 std::span<const fx::Vec3>, std::string*) override {
        hashes.ticks.push_back(hasher.hash(tick, chars, platforms));
        states.emplace_back(chars.begin(), chars.end());
        return true;
    }
};

struct Run {
    Collect sink;
    std::string trace;
};

Run run(const Scenario& sc, const Fault* fault, int64_t trace_from, int64_t trace_to) {
    Run r;
    r.sink.hashes.header = header_for(sc);
    std::ostringstream trace;
    TraceWriter writer(trace);
    RunOptions opts;
    opts.fault = fault;
    opts.trace = &writer;
    opts.trace_from = trace_from;
    opts.trace_to = trace_to;
    std::string error;
    INFO(error);
    REQUIRE(run_scenario(sc, r.sink, opts, &error));
    r.trace = trace.str();
    return r;
}

} // namespace

TEST_CASE("desync: 100 random faults are located at their tick, character, field and trace step",
          "[desync]") {
    Scenario sc;
    LoadError e;
    REQUIRE(load_scenario_text(kScenario, "faults.yaml", ".", LoadOptions{}, &sc, &e));
    // Fields that are inputs of the next tick's solve, so the traces must part there.
    const std::vector<std::string> fields{"x", "y", "z", "vx", "vy", "vz", "facing"};
    const std::vector<uint32_t> ids{1, 4, 9};
    fxtest::Rng rng(2026);
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        Fault f;
        f.tick = rng.range(0, sc.ticks - 2);
        f.character = ids[static_cast<size_t>(rng.range(0, 2))];
        f.field =
            fields[static_cast<size_t>(rng.range(0, static_cast<int64_t>(fields.size()) - 1))];
        f.bits = static_cast<int>(rng.range(1, 8));
        seen.insert(f.field);
        INFO("fault " << f.tick << ":" << f.character << ":" << f.field << ":" << f.bits);
        const Run base = run(sc, nullptr, f.tick, f.tick + 1);
        const Run bad = run(sc, &f, f.tick, f.tick + 1);
        DesyncReport r = compare_runs(base.sink.hashes, bad.sink.hashes);
        REQUIRE(r.diverged);
        CHECK(r.tick == f.tick);
        REQUIRE(r.entities.size() == 1);
        CHECK(r.entities[0] == EntityRef{EntityKind::kCharacter, f.character});
        add_state_differences(&r, base.sink.states[static_cast<size_t>(f.tick)],
                              bad.sink.states[static_cast<size_t>(f.tick)]);
        REQUIRE(r.characters.size() == 1);
        CHECK(r.characters[0].id == f.character);
        REQUIRE(r.characters[0].fields.size() == 1);
        const FieldDiff& d = r.characters[0].fields[0];
        CHECK(d.field == f.field);
        const uint64_t mask = (uint64_t{1} << f.bits) - 1;
        CHECK((static_cast<uint64_t>(d.expected_raw) ^ static_cast<uint64_t>(d.actual_raw)) ==
              mask);
        r.trace = first_trace_difference(base.trace, bad.trace, 3);
        REQUIRE(r.trace.differs);
        const std::string step = "t=" + std::to_string(f.tick + 1) +
                                 " c=" + std::to_string(f.character) + " tick-begin ";
        CHECK(r.trace.a.rfind(step, 0) == 0);
        CHECK(r.trace.b.rfind(step, 0) == 0);
        const std::string text = format_desync(r, "base", "faulted");
        CHECK(text.find("first divergent tick " + std::to_string(f.tick)) != std::string::npos);
        CHECK(text.find("c" + std::to_string(f.character) + ": " + f.field + " expected ") !=
              std::string::npos);
    }
    CHECK(seen.size() == fields.size()); // every field was hit at least once
}

TEST_CASE("desync: fault text is parsed strictly", "[desync]") {
    Fault f;
    std::string err;
    REQUIRE(parse_fault("57:1:vx:3", &f, &err));
    CHECK(f.tick == 57);
    CHECK(f.character == 1);
    CHECK(f.field == "vx");
    CHECK(f.bits == 3);
    CHECK_FALSE(parse_fault("57:1:vx", &f, &err));
    CHECK(err == "expected TICK:CHARACTER:FIELD:BITS (e.g. 57:1:vx:3), found '57:1:vx'");
    CHECK_FALSE(parse_fault("57:1:speed:3", &f, &err));
    CHECK(err.rfind(
              "unknown fault field 'speed', expected one of: x, y, z, vx, vy, vz, facing, normal_x",
              0) == 0);
    CHECK_FALSE(parse_fault("57:1:vx:0", &f, &err));
    CHECK(err == "expected 1 to 64 bits to flip, found 0");
}

TEST_CASE("desync: first trace difference keeps the common lines before it", "[desync]") {
    const TraceDifference d = first_trace_difference("h\na\nb\nc\nd\n", "h\na\nb\nX\nd\n", 2);
    REQUIRE(d.differs);
    CHECK(d.line == 4);
    CHECK(d.context == std::vector<std::string>{"a", "b"});
    CHECK(d.a == "c");
    CHECK(d.b == "X");
    CHECK_FALSE(first_trace_difference("a\nb\n", "a\nb\n", 2).differs);
    const TraceDifference shorter = first_trace_difference("a\nb\n", "a\n", 2);
    REQUIRE(shorter.differs);
    CHECK(shorter.b.empty());
}
