// Runtime changes in scenario files (docs/scenarios.md, "Joins, leaves and events"): characters
// joining and leaving (and joining again), settings changes and teleports, and rotations given
// as matrices. The runner is held to a world driven directly through kcc::World's API (the
// order a game uses: leaves, joins, events, then the step); the loader's refusals give their
// exact messages; hash files mark absent characters '-'; writer and loader round-trip.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fx/decimal.h"
#include "harness_test_util.h"
#include "kcc/world.h"
#include "records/hash_file.h"
#include "run/checks.h"
#include "run/suite.h"
#include "run/synctest.h"
#include "scenario/writer.h"

namespace {

using fx::Scalar;
using fx::Vec3;
using namespace fx::harness;
using fxtest::load_err;
using fxtest::load_ok;

const std::string kEventsHead = "format: 1\nname: t\ndescription: d\nticks: 100\n";

// Three characters on a floor: 2 joins at `join2`, leaves at `leave2` and joins again at
// `rejoin2`; 3 leaves at `leave3`; 1 runs, changes max_speed at `slow1` and is teleported at
// `tp1`.
std::string timeline_yaml(int join2, int leave2, int rejoin2, int leave3, int slow1, int tp1) {
    const auto s = [](int v) { return std::to_string(v); };
    return "format: 1\nname: tl\ndescription: d\nticks: 120\n"
           "world:\n  - box: {id: 1, center: [0, -0.5, 0], half_extents: [40, 0.5, 40]}\n"
           "  - box: {id: 2, center: [3, 0.25, 4], half_extents: [1, 0.25, 1], rotation: [30, 10, -5]}\n"
           "characters:\n"
           "  - {id: 1, spawn: [0, 0.015, -10], input: {segments: [{ticks: 100, stick: [0.3, 1]}], jumps: [20, 70]}}\n"
           "  - {id: 2, spawn: [3, 1, 4], join: " +
           s(join2) + ", leave: " + s(leave2) + ", input: {segments: [{ticks: " + s(join2) +
           "}, {ticks: " + s(std::min(10, leave2 - join2)) +
           ", stick: [-1, 0]}]}}\n"
           "  - {id: 2, spawn: [-4, 0.015, 2], join: " +
           s(rejoin2) +
           ", settings: {radius: 0.3, collide_characters: false}}\n"
           "  - {id: 3, spawn: [0.5, 0.015, -8], leave: " +
           s(leave3) +
           "}\n"
           "events:\n"
           "  - {tick: " +
           s(slow1) +
           ", character: 1, settings: {max_speed: 2.5, jump_speed: 3}}\n"
           "  - {tick: " +
           s(tp1) + ", character: 1, teleport: [2, 1.2, 4]}\n";
}

// The same run made through kcc::World's API: the world checksum of every tick.
std::vector<uint64_t> direct_checksums(int join2, int leave2, int rejoin2, int leave3, int slow1,
                                       int tp1) {
    using namespace fx::kcc;
    World w;
    w.scene().add_box(1, fx::geo::Box::from_yaw_pitch_roll_degrees(
                             {Scalar{}, Scalar::ratio(-1, 2), Scalar{}},
                             {Scalar::from_int(40), Scalar::ratio(1, 2), Scalar::from_int(40)},
                             Scalar{}, Scalar{}, Scalar{}));
    w.scene().add_box(2, fx::geo::Box::from_yaw_pitch_roll_degrees(
                             {Scalar::from_int(3), Scalar::ratio(1, 4), Scalar::from_int(4)},
                             {Scalar::one(), Scalar::ratio(1, 4), Scalar::one()},
                             Scalar::from_int(30), Scalar::from_int(10), Scalar::from_int(-5)));
    const Scalar skin = Scalar::ratio(15, 1000);
    std::string e;
    Settings base;
    REQUIRE(w.add_character(1, {Scalar{}, skin, Scalar::from_int(-10)}, base, &e));
    REQUIRE(w.add_character(3, {Scalar::ratio(1, 2), skin, Scalar::from_int(-8)}, base, &e));
    REQUIRE(w.build(&e));
    std::vector<uint64_t> out;
    for (int t = 0; t < 120; ++t) {
        if (t == leave2) REQUIRE(w.remove_character(2, &e));
        if (t == leave3) REQUIRE(w.remove_character(3, &e));
        if (t == join2)
            REQUIRE(w.add_character(2, {Scalar::from_int(3), Scalar::one(), Scalar::from_int(4)},
                                    base, &e));
        if (t == rejoin2) {
            Settings s2;
            s2.radius = Scalar::ratio(3, 10);
            s2.collide_characters = false;
            REQUIRE(w.add_character(2, {Scalar::from_int(-4), skin, Scalar::from_int(2)}, s2, &e));
        }
        if (t == slow1) {
            Settings s1;
            s1.max_speed = Scalar::ratio(5, 2);
            s1.jump_speed = Scalar::from_int(3);
            REQUIRE(w.set_settings(1, s1, &e));
        }
        if (t == tp1)
            REQUIRE(
                w.teleport(1, {Scalar::from_int(2), Scalar::ratio(6, 5), Scalar::from_int(4)}, &e));
        std::vector<Input> in(w.characters().size());
        for (size_t i = 0; i < in.size(); ++i) {
            const CharacterId id = w.characters()[i].id;
            if (id == 1 && t < 100) {
                in[i].stick_x = Scalar::ratio(3, 10);
                in[i].stick_y = Scalar::one();
                in[i].jump = t == 20 || t == 70;
            }
            if (id == 2 && t >= join2 && t < join2 + 10 && t < leave2)
                in[i].stick_x = -Scalar::one();
        }
        w.step(in);
        out.push_back(w.checksum());
    }
    return out;
}

} // namespace

