// Runtime changes between ticks: characters joining and leaving, settings changes, teleports
// (kcc/world.h). Each is compared with a world that had the result from its start.
#include "kcc_test_util.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "kcc/state_bytes.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {
void rt_level(World& w) {
    add_floor(w);
    add_aabb(w, 2, v3(4, 0, -10), v3(5, 2, 10)); // a wall at x = 4
    add_aabb(w, 3, v3(-3, 0, 3), v3(3, 0.2L, 6)); // a 0.2 m step
}
/// Tick t's input of character k: a walk that turns, jumps now and then, differs per character.
Input rt_course(int64_t t, int k) {
    Input in;
    in.stick_x = Scalar::ratio(((t + 7 * k) % 40) < 20 ? 1 : -1, 2);
    in.stick_y = Scalar::ratio((k % 2) == 0 ? 1 : -1, 1);
    in.jump = ((t + k) % 37) == 5;
    return in;
}
/// The state of `id` with its tick-dependent fields compared as bytes.
std::array<uint8_t, kStateBytes> rt_bytes(const World& w, CharacterId id) {
    for (const CharacterState& s : w.characters())
        if (s.id == id) return serialize_state(s);
    FAIL("no character " << id);
    return {};
}
/// Steps `w` one tick with rt_course(t, id) for each of its characters (inputs by index).
void rt_step(World& w, int64_t t) {
    std::vector<Input> in;
    for (const CharacterState& s : w.characters())
        in.push_back(rt_course(t, static_cast<int>(s.id)));
    w.step(in);
}
} // namespace

TEST_CASE("runtime: a character that joins between ticks moves as one that spawned there",
          "[runtime]") {
    // Joined at each tick of a range, at several places (floor, the step, mid-air, by the wall),
    // among characters far enough away not to meet it: every later tick equals a world that
    // had only it from the start, its own tick counted from the join (the level is static).
    const Vec3 spots[] = {v3(0, rest_height(), 0), v3(0, 0.2L + rest_height(), 4.5L),
                          v3(-1, 1.5L, -2), v3(3.3L, rest_height(), -5)};
    for (int join = 0; join < 60; join += 13) {
        for (const Vec3& at : spots) {
            World w;
            rt_level(w);
            std::string error;
            REQUIRE(w.add_character(2, v3(-40, rest_height(), 0), kDefaults, &error));
            REQUIRE(w.add_character(9, v3(40, rest_height(), 0), kDefaults, &error));
            REQUIRE(w.build(&error));
            for (int64_t t = 0; t < join; ++t)
                rt_step(w, t);
            REQUIRE(w.add_character(5, at, kDefaults, &error)); // between 2 and 9: index 1
            REQUIRE(w.characters().size() == 3);
            REQUIRE(w.characters()[1].id == 5u);

            World alone;
            rt_level(alone);
            REQUIRE(alone.add_character(5, at, kDefaults, &error));
            REQUIRE(alone.build(&error));
            REQUIRE(rt_bytes(w, 5) == rt_bytes(alone, 5)); // the same ground under it at once
            for (int64_t k = 0; k < 80; ++k) {
                std::vector<Input> in = {rt_course(join + k, 2), rt_course(k, 5),
                                         rt_course(join + k, 9)};
                w.step(in);
                alone.step(std::span<const Input>(&in[1], 1));
                INFO("joined at tick " << join << ", " << k << " ticks later");
                REQUIRE(rt_bytes(w, 5) == rt_bytes(alone, 5));
            }
        }
    }
}

