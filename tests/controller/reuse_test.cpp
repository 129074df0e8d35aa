// A tick answers a character's overlap and probe queries from its last tick's downward cast
// when the body has not moved and only static shapes can be met (GroundMemo, docs/controller.md
// "Reused casts"). Random worlds built to meet every condition of that rule: stacked slabs
// with their tops at one height (several hits in the band, probe_max_hits from 1 to 8), boxes
// turned and tilted, probe and snap distances at and near the ground band, platforms fast
// enough to arrive from beyond a tick's region, characters that meet, bodies standing still
// for long stretches. Each world runs with and without reuse; every tick's state bytes must be
// equal, and the runs with reuse must use it.
#include "kcc_test_util.h"

#include <algorithm>
#include <array>
#include <vector>

#include "kcc/settings.h"
#include "kcc/state_bytes.h"
#include "test_support.h"

using namespace kcctest;
using namespace fx::kcc;
using fx::Mat3;

namespace {

Scalar between(fxtest::Rng& rng, long double lo, long double hi) {
    return Scalar::from_raw(rng.range(sc(lo).raw(), sc(hi).raw()));
}

struct RandomWorld {
    uint64_t seed;
    void build(World& w) const {
        fxtest::Rng rng(seed);
        add_floor(w);
        fx::geo::ShapeId id = 2;
        // Slabs stacked with their tops at one height, each a little turned: several walkable hits
        // within the band under a body standing on them.
        const Scalar top = between(rng, 0.1L, 0.6L);
        for (int k = 0; k < 4; ++k) {
            fx::geo::Box b;
            b.half_extents = {between(rng, 0.3L, 1.5L), Scalar::ratio(1, 20),
                              between(rng, 0.3L, 1.5L)};
            b.center = {between(rng, -1, 1), top - b.half_extents.y, between(rng, -1, 1)};
            b.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(-40, 40)));
            if (rng.next() % 3 == 0)
                b.rotation = Mat3::rotation_x(Scalar::from_int(rng.range(-3, 3))) * b.rotation;
            w.scene().add_box(id++, b);
        }
        for (int k = 0; k < 6; ++k) { // walls, steps and ramps around
            fx::geo::Box b;
            b.half_extents = {between(rng, 0.1L, 2), between(rng, 0.05L, 1.5L),
                              between(rng, 0.1L, 2)};
            b.center = {between(rng, -6, 6), between(rng, -0.5L, 1.5L), between(rng, -6, 6)};
            switch (rng.next() % 3) {
            case 0:
                b.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(-90, 90)));
                break;
            case 1:
                b.rotation = Mat3::rotation_z(Scalar::from_int(rng.range(-40, 40)));
                break;
            default:
                break;
            }
            w.scene().add_box(id++, b);
        }
        const int platforms = static_cast<int>(rng.next() % 3);
        for (int k = 0; k < platforms; ++k) {
            Platform p;
            p.id = 100 + static_cast<fx::geo::ShapeId>(k);
            p.half_extents = {between(rng, 0.2L, 1), between(rng, 0.05L, 0.4L),
                              between(rng, 0.2L, 1)};
            // Through the middle, where the bodies stand, at their height.
            const Vec3 from{between(rng, -8, 8), between(rng, 0.3L, 1.2L), between(rng, -8, 8)};
            const Vec3 to{-from.x + between(rng, -1, 1), from.y, -from.z + between(rng, -1, 1)};
            const int64_t ticks =
                rng.range(4, 60); // up to 4 m a tick: arrives from beyond the region
            p.waypoints = {
                {from, 0}, {from, rng.range(1, 80)}, {to, 80 + ticks}, {from, 80 + 2 * ticks}};
            std::string error;
            REQUIRE(w.add_platform(p, &error));
        }
    }
    Settings settings(fxtest::Rng& rng) const {
        Settings s;
        s.radius = between(rng, 0.2L, 0.5L);
        s.height = between(rng, 1.0L, 2.0L);
        s.probe_max_hits = static_cast<int>(rng.range(1, 8));
        const long double probes[] = {0.02L, 0.035L, 0.036L, 0.15L, 0.3L};
        s.probe_distance = sc(probes[rng.next() % 5]);
        const long double snaps[] = {0.0L, 0.021L, 0.05L, 0.3L};
        s.snap_distance = sc(snaps[rng.next() % 4]);
        s.collide_characters = rng.next() % 4 != 0;
        // Step-ups ruled out by the blocking contact's height (StepResult::kAboveStep) at
        // several step heights and shortest forwards, about the walls' and steps' tops.
        const long double steps[] = {0.1L, 0.2L, 0.35L, 0.5L};
        s.step_height = sc(steps[rng.next() % 4]);
        const long double forwards[] = {0.01L, 0.05L, 0.1L, 0.15L};
        s.step_min_forward = sc(forwards[rng.next() % 4]);
        return s;
    }
};

