// An example game loop with the fxkcc controller (docs/embedding.md, "A game loop"):
//  - a fixed-step simulation (50 Hz) driven by variable frame times through kcc::FrameClock,
//    which runs 0 to 4 ticks per frame and drops the rest after a hitch;
//  - render poses interpolated between the last two ticks (World::render_position, alpha);
//  - a per-tick checksum, what a netcode would send with its inputs (World::checksum);
//  - a rollback: an input that arrives late for an earlier tick is applied by restoring that
//    tick's snapshot and stepping forward again (World::snapshot / World::restore).
//  - runtime changes: a third player joins at tick 93 (inside the rollback's window, so the
//    re-simulation applies it again) and leaves at tick 300, player 1's
//    top speed changes at tick 150 (a sprint power-up), player 2 respawns at tick 330;
//  - a recording (kcc::Recorder): with a folder argument, the session as its final timeline
//    (the rollback included) is written there as a scenario, session.yaml and its input CSVs,
//    with session.checksums, the world checksum the recorder saw after every tick; and
//    game.checksums, the checksums the loop itself kept, in the same format. `fxkcc run
//    session.yaml --checksums session.checksums` replays it (scripts/package-test.sh checks
//    that, and that the two checksum files are the same).
// At the end the rolled-back world is compared with a world that had the input on time: the
// same checksum, or the example exits 1. Frame times are scripted (a real game reads a monotonic
// clock); the simulation never sees them, only the number of ticks to run.
//
//   game_loop [RECORD_FOLDER]
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <fxkcc/fx/decimal.h>
#include <fxkcc/fx/trig.h>
#include <fxkcc/kcc/clock.h>
#include <fxkcc/kcc/recorder.h>
#include <fxkcc/kcc/version.h>
#include <fxkcc/kcc/world.h>

using fx::Scalar;
using fx::Vec3;
using fx::kcc::Input;
using fx::kcc::World;

