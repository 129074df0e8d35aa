// Record and replay: a world recorded by kcc::Recorder (every shape kind, a rotated moving
// platform, characters with their own settings, 600 ticks of pseudo-random inputs with jumps
// and impulses, joins, leaves, a rejoin, settings changes, teleports and rollbacks) is written
// as a scenario; the harness loads and runs it, and every tick's world hash must be the
// checksum the game's world had at that tick of its final timeline. Run on every target's
// ctest (x86-64, AArch64 under qemu, wasm32 under node).
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "commands/commands.h"
#include "kcc/recorder.h"
#include "kcc/world.h"
#include "records/checksums.h"
#include "run/suite.h"
#include "scenario/loader.h"

namespace {

using fx::Scalar;
using fx::Vec3;

Scalar rr_s(int64_t n, int64_t d = 1) {
    return Scalar::ratio(n, d);
}
Vec3 rr_v(int64_t x, int64_t y, int64_t z, int64_t d = 1) {
    return {rr_s(x, d), rr_s(y, d), rr_s(z, d)};
}

/// A fixed-seed integer LCG (Knuth's MMIX constants): the same inputs on every target.
struct RrLcg {
    uint64_t state;
    uint32_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    }
    int64_t below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint32_t>(n)); }
};

/// A character's input at a tick of a branch (a rollback re-simulates with another branch).
fx::kcc::Input rr_input(uint32_t id, int64_t tick, int branch) {
    RrLcg g{(static_cast<uint64_t>(id) << 40) ^ (static_cast<uint64_t>(tick) << 8) ^
            static_cast<uint64_t>(branch * 7919 + 1)};
    g.next();
    fx::kcc::Input in;
    if (g.below(6) != 0) { // mostly moving: a stick in eighths
        in.stick_x = rr_s(g.below(17) - 8, 8);
        in.stick_y = rr_s(g.below(17) - 8, 8);
    }
    in.jump = g.below(23) == 0;
    if (g.below(41) == 0)
        in.impulse = {rr_s(g.below(9) - 4), rr_s(g.below(5)), rr_s(g.below(9) - 4, 2)};
    return in;
}

/// The first of normalize(0.03 + k / 10^6, 1, 0.02), k = 0, 1, ..., that fx::normalize moves
/// when applied again (about 1.7 % of normalised vectors are such).
Vec3 rr_floor_normal() {
    for (int64_t k = 0;; ++k) {
        const Vec3 n = fx::normalize(rr_v(30000 + k, 1000000, 20000, 1000000));
        if (!(fx::normalize(n) == n)) return n;
    }
}

void rr_level(fx::kcc::World& w) {
    std::string error;
    fx::geo::StaticScene& sc = w.scene();
    // A gently tilted floor: a plane with a non-axis normal, one that normalising again would
    // move (the recording must write it `exact: true`).
    sc.add_plane(1, fx::geo::Plane{rr_floor_normal(), Scalar{}});
    sc.add_box(2, fx::geo::Box::from_yaw_pitch_roll_degrees(rr_v(3, 0, 3), rr_v(8, 5, 6, 10),
                                                            rr_s(37), rr_s(12), rr_s(-8)));
    sc.add_sphere(3, fx::geo::Sphere{rr_v(-3, 0, 4), rr_s(7, 10)});
    sc.add_capsule(4, fx::geo::Capsule{rr_v(5, 0, -4), rr_v(6, 1, -4), rr_s(4, 10)});
    fx::geo::TriangleMesh mesh; // a ramp of two triangles
    REQUIRE(fx::geo::TriangleMesh::build(
        {rr_v(-6, 0, -6), rr_v(-2, 0, -6), rr_v(-2, 1, -3), rr_v(-6, 1, -3)}, {0, 2, 1, 0, 3, 2},
        &mesh, &error));
    sc.add_mesh(5, std::move(mesh));
    fx::kcc::Platform p;
    p.id = 9;
    p.half_extents = rr_v(15, 2, 15, 10);
    p.rotation = fx::Mat3::from_yaw_pitch_roll_degrees(rr_s(20), rr_s(3), rr_s(0));
    const Vec3 a{rr_s(-6), rr_s(2, 10), rr_s(6)}, b{rr_s(-2), rr_s(2, 10), rr_s(6)};
    p.waypoints = {{a, 0}, {b, 120}, {a, 240}};
    REQUIRE(w.add_platform(p, &error));
}