/// Every tick's state bytes of every character, how many probes reused the last tick's cast, and
/// the step-ups: ruled out by the contact's height, accepted, tried with sweeps.
struct Run {
    std::vector<uint8_t> bytes;
    int64_t probes = 0, reused = 0, bodies_cast = 0;
    int64_t steps_ruled_out = 0, steps_accepted = 0, steps_swept = 0;
};

struct Count final : TraceObserver {
    Run* run;
    void on_event(const TraceEvent& e) override {
        if (e.kind == TraceKind::kStepAttempt) {
            const auto r = static_cast<StepResult>(e.reason);
            run->steps_ruled_out += r == StepResult::kAboveStep;
            run->steps_accepted += r == StepResult::kAccepted;
            run->steps_swept += r != StepResult::kAboveStep && r != StepResult::kNoMotion;
        }
        if (e.kind != TraceKind::kProbe) return;
        ++run->probes;
        run->reused += e.reason >= 1;
        run->bodies_cast += (e.reason & kProbeBodiesCast) != 0;
    }
};

Run play(uint64_t seed, bool reuse) {
    Run out;
    RandomWorld level{seed};
    World w;
    level.build(w);
    fxtest::Rng rng(seed ^ 0xabcdef);
    const int characters = static_cast<int>(rng.range(1, 4));
    std::string error;
    for (int c = 0; c < characters; ++c) {
        const Vec3 feet{between(rng, -1.5L, 1.5L), between(rng, 0.7L, 1.5L),
                        between(rng, -1.5L, 1.5L)};
        Settings s = level.settings(rng);
        if (!validate(s, &error)) s = Settings{};
        REQUIRE(w.add_character(static_cast<CharacterId>(c + 1), feet, s, &error));
    }
    REQUIRE(w.build(&error));
    w.set_reuse_casts(reuse);
    Count count;
    count.run = &out;
    std::vector<Input> inputs(static_cast<size_t>(characters));
    for (int64_t t = 0; t < 240; ++t) {
        for (Input& in : inputs) {
            // Long stretches standing still (the memo's case), walks and jumps.
            if (rng.next() % 12 == 0) {
                switch (rng.next() % 4) {
                case 0:
                    in = Input{};
                    break;
                case 1:
                    in.stick_x = between(rng, -1, 1);
                    break; // one axis at a time, too
                case 2:
                    in.stick_y = between(rng, -1, 1);
                    break;
                default:
                    in.stick_x = between(rng, -1, 1);
                    in.stick_y = between(rng, -1, 1);
                }
            }
            in.jump = rng.next() % 60 == 0;
        }
        if (t == 120) { // a dead zone that changes under a held stick
            Settings s = *w.settings(1);
            s.dead_zone = between(rng, 0, 0.6L);
            REQUIRE(w.set_settings(1, s, &error));
        }
        w.step(inputs, &count);
        for (const CharacterState& s : w.characters()) {
            const auto b = serialize_state(s);
            out.bytes.insert(out.bytes.end(), b.begin(), b.end());
        }
    }
    return out;
}

} // namespace

