// The oracles that compare runs (oracle_runs.h).
#include "oracle_runs.h"

#include <algorithm>
#include <functional>

#include "kcc/world.h"
#include "records/tick_hash.h"
#include "run/checks.h"
#include "run/fault.h"
#include "run/runner.h"
#include "run/synctest.h"
#include "swarm/metamorphic.h"
#include "swarm/rng.h"

namespace fx::harness::swarm::detail {

std::string at_text(int64_t tick, uint32_t id) {
    return "tick " + std::to_string(tick) + ", character " + std::to_string(id);
}
std::string m6(Scalar v) {
    return metric_text(MetricValue{true, v});
}

namespace {

/// Compares a transformed run with the original's states, tick by tick (first difference).
class CompareSink final : public RunSink {
public:
    using Map = std::function<bool(const kcc::CharacterState& original,
                                   const kcc::CharacterState& other, std::string* field)>;
    CompareSink(const std::vector<States>& original, std::map<uint32_t, uint32_t> ids, Map same)
        : original_(original), ids_(std::move(ids)), same_(std::move(same)) {}

    bool on_tick(int64_t t, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        (void)platforms, (void)render, (void)error;
        if (differs || tied || t >= static_cast<int64_t>(original_.size())) return true;
        if (stop_at_id_tie && world_ != nullptr && world_->id_ties() > 0) {
            // Ids chose how two characters in one place separate (kcc::World::id_ties): from
            // this tick on, a relabelling may rightly give another world.
            tied = true;
            tick = t;
            return true;
        }
        const States& a = original_[static_cast<size_t>(t)];
        if (a.size() != chars.size()) {
            differs = true;
            tick = t;
            message = "tick " + std::to_string(t) + ": " + std::to_string(chars.size()) +
                      " characters, not " + std::to_string(a.size());
            return true;
        }
        for (const kcc::CharacterState& s : a) {
            const uint32_t want = ids_.empty() ? s.id : ids_.at(s.id);
            const auto it =
                std::find_if(chars.begin(), chars.end(),
                             [&](const kcc::CharacterState& o) { return o.id == want; });
            std::string field;
            if (it == chars.end()) {
                field = "presence";
            } else if (same_(s, *it, &field)) {
                continue;
            }
            differs = true;
            tick = t;
            character = s.id;
            message = at_text(t, s.id) + ": " + field + " differs";
            return true;
        }
        return true;
    }

    void on_start(const kcc::World& world) override { world_ = &world; }

