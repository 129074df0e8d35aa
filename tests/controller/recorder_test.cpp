// kcc::Recorder without the harness: the scenario text it writes for a small world, the net
// effect of a tick's changes, rollbacks (snapshot marks) and the refused cases.
#include <catch2/catch.hpp>

#include <cstdio>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "fx/decimal.h"
#include "kcc/recorder.h"
#include "kcc/world.h"
#include "kcc_test_util.h"

using namespace fx;
using namespace fx::kcc;
using namespace kcctest;

namespace {

Scalar S(int64_t n, int64_t d = 1) {
    return Scalar::ratio(n, d);
}
Vec3 V(int64_t x, int64_t y, int64_t z) {
    return {Scalar::from_int(x), Scalar::from_int(y), Scalar::from_int(z)};
}

/// A floor, a rotated box, a sphere, a capsule, a mesh and a rotated platform; characters 1
/// (defaults) and 2 (max_speed 3, radius 0.35), built.
void small_world(World& w) {
    std::string error;
    add_floor(w);
    w.scene().add_box(3, geo::Box{V(4, 1, 0),
                                  {S(1, 2), S(1, 2), S(1, 2)},
                                  Mat3::from_yaw_pitch_roll_degrees(S(30), S(0), S(0))});
    w.scene().add_sphere(4, geo::Sphere{V(0, 1, 8), S(1, 2)});
    w.scene().add_capsule(5, geo::Capsule{V(2, 0, 8), V(2, 2, 8), S(3, 10)});
    geo::TriangleMesh mesh;
    REQUIRE(geo::TriangleMesh::build({V(-10, 0, -10), V(-9, 0, -10), V(-10, 0, -9)}, {0, 2, 1},
                                     &mesh, &error));
    w.scene().add_mesh(6, std::move(mesh));
    Platform p;
    p.id = 9;
    p.half_extents = {S(1), S(1, 10), S(1)};
    p.rotation = Mat3::from_yaw_pitch_roll_degrees(S(15), S(0), S(0));
    p.waypoints = {{V(0, 1, 12), 0}, {V(0, 1, 16), 100}};
    REQUIRE(w.add_platform(p, &error));
    Settings slow;
    slow.max_speed = S(3);
    slow.radius = S(35, 100);
    REQUIRE(w.add_character(1, {S(0), kDefaults.skin, S(0)}, kDefaults, &error));
    REQUIRE(w.add_character(2, {S(3), kDefaults.skin, S(-3)}, slow, &error));
    REQUIRE(w.build(&error));
}

std::vector<Input> inputs_for(const World& w, const Input& for_1) {
    std::vector<Input> in(w.characters().size());
    for (size_t i = 0; i < in.size(); ++i) {
        if (w.characters()[i].id == 1) in[i] = for_1;
    }
    return in;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream s(text);
    for (std::string l; std::getline(s, l);)
        out.push_back(l);
    return out;
}
bool has_line(const std::string& text, const std::string& line) {
    for (const std::string& l : lines(text)) {
        if (l == line) return true;
    }
    return false;
}
const RecordedFile* file(const std::vector<RecordedFile>& files, const std::string& path) {
    for (const RecordedFile& f : files) {
        if (f.path == path) return &f;
    }
    return nullptr;
}

} // namespace