TEST_CASE(
    "events: the runner applies joins, leaves, rejoins, settings and teleports as a game does") {
    // Across orders and phases: changes at the same tick, at tick 1, just before the end,
    // a teleport on a rejoin's tick, a leave and a rejoin one tick apart.
    const int cases[][6] = {
        {30, 60, 80, 45, 50, 90}, // spread out
        {1, 2, 3, 1, 1, 1}, // everything at the start
        {40, 41, 41, 40, 40, 41}, // leave and rejoin at one tick; several changes per tick
        {10, 118, 119, 119, 119, 119}, // at the end
        {55, 90, 95, 5, 30, 31}, // teleport the tick after a settings change
    };
    for (const auto& c : cases) {
        CAPTURE(c[0], c[1], c[2], c[3], c[4], c[5]);
        const Scenario sc = load_ok(timeline_yaml(c[0], c[1], c[2], c[3], c[4], c[5]));
        HashFile h;
        std::string error;
        REQUIRE(run_to_hash_file(sc, &h, &error));
        const std::vector<uint64_t> want = direct_checksums(c[0], c[1], c[2], c[3], c[4], c[5]);
        REQUIRE(h.ticks.size() == want.size());
        for (size_t t = 0; t < want.size(); ++t) {
            INFO("tick " << t);
            REQUIRE(h.ticks[t].world == want[t]);
        }
        // Absent characters are '-' in the hash file, present ones are not.
        REQUIRE(entity_labels(h.header.entities) == "c1 c2 c3");
        for (size_t t = 0; t < want.size(); ++t) {
            const auto tt = static_cast<int>(t);
            const bool has2 = (tt >= c[0] && tt < c[1]) || tt >= c[2];
            const bool has3 = tt < c[3];
            INFO("tick " << t);
            CHECK((h.ticks[t].entities[1] != kAbsentHash) == has2);
            CHECK((h.ticks[t].entities[2] != kAbsentHash) == has3);
        }
        // And rollbacks across the changes re-simulate them exactly.
        SyncTestOptions so;
        so.rollback = 3;
        SyncTestResult r;
        REQUIRE(sync_test(sc, so, &r, &error));
        CHECK(r.ok);
    }
}

