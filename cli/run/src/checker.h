// Internal to the checks (cli/run/src): the Checker that sits between the runner and another
// sink, split by what it checks: the trace and the run's course (checks.cpp), the feel metrics
// (check_metrics.cpp), the invariants (check_invariants.cpp) and the scenario's expectations
// (check_expectations.cpp). Definitions: docs/conformance.md.
#pragma once

#include "run/checks.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fx/decimal.h"
#include "fx/trig.h"
#include "geo/queries.h"
#include "kcc/motion.h"
#include "kcc/solve.h"

namespace fx::harness::checking {

inline std::string num(Scalar v) {
    return to_string_shortest(v);
}
/// Rounded to 6 decimals, for descriptive numbers (depths, bands) in messages.
inline std::string num6(Scalar v) {
    return metric_text(MetricValue{true, v});
}

inline std::string check_text(const Check& c) {
    if (c.has_min && c.has_max) {
        if (c.min == c.max) return "= " + num(c.min);
        return "[" + num(c.min) + ", " + num(c.max) + "]";
    }
    if (c.has_min) return ">= " + num(c.min);
    return "<= " + num(c.max);
}

inline std::string where(const SourceRef& at) {
    return "expect[" + std::to_string(at.index) + "] (line " + std::to_string(at.line) + ")";
}

inline Scalar horizontal_length(const Vec3& v) {
    return length(Vec3{v.x, Scalar{}, v.z});
}

inline bool stick_held(const kcc::Input& in, Scalar dead_zone) {
    const Scalar m2 = in.stick_x * in.stick_x + in.stick_y * in.stick_y;
    return m2 > dead_zone * dead_zone;
}

/// What the trace said about one character during the current tick.
struct TickEvents {
    bool pressed = false; ///< the horizontal pass added a plane
    bool jumped = false;
    bool stepped = false; ///< a step-up attempt with motion
    bool at_cap = false;
    bool carried = false; ///< a platform carried it
    Scalar push; ///< depenetration push length
    int max_iteration = 0; ///< sweeps used by the longest pass
    int step_attempts = 0, step_successes = 0;
};

/// Running state of the metrics of one character.
struct Tracker {
    kcc::CharacterState prev;
    bool have_prev = false;
    bool prev_held = false;
    int64_t release_tick = -1; ///< stop-time measurement in progress
    int64_t stop_ticks = -1; ///< longest completed
    int64_t spell_start = -1; ///< airborne spell in progress
    bool spell_excused = false;
    Vec3 prev_pressed_disp;
    bool prev_pressed = false;
    Scalar prev_depth; ///< static penetration the depth is compared with: the least since it last
                       ///< grew (see invariants)
    bool depth_failed = false, ground_failed = false, halt_reported = false, inside_failed = false;
    int64_t inside_ticks =
        0; ///< consecutive ticks deeper than kPenetrationTolerance in static geometry
    Scalar inside_depth; ///< deepest of those ticks
    CharacterMetrics m;
};

struct StateProgress {
    int64_t failed_ticks = 0;
    std::string first;
};

class Checker final : public RunSink, public kcc::TraceObserver {
public:
    Checker(const Scenario& sc, RunSink* inner, CheckReport* report)
        : sc_(sc), inner_(inner), report_(report) {
        ids_ = character_ids(sc);
        for (const PlatformDef& p : sc.platforms)
            platform_ids_.push_back(p.id);
        std::sort(platform_ids_.begin(), platform_ids_.end());
        for (const MeshDef& m : sc.meshes)
            mesh_ids_.push_back(m.id);
        std::sort(mesh_ids_.begin(), mesh_ids_.end());
        for (const CharacterDef& c : sc.characters)
            cursors_.emplace_back(*c.input);
        trackers_.resize(ids_.size());
        last_seen_.assign(ids_.size(), -2);
        last_entry_.assign(ids_.size(), sc.characters.size());
        events_.resize(ids_.size());
        for (size_t i = 0; i < ids_.size(); ++i)
            trackers_[i].m.id = ids_[i];
        state_progress_.resize(sc.expect_states.size());
        same_failed_.assign(sc.expect_same_as.size(), false);
        cos_half_degree_ = sincos_deg(Scalar::ratio(1, 2)).cos;
    }