TEST_CASE("reused casts: random worlds run to the same bytes with and without them",
          "[world][memo]") {
    int64_t probes = 0, reused = 0, bodies_cast = 0, ruled_out = 0, accepted = 0, swept = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
        INFO("seed " << seed);
        const Run with = play(seed, true);
        const Run without = play(seed, false);
        const bool same_size = with.bytes.size() == without.bytes.size();
        REQUIRE(same_size);
        const auto first =
            std::mismatch(with.bytes.begin(), with.bytes.end(), without.bytes.begin());
        const int64_t first_difference =
            first.first == with.bytes.end() ? -1 : first.first - with.bytes.begin();
        REQUIRE(first_difference == -1);
        CHECK(without.reused == 0);
        CHECK(without.steps_ruled_out == 0);
        probes += with.probes;
        reused += with.reused;
        bodies_cast += with.bodies_cast;
        ruled_out += with.steps_ruled_out;
        accepted += with.steps_accepted;
        swept += with.steps_swept;
    }
    INFO("probes " << probes << ", reused " << reused << " (with the other characters cast "
                   << bodies_cast << "); step-ups ruled out " << ruled_out << ", accepted "
                   << accepted << ", swept " << swept);
    CHECK(reused * 6 > probes);
    CHECK(bodies_cast * 20 >
          reused); // characters near each other: their hits merged into the memo's
    CHECK(ruled_out > 100); // the rule is exercised, beside steps that are taken and tried
    CHECK(accepted > 5);
    CHECK(swept > ruled_out / 10);
}

TEST_CASE("reused casts: a platform that arrives within one tick is met, not remembered away",
          "[world][memo]") {
    // A body stands still (its last cast reusable); a platform box comes from 6 m away at 3 m a
    // tick, from beyond the tick's region into the body. The tick it arrives, the overlap and the
    // probe must be made: a remembered cast saw no platform.
    auto run = [](bool reuse) {
        World w;
        add_floor(w);
        Platform p;
        p.id = 50;
        p.half_extents = v3(0.5L, 0.5L, 0.5L);
        p.waypoints = {{v3(-6, 0.6L, 0), 0},
                       {v3(-6, 0.6L, 0), 30},
                       {v3(0.3L, 0.6L, 0), 32},
                       {v3(6, 0.6L, 0), 40}};
        std::string error;
        REQUIRE(w.add_platform(p, &error));
        REQUIRE(w.add_character(1, v3(0.6L, rest_height(), 0), Settings{}, &error));
        REQUIRE(w.build(&error));
        w.set_reuse_casts(reuse);
        std::vector<std::array<uint8_t, kStateBytes>> out;
        const Input idle;
        for (int t = 0; t < 45; ++t) {
            w.step(std::span<const Input>(&idle, 1));
            out.push_back(serialize_state(w.characters()[0]));
        }
        return out;
    };
    const auto with = run(true), without = run(false);
    CHECK(with == without);
    // The platform did reach the body: the tick it arrived, it pushed it off where it stood.
    CHECK(with[31] != with[20]);
}