TEST_CASE("events: a scenario without its events, or with one moved by a tick, runs differently") {
    // The runner test above can fail: the same comparison against a timeline one tick off.
    const Scenario sc = load_ok(timeline_yaml(30, 60, 80, 45, 50, 90));
    HashFile h;
    std::string error;
    REQUIRE(run_to_hash_file(sc, &h, &error));
    const std::vector<uint64_t> off = direct_checksums(30, 60, 80, 45, 50, 91);
    CHECK(h.ticks[89].world == off[89]);
    CHECK(h.ticks[90].world != off[90]);
    Scenario none = sc;
    none.events.clear();
    HashFile n;
    REQUIRE(run_to_hash_file(none, &n, &error));
    CHECK(n.ticks[49].world == h.ticks[49].world);
    bool differs = false; // (airborne at tick 50, the slower max_speed shows once it lands)
    for (size_t t = 50; t < 90; ++t)
        differs = differs || n.ticks[t].world != h.ticks[t].world;
    CHECK(differs);
}

TEST_CASE("events: writer and loader round-trip joins, leaves, events and matrix rotations") {
    Scenario sc = load_ok(timeline_yaml(30, 60, 80, 45, 50, 90));
    // A matrix rotation (as a recording writes it) for box 2: the same matrix back, exactly.
    sc.boxes[1].rotation.is_matrix = true;
    sc.boxes[1].rotation.matrix = fx::Mat3::from_yaw_pitch_roll_degrees(
        Scalar::from_int(30), Scalar::from_int(10), Scalar::from_int(-5));
    const std::string text = scenario_to_yaml(sc, {});
    CHECK(text.find("    join: 30\n    leave: 60\n") != std::string::npos);
    CHECK(text.find("  - {tick: 50, character: 1, settings: {max_speed: 2.5, jump_speed: 3}}\n") !=
          std::string::npos);
    CHECK(text.find("  - {tick: 90, character: 1, teleport: [2, 1.2, 4]}\n") != std::string::npos);
    const Scenario back = load_ok(text);
    REQUIRE(back.boxes[1].rotation.is_matrix);
    CHECK(back.boxes[1].rotation.matrix == sc.boxes[1].rotation.matrix);
    CHECK(scenario_to_yaml(back, {}) == text);
    // The matrix of [30, 10, -5] degrees is the rotation the degrees give: the same run.
    CHECK(simulated_digest(back) !=
          simulated_digest(load_ok(timeline_yaml(30, 60, 80, 45, 50, 90))));
    HashFile a, b;
    std::string error;
    REQUIRE(run_to_hash_file(back, &a, &error));
    REQUIRE(run_to_hash_file(load_ok(timeline_yaml(30, 60, 80, 45, 50, 90)), &b, &error));
    CHECK(a.ticks == b.ticks);
    // A settings event writes only what it changes from the character's settings then.
    Scenario two = sc;
    EventDef again = two.events[0];
    again.tick = 95;
    again.settings.max_speed = Scalar::from_int(4);
    two.events.push_back(again);
    CHECK(scenario_to_yaml(two, {}).find(
              "  - {tick: 95, character: 1, settings: {max_speed: 4}}\n") != std::string::npos);
}