TEST_CASE("runtime: a character that leaves no longer affects the others", "[runtime]") {
    // Two colliding bodies walk into each other; one leaves at tick `leave`. From then on the
    // other moves exactly as in a world that never had the leaver, started from the state the
    // survivor had when it left (the rt_level is static, so the tick count does not matter).
    Settings slim = kDefaults; // the survivor's own settings, which it keeps
    slim.radius = Scalar::ratio(3, 10);
    slim.max_speed = Scalar::from_int(4);
    for (int leave = 1; leave < 50; leave += 7) {
        World w;
        rt_level(w);
        std::string error;
        REQUIRE(w.add_character(1, v3(-1.5L, rest_height(), -5), kDefaults, &error));
        REQUIRE(w.add_character(2, v3(1.5L, rest_height(), -5), slim, &error));
        REQUIRE(w.build(&error));
        auto towards = [](int64_t, int k) { return stick(k == 1 ? 1 : -1, 0); };
        for (int64_t t = 0; t < leave; ++t) {
            const Input in[2] = {towards(t, 1), towards(t, 2)};
            w.step(in);
        }
        const std::array<uint8_t, kStateBytes> survivor = rt_bytes(w, 2);
        REQUIRE(w.remove_character(1, &error));
        REQUIRE(w.characters().size() == 1);
        REQUIRE(w.characters()[0].id == 2u);
        REQUIRE(w.find(1) == nullptr);
        CHECK_FALSE(w.remove_character(1, &error));
        CHECK(error == "remove_character: no character 1");

        // The reference: only body 2, from the state it had when 1 left.
        World alone;
        rt_level(alone);
        REQUIRE(alone.add_character(2, v3(1.5L, rest_height(), -5), slim, &error));
        REQUIRE(alone.build(&error));
        REQUIRE(deserialize_state(survivor, alone.find(2)));
        // Before the leave they met (walking 3 m apart towards each other at up to 6.2 m/s,
        // their 0.8 m bodies touch within half a second); after it, 2 walks on through where 1 was.
        for (int64_t k = 0; k < 60; ++k) {
            const Input in = towards(leave + k, 2);
            w.step(std::span<const Input>(&in, 1));
            alone.step(std::span<const Input>(&in, 1));
            INFO("left at tick " << leave << ", " << k << " ticks later");
            REQUIRE(rt_bytes(w, 2) == rt_bytes(alone, 2));
        }
        CHECK(ld(w.characters()[0].position.x) < -1.5L); // past the place 1 started from
    }
}

TEST_CASE("runtime: joins at the same tick give the same world in any order", "[runtime]") {
    // Nine bodies close together join at tick 10 in two different orders (they collide with
    // one another): the same states at every later tick.
    auto run = [](bool reversed) {
        World w;
        rt_level(w);
        std::string error;
        REQUIRE(w.add_character(100, v3(-20, rest_height(), 0), kDefaults, &error));
        REQUIRE(w.build(&error));
        for (int64_t t = 0; t < 10; ++t)
            rt_step(w, t);
        for (int k = 0; k < 9; ++k) {
            const int id = reversed ? 8 - k : k;
            const Vec3 at = v3(-0.9L * (id % 3), rest_height(), -1 - 0.9L * (id / 3));
            REQUIRE(w.add_character(static_cast<CharacterId>(id), at, kDefaults, &error));
        }
        std::vector<std::vector<std::array<uint8_t, kStateBytes>>> out;
        for (int64_t t = 10; t < 110; ++t) {
            rt_step(w, t);
            out.emplace_back();
            for (const CharacterState& s : w.characters())
                out.back().push_back(serialize_state(s));
        }
        return out;
    };
    REQUIRE(run(false) == run(true));
}