TEST_CASE("reused casts: characters standing on, beside and under each other run to the same bytes",
          "[world][memo]") {
    // A remembered cast keeps the shapes' hits only; the other characters' are cast afresh each
    // tick and merged in (probe_from_memo). Columns of bodies standing on each other's heads
    // (the ground within the band is another character), rings of bodies touching, a skin apart
    // and a little inside each other, on a floor, a slab and a tilted slab; some stand still (the
    // memo's case), some walk through, one column member jumps. Every combination of spacing,
    // radius, probe reach and hit count, with and without reuse: the same bytes.
    int64_t reused = 0, bodies_cast = 0, on_bodies = 0;
    const long double gaps[] = {-0.004L, 0, 0.0005L, 0.003L, 0.02L};
    const long double radii[] = {0.25L, 0.4L};
    const long double probes[] = {0.036L, 0.3L};
    for (int g = 0; g < 5; ++g)
        for (int ri = 0; ri < 2; ++ri)
            for (int pi = 0; pi < 2; ++pi)
                for (int ground = 0; ground < 3; ++ground) {
                    struct Seen final : TraceObserver {
                        int64_t reused = 0, bodies_cast = 0, on_bodies = 0;
                        void on_event(const TraceEvent& e) override {
                            if (e.kind != TraceKind::kProbe) return;
                            reused += e.reason >= 1;
                            bodies_cast += (e.reason & kProbeBodiesCast) != 0;
                            on_bodies += (e.reason & kProbeBodiesCast) != 0 && e.flag &&
                                         e.shape == fx::geo::kBodyShape;
                        }
                    };
                    const Scalar r = sc(radii[ri]), gap = sc(gaps[g]);
                    auto run = [&](bool reuse, Seen* seen) {
                        World w;
                        add_floor(w);
                        if (ground > 0) { // a slab under the crowd, level or tilted 3 degrees
                            fx::geo::Box b;
                            b.half_extents = v3(4, 0.1L, 4);
                            b.center = v3(0, -0.1L, 0);
                            if (ground == 2) b.rotation = Mat3::rotation_x(Scalar::from_int(3));
                            w.scene().add_box(2, b);
                        }
                        Settings s;
                        s.radius = r;
                        s.height = sc(1.2L);
                        s.probe_distance = sc(probes[pi]);
                        s.probe_max_hits = 1 + (g + ri + pi) % 8;
                        std::string error;
                        REQUIRE(validate(s, &error));
                        CharacterId id = 1;
                        const Scalar step = r + r + gap; // axis to axis
                        // A ring of six round (0, 0) and one at its centre; a column of three on
                        // the centre's head; a walker that crosses them.
                        for (int k = -1; k < 6; ++k) {
                            const Scalar x = k < 0 ? Scalar{} : Scalar::from_int(k % 3 - 1) * step;
                            const Scalar z = k < 0 ? Scalar{} : (k < 3 ? step : -step);
                            REQUIRE(w.add_character(id++, Vec3{x, sc(0.3L), z}, s, &error));
                        }
                        for (int k = 1; k <= 3; ++k)
                            REQUIRE(w.add_character(id++,
                                                    Vec3{Scalar::ratio(k, 50),
                                                         sc(0.3L) + (s.height + gap).mul_int(k),
                                                         Scalar::ratio(-k, 70)},
                                                    s, &error));
                        REQUIRE(w.add_character(id++, v3(-3, 0.3L, 0.1L), s, &error));
                        REQUIRE(w.build(&error));
                        w.set_reuse_casts(reuse);
                        std::vector<uint8_t> bytes;
                        std::vector<Input> in(w.characters().size());
                        for (int t = 0; t < 160; ++t) {
                            in.back().stick_x = t < 100 ? Scalar::one() : Scalar{};
                            in[8].jump = t == 90; // the column's middle one
                            in[1].stick_y = t >= 60 && t < 70 ? -Scalar::one()
                                                              : Scalar{}; // a ring member leaves
                            w.step(in, seen);
                            for (const CharacterState& c : w.characters()) {
                                const auto b = serialize_state(c);
                                bytes.insert(bytes.end(), b.begin(), b.end());
                            }
                        }
                        return bytes;
                    };
                    INFO("gap " << static_cast<double>(gaps[g]) << ", radius "
                                << static_cast<double>(radii[ri]) << ", probe "
                                << static_cast<double>(probes[pi]) << ", ground " << ground);
                    Seen seen, unused;
                    const std::vector<uint8_t> with = run(true, &seen),
                                               without = run(false, &unused);
                    const auto first = std::mismatch(with.begin(), with.end(), without.begin());
                    const int64_t first_difference =
                        first.first == with.end() ? -1 : first.first - with.begin();
                    REQUIRE(with.size() == without.size());
                    REQUIRE(first_difference == -1);
                    CHECK(unused.reused == 0);
                    reused += seen.reused;
                    bodies_cast += seen.bodies_cast;
                    on_bodies += seen.on_bodies;
                }
    INFO("reused " << reused << ", with the other characters cast " << bodies_cast
                   << ", grounded on one of them " << on_bodies);
    CHECK(bodies_cast * 2 > reused); // mostly with characters near
    CHECK(on_bodies > 100); // and standing on one another
}