TEST_CASE("events: the loader refuses a timeline that cannot happen") {
    const std::string c1 = "characters:\n  - {id: 1, spawn: [0, 0, 0]}\n";
    CHECK(
        load_err(
            kEventsHead +
            "characters:\n  - {id: 1, spawn: [0, 0, 0]}\n  - {id: 1, spawn: [1, 0, 0], join: 10}\n") ==
        "scenarios/x.yaml:7:37: characters[1].join: character 1 is already present at tick 10 (characters[0], line 6, "
        "from tick 0 on): an id may appear again only after it leaves");
    CHECK(
        load_err(
            kEventsHead +
            "characters:\n  - {id: 1, spawn: [0, 0, 0], leave: 20}\n  - {id: 1, spawn: [1, 0, 0], join: 10}\n") ==
        "scenarios/x.yaml:7:37: characters[1].join: character 1 is already present at tick 10 (characters[0], line 6, "
        "from tick 0 to 20): an id may appear again only after it leaves");
    CHECK(
        load_err(
            kEventsHead +
            "characters:\n  - {id: 1, spawn: [0, 0, 0]}\n  - {id: 1, spawn: [1, 0, 0], leave: 9}\n") ==
        "scenarios/x.yaml:7:10: characters[1].id: character 1 is already present at tick 0 (characters[0], line 6, "
        "from tick 0 on): an id may appear again only after it leaves");
    CHECK(
        load_err(kEventsHead +
                 "characters:\n  - {id: 1, spawn: [0, 0, 0], join: 10, leave: 10}\n") ==
        "scenarios/x.yaml:6:48: characters[0].leave: expected an integer from 11 to 99, found '10'");
    CHECK(
        load_err(kEventsHead + "characters:\n  - {id: 1, spawn: [0, 0, 0], join: 100}\n") ==
        "scenarios/x.yaml:6:37: characters[0].join: expected an integer from 0 to 99, found '100'");
    CHECK(
        load_err(kEventsHead +
                 "characters:\n  - {id: 1, spawn: [0, 0, 0], join: 5, input: {jumps: [3]}}\n") ==
        "scenarios/x.yaml:6:40: characters[0].input: input at tick 3, when character 1 is not present (it is from "
        "tick 5 on): input outside the presence must be idle");
    CHECK(
        load_err(
            kEventsHead +
            "characters:\n  - {id: 1, spawn: [0, 0, 0], leave: 5, input: {segments: [{ticks: 6, stick: [1, 0]}]}}\n") ==
        "scenarios/x.yaml:6:41: characters[0].input: input at tick 5, when character 1 is not present (it is from "
        "tick 0 to 5): input outside the presence must be idle");
    CHECK(
        load_err(kEventsHead + c1 +
                 "events:\n  - {tick: 5, character: 2, teleport: [0, 0, 0]}\n") ==
        "scenarios/x.yaml:8:26: events[0].character: character 2 is not present at tick 5 (see its join and leave)");
    CHECK(
        load_err(kEventsHead + "characters:\n  - {id: 1, spawn: [0, 0, 0], leave: 5}\nevents:\n"
                               "  - {tick: 5, character: 1, teleport: [0, 0, 0]}\n") ==
        "scenarios/x.yaml:8:26: events[0].character: character 1 is not present at tick 5 (see its join and leave)");
    CHECK(
        load_err(kEventsHead + c1 + "events:\n  - {tick: 5, character: 1}\n") ==
        "scenarios/x.yaml:8:5: events[0]: expected exactly one of 'teleport' and 'settings', found neither");
    CHECK(
        load_err(kEventsHead + c1 +
                 "events:\n  - {tick: 5, character: 1, teleport: [0, 0, 0], settings: {}}\n") ==
        "scenarios/x.yaml:8:5: events[0]: expected exactly one of 'teleport' and 'settings', found both");
    CHECK(
        load_err(
            kEventsHead + c1 +
            "events:\n  - {tick: 5, character: 1, settings: {}}\n  - {tick: 4, character: 1, settings: {}}\n") ==
        "scenarios/x.yaml:9:12: events[1].tick: expected a tick from 5 on (events in the order of their ticks), found '4'");
    CHECK(
        load_err(kEventsHead + c1 +
                 "events:\n  - {tick: 5, character: 1, settings: {max_slope_stay_deg: 40}}\n") ==
        "scenarios/x.yaml:8:29: events[0].settings: max_slope_enter_deg/max_slope_stay_deg: need 0 < enter <= stay < 90");
}