fx::kcc::Settings rr_quick() {
    fx::kcc::Settings s;
    s.max_speed = rr_s(5);
    s.radius = rr_s(35, 100);
    s.jump_speed = rr_s(6);
    return s;
}

struct RrSession {
    std::vector<uint64_t> sums; ///< checksum of every tick of the final timeline
    std::vector<fx::kcc::RecordedFile> files;
    int rollbacks = 0;
    int64_t on_platform = 0; ///< character-ticks on the platform in the final timeline
    std::vector<int64_t> riding; ///< per tick
};

/// Changes made at tick t before its snapshot (a game applies them again when it re-simulates
/// the tick after a rollback to an earlier one; a restore to t itself brings them back).
void rr_changes(fx::kcc::World& w, int64_t t) {
    std::string e;
    fx::kcc::Settings s;
    switch (t) {
    case 60:
        REQUIRE(w.add_character(5, rr_v(0, 0, -2), fx::kcc::Settings{}, &e));
        break; // a join
    case 110:
        REQUIRE(w.teleport(1, rr_v(-3, 1, 6), &e));
        break; // onto the platform
    case 170:
        s = rr_quick();
        s.max_speed = rr_s(3);
        s.gravity = rr_s(12);
        REQUIRE(w.set_settings(2, s, &e));
        break;
    case 230:
        REQUIRE(w.remove_character(3, &e));
        break; // a leave
    case 300:
        REQUIRE(w.add_character(3, rr_v(2, 0, 0), rr_quick(), &e)); // a rejoin
        REQUIRE(w.teleport(5, rr_v(-1, 0, 1), &e)); // dropped: 5 leaves
        REQUIRE(w.remove_character(5, &e)); // 5 leaves and
        REQUIRE(w.add_character(5, rr_v(1, 0, -1), fx::kcc::Settings{}, &e)); // joins again at once
        break;
    case 380:
        REQUIRE(w.teleport(2, rr_v(4, 0, -1), &e));
        s = rr_quick();
        s.turn_rate_deg = rr_s(360);
        REQUIRE(w.set_settings(2, s, &e));
        break;
    case 460:
        REQUIRE(w.teleport(5, rr_v(-3, 0, -1), &e));
        break;
    default:
        break;
    }
}

RrSession rr_record(const std::string& name) {
    fx::kcc::World w;
    rr_level(w);
    std::string error;
    fx::kcc::Settings ghost;
    ghost.collide_characters = false;
    REQUIRE(w.add_character(1, rr_v(0, 1, 0, 10), fx::kcc::Settings{}, &error));
    REQUIRE(w.add_character(2, rr_v(2, 1, 2, 10), rr_quick(), &error));
    REQUIRE(w.add_character(3, rr_v(-1, 1, 2, 10), ghost, &error));
    REQUIRE(w.build(&error));
    fx::kcc::Recorder rec;
    REQUIRE(w.set_recorder(&rec, &error));
    constexpr int64_t kTicks = 600;
    // Rollbacks: at tick `at` (first pass), back to `to`, re-simulated with other inputs.
    struct Rollback {
        int64_t at, to;
        bool done;
    };
    std::vector<Rollback> rollbacks = {{90, 55, false},
                                       {180, 170, false},
                                       {320, 290, false},
                                       {470, 460, false},
                                       {599, 590, false}};
    std::vector<std::vector<uint8_t>> snaps(kTicks);
    RrSession out;
    out.sums.assign(kTicks, 0);
    out.riding.assign(kTicks, 0);
    int branch = 0;
    bool restored = false;
    std::vector<fx::kcc::Input> inputs;
    while (w.tick() < kTicks) {
        const int64_t t = w.tick();
        if (!restored) rr_changes(w, t); // after a restore to t, they are in the snapshot
        restored = false;
        w.snapshot(&snaps[static_cast<size_t>(t)]);
        // A change after the snapshot: dropped by a restore of this tick's snapshot, and
        // made again (differently) when the tick is re-simulated.
        if (t == 290 || t == 590) REQUIRE(w.teleport(1, rr_v(branch, 0, -branch), &error));
        inputs.clear();
        for (const fx::kcc::CharacterState& c : w.characters())
            inputs.push_back(rr_input(c.id, t, branch));
        w.step(inputs);
        out.sums[static_cast<size_t>(t)] = w.checksum();
        out.riding[static_cast<size_t>(t)] = 0;
        for (const fx::kcc::CharacterState& c : w.characters())
            out.riding[static_cast<size_t>(t)] += c.platform == 9 ? 1 : 0;
        for (Rollback& r : rollbacks) {
            if (r.at == t && !r.done) {
                r.done = true;
                ++branch;
                ++out.rollbacks;
                REQUIRE(w.restore(snaps[static_cast<size_t>(r.to)], &error));
                restored = true;
                break;
            }
        }
    }
    REQUIRE(rec.ticks() == kTicks);
    for (int64_t r : out.riding)
        out.on_platform += r;
    REQUIRE(rec.files(name, &out.files, &error));
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("fxkcc-record-replay-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    REQUIRE(rec.write(dir.string(), name, &error));
    return out;
}

/// The first tick whose world hash differs from the recorded checksum, or -1; -2 when the
/// run's tick count differs.
int64_t rr_first_mismatch(const fx::harness::Scenario& sc, const std::vector<uint64_t>& sums) {
    fx::harness::HashFile hf;
    std::string error;
    const bool ran = fx::harness::run_to_hash_file(sc, &hf, &error);
    INFO(error);
    REQUIRE(ran);
    if (hf.ticks.size() != sums.size()) return -2;
    for (size_t t = 0; t < sums.size(); ++t) {
        if (hf.ticks[t].world != sums[t]) return static_cast<int64_t>(t);
    }
    return -1;
}

bool rr_load_text(const std::string& text, const std::filesystem::path& dir,
                  fx::harness::Scenario* sc, std::string* error) {
    fx::harness::LoadOptions opts;
    opts.allow_outside = true;
    fx::harness::LoadError err;
    const std::string path = (dir / "edited.yaml").string();
    if (fx::harness::load_scenario_text(text, path, dir.string(), opts, sc, &err)) return true;
    *error = err.to_string();
    return false;
}

/// `text` without the line holding `needle` (exactly one such line).
std::string rr_without_line(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    REQUIRE(at != std::string::npos);
    const size_t begin = text.rfind('\n', at) + 1;
    const size_t end = text.find('\n', at) + 1;
    return text.substr(0, begin) + text.substr(end);
}

} // namespace