TEST_CASE(
    "ruled-out step-ups: steps around the step height, at several speeds and angles, run to the same bytes",
    "[world][memo]") {
    // A step-up is ruled out, without its sweeps, when the blocking contact is higher than any
    // landing that could be accepted (StepResult::kAboveStep). At the border, steps from 30 mm
    // below to 30 mm above the step height, walked into at three speeds and four angles, with
    // two step heights and two shortest forwards: every tick's bytes must be the ones the three
    // sweeps give, and steps on both sides of the border must be taken and refused.
    // mm between step heights: 2 natively, at most 6 on the emulated legs (FX_TEST_SCALE).
    const int stride = static_cast<int>(std::min<int64_t>(fxtest::spaced(2), 6));
    int64_t ruled_out = 0, accepted = 0, runs = 0;
    for (const long double step : {0.2L, 0.35L}) {
        for (const long double min_forward : {0.05L, 0.1L}) {
            for (int mm = -30; mm <= 30; mm += stride) {
                for (const long double speed : {0.5L, 0.8L, 1.0L}) {
                    for (const int deg : {0, 25, 50, 70}) {
                        Settings s;
                        s.step_height = sc(step);
                        s.step_min_forward = sc(min_forward);
                        const long double top = step + mm / 1000.0L;
                        const auto dir = fx::sincos_deg(Scalar::from_int(deg));
                        const fx::kcc::Input in = stick(ld(dir.sin) * speed, ld(dir.cos) * speed);
                        auto run = [&](bool reuse, Run* out) {
                            Solo solo(
                                [&](World& w) {
                                    add_floor(w);
                                    add_aabb(w, 2, v3(-20, 0, 1), v3(20, top, 6));
                                },
                                v3(0, rest_height(), 0), s);
                            solo.world.set_reuse_casts(reuse);
                            Count count;
                            count.run = out;
                            for (int t = 0; t < 40; ++t) {
                                solo.world.step(std::span<const fx::kcc::Input>(&in, 1), &count);
                                const auto b = serialize_state(solo.world.characters()[0]);
                                out->bytes.insert(out->bytes.end(), b.begin(), b.end());
                            }
                        };
                        Run with, without;
                        run(true, &with);
                        run(false, &without);
                        INFO("step height " << step << ", shortest forward " << min_forward
                                            << ", step top " << top << ", stick " << speed << " at "
                                            << deg << " degrees");
                        REQUIRE(with.bytes == without.bytes);
                        CHECK(without.steps_ruled_out == 0);
                        ruled_out += with.steps_ruled_out;
                        accepted += with.steps_accepted;
                        ++runs;
                    }
                }
            }
        }
    }
    INFO("runs " << runs << ", step-ups ruled out " << ruled_out << ", accepted " << accepted);
    CHECK(ruled_out > runs / 4);
    CHECK(accepted > runs / 8);
}

TEST_CASE(
    "tick_region: a body no faster than the least speed gets the origin's region moved to its feet",
    "[world][memo]") {
    // Params keeps the region of a body at the origin (make_params); tick_region moves it to the
    // feet when the velocity is within max(max_speed, jump_speed). It must be the region the
    // tick's queries reach, written out here from the settings, at any position and speed.
    fxtest::Rng rng(0x7e61);
    long within = 0, beyond = 0;
    const int64_t cases = fxtest::scaled(20000); // FX_TEST_SCALE: a share on the emulated legs
    for (int64_t i = 0; i < cases; ++i) {
        Settings s;
        s.radius = between(rng, 0.2L, 0.6L);
        s.height = between(rng, 1.3L, 2.2L);
        s.max_speed = between(rng, 1, 12);
        s.jump_speed = between(rng, 0, 9);
        s.step_height = between(rng, 0, 0.5L);
        s.snap_distance = between(rng, 0, 0.5L);
        s.probe_distance = between(rng, 0.02L, 0.4L);
        s.step_min_forward = between(rng, 0.01L, 0.2L);
        s.tick_rate_hz = static_cast<int>(rng.range(20, 240));
        std::string error;
        if (!validate(s, &error)) continue;
        const Params p = make_params(s);
        const Vec3 feet{between(rng, -5000, 5000), between(rng, -500, 500),
                        between(rng, -5000, 5000)};
        const Scalar top = max(s.max_speed, s.jump_speed);
        const Scalar scale = between(rng, 0, 2) * top;
        const Vec3 v{between(rng, -1, 1) * scale, between(rng, -1, 1) * scale,
                     between(rng, -1, 1) * scale};
        const Scalar speed = max(fx::length(v), top);
        const Scalar reach = speed * p.dt +
                             max(max(s.step_height, s.snap_distance), s.probe_distance) +
                             s.step_min_forward + s.skin + s.skin;
        const fx::geo::Aabb want =
            fx::geo::Capsule::upright(feet, s.radius, s.height).bounds().expanded(reach);
        const fx::geo::Aabb got = tick_region(feet, v, p);
        INFO("feet " << ld(feet.x) << " " << ld(feet.y) << " " << ld(feet.z) << ", speed "
                     << ld(fx::length(v)));
        REQUIRE(got.lo == want.lo);
        REQUIRE(got.hi == want.hi);
        (fx::length(v) <= top ? within : beyond) += 1;
    }
    CHECK(within > cases / 4);
    CHECK(beyond > cases / 4);
}