TEST_CASE("events: a matrix rotation is a rotation") {
    const auto box = [](const std::string& rot) {
        return kEventsHead +
               "world:\n  - box: {id: 1, center: [0, 0, 0], half_extents: [1, 1, 1], rotation: " +
               rot + "}\ncharacters:\n  - {id: 1, spawn: [0, 3, 0]}\n";
    };
    const Scenario ok = load_ok(box("[[0, 0, 1], [0, 1, 0], [-1, 0, 0]]"));
    CHECK(ok.boxes[0].rotation.to_mat3() ==
          fx::Mat3::from_yaw_pitch_roll_degrees(Scalar::from_int(90), Scalar{}, Scalar{}));
    CHECK(
        load_err(box("[[1, 0, 0], [0, 1, 0], [0, 0, -1]]")) ==
        "scenarios/x.yaml:6:72: world[0].box.rotation: expected a rotation matrix, found a reflection (its determinant is -1)");
    CHECK(
        load_err(box("[[1, 0, 0], [0, 0.9, 0], [0, 0, 1]]")) ==
        "scenarios/x.yaml:6:72: world[0].box.rotation: expected a rotation matrix (rows of unit length at right angles, "
        "within 2^-20), found row 1 of length^2 0.8099999998");
    CHECK(
        load_err(box("[[1, 0, 0], [0, 1, 0.01], [0, 0, 1]]")) ==
        "scenarios/x.yaml:6:72: world[0].box.rotation: expected a rotation matrix (rows of unit length at right angles, "
        "within 2^-20), found row 1 of length^2 1.0001");
    CHECK(load_err(box("[[1, 0, 0], [0, 1, 0]]"))
              .find("expected a sequence of 3 angles [yaw, pitch, roll] or a matrix") !=
          std::string::npos);
}

TEST_CASE("events: hash files mark absent characters '-', and only characters") {
    const Scenario sc = load_ok(timeline_yaml(30, 60, 80, 45, 50, 90));
    HashFile h;
    std::string error;
    REQUIRE(run_to_hash_file(sc, &h, &error));
    const std::string text = hash_file_text(h);
    CHECK(text.find("\n0 ") != std::string::npos);
    const size_t line29 = text.find("\n29 ");
    REQUIRE(line29 != std::string::npos);
    CHECK(text.substr(line29 + 1, text.find('\n', line29 + 1) - line29 - 1).find(" - ") !=
          std::string::npos);
    HashFile back;
    REQUIRE(parse_hash_file(text, "g.hashes", &back, &error));
    CHECK(back.ticks == h.ticks);
    // '-' in the world column or for a platform is refused.
    std::string world_dash = text;
    world_dash.replace(line29 + 4, 16, "-");
    CHECK_FALSE(parse_hash_file(world_dash, "g.hashes", &back, &error));
    CHECK(error.find("expected a hash of 16 lowercase hex digits, found '-'") != std::string::npos);
}

TEST_CASE("events: an expectation of a character that is not present fails") {
    const Scenario sc = load_ok(
        kEventsHead + "world:\n  - box: {id: 1, center: [0, -0.5, 0], half_extents: [9, 0.5, 9]}\n"
                      "characters:\n  - {id: 1, spawn: [0, 0.015, 0], join: 10}\n"
                      "  - {id: 2, spawn: [3, 0.015, 0]}\n"
                      "expect:\n  - {ticks: [5, 20], character: 1, grounded: true}\n"
                      "  - {ticks: [10, 20], character: 1, grounded: true}\n");
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    REQUIRE(report.failures.size() == 1);
    CHECK(report.failures[0].message.find("tick 5, character 1: not present at this tick") !=
          std::string::npos);
}