TEST_CASE("record and replay: a recorded session replays to the same checksum at every tick",
          "[record]") {
    const std::string name = "record-replay";
    const RrSession s = rr_record(name);
    CHECK(s.rollbacks == 5);
    CHECK(s.on_platform > 0); // a ride on the rotated moving platform
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("fxkcc-record-replay-" + name);
    const std::string yaml = s.files.front().text;
    INFO(yaml);
    // The session has what the test set out to record.
    CHECK(yaml.find("join: 300") != std::string::npos); // the rejoin of 3, and 5's
    CHECK(yaml.find("leave: 300") != std::string::npos); // 5 leaves at the tick it joins again
    CHECK(yaml.find("leave: 230") != std::string::npos);
    CHECK(yaml.find("rotation: [[") != std::string::npos);
    CHECK(yaml.find("teleport: [-1, 0, 1]") == std::string::npos); // 5's teleport before leaving
    CHECK(yaml.find("character: 1, teleport: [5, 0, -5]") !=
          std::string::npos); // the last branch's

    fx::harness::Scenario sc;
    fx::harness::LoadOptions opts;
    fx::harness::LoadError err;
    const bool loaded =
        fx::harness::load_scenario((dir / (name + ".yaml")).string(), opts, &sc, &err);
    INFO(err.to_string());
    REQUIRE(loaded);
    CHECK(rr_first_mismatch(sc, s.sums) == -1);

    // The test can fail: without the events, or without one teleport, the replay differs.
    std::string error;
    const size_t events = yaml.find("\nevents:\n");
    REQUIRE(events != std::string::npos);
    fx::harness::Scenario no_events;
    REQUIRE(rr_load_text(yaml.substr(0, events + 1), dir, &no_events, &error));
    CHECK(rr_first_mismatch(no_events, s.sums) >= 0);
    fx::harness::Scenario no_teleport;
    REQUIRE(rr_load_text(rr_without_line(yaml, "{tick: 460, character: 5, teleport:"), dir,
                         &no_teleport, &error));
    CHECK(rr_first_mismatch(no_teleport, s.sums) == 460);
    // The recorder's checksum file is the game's checksums; `fxkcc run --checksums` holds a
    // replay to it, and fails at the first tick that differs.
    REQUIRE(s.files.back().path == name + ".checksums");
    std::vector<uint64_t> sums;
    REQUIRE(fx::harness::parse_checksum_file(s.files.back().text, "c", &sums, &error));
    CHECK(sums == s.sums);
    {
        fx::harness::RunCommand cmd;
        cmd.scenario = (dir / (name + ".yaml")).string();
        cmd.checksums_path = (dir / (name + ".checksums")).string();
        std::ostringstream out1, err1;
        CHECK(fx::harness::run_command(cmd, out1, err1) == 0);
        CHECK(out1.str().find("checksums: 600 ticks, every one equal to") != std::string::npos);
        // One checksum changed: exit 1, naming the tick.
        std::string tampered = s.files.back().text;
        const size_t at = tampered.find("\n321 ") + 5;
        tampered[at + 1] = tampered[at + 1] == '0' ? '1' : '0';
        const std::string path = (dir / "tampered.checksums").string();
        std::ofstream(path, std::ios::binary) << tampered;
        cmd.checksums_path = path;
        std::ostringstream out2, err2;
        CHECK(fx::harness::run_command(cmd, out2, err2) == 1);
        CHECK(out2.str().find("checksums: differ: tick 321: this run ") != std::string::npos);
        CHECK(out2.str().find("(ticks 0 to 320 equal)") != std::string::npos);
        // A checksum file that is not one: exit 2, its line and column.
        std::ofstream(path, std::ios::binary)
            << "fxkcc-checksums 1\nhash xxh3-64\nticks 2\n0 abc\n";
        cmd.checksums_path = path;
        std::ostringstream out3, err3;
        CHECK(fx::harness::run_command(cmd, out3, err3) == 2);
        CHECK(err3.str() ==
              "fxkcc run: --checksums: " + path +
                  ":4:3: expected a checksum of 16 lowercase hex digits, found 'abc'\n");
    }
    // The floor's normal is written exact: normalised again by the loader, the floor moves.
    const std::string exact_floor = "  - plane: {id: 1, normal: ";
    REQUIRE(yaml.find(exact_floor) != std::string::npos);
    const size_t floor_end = yaml.find('\n', yaml.find(exact_floor));
    REQUIRE(yaml.substr(0, floor_end).rfind(", exact: true}") == floor_end - 14);
    std::string renormalised = yaml;
    renormalised.erase(floor_end - 13, 12); // ", exact: true}" -> "}"
    fx::harness::Scenario moved_floor;
    REQUIRE(rr_load_text(renormalised, dir, &moved_floor, &error));
    CHECK(rr_first_mismatch(moved_floor, s.sums) >= 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("record and replay: changes made at tick 0, after attaching and before the first step",
          "[record]") {
    fx::kcc::World w;
    std::string error;
    w.scene().add_box(1, fx::geo::Box{rr_v(0, -1, 0, 2), rr_v(20, 1, 20, 2), fx::Mat3::identity()});
    REQUIRE(w.add_character(1, rr_v(0, 15, 0, 1000), fx::kcc::Settings{}, &error));
    REQUIRE(w.build(&error));
    fx::kcc::Recorder rec;
    REQUIRE(w.set_recorder(&rec, &error));
    // A game's spawn placement and settings after build(), and a join, all before tick 0's step.
    REQUIRE(w.teleport(1, rr_v(5000, 15, 5000, 1000), &error));
    fx::kcc::Settings slow;
    slow.max_speed = rr_s(2);
    REQUIRE(w.set_settings(1, slow, &error));
    REQUIRE(w.add_character(2, rr_v(-3000, 15, 0, 1000), slow, &error));
    std::vector<uint64_t> sums;
    for (int t = 0; t < 60; ++t) {
        fx::kcc::Input in;
        in.stick_y = rr_s(1);
        w.step(std::vector<fx::kcc::Input>{in, in});
        sums.push_back(w.checksum());
    }
    std::vector<fx::kcc::RecordedFile> files;
    REQUIRE(rec.files("tick-zero", &files, &error));
    INFO(files.front().text);
    CHECK(files.front().text.find("{tick: 0, character: 1, teleport: [5, 0.015, 5]}") !=
          std::string::npos);
    fx::harness::Scenario sc;
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "fxkcc-record-tick-zero";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    REQUIRE(rec.write(dir.string(), "tick-zero", &error));
    REQUIRE(rr_load_text(files.front().text, dir, &sc, &error));
    CHECK(rr_first_mismatch(sc, sums) == -1);
    std::filesystem::remove_all(dir);
}