TEST_CASE(
    "kept grid: runtime changes between ticks run to the same bytes as a grid built every tick",
    "[world][memo]") {
    // step() starts a tick with the characters' grid as the last tick's resolve_bodies() left
    // it, its pushed bodies indexed again in place, unless one left its 2 m cell or a character
    // was changed between the ticks (World::bodies_indexed_). A crowd pressed together across
    // the cell borders at x = 0 and z = 0, so that pushes move bodies from cell to cell, with
    // every kind of change between ticks: a teleport into the crowd, a body moved through
    // find(), a larger radius, collisions off and on again, a leave and a join, a rollback.
    // Each of three spacings, with reuse (the grid kept) and without (built every tick): the
    // same bytes every tick, and after every tick the grid kept is the grid built afresh.
    int64_t kept_total = 0, ticks_total = 0;
    for (const long double spacing : {0.55L, 0.6L, 0.8L}) {
        auto run = [&](bool reuse, int64_t* kept) {
            World w;
            add_floor(w);
            add_aabb(w, 2, v3(-6, 0, -6), v3(-5, 2, 6)); // walls west and south
            add_aabb(w, 3, v3(-6, 0, -6), v3(6, 2, -5));
            std::string error;
            for (int k = 0; k < 16; ++k)
                REQUIRE(w.add_character(
                    static_cast<CharacterId>(k + 1),
                    v3(spacing * (k % 4 - 1.5L), rest_height(), spacing * (k / 4 - 1.5L)),
                    kDefaults, &error));
            REQUIRE(w.build(&error));
            w.set_reuse_casts(reuse);
            std::vector<uint8_t> bytes, snapshot;
            for (int t = 0; t < 160; ++t) {
                if (t == 20) REQUIRE(w.teleport(3, v3(0.05L, rest_height(), -0.05L), &error));
                if (t == 35) w.find(5)->position.x += sc(6); // out of its cell, by the caller
                if (t == 45) w.find(6)->position.z -= sc(0.01L); // within it
                if (t == 50) {
                    Settings wide = kDefaults;
                    wide.radius = sc(0.5L);
                    REQUIRE(w.set_settings(7, wide, &error));
                }
                Settings ghost = kDefaults;
                ghost.collide_characters = false;
                if (t == 65) REQUIRE(w.set_settings(8, ghost, &error));
                if (t == 90) REQUIRE(w.set_settings(8, kDefaults, &error));
                if (t == 60) w.snapshot(&snapshot);
                if (t == 75) REQUIRE(w.remove_character(9, &error));
                if (t == 80)
                    REQUIRE(w.add_character(9, v3(0.2L, rest_height(), 0.1L), kDefaults, &error));
                if (t == 110) REQUIRE(w.restore(snapshot, &error));
                std::vector<Input> in(w.characters().size());
                for (size_t i = 0; i < in.size(); ++i) { // everyone toward the middle, turning
                    const CharacterState& c = w.characters()[i];
                    in[i].stick_x = c.position.x.raw() > 0 ? -Scalar::one() : Scalar::one();
                    in[i].stick_y = ((t / 25 + static_cast<int>(c.id)) % 2) == 0 ? Scalar::half()
                                                                                 : -Scalar::half();
                    in[i].jump = (t + static_cast<int>(c.id) * 7) % 53 == 0;
                }
                INFO("tick " << t);
                REQUIRE(w.grid_is_fresh()); // after the changes
                w.step(in);
                REQUIRE(w.grid_is_fresh()); // what the next tick starts with
                for (const CharacterState& c : w.characters()) {
                    const auto b = serialize_state(c);
                    bytes.insert(bytes.end(), b.begin(), b.end());
                }
            }
            *kept = w.grid_kept();
            return bytes;
        };
        INFO("spacing " << static_cast<double>(spacing));
        int64_t kept = 0, unkept = 0;
        const std::vector<uint8_t> with = run(true, &kept), without = run(false, &unkept);
        REQUIRE(with.size() == without.size());
        const auto first = std::mismatch(with.begin(), with.end(), without.begin());
        REQUIRE((first.first == with.end() ? -1 : first.first - with.begin()) == -1);
        CHECK(unkept == 0);
        CHECK(kept < 160 - 8); // the changes (and the cells crossed) rebuild it
        kept_total += kept;
        ticks_total += 160;
    }
    INFO("grid kept at " << kept_total << " of " << ticks_total << " ticks");
    CHECK(kept_total * 2 > ticks_total);
}