TEST_CASE("events: a join at another tick is reported as a character present on one side only") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "fxkcc-events-divergence";
    fs::remove_all(dir);
    fs::create_directories(dir / "golden");
    SuiteOptions suite;
    suite.golden_dir = (dir / "golden").string();
    const Scenario golden_side = load_ok(timeline_yaml(30, 60, 80, 45, 50, 90));
    HashFile g;
    std::string error;
    REQUIRE(write_goldens(suite, golden_side, &g, &error));
    // The run: character 2 joins a tick later, then everything else as before.
    const Scenario run_side = load_ok(timeline_yaml(31, 60, 80, 45, 50, 90));
    HashFile r;
    REQUIRE(run_to_hash_file(run_side, &r, &error));
    const HashDivergence d = first_divergence(g, r);
    REQUIRE(d.diverged);
    CHECK(d.tick == 30);
    REQUIRE(d.entities.size() == 1);
    CHECK(d.entities[0].label() == "c2");
    const std::string report =
        explain_divergence(run_side, d, golden_csv_path(suite, golden_side.name));
    CHECK(report.find("c2: absent in this run, present in the golden") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE(
    "events: a plane normal given exact is used as written, and the writer keeps planes exact") {
    const auto plane = [](const std::string& body) {
        return kEventsHead + "world:\n  - plane: {id: 1, " + body +
               "}\ncharacters:\n  - {id: 1, spawn: [0, 3, 0]}\n";
    };
    // A normalised vector that normalising again moves (about 1.7 % of them).
    Vec3 n;
    for (int64_t k = 0;; ++k) {
        n = fx::normalize(
            Vec3{Scalar::ratio(30000 + k, 1000000), Scalar::one(), Scalar::ratio(2, 100)});
        if (!(fx::normalize(n) == n)) break;
    }
    const std::string written = "[" + fx::to_string_shortest(n.x) + ", " +
                                fx::to_string_shortest(n.y) + ", " + fx::to_string_shortest(n.z) +
                                "]";
    const Scenario exact = load_ok(plane("normal: " + written + ", offset: 0, exact: true"));
    CHECK(exact.planes[0].normal == n);
    const Scenario renormalised = load_ok(plane("normal: " + written + ", offset: 0"));
    CHECK(renormalised.planes[0].normal == fx::normalize(n));
    CHECK_FALSE(renormalised.planes[0].normal == n);
    // Written back, each reads as itself: the moved one is marked exact.
    for (const Scenario* sc : {&exact, &renormalised}) {
        const Scenario back = load_ok(scenario_to_yaml(*sc, {}));
        CHECK(back.planes[0].normal == sc->planes[0].normal);
    }
    CHECK(scenario_to_yaml(load_ok(plane("normal: [0, 1, 0], offset: 0")), {}).find("exact") ==
          std::string::npos);
    // A plane read without `exact` whose normal normalising again would move: written exact (so
    // that shrink's output loads back to it), but not in the digest's text (digests of scenarios
    // written before `exact` existed stay as they were).
    Vec3 v;
    for (int64_t k = 0;; ++k) {
        v = Vec3{Scalar::ratio(30000 + k, 1000000), Scalar::one(), Scalar::ratio(2, 100)};
        const Vec3 once = fx::normalize(v);
        if (!(fx::normalize(once) == once)) break;
    }
    const Scenario moving = load_ok(plane("normal: [" + fx::to_string_shortest(v.x) + ", 1, " +
                                          fx::to_string_shortest(v.z) + "], offset: 0"));
    CHECK_FALSE(moving.planes[0].exact);
    CHECK(scenario_to_yaml(moving, {}).find(", exact: true}") != std::string::npos);
    CHECK(load_ok(scenario_to_yaml(moving, {})).planes[0].normal == moving.planes[0].normal);
    ScenarioWriteOptions digest;
    digest.digest_form = true;
    CHECK(scenario_to_yaml(moving, digest).find("exact") == std::string::npos);
    CHECK(
        load_err(plane("normal: [0, 0.5, 0], offset: 0, exact: true")) ==
        "scenarios/x.yaml:6:28: world[0].plane.normal: expected a unit normal (exact: true uses it as written; its "
        "length within 2^-24 of 1), found length 0.5");
    CHECK(
        load_err(plane("normal: [0, 2, 0], offset: 0, exact: true")) ==
        "scenarios/x.yaml:6:32: world[0].plane.normal[1]: expected a number from -1 to 1, found '2'");
}

TEST_CASE(
    "events: changes at tick 0 (after the build, before the first step) apply as a game's do") {
    const Scenario sc = load_ok(
        kEventsHead +
        "world:\n  - box: {id: 1, center: [0, -0.5, 0], half_extents: [20, 0.5, 20]}\n"
        "characters:\n  - {id: 1, spawn: [0, 0.015, 0], input: {segments: [{ticks: 100, stick: [0, 1]}]}}\n"
        "events:\n  - {tick: 0, character: 1, teleport: [5, 0.015, 5]}\n"
        "  - {tick: 0, character: 1, settings: {max_speed: 2}}\n"
        "expect:\n  - {tick: 0, character: 1, x: 5}\n"
        "  - {ticks: [20, 99], character: 1, horizontal_speed: 2}\n");
    CheckReport report;
    std::string error;
    REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
    std::string failures;
    for (const CheckFailure& f : report.failures)
        failures += f.message + "\n";
    INFO(failures);
    CHECK(report.failures.empty());
    // The same through kcc::World.
    fx::kcc::World w;
    w.scene().add_box(
        1, fx::geo::Box{{Scalar{}, Scalar::ratio(-1, 2), Scalar{}},
                        {Scalar::from_int(20), Scalar::ratio(1, 2), Scalar::from_int(20)},
                        fx::Mat3::identity()});
    const Scalar skin = Scalar::ratio(15, 1000);
    REQUIRE(w.add_character(1, {Scalar{}, skin, Scalar{}}, fx::kcc::Settings{}, &error));
    REQUIRE(w.build(&error));
    REQUIRE(w.teleport(1, {Scalar::from_int(5), skin, Scalar::from_int(5)}, &error));
    fx::kcc::Settings slow;
    slow.max_speed = Scalar::from_int(2);
    REQUIRE(w.set_settings(1, slow, &error));
    HashFile h;
    REQUIRE(run_to_hash_file(sc, &h, &error));
    for (int t = 0; t < 100; ++t) {
        fx::kcc::Input in;
        in.stick_y = Scalar::one();
        w.step(std::vector<fx::kcc::Input>{in});
        INFO("tick " << t);
        REQUIRE(h.ticks[static_cast<size_t>(t)].world == w.checksum());
    }
}

TEST_CASE(
    "events: a rejoin in the tick of the leave, and a body grown by new settings, start the invariants afresh") {
    // Before: the rejoined body, spawned into the box's side, was held to the old body's depth
    // ("the depth grew"), and so was a body whose radius a settings event grew against the box.
    for (const std::string& tail :
         {std::string("characters:\n  - {id: 1, spawn: [0, 0, 0], leave: 5}\n"
                      "  - {id: 1, spawn: [9.0, 0, 0], join: 5}\n"),
          std::string(
              "characters:\n  - {id: 1, spawn: [8.5, 0, 0]}\n"
              "events:\n  - {tick: 5, character: 1, settings: {radius: 1.0, height: 2.2}}\n")}) {
        const Scenario sc =
            load_ok("format: 1\nname: t\ndescription: d\nticks: 20\nworld:\n"
                    "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}\n"
                    "  - box: {id: 2, center: [10, 1, 0], half_extents: [1, 1, 1]}\n" +
                    tail);
        CheckReport report;
        std::string error;
        REQUIRE(run_checked(sc, nullptr, RunOptions{}, &report, &error));
        std::string failures;
        for (const CheckFailure& f : report.failures)
            failures += f.message + "\n";
        INFO(failures);
        CHECK(report.invariant_failures() == 0);
    }
}