    /// Runs the other scenarios of same_as expectations first.
    bool prepare(std::string* error);

    void on_start(const kcc::World& world) override {
        world_ = &world;
        // The static shapes other than meshes, by id: the ground check tries the shape a body
        // says it stands on alone before it casts into the whole scene (check_invariants.cpp).
        statics_.clear();
        const geo::StaticScene& scene = world.scene();
        for (size_t k = 0; k < scene.size(); ++k) {
            geo::StaticScene::ShapeView v = scene.shape(k);
            if (v.motion == geo::Motion::kStatic && v.kind != geo::ShapeKind::kMesh)
                statics_.push_back(v);
        }
        std::sort(statics_.begin(), statics_.end(),
                  [](const auto& a, const auto& b) { return a.id < b.id; });
        if (inner_ != nullptr) inner_->on_start(world);
    }

    void on_event(const kcc::TraceEvent& e) override;
    /// The kinds on_event reads (checks.cpp); the solve builds no others for it.
    uint32_t kinds() const override {
        using kcc::trace_bit;
        using kcc::TraceKind;
        return trace_bit(TraceKind::kPlaneAdded) | trace_bit(TraceKind::kVelocity) |
               trace_bit(TraceKind::kStepAttempt) | trace_bit(TraceKind::kIterationCap) |
               trace_bit(TraceKind::kPlatformCarry) | trace_bit(TraceKind::kDepenetrate) |
               trace_bit(TraceKind::kSweep);
    }

    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override;

    void finish(bool complete);

private:
    /// Whether an event (a teleport or new settings) changed character `id` at `tick`.
    bool changed(uint32_t id, int64_t tick) const {
        const auto first =
            std::lower_bound(sc_.events.begin(), sc_.events.end(), tick,
                             [](const EventDef& e, int64_t v) { return e.tick < v; });
        for (auto it = first; it != sc_.events.end() && it->tick == tick; ++it) {
            if (it->character == id) return true;
        }
        return false;
    }
    size_t index_of(uint32_t id) const {
        // A character's trace events come one after another: the last answer first.
        if (id == last_id_ && last_index_ < ids_.size()) return last_index_;
        const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
        const size_t i =
            it != ids_.end() && *it == id ? static_cast<size_t>(it - ids_.begin()) : ids_.size();
        last_id_ = id;
        last_index_ = i;
        return i;
    }
    bool is_mesh(uint32_t shape) const {
        return std::binary_search(mesh_ids_.begin(), mesh_ids_.end(), shape);
    }
    bool is_platform(uint32_t shape) const {
        return std::binary_search(platform_ids_.begin(), platform_ids_.end(), shape);
    }

    static void set(Tracker& t, Metric m, Scalar v) {
        t.m.values[m].present = true;
        t.m.values[m].value = v;
    }
    static void raise(Tracker& t, Metric m, Scalar v) {
        MetricValue& mv = t.m.values[m];
        if (!mv.present || v > mv.value) set(t, m, v);
    }
    static void lower(Tracker& t, Metric m, Scalar v) {
        MetricValue& mv = t.m.values[m];
        if (!mv.present || v < mv.value) set(t, m, v);
    }
    static void add(Tracker& t, Metric m, int n) {
        MetricValue& mv = t.m.values[m];
        mv.present = true;
        mv.value = mv.value + Scalar::from_int(n);
    }

    // ---- the feel metrics (check_metrics.cpp) ----
    void track(int64_t tick, const kcc::CharacterState& s, const kcc::Input& in,
               const kcc::Params& p, Tracker& t, const TickEvents& ev);