    bool stop_at_id_tie = false; ///< permute: stop comparing once ids have broken a tie
    bool tied = false; ///< stopped so, at `tick`
    bool differs = false;
    int64_t tick = -1;
    uint32_t character = 0;
    std::string message;

private:
    const kcc::World* world_ = nullptr;
    const std::vector<States>& original_;
    std::map<uint32_t, uint32_t> ids_;
    Map same_;
};

/// Field by field, with the position mapped: "" when equal, else the first differing field.
std::string first_difference(const kcc::CharacterState& a, const kcc::CharacterState& b,
                             const Vec3& shift) {
    if (a.position + shift != b.position) return "position";
    if (a.previous_position + shift != b.previous_position) return "previous_position";
    if (a.velocity != b.velocity) return "velocity";
    if (a.run_speed != b.run_speed) return "run_speed";
    if (a.step_hold != b.step_hold) return "step_hold";
    if (a.facing != b.facing || a.previous_facing != b.previous_facing) return "facing";
    if (a.grounded != b.grounded) return "grounded";
    if (a.ground_normal != b.ground_normal) return "ground_normal";
    if (a.ground_shape != b.ground_shape) return "ground_shape";
    if (a.platform != b.platform) return "platform";
    if (a.halted != b.halted) return "halted";
    return "";
}

/// Field by field for a run turned a quarter about +y (metamorphic.h): positions, velocities and
/// ground normals turned; the facing is not compared (the scenario format has no initial facing,
/// so the turned run starts facing +z like the original, not turned with it).
std::string turned_difference(const kcc::CharacterState& a, const kcc::CharacterState& b) {
    if (quarter_turn(a.position) != b.position) return "position";
    if (quarter_turn(a.previous_position) != b.previous_position) return "previous_position";
    if (quarter_turn(a.velocity) != b.velocity) return "velocity";
    if (a.run_speed != b.run_speed) return "run_speed";
    if (a.step_hold != b.step_hold) return "step_hold";
    if (a.grounded != b.grounded) return "grounded";
    if (quarter_turn(a.ground_normal) != b.ground_normal) return "ground_normal";
    if (a.ground_shape != b.ground_shape) return "ground_shape";
    if (a.platform != b.platform) return "platform";
    if (a.halted != b.halted) return "halted";
    return "";
}

/// Every tick's states of a run.
class StatesSink final : public RunSink {
public:
    bool on_tick(int64_t, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        ticks.emplace_back(chars.begin(), chars.end());
        return true;
    }
    std::vector<States> ticks;
};

/// The scenario with every character a ghost (collide_characters false, also in its settings
/// events): the quarter turn is compared on it, because contacts between characters are ordered
/// by position (x, then y, then z: independent of ids and listing, but not of a turn).
Scenario ghosts(const Scenario& sc) {
    Scenario g = sc;
    for (CharacterDef& c : g.characters)
        c.settings.collide_characters = false;
    for (EventDef& e : g.events)
        e.settings.collide_characters = false;
    return g;
}

/// The transformed scenarios this run is compared with (translation, permutation, frames off).
/// The planted difference of --inject-oracle-fault in a transformed scenario: its first
/// character spawns 1 mm further along x.
void plant_in(Scenario* other) {
    if (!other->characters.empty()) other->characters.front().spawn.x += Scalar::ratio(1, 1000);
}

} // namespace

std::vector<Metamorphic> transforms(const GeneratedRun& run, const Scenario& sc,
                                    const std::string& plant) {
    std::vector<Metamorphic> out;
    Rng rng(run_seed(run.seed ^ 0x5157A3D1u, static_cast<uint64_t>(run.index)));
    const Vec3 d{Scalar::from_int(rng.range(-50000, 50000)), Scalar::from_int(rng.range(-500, 500)),
                 Scalar::from_int(rng.range(-50000, 50000))};
    out.push_back({"translate", translated(sc, d), {}, d, false, std::nullopt});
    Metamorphic p{"permute", Scenario{}, {}, Vec3{}, false, std::nullopt};
    p.other = permuted(sc, rng, &p.ids);
    out.push_back(std::move(p));
    if (!sc.frames.empty()) {
        Metamorphic f{"frames", sc, {}, Vec3{}, false, std::nullopt};
        f.other.frames.clear();
        out.push_back(std::move(f));
    }
    Scenario apart = ghosts(sc);
    Scenario turned_apart = turned(apart);
    out.push_back({"turn", std::move(turned_apart), {}, Vec3{}, true, std::move(apart)});
    for (Metamorphic& m : out) {
        if (m.oracle == plant) plant_in(&m.other);
    }
    return out;
}

/// The first metamorphic difference of `which` (a transform's oracle name), or "" .
bool metamorphic_fails(const GeneratedRun& run, const Scenario& sc,
                       const std::vector<States>& states, const Metamorphic& m, Finding* f,
                       int64_t* character_ticks) {
    (void)run;
    const Vec3 shift = m.shift;
    const bool turn = m.turn;
    CompareSink cmp(states, m.ids,
                    [shift, turn](const kcc::CharacterState& a, const kcc::CharacterState& b,
                                  std::string* field) {
                        *field = turn ? turned_difference(a, b) : first_difference(a, b, shift);
                        return field->empty();
                    });
    std::string error;
    if (m.base) {
        StatesSink base;
        if (!run_scenario(*m.base, base, RunOptions{}, &error)) {
            f->oracle = m.oracle;
            f->message = "the scenario with ghosts does not run: " + error;
            return true;
        }
        *character_ticks +=
            static_cast<int64_t>(base.ticks.size()) * static_cast<int64_t>(sc.characters.size());
        CompareSink again(
            base.ticks, m.ids,
            [](const kcc::CharacterState& a, const kcc::CharacterState& b, std::string* field) {
                *field = turned_difference(a, b);
                return field->empty();
            });
        if (!run_scenario(m.other, again, RunOptions{}, &error)) {
            again.differs = true;
            again.message = "the turned scenario does not run: " + error;
        }
        *character_ticks +=
            static_cast<int64_t>(base.ticks.size()) * static_cast<int64_t>(sc.characters.size());
        if (!again.differs) return false;
        f->oracle = m.oracle;
        f->tick = again.tick;
        f->character = again.character;
        f->message = again.message;
        return true;
    }
    cmp.stop_at_id_tie = !m.ids.empty();
    if (!run_scenario(m.other, cmp, RunOptions{}, &error)) {
        cmp.differs = true;
        cmp.message = "the " + m.oracle + "d scenario does not run: " + error;
    }
    *character_ticks +=
        static_cast<int64_t>(states.size()) * static_cast<int64_t>(sc.characters.size());
    if (!cmp.differs) return false;
    f->oracle = m.oracle;
    f->has_character = cmp.character != 0 || !sc.characters.empty();
    f->character = cmp.character;
    f->tick = cmp.tick;
    f->message = cmp.message;
    return true;
}

namespace {

int rollback_of(const GeneratedRun& run) {
    return static_cast<int>(
        Rng(run_seed(run.seed ^ 0x5EC7u, static_cast<uint64_t>(run.index))).range(1, 12));
}

} // namespace

bool synctest_fails(const GeneratedRun& run, const Scenario& sc, bool plant, Finding* f,
                    int64_t* character_ticks) {
    SyncTestOptions o;
    o.rollback = rollback_of(run);
    Fault fault;
    if (plant && !sc.characters.empty()) {
        fault.tick = 0;
        fault.character = sc.characters.front().join == 0 ? sc.characters.front().id : 0;
        fault.field = "x";
        fault.bits = 3;
        if (sc.characters.front().join == 0) o.restore_fault = &fault;
    }
    SyncTestResult r;
    std::string error;
    if (!sync_test(sc, o, &r, &error)) {
        f->message = "synctest cannot run: " + error;
        f->oracle = "synctest";
        return true;
    }
    *character_ticks += (r.ticks + r.resimulated) * static_cast<int64_t>(sc.characters.size());
    if (r.ok) return false;
    f->oracle = "synctest";
    f->tick = r.tick;
    f->message = "tick " + std::to_string(r.tick) + " simulated again after restoring tick " +
                 std::to_string(r.restored_tick) + " (rollback " + std::to_string(o.rollback) +
                 ") differs";
    return true;
}

/// A snapshot taken at a tick of the seed's choosing, restored into a world built afresh, must
/// continue as the first world does: every later tick's characters' hash the same.
bool roundtrip_fails(const GeneratedRun& run, const Scenario& sc, bool plant, Finding* f,
                     int64_t* character_ticks) {
    const int64_t at =
        Rng(run_seed(run.seed ^ 0x7A11u, static_cast<uint64_t>(run.index))).range(0, sc.ticks - 1);
    std::string error;
    auto fail = [&](int64_t tick, const std::string& why) {
        f->oracle = "roundtrip";
        f->tick = tick;
        f->message = why;
        return true;
    };
    kcc::World a;
    if (!build_world(sc, &a, &error)) return fail(-1, "the scenario does not build: " + error);
    Timeline ta(sc);
    std::vector<uint8_t> snap;
    std::vector<kcc::Input> in;
    std::vector<uint64_t> hashes;
    TickHasher hasher;
    TickHashes h;
    const std::vector<std::pair<uint32_t, Vec3>> no_platforms;
    for (int64_t t = 0; t < sc.ticks; ++t) {
        if (t == at) a.snapshot(&snap);
        if (!ta.apply(t, &a, &error)) return fail(t, error);
        ta.inputs(t, &in);
        a.step(in);
        hasher.hash_into(t, a.characters(), no_platforms, &h);
        hashes.push_back(h.world);
        *character_ticks += static_cast<int64_t>(a.characters().size());
    }
    kcc::World b;
    if (!build_world(sc, &b, &error)) return fail(-1, "the scenario does not build: " + error);
    if (!b.restore(snap, &error)) {
        return fail(at, "the snapshot of tick " + std::to_string(at) +
                            " does not restore into a new world: " + error);
    }
    if (plant && !b.characters().empty()) {
        Fault fault;
        fault.tick = at;
        fault.character = b.characters().front().id;
        fault.field = "x";
        fault.bits = 3;
        if (!apply_fault(fault, &b, "planted fault", &error)) return fail(at, error);
    }
    Timeline tb(sc);
    for (int64_t t = at; t < sc.ticks; ++t) {
        if (!tb.apply(t, &b, &error)) return fail(t, error);
        tb.inputs(t, &in);
        b.step(in);
        hasher.hash_into(t, b.characters(), no_platforms, &h);
        *character_ticks += static_cast<int64_t>(b.characters().size());
        if (h.world != hashes[static_cast<size_t>(t)]) {
            return fail(t, "tick " + std::to_string(t) +
                               ": a new world restored from the snapshot of tick " +
                               std::to_string(at) + " differs from the world it was taken from");
        }
    }
    return false;
}

} // namespace fx::harness::swarm::detail