TEST_CASE("the recorder writes the level, the characters, their inputs and the changes",
          "[recorder]") {
    World w;
    small_world(w);
    Recorder rec;
    std::string error;
    REQUIRE(w.set_recorder(&rec, &error));
    REQUIRE(rec.attached());
    std::vector<uint64_t> checksums;
    for (int t = 0; t < 12; ++t) {
        if (t == 4) REQUIRE(w.add_character(7, V(-3, 0, 0), kDefaults, &error)); // a join
        if (t == 6) REQUIRE(w.teleport(1, V(1, 0, 2), &error));
        if (t == 7) {
            Settings s = *w.settings(2);
            s.max_speed = S(4);
            REQUIRE(w.set_settings(2, s, &error));
        }
        if (t == 9) REQUIRE(w.remove_character(2, &error)); // a leave
        Input in;
        if (t >= 2 && t < 5) in = stick(0, 1);
        if (t == 3) in.jump = true;
        if (t == 5) in.impulse = {S(1, 2), S(0), S(-2)};
        w.step(inputs_for(w, in));
        checksums.push_back(w.checksum());
    }
    std::vector<RecordedFile> files;
    REQUIRE(rec.files("session", &files, &error));
    REQUIRE(files.size() == 3); // the scenario, character 1's inputs and the checksums
    REQUIRE(files[0].path == "session.yaml");
    const std::string& y = files[0].text;
    INFO(y);
    CHECK(
        y.rfind(
            "format: 1\nname: \"session\"\ndescription: \"recorded by kcc::Recorder\"\ntick_rate: 50\nticks: 12\n",
            0) == 0);
    CHECK(has_line(y, "  - plane: {id: 1, normal: [0, 1, 0], offset: 0}"));
    const Mat3 r = Mat3::from_yaw_pitch_roll_degrees(S(30), S(0), S(0));
    auto row = [](const Vec3& v) {
        return "[" + to_string_shortest(v.x) + ", " + to_string_shortest(v.y) + ", " +
               to_string_shortest(v.z) + "]";
    };
    CHECK(has_line(
        y, "  - box: {id: 3, center: [4, 1, 0], half_extents: [0.5, 0.5, 0.5], rotation: [" +
               row(r.row[0]) + ", " + row(r.row[1]) + ", " + row(r.row[2]) + "]}"));
    CHECK(has_line(y, "  - sphere: {id: 4, center: [0, 1, 8], radius: 0.5}"));
    CHECK(has_line(y, "  - capsule: {id: 5, a: [2, 0, 8], b: [2, 2, 8], radius: 0.3}"));
    CHECK(has_line(y, "      vertices: [[-10, 0, -10], [-9, 0, -10], [-10, 0, -9]]"));
    CHECK(has_line(y, "      triangles: [[0, 2, 1]]"));
    CHECK(y.find("  - id: 9\n    half_extents: [1, 0.1, 1]\n    rotation: [[") !=
          std::string::npos);
    CHECK(
        y.find(
            "    waypoints:\n      - {tick: 0, center: [0, 1, 12]}\n      - {tick: 100, center: [0, 1, 16]}\n") !=
        std::string::npos);
    // Characters: spawn, join, leave, settings that differ from the defaults, inputs.
    CHECK(
        y.find(
            "characters:\n  - id: 1\n    spawn: [0, 0.015, 0]\n    input: {csv: session.c1.csv}\n") !=
        std::string::npos);
    CHECK(
        y.find(
            "  - id: 2\n    spawn: [3, 0.015, -3]\n    leave: 9\n    settings:\n      radius: 0.35\n      max_speed: 3\n") !=
        std::string::npos);
    CHECK(y.find("  - id: 7\n    spawn: [-3, 0, 0]\n    join: 4\n") != std::string::npos);
    CHECK(
        y.find(
            "events:\n  - {tick: 6, character: 1, teleport: [1, 0, 2]}\n  - {tick: 7, character: 2, settings: {max_speed: 4}}\n") !=
        std::string::npos);
    // Rows from tick 0 to the last non-idle one; the impulse columns because one was given.
    const RecordedFile* csv = file(files, "session.c1.csv");
    REQUIRE(csv != nullptr);
    CHECK(
        csv->text ==
        "tick,stick_x,stick_y,jump,impulse_x,impulse_y,impulse_z\n"
        "0,0,0,0,0,0,0\n1,0,0,0,0,0,0\n2,0,1,0,0,0,0\n3,0,1,1,0,0,0\n4,0,1,0,0,0,0\n5,0,0,0,0.5,0,-2\n");

    // The checksum the world had after each tick, in the checksum file format.
    CHECK(files[2].path == "session.checksums");
    std::string sums = "fxkcc-checksums 1\nhash xxh3-64\nticks 12\n";
    for (int t = 0; t < 12; ++t) {
        char line[40];
        std::snprintf(line, sizeof line, "%d %016llx\n", t,
                      static_cast<unsigned long long>(checksums[static_cast<size_t>(t)]));
        sums += line;
    }
    CHECK(files[2].text == sums + "end 12\n");

    // write() puts them in a folder; a name that is not a scenario name is refused.
    CHECK_FALSE(rec.files("Session", &files, &error));
    CHECK(error.find("'Session' is not a scenario name") != std::string::npos);
    CHECK_FALSE(rec.files(".x", &files, &error));
    CHECK_FALSE(rec.files(std::string(65, 'a'), &files, &error));
    CHECK(rec.files(std::string(64, 'a'), &files, &error));
    CHECK_FALSE(rec.write("/nonexistent-folder-fxkcc", "session", &error));
    CHECK(error.find("cannot write /nonexistent-folder-fxkcc/session.yaml") != std::string::npos);
}