TEST_CASE("runtime: new settings take effect on the next tick", "[runtime]") {
    // Top speed: at full stick the ground speed settles at max_speed (KCC-SPEC, velocity).
    // The default 6.2 m/s, then 3 m/s from tick 60, then 8 m/s from tick 120.
    // Character 7 runs; character 3 (index 0, standing far away) keeps its own settings.
    World w;
    rt_level(w);
    std::string error;
    REQUIRE(w.add_character(7, v3(0, rest_height(), -9), kDefaults, &error));
    REQUIRE(w.add_character(3, v3(-40, rest_height(), 0), kDefaults, &error));
    REQUIRE(w.build(&error));
    auto speed_after = [&](int ticks) {
        for (int k = 0; k < ticks; ++k) {
            const Input in[2] = {stick(1, 0), stick(-1, 0)};
            w.step(in);
        }
        return hlen(w.find(7)->velocity);
    };
    const long double dt = 1.0L / 50;
    CHECK(std::fabs(speed_after(60) - 6.2L) < 1e-6L);
    Settings slow = kDefaults;
    slow.max_speed = Scalar::from_int(3);
    REQUIRE(w.set_settings(7, slow, &error));
    REQUIRE(ld(w.settings(7)->max_speed) == 3.0L);
    // The first tick brakes at ground_brake (60 m/s^2) from 6.2 toward 3 (KCC-SPEC: braking
    // above the target), and two ticks later it is there.
    const long double first = speed_after(1);
    CHECK(std::fabs(first - (6.2L - 60 * dt)) < 1e-6L);
    CHECK(std::fabs(speed_after(59) - 3.0L) < 1e-6L);
    Settings fast = kDefaults;
    fast.max_speed = Scalar::from_int(8);
    REQUIRE(w.set_settings(7, fast, &error));
    CHECK(std::fabs(speed_after(1) - (3.0L + 45 * dt)) < 1e-6L); // ground_accel 45 m/s^2
    CHECK(std::fabs(speed_after(59) - 8.0L) < 1e-6L);
    CHECK(std::fabs(hlen(w.find(3)->velocity) - 6.2L) < 1e-6L); // the other kept the default

    // Invalid settings: refused with the reason, nothing changed.
    Settings bad = kDefaults;
    bad.radius = Scalar::zero();
    CHECK_FALSE(w.set_settings(7, bad, &error));
    CHECK(error.find("character 7: radius") == 0);
    CHECK(ld(w.settings(7)->max_speed) == 8.0L);
    CHECK_FALSE(w.set_settings(8, fast, &error));
    CHECK(error == "set_settings: no character 8");
    CHECK(w.settings(8) == nullptr);
}

TEST_CASE("runtime: a teleported character is at rest where it lands, as if it had spawned there",
          "[runtime]") {
    // From every phase of a course (running, airborne, on the step), to the floor, onto the
    // step and into the air: the state equals a fresh spawn's there but for the facing, which is
    // kept; the render pose does not streak across the jump.
    const Vec3 targets[] = {v3(-10, rest_height(), 2), v3(1, 0.2L + rest_height(), 5),
                            v3(-8, 3, -3)};
    for (int64_t when = 3; when < 90; when += 11) {
        for (const Vec3& to : targets) {
            Solo s(rt_level, v3(0, rest_height(), -8));
            for (int64_t t = 0; t < when; ++t)
                s.tick(rt_course(t, 3));
            const Scalar facing = s.st().facing;
            std::string error;
            REQUIRE(s.world.teleport(7, to, &error));
            Solo fresh(rt_level, to);
            CharacterState expect = fresh.st();
            expect.facing = facing;
            expect.previous_facing = facing;
            INFO("teleported at tick " << when);
            REQUIRE(serialize_state(s.st()) == serialize_state(expect));
            CHECK(s.st().velocity == Vec3::zero());
            for (int a = 0; a <= 4; ++a)
                CHECK(s.world.render_position(0, Scalar::ratio(a, 4)) == to);
            // And it goes on from there like the fresh spawn turned the same way.
            fresh.mut().facing = facing;
            fresh.mut().previous_facing = facing;
            for (int64_t k = 0; k < 40; ++k) {
                s.tick(rt_course(k, 3));
                fresh.tick(rt_course(k, 3));
                REQUIRE(serialize_state(s.st()) == serialize_state(fresh.st()));
            }
        }
    }
}