namespace {

Scalar dec(const char* text) {
    return fx::parse_decimal(text).value;
} // level data as exact text
Vec3 v3(const char* x, const char* y, const char* z) {
    return {dec(x), dec(y), dec(z)};
}

// The level: a floor, a 20 degree ramp, a platform going back and forth; two players.
bool build(World& w, std::string* error) {
    w.scene().add_box(
        1, fx::geo::Box{v3("0", "-0.5", "0"), v3("40", "0.5", "40"), fx::Mat3::identity()});
    w.scene().add_box(2, fx::geo::Box::from_yaw_pitch_roll_degrees(v3("0", "0", "12"),
                                                                   v3("3", "1", "4"), Scalar{},
                                                                   dec("-20"), Scalar{}));
    fx::kcc::Platform p;
    p.id = 3;
    p.half_extents = v3("1.5", "0.2", "1.5");
    p.rotation = fx::Mat3::identity();
    p.waypoints = {
        {v3("8", "0.2", "0"), 0}, {v3("8", "0.2", "10"), 150}, {v3("8", "0.2", "0"), 300}};
    const fx::kcc::Settings settings; // the defaults: 0.4 m radius, 6.2 m/s
    return w.add_platform(p, error) && w.add_character(1, v3("0", "0.015", "0"), settings, error) &&
           w.add_character(2, v3("8", "0.415", "0"), settings, error) && w.build(error);
}

// The players' inputs at tick t as the server finally knows them, for the players present (in
// the world's order, ascending id). Player 1 walks up the ramp and jumps at tick 90; player 2
// rides the platform, then walks off it; player 3 runs in a circle while it is there.
std::vector<Input> inputs_at(const World& w, int64_t t) {
    std::vector<Input> in(w.characters().size());
    for (size_t i = 0; i < in.size(); ++i) {
        switch (w.characters()[i].id) {
        case 1:
            in[i].stick_y = Scalar::one();
            in[i].jump = t == 90;
            break;
        case 2:
            if (t >= 200) in[i].stick_x = -Scalar::one();
            break;
        case 3: {
            const fx::SinCos sc = fx::sincos_deg(Scalar::from_int(t * 3));
            in[i].stick_x = sc.cos;
            in[i].stick_y = sc.sin;
            break;
        }
        default:
            break;
        }
    }
    return in;
}

// What happens between ticks (a game's joins, leaves, power-ups and respawns), applied the same
// way to every world that must agree.
bool changes_at(World& w, int64_t t, std::string* error) {
    if (t == 93) return w.add_character(3, v3("-3", "0.015", "4"), fx::kcc::Settings{}, error);
    if (t == 150) {
        fx::kcc::Settings sprint;
        sprint.max_speed = dec("8");
        return w.set_settings(1, sprint, error);
    }
    if (t == 300) return w.remove_character(3, error);
    if (t == 330) return w.teleport(2, v3("-6", "0.015", "-6"), error);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    World world, on_time;
    std::string error;
    if (!build(world, &error) || !build(on_time, &error)) {
        std::fprintf(stderr, "game_loop: %s\n", error.c_str());
        return 1;
    }
    // The recording, when asked for: attached at tick 0, it sees every input, change, snapshot
    // and restore of `world`. Reserved for the session (no allocation while it records).
    const char* record_folder = argc > 1 ? argv[1] : nullptr;
    fx::kcc::Recorder recorder;
    std::vector<uint64_t> checksums(400); // of every tick of the final timeline
    if (record_folder != nullptr) {
        recorder.reserve(400, 3 * 400);
        if (!world.set_recorder(&recorder, &error)) {
            std::fprintf(stderr, "game_loop: %s\n", error.c_str());
            return 1;
        }
    }
    // Snapshots of the last 16 ticks, sized once (no allocation in the loop).
    constexpr int64_t kRing = 16;
    std::vector<std::vector<uint8_t>> ring(kRing);
    for (auto& s : ring)
        s.reserve(world.snapshot_size());

    // Frame times in nanoseconds: 60 Hz, 144 Hz and 30 Hz in turn, 40 frames each, and one
    // 250 ms hitch (frame 100), after which the clock runs its 4 ticks and drops the rest.
    const int64_t frames[] = {16666667, 6944444, 33333333};
    fx::kcc::FrameClock clock(50, 4);
    int64_t frame = 0, rolled_back = 0;
    // The late input: player 1's jump at tick 90 reaches this machine 5 ticks late, at tick 95.
    const int64_t late_tick = 90, arrives_at = 95;
    while (world.tick() < 400) {
        const int64_t dt = frame == 100 ? 250000000 : frames[(frame / 40) % 3];
        const int ticks = clock.advance(dt);
        for (int k = 0; k < ticks && world.tick() < 400; ++k) {
            const int64_t t = world.tick();
            if (t == arrives_at) {
                // Roll back: restore the start of the late tick (its snapshot was taken after that
                // tick's changes), step again with what is known now, applying the changes of the
                // ticks after it again as they come (a join or a respawn in the window).
                if (!world.restore(ring[late_tick % kRing], &error)) {
                    std::fprintf(stderr, "game_loop: %s\n", error.c_str());
                    return 1;
                }
                for (int64_t u = late_tick; u < arrives_at; ++u) {
                    if (u > late_tick && !changes_at(world, u, &error)) {
                        std::fprintf(stderr, "game_loop: %s\n", error.c_str());
                        return 1;
                    }
                    world.snapshot(&ring[u % kRing]);
                    world.step(inputs_at(world, u));
                    checksums[static_cast<size_t>(u)] = world.checksum();
                }
                rolled_back += arrives_at - late_tick;
            }
            if (!changes_at(world, t, &error) || !changes_at(on_time, t, &error)) {
                std::fprintf(stderr, "game_loop: %s\n", error.c_str());
                return 1;
            }
            world.snapshot(&ring[t % kRing]);
            std::vector<Input> in = inputs_at(world, t);
            if (t >= late_tick && t < arrives_at) in[0].jump = false; // not known yet
            world.step(in);
            checksums[static_cast<size_t>(t)] = world.checksum();
            on_time.step(inputs_at(on_time, t));
        }
        // Render: the pose between the last two ticks.
        if (frame % 40 == 0) {
            const Vec3 p = world.render_position(0, clock.alpha());
            std::printf(
                "frame %4lld  tick %3lld  alpha %s  player 1 at (%s, %s, %s)  checksum %016llx\n",
                static_cast<long long>(frame), static_cast<long long>(world.tick()),
                fx::to_string_shortest(clock.alpha()).c_str(), fx::to_string_shortest(p.x).c_str(),
                fx::to_string_shortest(p.y).c_str(), fx::to_string_shortest(p.z).c_str(),
                static_cast<unsigned long long>(world.checksum()));
        }
        ++frame;
    }
    const bool same = world.checksum() == on_time.checksum();
    std::printf(
        "%lld frames, %lld ticks (%lld dropped after the hitch), %lld ticks stepped again after a rollback; "
        "checksum %016llx %s the world that had the input on time (behaviour %d)\n",
        static_cast<long long>(frame), static_cast<long long>(world.tick()),
        static_cast<long long>(clock.dropped_ticks()), static_cast<long long>(rolled_back),
        static_cast<unsigned long long>(world.checksum()), same ? "equals" : "DIFFERS FROM",
        fx::kcc::kBehaviourVersion);
    if (record_folder != nullptr) {
        // The session as a scenario, and the checksum of each of its ticks to hold a replay to.
        if (!recorder.write(record_folder, "session", &error)) {
            std::fprintf(stderr, "game_loop: %s\n", error.c_str());
            return 1;
        }
        // The loop's own checksums, in the checksum file format (docs/formats.md).
        std::ofstream out(std::string(record_folder) + "/game.checksums", std::ios::binary);
        out << "fxkcc-checksums 1\nhash xxh3-64\nticks " << checksums.size() << "\n";
        for (size_t t = 0; t < checksums.size(); ++t) {
            char line[48];
            std::snprintf(line, sizeof line, "%zu %016llx\n", t,
                          static_cast<unsigned long long>(checksums[t]));
            out << line;
        }
        out << "end " << checksums.size() << "\n";
        if (!out.flush()) {
            std::fprintf(stderr, "game_loop: cannot write %s/game.checksums\n", record_folder);
            return 1;
        }
        std::printf("recorded %lld ticks into %s/session.yaml\n",
                    static_cast<long long>(recorder.ticks()), record_folder);
    }
    return same ? 0 : 1;
}