namespace {

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A recording of `ticks` ticks of the small world, character 1 running with stick (0, 1).
void record(Recorder& rec, World& w, int ticks) {
    small_world(w);
    std::string error;
    REQUIRE(w.set_recorder(&rec, &error));
    for (int t = 0; t < ticks; ++t)
        w.step(inputs_for(w, stick(0, 1)));
}

} // namespace

TEST_CASE("write() never follows a planted link, and a failed write leaves the earlier recording "
          "whole",
          "[recorder]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "fxkcc-recorder-write-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    World w1, w2;
    Recorder first, second;
    record(first, w1, 5);
    record(second, w2, 9);
    std::string error;
    REQUIRE(first.write(dir.string(), "session", &error));
    const std::vector<std::string> names = {"session.yaml", "session.c1.csv", "session.checksums"};
    std::vector<std::string> old;
    for (const std::string& n : names)
        old.push_back(slurp(dir / n));
    CHECK(old[0].find("ticks: 5\n") != std::string::npos);
#ifndef _WIN32
    SECTION("a link planted at a file's .partial name is replaced, its target left alone") {
        const fs::path victim = dir / "victim.txt";
        { std::ofstream(victim) << "victim\n"; }
        for (const std::string& n : names)
            fs::create_symlink(victim, dir / (n + ".partial"));
        REQUIRE(second.write(dir.string(), "session", &error));
        CHECK(slurp(victim) == "victim\n");
        CHECK(slurp(dir / "session.yaml").find("ticks: 9\n") != std::string::npos);
        for (const std::string& n : names)
            CHECK_FALSE(fs::exists(fs::symlink_status(dir / (n + ".partial"))));
    }
#endif
    SECTION("a write that fails at its last file leaves every file of the earlier one") {
        // The checksum file's name taken by a folder: the last rename cannot happen.
        fs::remove(dir / "session.checksums");
        fs::create_directories(dir / "session.checksums" / "in-the-way");
        old[2].clear();
        CHECK_FALSE(second.write(dir.string(), "session", &error));
        CHECK(error.find("session.checksums") != std::string::npos);
        CHECK(slurp(dir / "session.yaml") == old[0]);
        CHECK(slurp(dir / "session.c1.csv") == old[1]);
        CHECK(fs::is_directory(dir / "session.checksums"));
        for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
            INFO(e.path().filename().string());
            const std::string f = e.path().filename().string();
            CHECK(f.find(".partial") == std::string::npos);
            CHECK(f.find(".previous") == std::string::npos);
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("the recorder writes a tick's net effect: leaves, joins, then the changes in order",
          "[recorder]") {
    World w;
    small_world(w);
    Recorder rec;
    std::string error;
    REQUIRE(w.set_recorder(&rec, &error));
    w.step({});
    // Tick 1: character 2 teleported then leaves (the teleport is dropped), character 1 leaves
    // and joins again (two entries), character 8 joins and leaves (nothing), character 7 joins
    // and is teleported.
    REQUIRE(w.teleport(2, V(5, 0, 5), &error));
    REQUIRE(w.remove_character(2, &error));
    REQUIRE(w.teleport(1, V(0, 0, 1), &error));
    REQUIRE(w.remove_character(1, &error));
    REQUIRE(w.add_character(1, V(0, 0, 3), kDefaults, &error));
    REQUIRE(w.teleport(1, V(0, 0, 4), &error));
    REQUIRE(w.add_character(8, V(6, 0, 0), kDefaults, &error));
    REQUIRE(w.remove_character(8, &error));
    REQUIRE(w.add_character(7, V(-3, 0, 0), kDefaults, &error));
    REQUIRE(w.teleport(7, V(-4, 0, 0), &error));
    Settings same = *w.settings(7);
    REQUIRE(w.set_settings(7, same, &error)); // no effect: no event
    w.step({});
    w.step(inputs_for(w, stick(1, 0)));
    std::vector<RecordedFile> files;
    REQUIRE(rec.files("net", &files, &error));
    const std::string& y = files[0].text;
    INFO(y);
    CHECK(
        y.find(
            "  - id: 1\n    spawn: [0, 0.015, 0]\n    leave: 1\n  - id: 1\n    spawn: [0, 0, 3]\n    join: 1\n"
            "    input: {csv: net.c1.2.csv}\n") != std::string::npos);
    CHECK(y.find("id: 8") == std::string::npos);
    CHECK(
        y.substr(y.find("events:")) ==
        "events:\n  - {tick: 1, character: 1, teleport: [0, 0, 4]}\n  - {tick: 1, character: 7, teleport: [-4, 0, 0]}\n");
    REQUIRE(file(files, "net.c1.2.csv") != nullptr);
    CHECK(file(files, "net.c1.2.csv")->text ==
          "tick,stick_x,stick_y,jump\n0,0,0,0\n1,0,0,0\n2,1,0,0\n");
}

TEST_CASE(
    "a restore drops later inputs and changes, and this tick's changes made after the snapshot",
    "[recorder]") {
    World w;
    small_world(w);
    Recorder rec;
    std::string error;
    REQUIRE(w.set_recorder(&rec, &error));
    std::vector<uint8_t> at5, at8;
    for (int t = 0; t < 5; ++t)
        w.step(inputs_for(w, stick(0, 1)));
    REQUIRE(w.teleport(1, V(1, 0, 1), &error)); // before the snapshot: kept
    w.snapshot(&at5);
    REQUIRE(w.teleport(1, V(2, 0, 2), &error)); // after it: dropped by the restore
    for (int t = 5; t < 8; ++t)
        w.step(inputs_for(w, stick(1, 0)));
    REQUIRE(w.add_character(7, V(-3, 0, 0), kDefaults, &error)); // tick 8: dropped
    w.snapshot(&at8);
    for (int t = 8; t < 10; ++t)
        w.step(inputs_for(w, stick(1, 0)));
    REQUIRE(rec.ticks() == 10);

    REQUIRE(w.restore(at5, &error));
    REQUIRE(rec.ticks() == 5);
    for (int t = 5; t < 7; ++t)
        w.step(inputs_for(w, stick(-1, 0)));
    std::vector<RecordedFile> files;
    REQUIRE(rec.files("roll", &files, &error));
    const std::string& y = files[0].text;
    INFO(y);
    CHECK(has_line(y, "ticks: 7"));
    CHECK(has_line(y, "  - {tick: 5, character: 1, teleport: [1, 0, 1]}"));
    CHECK(y.find("teleport: [2, 0, 2]") == std::string::npos);
    CHECK(y.find("id: 7") == std::string::npos);
    CHECK(
        file(files, "roll.c1.csv")->text ==
        "tick,stick_x,stick_y,jump\n0,0,1,0\n1,0,1,0\n2,0,1,0\n3,0,1,0\n4,0,1,0\n5,-1,0,0\n6,-1,0,0\n");

    // The snapshot of tick 8 belonged to the timeline the restore dropped: restoring it makes
    // the recording unwritable.
    REQUIRE(w.restore(at8, &error));
    CHECK_FALSE(rec.files("roll", &files, &error));
    CHECK(error.find("a snapshot of tick 8 was restored that the recorder never saw taken") !=
          std::string::npos);
}

TEST_CASE("a snapshot taken before attaching restores at tick 0, a foreign one does not",
          "[recorder]") {
    World w;
    small_world(w);
    std::vector<uint8_t> before;
    w.snapshot(&before);
    Recorder rec;
    std::string error;
    REQUIRE(w.set_recorder(&rec, &error));
    w.step({});
    REQUIRE(w.restore(before, &error));
    w.step({});
    std::vector<RecordedFile> files;
    REQUIRE(rec.files("zero", &files, &error));

    World other;
    small_world(other);
    other.step({});
    std::vector<uint8_t> foreign;
    other.snapshot(&foreign); // tick 1 of another world
    REQUIRE(w.restore(foreign, &error)); // the same level, so the world takes it
    CHECK_FALSE(rec.files("zero", &files, &error));
    CHECK(error.find("never saw taken") != std::string::npos);
}

TEST_CASE("attaching is refused before build and after tick 0, detaching and destroying unlink",
          "[recorder]") {
    std::string error;
    Recorder rec;
    {
        World w;
        add_floor(w);
        REQUIRE(w.add_character(1, v3(0, rest_height(), 0), kDefaults, &error));
        CHECK_FALSE(w.set_recorder(&rec, &error));
        CHECK(error == "set_recorder: build the world first");
        REQUIRE(w.build(&error));
        w.step({});
        CHECK_FALSE(w.set_recorder(&rec, &error));
        CHECK(error == "set_recorder: a recording starts at tick 0, the world is at tick 1");
        CHECK_FALSE(rec.attached());
    }
    World w;
    small_world(w);
    REQUIRE(w.set_recorder(&rec, &error));
    {
        World copy = w; // a copy does not report to the recorder
        CHECK(copy.recorder() == nullptr);
        copy.step({});
    }
    CHECK(rec.ticks() == 0);
    std::vector<RecordedFile> files;
    CHECK_FALSE(rec.files("x", &files, &error));
    CHECK(error == "recording: nothing recorded: no tick was stepped");
    REQUIRE(w.set_recorder(nullptr));
    CHECK_FALSE(rec.attached());
    w.step({});
    CHECK(rec.ticks() == 0);
    {
        World w2;
        small_world(w2);
        Recorder short_lived;
        REQUIRE(w2.set_recorder(&short_lived, &error));
    } // the recorder goes first, then the world: neither touches the other
    {
        auto r2 = std::make_unique<Recorder>();
        World w3;
        small_world(w3);
        REQUIRE(w3.set_recorder(r2.get(), &error));
        r2.reset();
        CHECK(w3.recorder() == nullptr);
        w3.step({});
    }
}

TEST_CASE("a stick outside [-1, 1] or different tick rates cannot be written", "[recorder]") {
    std::string error;
    std::vector<RecordedFile> files;
    {
        World w;
        small_world(w);
        Recorder rec;
        REQUIRE(w.set_recorder(&rec, &error));
        w.step(inputs_for(w, stick(0, 1)));
        Input in;
        in.stick_x = S(3, 2);
        w.step(inputs_for(w, in));
        CHECK_FALSE(rec.files("s", &files, &error));
        CHECK(
            error ==
            "recording: tick 1, character 1: stick [1.5, 0] has a component outside [-1, 1], which a scenario cannot hold");
    }
    {
        World w;
        small_world(w);
        Recorder rec;
        REQUIRE(w.set_recorder(&rec, &error));
        Settings fast;
        fast.tick_rate_hz = 60;
        REQUIRE(w.add_character(5, V(5, 0, 5), fast, &error));
        w.step({});
        CHECK_FALSE(rec.files("s", &files, &error));
        CHECK(
            error ==
            "recording: character 5: tick_rate_hz 60 differs from 50 (a scenario has one tick rate)");
    }
}

TEST_CASE("what a scenario cannot hold is refused when recorded, with the reason", "[recorder]") {
    std::string error;
    std::vector<RecordedFile> files;
    const auto refused = [&](auto&& change) {
        World w;
        small_world(w);
        Recorder rec;
        REQUIRE(w.set_recorder(&rec, &error));
        w.step({});
        change(w);
        w.step({});
        return !rec.files("s", &files, &error);
    };
    CHECK(refused(
        [&](World& w) { REQUIRE(w.add_character(4000000001u, V(5, 0, 5), kDefaults, &error)); }));
    CHECK(
        error ==
        "recording: character 4000000001 (from tick 1): an id beyond 4000000000, which a scenario cannot hold");
    CHECK(refused([&](World& w) {
        Settings s = kDefaults;
        s.max_speed = S(1500);
        REQUIRE(w.set_settings(1, s, &error));
    }));
    CHECK(
        error ==
        "recording: tick 1, character 1: max_speed 1500: a scenario holds speeds from -1000 to 1000 m/s, "
        "which a scenario cannot hold");
    CHECK(refused([&](World& w) { REQUIRE(w.teleport(1, V(1040000, 0, 0), &error)); }));
    CHECK(
        error ==
        "recording: tick 1, character 1: teleport to (1040000, 0, 0): a coordinate beyond 1000000 m, "
        "which a scenario cannot hold");
    CHECK(refused([&](World& w) {
        Settings s = kDefaults;
        s.dead_zone = S(995, 1000);
        REQUIRE(w.add_character(9, V(6, 0, 6), s, &error));
    }));
    CHECK(
        error ==
        "recording: character 9 (from tick 1): dead_zone 0.995: a scenario holds dead zones from 0 to 0.99, "
        "which a scenario cannot hold");
    // Within the bounds: written.
    CHECK_FALSE(refused([&](World& w) { REQUIRE(w.teleport(1, V(999999, 0, 0), &error)); }));
    // A level with a capsule of radius 0 (the scene allows it, a scenario does not): refused at
    // attach.
    World w;
    small_world(w);
    w.scene().add_capsule(77, fx::geo::Capsule{V(20, 0, 20), V(20, 1, 20), Scalar{}});
    REQUIRE(w.build(&error));
    Recorder rec;
    CHECK_FALSE(w.set_recorder(&rec, &error));
    CHECK(
        error ==
        "set_recorder: shape 77: radius 0 m: a size from 0.001 to 100000 m, which a scenario cannot hold");
    // A mesh with a triangle twice (the scene takes it, the loader does not).
    World m;
    small_world(m);
    fx::geo::TriangleMesh twice;
    REQUIRE(fx::geo::TriangleMesh::build({V(30, 0, 30), V(31, 0, 30), V(30, 0, 31)},
                                         {0, 2, 1, 1, 0, 2}, &twice, &error));
    m.scene().add_mesh(78, std::move(twice));
    REQUIRE(m.build(&error));
    CHECK_FALSE(m.set_recorder(&rec, &error));
    CHECK(
        error ==
        "set_recorder: shape 78: triangle 1 repeats triangle 0 (the same three corners): remove the copy, "
        "which a scenario cannot hold");
}

TEST_CASE("a recorder attached again starts a new recording, its checksums included",
          "[recorder]") {
    std::string error;
    Recorder rec;
    World a;
    small_world(a);
    REQUIRE(a.set_recorder(&rec, &error));
    for (int t = 0; t < 30; ++t)
        a.step(inputs_for(a, stick(0, 1)));
    World b;
    small_world(b);
    REQUIRE(b.set_recorder(&rec, &error));
    std::vector<uint64_t> sums;
    for (int t = 0; t < 10; ++t) {
        b.step(inputs_for(b, stick(1, 0)));
        sums.push_back(b.checksum());
    }
    std::vector<RecordedFile> files;
    REQUIRE(rec.files("again", &files, &error));
    CHECK(files.front().text.find("\nticks: 10\n") != std::string::npos);
    std::string want = "fxkcc-checksums 1\nhash xxh3-64\nticks 10\n";
    for (size_t t = 0; t < sums.size(); ++t) {
        char line[40];
        std::snprintf(line, sizeof line, "%zu %016llx\n", t,
                      static_cast<unsigned long long>(sums[t]));
        want += line;
    }
    CHECK(files.back().text == want + "end 10\n");
}