TEST_CASE("runtime: changes with bad arguments are refused and change nothing", "[runtime]") {
    Solo s(rt_level, v3(0, rest_height(), 0));
    s.settle();
    const auto before = serialize_state(s.st());
    std::string error;
    CHECK_FALSE(s.world.teleport(7, v3(2000000, 0, 0), &error));
    CHECK(error ==
          "character 7: feet outside the working volume (each coordinate less than 1048576 m)");
    CHECK_FALSE(s.world.teleport(3, v3(0, 1, 0), &error));
    CHECK(error == "teleport: no character 3");
    CHECK_FALSE(s.world.add_character(7, v3(1, 1, 1), kDefaults, &error));
    CHECK(error == "character 7: duplicate id");
    Settings bad = kDefaults;
    bad.height = Scalar::ratio(1, 2); // below 2 x radius
    CHECK_FALSE(s.world.add_character(8, v3(1, 1, 1), bad, &error));
    CHECK(s.world.characters().size() == 1);
    CHECK(serialize_state(s.st()) == before);

    World unbuilt;
    CHECK_FALSE(unbuilt.remove_character(1, &error));
    CHECK(error == "remove_character: the world is not built");
    CHECK_FALSE(unbuilt.teleport(1, v3(0, 0, 0), &error));
    CHECK(error == "teleport: the world is not built");
}

namespace {
/// The changes of a session, applied at the start of tick t (before stepping it).
void rt_changes(World& w, int64_t t) {
    std::string error;
    Settings slow = kDefaults;
    slow.max_speed = Scalar::from_int(3);
    slow.radius = Scalar::ratio(3, 10);
    if (t == 20) REQUIRE(w.add_character(5, v3(0.5L, rest_height(), -4), kDefaults, &error));
    if (t == 20) REQUIRE(w.add_character(1, v3(-0.5L, rest_height(), -4), kDefaults, &error));
    if (t == 35) REQUIRE(w.set_settings(5, slow, &error));
    if (t == 50) REQUIRE(w.teleport(2, v3(-2, 1, 4), &error));
    if (t == 65) REQUIRE(w.remove_character(9, &error));
    if (t == 80) REQUIRE(w.remove_character(1, &error));
}
} // namespace

TEST_CASE(
    "runtime: a rollback across joins, leaves, settings changes and teleports gives the same bits",
    "[runtime][snapshot]") {
    // Snapshots at the start of every tick of a session with changes at ticks 20 to 80; restored
    // at every tick, with the changes from there on applied again, every tick's checksum and
    // state bytes are those of the first run, whatever changed between the snapshot and now.
    World w;
    rt_level(w);
    std::string error;
    REQUIRE(w.add_character(2, v3(0, rest_height(), -6), kDefaults, &error));
    REQUIRE(w.add_character(9, v3(1, rest_height(), -6), kDefaults, &error));
    REQUIRE(w.build(&error));
    const int64_t kTicks = 100;
    std::vector<std::vector<uint8_t>> snaps(kTicks);
    std::vector<uint64_t> sums;
    for (int64_t t = 0; t < kTicks; ++t) {
        rt_changes(w, t);
        w.snapshot(&snaps[static_cast<size_t>(t)]);
        rt_step(w, t);
        sums.push_back(w.checksum());
    }
    REQUIRE(w.characters().size() == 2); // 2 and 5
    for (int64_t from = 0; from < kTicks; from += 3) {
        REQUIRE(w.restore(snaps[static_cast<size_t>(from)], &error));
        CHECK(w.tick() == from);
        std::vector<uint8_t> again;
        w.snapshot(&again);
        REQUIRE(again == snaps[static_cast<size_t>(from)]);
        for (int64_t t = from; t < kTicks; ++t) {
            if (t > from) rt_changes(w, t); // the snapshot of `from` was taken after its changes
            rt_step(w, t);
            INFO("restored at " << from << ", tick " << t);
            REQUIRE(w.checksum() == sums[static_cast<size_t>(t)]);
        }
    }
}