    // ---- the invariants (check_invariants.cpp) ----
    void invariant(int64_t tick, std::string message);

    static constexpr Scalar kCoresApart = Scalar::from_raw(int64_t{1} << 12); ///< 2^-20 m

    /// How deep the capsule is in a mesh: the minimum translation distance. With the cores apart
    /// (the capsule's segment at distance g > 2^-20 m from the triangle's closest point) that is
    /// exactly r - g, whatever normal the query reports. The contact's own depth is a push that
    /// separates but may be longer: on an inactive edge or vertex it is the push along the
    /// triangle's face (docs/geometry.md), which for a small triangle inside the body measures
    /// the core's height above the triangle's plane, not how deep the body is (docs/fuzzing.md,
    /// the overlapping spawn around a tiny mesh). Cores that touch or cross, and every other
    /// kind of shape: the contact's depth, as before (a box's reported depth near an edge the
    /// core touches can exceed r - g too, but that is also what depenetration pushes by).
    Scalar penetration(const geo::Capsule& cap, const geo::Contact& c) const;

    void invariants(int64_t tick, const kcc::CharacterState& s, const kcc::Params& p, Tracker& t,
                    std::span<const kcc::CharacterState> chars);

    // ---- the scenario's expectations (check_expectations.cpp) ----
    /// State field f of s, the character at `index` in this tick's list.
    Scalar field(StateField f, const kcc::CharacterState& s, size_t index) const;
    /// This tick's deepest overlap of each colliding character with another, parallel to the
    /// tick's list: the state field character_overlap (character_overlaps() sets it, the
    /// invariants and expectations() read it).
    std::vector<Scalar> overlap_now_;
    std::vector<uint32_t> by_x_; ///< scratch of character_overlaps
    /// overlap_now_ for this tick's characters (on_tick, before the invariants).
    void character_overlaps(std::span<const kcc::CharacterState> chars);

    void expectations(int64_t tick, std::span<const kcc::CharacterState> chars);

    void same_as(int64_t tick, std::span<const kcc::CharacterState> chars);

    void metric_expectations();

    const Scenario& sc_;
    RunSink* inner_;
    CheckReport* report_;
    const kcc::World* world_ = nullptr;
    std::vector<uint32_t> ids_, platform_ids_, mesh_ids_;
    std::vector<InputCursor> cursors_;
    std::vector<Tracker> trackers_; ///< per character id (ids_)
    std::vector<int64_t> last_seen_; ///< per id: the last tick it was present
    std::vector<size_t> last_entry_; ///< per id: its entry (sc.characters) then
    std::vector<TickEvents> events_;
    std::vector<StateProgress> state_progress_;
    std::vector<int64_t> first_tick_;
    std::vector<bool> same_failed_;
    std::vector<std::vector<std::vector<kcc::CharacterState>>> others_;
    std::vector<CheckFailure> expectation_failures_, invariant_failures_;
    Scalar cos_half_degree_;
    std::vector<geo::StaticScene::ShapeView> statics_; ///< on_start(): static, not meshes, by id
    /// The cast of `cap` down to `reach` against static shape `id` alone (statics_): false when
    /// it meets nothing there or `id` is not one of them.
    bool cast_static(uint32_t id, const geo::Capsule& cap, Scalar reach, geo::Hit* hit) const;
    // Scratch of the invariants' queries, kept between calls (made on every call, their
    // zero-initialisation cost more than the queries' own bookkeeping).
    std::array<geo::Contact, 32> contacts_;
    std::array<geo::Hit, kGroundCheckHits> ground_hits_;
    mutable uint32_t last_id_ = 0xFFFFFFFFu; ///< index_of's last question and answer
    mutable size_t last_index_ = 0;
    int64_t ticks_ = 0;
    bool overflow_reported_ = false;
};

} // namespace fx::harness::checking