TEST_CASE("runtime: settings bytes: every field, in order, little-endian", "[runtime][bytes]") {
    // Each field set to a value of its own; its bytes found at the offset the layout gives.
    Settings s;
    s.radius = Scalar::from_raw(0x0102030405060708);
    s.probe_max_hits = 0x11223344;
    s.snap_distance = Scalar::from_raw(-2);
    s.turn_rate_deg = Scalar::from_raw(0x7a);
    s.collide_characters = false;
    s.tick_rate_hz = 60;
    s.max_ticks_per_frame = -1;
    const std::array<uint8_t, kSettingsBytes> b = serialize_settings(s);
    CHECK(b[0] == 0x08);
    CHECK(b[7] == 0x01);
    CHECK(b[56] == 0x44);
    CHECK(b[59] == 0x11);
    CHECK(b[60] == 0xfe);
    CHECK(b[67] == 0xff);
    CHECK(b[152] == 0x7a);
    CHECK(b[160] == 0);
    CHECK(b[161] == 60);
    CHECK(b[165] == 0xff);
    CHECK(b[168] == 0xff);
    Settings back;
    REQUIRE(deserialize_settings(b, &back));
    CHECK(serialize_settings(back) == b);
    CHECK(back.radius == s.radius);
    CHECK(back.max_ticks_per_frame == -1);
    CHECK_FALSE(back.collide_characters);
    std::array<uint8_t, kSettingsBytes> bad = b;
    bad[160] = 2;
    CHECK_FALSE(deserialize_settings(bad, &back));
    CHECK_FALSE(
        deserialize_settings(std::span<const uint8_t>(b.data(), kSettingsBytes - 1), &back));
}

TEST_CASE("changes at one tick: every order of a teleport, a settings change, a join and a leave "
          "gives one world",
          "[runtime]") {
    // Character 1 is teleported 50 mm above the floor and given a larger skin and radius (the
    // teleport settles it with the settings of the moment: 50 mm is beyond the old ground band,
    // skin + probe_skin = 35 mm, and within the new, 60 mm), character 2 joins beside it,
    // character 3 leaves; all 24 orders of the four changes at tick 10 must give the same states
    // at every later tick.
    Settings wide = kDefaults;
    wide.skin = sc(0.04L);
    wide.radius = sc(0.45L);
    using Change = std::function<void(World&)>;
    const std::array<Change, 4> changes{
        [](World& w) {
            std::string e;
            REQUIRE(w.teleport(1, v3(-1, 0.05L, 1), &e));
        },
        [&](World& w) {
            std::string e;
            REQUIRE(w.set_settings(1, wide, &e));
        },
        [](World& w) {
            std::string e;
            REQUIRE(w.add_character(2, v3(0, rest_height(), 1.2L), kDefaults, &e));
        },
        [](World& w) {
            std::string e;
            REQUIRE(w.remove_character(3, &e));
        }};
    auto run = [&](const std::array<int, 4>& order) {
        World w;
        rt_level(w);
        std::string error;
        REQUIRE(w.add_character(1, v3(-6, rest_height(), 0), kDefaults, &error));
        REQUIRE(w.add_character(3, v3(-6, rest_height(), 2), kDefaults, &error));
        REQUIRE(w.build(&error));
        for (int64_t t = 0; t < 10; ++t)
            rt_step(w, t);
        for (int k : order)
            changes[static_cast<size_t>(k)](w);
        std::vector<std::vector<std::array<uint8_t, kStateBytes>>> out;
        out.emplace_back();
        for (const CharacterState& s : w.characters())
            out.back().push_back(serialize_state(s));
        for (int64_t t = 10; t < 70; ++t) {
            rt_step(w, t);
            out.emplace_back();
            for (const CharacterState& s : w.characters())
                out.back().push_back(serialize_state(s));
        }
        return out;
    };
    std::array<int, 4> order{0, 1, 2, 3};
    const auto first = run(order);
    int orders = 0;
    do {
        INFO("order " << order[0] << order[1] << order[2] << order[3]);
        REQUIRE(run(order) == first);
        ++orders;
    } while (std::next_permutation(order.begin(), order.end()));
    CHECK(orders == 24);
    // The settings decide the settle: with the old ones the body is airborne where it lands,
    // with the new ones grounded (so the orders really could differ).
    World w;
    rt_level(w);
    std::string error;
    REQUIRE(w.add_character(1, v3(-6, rest_height(), 0), kDefaults, &error));
    REQUIRE(w.build(&error));
    REQUIRE(w.teleport(1, v3(-1, 0.05L, 1), &error));
    CHECK_FALSE(w.characters()[0].grounded);
    REQUIRE(w.set_settings(1, wide, &error));
    CHECK(w.characters()[0].grounded);
}
