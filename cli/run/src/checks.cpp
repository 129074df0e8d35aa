#include "run/checks.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <sstream>

#include "fx/decimal.h"
#include "fx/overflow.h"
#include "fx/trig.h"
#include "geo/queries.h"
#include "kcc/motion.h"
#include "kcc/solve.h"

namespace fx::harness {
namespace {

// ---- arithmetic overflow, recorded per thread while a checked run is active ----

thread_local bool t_recording = false;
thread_local const char* t_overflow_op = nullptr;
OverflowHandler g_previous_handler = nullptr;

void record_overflow(const char* operation) {
    if (!t_recording) {
        if (g_previous_handler != nullptr) g_previous_handler(operation);
        return;
    }
    if (t_overflow_op == nullptr) t_overflow_op = operation;
}

void install_overflow_recorder() {
    static std::once_flag once;
    std::call_once(once, [] { g_previous_handler = set_overflow_handler(&record_overflow); });
}

std::string num(Scalar v) { return to_string_shortest(v); }
/// Rounded to 6 decimals, for descriptive numbers (depths, bands) in messages.
std::string num6(Scalar v) { return metric_text(MetricValue{true, v}); }

std::string check_text(const Check& c) {
    if (c.has_min && c.has_max) {
        if (c.min == c.max) return "= " + num(c.min);
        return "[" + num(c.min) + ", " + num(c.max) + "]";
    }
    if (c.has_min) return ">= " + num(c.min);
    return "<= " + num(c.max);
}

std::string where(const SourceRef& at) {
    return "expect[" + std::to_string(at.index) + "] (line " + std::to_string(at.line) + ")";
}

Scalar horizontal_length(const Vec3& v) { return length(Vec3{v.x, Scalar{}, v.z}); }

bool stick_held(const kcc::Input& in, Scalar dead_zone) {
    const Scalar m2 = in.stick_x * in.stick_x + in.stick_y * in.stick_y;
    return m2 > dead_zone * dead_zone;
}

/// What the trace said about one character during the current tick.
struct TickEvents {
    bool pressed = false;   ///< the horizontal pass added a plane
    bool jumped = false;
    bool stepped = false;   ///< a step-up attempt with motion
    bool at_cap = false;
    bool carried = false;   ///< a platform carried it
    Scalar push;            ///< depenetration push length
    int max_iteration = 0;  ///< sweeps used by the longest pass
    int step_attempts = 0, step_successes = 0;
};

/// Running state of the metrics of one character.
struct Tracker {
    kcc::CharacterState prev;
    bool have_prev = false;
    bool prev_held = false;
    int64_t release_tick = -1; ///< stop-time measurement in progress
    int64_t stop_ticks = -1;   ///< longest completed
    int64_t spell_start = -1;  ///< airborne spell in progress
    bool spell_excused = false;
    Vec3 prev_pressed_disp;
    bool prev_pressed = false;
    Scalar prev_depth;         ///< static penetration the depth is compared with: the least since it last grew (see invariants)
    bool depth_failed = false, ground_failed = false, halt_reported = false, inside_failed = false;
    int64_t inside_ticks = 0; ///< consecutive ticks deeper than kPenetrationTolerance in static geometry
    Scalar inside_depth;      ///< deepest of those ticks
    CharacterMetrics m;
};

struct StateProgress {
    int64_t failed_ticks = 0;
    std::string first;
};

} // namespace

int CheckReport::expectation_failures() const {
    return static_cast<int>(std::count_if(failures.begin(), failures.end(), [](const CheckFailure& f) {
        return f.kind == CheckFailure::Kind::kExpectation;
    }));
}
int CheckReport::invariant_failures() const {
    return static_cast<int>(failures.size()) - expectation_failures();
}

namespace {

/// Collects every character state of a run (the other side of a same_as expectation).
class StatesSink final : public RunSink {
public:
    std::vector<std::vector<kcc::CharacterState>> ticks;
    bool on_tick(int64_t, std::span<const kcc::CharacterState> chars, std::span<const std::pair<uint32_t, Vec3>>,
                 std::span<const Vec3>, std::string*) override {
        ticks.emplace_back(chars.begin(), chars.end());
        return true;
    }
};

class Checker final : public RunSink, public kcc::TraceObserver {
public:
    Checker(const Scenario& sc, RunSink* inner, CheckReport* report) : sc_(sc), inner_(inner), report_(report) {
        ids_ = character_ids(sc);
        for (const PlatformDef& p : sc.platforms) platform_ids_.push_back(p.id);
        std::sort(platform_ids_.begin(), platform_ids_.end());
        for (const MeshDef& m : sc.meshes) mesh_ids_.push_back(m.id);
        std::sort(mesh_ids_.begin(), mesh_ids_.end());
        for (const CharacterDef& c : sc.characters) cursors_.emplace_back(*c.input);
        trackers_.resize(ids_.size());
        last_seen_.assign(ids_.size(), -2);
        last_entry_.assign(ids_.size(), sc.characters.size());
        events_.resize(ids_.size());
        for (size_t i = 0; i < ids_.size(); ++i) trackers_[i].m.id = ids_[i];
        state_progress_.resize(sc.expect_states.size());
        same_failed_.assign(sc.expect_same_as.size(), false);
        cos_half_degree_ = sincos_deg(Scalar::ratio(1, 2)).cos;
    }

    /// Runs the other scenarios of same_as expectations first.
    bool prepare(std::string* error) {
        for (const SameAsExpectation& e : sc_.expect_same_as) {
            StatesSink s;
            std::string err;
            if (!run_scenario(*e.other, s, RunOptions{}, &err)) {
                *error = where(e.at) + ": same_as '" + e.path + "': " + err;
                return false;
            }
            others_.push_back(std::move(s.ticks));
        }
        return true;
    }

    void on_start(const kcc::World& world) override {
        world_ = &world;
        if (inner_ != nullptr) inner_->on_start(world);
    }

    void on_event(const kcc::TraceEvent& e) override {
        const size_t i = index_of(e.character);
        if (i >= events_.size()) return;
        TickEvents& t = events_[i];
        switch (e.kind) {
        case kcc::TraceKind::kPlaneAdded:
            if (e.pass == kcc::Pass::kHorizontal) t.pressed = true;
            break;
        case kcc::TraceKind::kVelocity:
            if (e.flag) t.jumped = true;
            break;
        case kcc::TraceKind::kStepAttempt:
            if (e.reason != static_cast<uint8_t>(kcc::StepResult::kNoMotion)) {
                t.stepped = true;
                ++t.step_attempts;
                if (e.reason == static_cast<uint8_t>(kcc::StepResult::kAccepted)) ++t.step_successes;
            }
            break;
        case kcc::TraceKind::kIterationCap: t.at_cap = true; break;
        case kcc::TraceKind::kPlatformCarry: t.carried = true; break;
        case kcc::TraceKind::kDepenetrate: t.push = std::max(t.push, length(e.a)); break;
        case kcc::TraceKind::kSweep:
            if (e.pass == kcc::Pass::kHorizontal || e.pass == kcc::Pass::kVertical) {
                t.max_iteration = std::max(t.max_iteration, static_cast<int>(e.iteration) + 1);
            }
            break;
        default: break;
        }
    }

    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        ticks_ = tick + 1;
        for (size_t i = 0; i < chars.size(); ++i) {
            const size_t k = index_of(chars[i].id);
            const size_t entry = entry_at(sc_, chars[i].id, tick);
            if (k >= trackers_.size() || entry >= cursors_.size()) continue;
            Tracker& tr = trackers_[k];
            if (last_seen_[k] != tick - 1 || last_entry_[k] != entry || changed(chars[i].id, tick)) {
                // A join (a rejoin in the tick of the leave too), a teleport or new settings (a
                // body that grew may be deeper in a wall): nothing from the previous tick to
                // compare with.
                tr.have_prev = false;
                tr.prev_pressed = false;
                tr.release_tick = -1;
                tr.spell_start = -1;
                tr.inside_ticks = 0;
            }
            last_seen_[k] = tick;
            last_entry_[k] = entry;
            const kcc::Input in = cursors_[entry].at(tick);
            const kcc::Params& p = world_->params(i);
            track(tick, chars[i], in, p, tr, events_[k]);
            invariants(tick, chars[i], p, tr, chars);
            tr.prev = chars[i];
            tr.have_prev = true;
            tr.prev_held = stick_held(in, p.s.dead_zone);
            events_[k] = TickEvents{};
        }
        if (t_overflow_op != nullptr && !overflow_reported_) {
            overflow_reported_ = true;
            invariant(tick, std::string("arithmetic overflow in ") + t_overflow_op + " during this tick");
        }
        expectations(tick, chars);
        same_as(tick, chars);
        return inner_ == nullptr || inner_->on_tick(tick, chars, platforms, render, error);
    }

    void finish(bool complete) {
        for (Tracker& t : trackers_) {
            if (t.stop_ticks >= 0) {
                set(t, kStopTimeMs, Scalar::ratio(t.stop_ticks * 1000, sc_.tick_rate_hz));
            }
            report_->metrics.push_back(t.m);
        }
        for (size_t k = 0; k < sc_.expect_states.size(); ++k) {
            const StateProgress& sp = state_progress_[k];
            if (sp.failed_ticks == 0) continue;
            std::string msg = sp.first;
            if (sp.failed_ticks > 1) msg += " (and " + std::to_string(sp.failed_ticks - 1) + " more ticks)";
            expectation_failures_.push_back({CheckFailure::Kind::kExpectation, first_tick_[k], msg});
        }
        report_->expectations = static_cast<int64_t>(sc_.expect_states.size());
        if (complete) {
            report_->expectations +=
                static_cast<int64_t>(sc_.expect_metrics.size() + sc_.expect_same_as.size());
            metric_expectations();
            for (size_t k = 0; k < sc_.expect_same_as.size(); ++k) {
                if (!same_failed_[k] && static_cast<int64_t>(others_[k].size()) != ticks_) {
                    expectation_failures_.push_back(
                        {CheckFailure::Kind::kExpectation, -1,
                         where(sc_.expect_same_as[k].at) + ": same_as '" + sc_.expect_same_as[k].path + "' ran " +
                             std::to_string(others_[k].size()) + " ticks, this scenario " + std::to_string(ticks_)});
                }
            }
        }
        // Per-tick failures in tick order, then whole-run ones (tick -1).
        auto key = [](const CheckFailure& f) { return f.tick < 0 ? INT64_MAX : f.tick; };
        std::stable_sort(expectation_failures_.begin(), expectation_failures_.end(),
                         [&](const CheckFailure& a, const CheckFailure& b) { return key(a) < key(b); });
        report_->failures = expectation_failures_;
        report_->failures.insert(report_->failures.end(), invariant_failures_.begin(), invariant_failures_.end());
        report_->ticks = ticks_;
    }

private:
    /// Whether an event (a teleport or new settings) changed character `id` at `tick`.
    bool changed(uint32_t id, int64_t tick) const {
        const auto first = std::lower_bound(sc_.events.begin(), sc_.events.end(), tick,
                                            [](const EventDef& e, int64_t v) { return e.tick < v; });
        for (auto it = first; it != sc_.events.end() && it->tick == tick; ++it) {
            if (it->character == id) return true;
        }
        return false;
    }
    size_t index_of(uint32_t id) const {
        const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
        return it != ids_.end() && *it == id ? static_cast<size_t>(it - ids_.begin()) : ids_.size();
    }
    bool is_mesh(uint32_t shape) const { return std::binary_search(mesh_ids_.begin(), mesh_ids_.end(), shape); }
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

    void track(int64_t tick, const kcc::CharacterState& s, const kcc::Input& in, const kcc::Params& p, Tracker& t,
               const TickEvents& ev) {
        const bool held = stick_held(in, p.s.dead_zone);
        const Scalar hspeed = horizontal_length(s.velocity);
        const Vec3 disp = s.position - s.previous_position;
        // Counters that every run has (present from the first tick, even when zero).
        add(t, kFlickerCount, 0);
        add(t, kStepAttempts, ev.step_attempts);
        add(t, kStepSuccesses, ev.step_successes);
        add(t, kTicksAtCap, ev.at_cap ? 1 : 0);
        add(t, kAirborneTicks, s.grounded ? 0 : 1);
        raise(t, kMaxDepenetration, ev.push);
        raise(t, kMaxSlideIterations, Scalar::from_int(ev.max_iteration));
        raise(t, kMaxHorizontalSpeed, hspeed);
        raise(t, kJitter, Scalar{});

        // Stop time: from the tick the stick is released (grounded, moving) to zero velocity.
        if (t.have_prev && t.prev_held && !held && t.prev.grounded && horizontal_length(t.prev.velocity).raw() != 0) {
            t.release_tick = tick;
        }
        if (t.release_tick >= 0) {
            if (held || !s.grounded) {
                t.release_tick = -1;
            } else if (s.velocity.x.raw() == 0 && s.velocity.z.raw() == 0) {
                t.stop_ticks = std::max(t.stop_ticks, tick - t.release_tick + 1);
                t.release_tick = -1;
            }
        }

        // Surface speed over flat speed on walkable slopes.
        if (t.have_prev && t.prev.grounded && s.grounded && t.prev.ground_normal == s.ground_normal &&
            s.ground_normal.y < cos_half_degree_ && hspeed >= Scalar::ratio(1, 2) && !ev.pressed && !ev.stepped &&
            ev.push.raw() == 0 && !ev.carried && !ev.jumped && s.platform == kcc::kNoId &&
            t.prev.platform == kcc::kNoId) {
            const Scalar flat = hspeed.div_int(sc_.tick_rate_hz);
            const Scalar ratio = length(disp) / flat;
            lower(t, kSlopeSpeedRatioMin, ratio);
            raise(t, kSlopeSpeedRatioMax, ratio);
        }

        // Flicker: short airborne spells that no jump or impulse explains.
        const bool kicked = !in.impulse.is_zero();
        if (t.have_prev && t.prev.grounded && !s.grounded) {
            t.spell_start = tick;
            t.spell_excused = ev.jumped || kicked;
        } else if (t.spell_start >= 0 && !s.grounded) {
            t.spell_excused = t.spell_excused || ev.jumped || kicked;
        } else if (t.spell_start >= 0 && s.grounded) {
            const int64_t spell = tick - t.spell_start;
            const int64_t limit = std::max(1, sc_.tick_rate_hz / 10);
            if (spell <= limit && !t.spell_excused) add(t, kFlickerCount, 1);
            t.spell_start = -1;
        }

        // Jitter: a reversal of the horizontal displacement while pressed into something with
        // the stick held (vertical motion is a jump's or a fall's, not jitter).
        if (held && ev.pressed) {
            const Vec3 hdisp{disp.x, Scalar{}, disp.z};
            if (t.prev_pressed && dot(hdisp, t.prev_pressed_disp) < Scalar{}) {
                raise(t, kJitter, std::min(length(hdisp), length(t.prev_pressed_disp)));
            }
            t.prev_pressed_disp = hdisp;
            t.prev_pressed = true;
        } else {
            t.prev_pressed = false;
        }
    }

    void invariant(int64_t tick, std::string message) {
        invariant_failures_.push_back({CheckFailure::Kind::kInvariant, tick, std::move(message)});
    }

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
    Scalar penetration(const geo::Capsule& cap, const geo::Contact& c) const {
        if (!is_mesh(c.shape)) return c.depth;
        const Vec3 d = cap.b - cap.a;
        const Scalar dd = dot(d, d);
        const Scalar along = dot(c.point - cap.a, d);
        Vec3 on_core = cap.a;
        if (along >= dd) {
            on_core = cap.b;
        } else if (along.raw() > 0) {
            on_core = cap.a + d * (along / dd); // along < dd: the quotient is below 1
        }
        // A segment that crosses the triangle has a gap of 0 up to the rounding of these few
        // operations (fuzz_controller: 1 raw unit for a body whose core crossed a 15 km triangle,
        // which read 0.4 m instead of its 0.67 m and "grew" the next tick): within 2^-20 m the
        // cores touch, and the contact's depth stands.
        const Scalar gap = length(c.point - on_core);
        return gap > kCoresApart ? min(c.depth, cap.radius - gap) : c.depth;
    }

    void invariants(int64_t tick, const kcc::CharacterState& s, const kcc::Params& p, Tracker& t,
                    std::span<const kcc::CharacterState> chars) {
        // 0. A halted body (kcc/settings.h, kWorkingVolumeMetres): reported once, in every build.
        if (s.halted && !t.halt_reported) {
            t.halt_reported = true;
            const Vec3& q = s.position;
            const std::string why =
                kcc::outside_working_volume(q)
                    ? "left the working volume at (" + num6(q.x) + ", " + num6(q.y) + ", " + num6(q.z) +
                          ") m (each coordinate less than " + std::to_string(kcc::kWorkingVolumeMetres) + " m)"
                    : "its speed reached " + num6(length(s.velocity)) + " m/s, over the bound of " +
                          std::to_string(kcc::kMaxBodySpeedMetresPerSecond) +
                          " m/s (input, gravity and impulses of one tick added up)";
            invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) + ": halted: " + why +
                                "; it is not moved again (docs/numeric.md)");
        }
        const geo::StaticScene& scene = world_->scene();
        const geo::Capsule cap = kcc::capsule_at(s.position, p);
        // 1. Penetration of static geometry: within tolerance, or not growing (depenetration at work).
        // overlap returns how many contacts there are in all; only the first contacts.size()
        // are written (reading past them was an out-of-bounds read).
        std::array<geo::Contact, 32> contacts;
        const size_t n = std::min(scene.overlap(cap, Scalar{}, contacts), contacts.size());
        Scalar depth;
        uint32_t deepest = kcc::kNoId;
        bool touches_platform = false;
        for (size_t k = 0; k < n; ++k) {
            if (is_platform(contacts[k].shape)) {
                touches_platform = true;
                continue;
            }
            const Scalar d = penetration(cap, contacts[k]);
            if (d > depth) {
                depth = d;
                deepest = contacts[k].shape;
            }
        }
        raise(t, kMaxPenetration, depth);
        // Overlap with the other colliding characters (upright capsules: the axes' horizontal
        // distance and the vertical gap between their segments).
        if (p.s.collide_characters) {
            Scalar worst;
            for (size_t o = 0; o < chars.size(); ++o) {
                const kcc::Params& po = world_->params(o);
                if (chars[o].id == s.id || !po.s.collide_characters) continue;
                const geo::Capsule other = kcc::capsule_at(chars[o].position, po);
                const Scalar reach = cap.radius + other.radius;
                const Vec3 d{cap.a.x - other.a.x, Scalar{}, cap.a.z - other.a.z};
                if (abs(d.x) >= reach || abs(d.z) >= reach) continue;
                const Scalar gy = max(max(cap.a.y - other.b.y, other.a.y - cap.b.y), Scalar{});
                const Scalar dist = length(Vec3{d.x, gy, d.z});
                worst = max(worst, reach - dist);
            }
            raise(t, kMaxCharacterOverlap, worst);
        }
        // Growth is measured from the least depth since the last tick that set it (a platform
        // contact, or a decrease), with kPenetrationGrowthTolerance for rounding: a body stuck
        // inside solids that overlap one another (spawned there) and sliding along the face it
        // is nearest to drifted deeper by rounding, 1e-7 m a tick, which the bare comparison
        // "deeper than the tick before" reported as growing; accumulated drift is still caught.
        const Scalar before = t.have_prev ? t.prev_depth : depth;
        if (depth > kPenetrationTolerance && depth > before + kPenetrationGrowthTolerance && !touches_platform &&
            !t.depth_failed) {
            t.depth_failed = true;
            invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                ": penetrates shape " + std::to_string(deepest) + " by " + num6(depth) +
                                " m (tolerance " + num6(kPenetrationTolerance) + " m; " + num6(before) +
                                " m the tick before: the depth grew)");
        }
        t.prev_depth = touches_platform || !t.have_prev ? depth : std::min(before, depth);
        // 1b. Out of static geometry in the time depenetration needs: a body deeper than the
        // tolerance tick after tick must be out within kInsideAllowance(deepest, cap) ticks.
        // (A body inside two overlapping boxes that pushed opposite ways stayed 0.9 m deep for
        // ever while its depth did not grow.)
        if (depth > kPenetrationTolerance && !touches_platform) {
            ++t.inside_ticks;
            t.inside_depth = max(t.inside_depth, depth);
            const int64_t allowed = inside_allowance(t.inside_depth, p.s.depenetration_cap);
            if (t.inside_ticks > allowed && !t.inside_failed) {
                t.inside_failed = true;
                invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                    ": inside shape " + std::to_string(deepest) + " for " +
                                    std::to_string(t.inside_ticks) + " ticks (" + num6(depth) + " m deep, " +
                                    num6(t.inside_depth) + " m at most): depenetration, up to " +
                                    num6(p.s.depenetration_cap) + " m a tick, gets a body out within " +
                                    std::to_string(allowed) + " ticks");
            }
        } else {
            t.inside_ticks = 0;
            t.inside_depth = Scalar{};
        }

        // 2. Grounded implies walkable ground within the probe band. On another character
        // (kBodyShape): a colliding character's capsule within the band below, where that one
        // stood at the start of the tick (characters meet one another there).
        if (s.grounded && !t.ground_failed && s.ground_shape == geo::kBodyShape) {
            const Scalar reach = p.ground_band + kGroundTolerance;
            bool found = false;
            for (size_t o = 0; o < chars.size() && !found; ++o) {
                const kcc::Params& po = world_->params(o);
                if (chars[o].id == s.id || !po.s.collide_characters) continue;
                const geo::Capsule other = kcc::capsule_at(chars[o].previous_position, po);
                geo::Hit hit;
                found = geo::cast(cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}}, reach, other, &hit);
            }
            if (!found) {
                t.ground_failed = true;
                invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                    ": grounded on another character but none within " + num6(reach) + " m below");
            }
        } else if (s.grounded && !t.ground_failed) {
            std::string why;
            if (s.ground_normal.y < p.cos_stay) {
                why = "its ground normal is " + num6(rad_to_deg(acos(s.ground_normal.y))) +
                      " deg from up, steeper than max_slope_stay_deg " + num(p.s.max_slope_stay_deg);
            } else {
                // cast_all returns how many hits there are in all, which may exceed the room
                // given: only the nearest hits.size() are written (reading past them was an
                // out-of-bounds read, found by fuzz_controller with more than 8 hits in the band).
                std::array<geo::Hit, kGroundCheckHits> hits;
                const Scalar reach = p.ground_band + kGroundTolerance;
                const size_t total = scene.cast_all(cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}}, reach, hits);
                const size_t h = std::min(total, hits.size());
                bool found = false;
                for (size_t k = 0; k < h && !found; ++k) found = hits[k].normal.y >= p.cos_stay;
                if (!found) {
                    why = "no walkable ground within " + num6(reach) + " m below (" + std::to_string(total) + " hits";
                    if (h > 0) why += "; nearest shape " + std::to_string(hits[0].shape) + " at " + num6(hits[0].distance) + " m";
                    why += ")";
                }
            }
            if (!why.empty()) {
                t.ground_failed = true;
                invariant(tick, "tick " + std::to_string(tick) + ", character " + std::to_string(s.id) +
                                    ": grounded but " + why);
            }
        }
    }

    Scalar field(StateField f, const kcc::CharacterState& s) const {
        switch (f) {
        case StateField::kX: return s.position.x;
        case StateField::kY: return s.position.y;
        case StateField::kZ: return s.position.z;
        case StateField::kVx: return s.velocity.x;
        case StateField::kVy: return s.velocity.y;
        case StateField::kVz: return s.velocity.z;
        case StateField::kSpeed: return length(s.velocity);
        case StateField::kHorizontalSpeed: return horizontal_length(s.velocity);
        case StateField::kSurfaceSpeed: return length(s.position - s.previous_position).mul_int(sc_.tick_rate_hz);
        case StateField::kGroundAngle: return s.grounded ? rad_to_deg(acos(s.ground_normal.y)) : Scalar{};
        case StateField::kFacing: return rad_to_deg(s.facing);
        }
        return Scalar{};
    }

    void expectations(int64_t tick, std::span<const kcc::CharacterState> chars) {
        if (first_tick_.size() != sc_.expect_states.size()) first_tick_.assign(sc_.expect_states.size(), -1);
        for (size_t k = 0; k < sc_.expect_states.size(); ++k) {
            const StateExpectation& e = sc_.expect_states[k];
            if (tick < e.from || tick > e.to) continue;
            std::string failed;
            if (e.character != kcc::kNoId &&
                std::none_of(chars.begin(), chars.end(), [&](const kcc::CharacterState& s) { return s.id == e.character; })) {
                // A check of a character that has left (or not yet joined) cannot hold.
                StateProgress& sp = state_progress_[k];
                if (sp.failed_ticks++ == 0) {
                    first_tick_[k] = tick;
                    sp.first = where(e.at) + ": tick " + std::to_string(tick) + ", character " +
                               std::to_string(e.character) + ": not present at this tick";
                }
                continue;
            }
            for (const kcc::CharacterState& s : chars) {
                if (e.character != kcc::kNoId && s.id != e.character) continue;
                if (e.grounded >= 0 && s.grounded != (e.grounded == 1)) {
                    failed = std::string("grounded is ") + (s.grounded ? "true" : "false") + ", expected " +
                             (e.grounded == 1 ? "true" : "false");
                } else if (e.check_platform && s.platform != e.platform) {
                    auto name = [](uint32_t id) { return id == kcc::kNoId ? std::string("none") : std::to_string(id); };
                    failed = "platform is " + name(s.platform) + ", expected " + name(e.platform);
                } else {
                    for (const auto& [f, c] : e.checks) {
                        const Scalar v = field(f, s);
                        if (!c.holds(v)) {
                            failed = std::string(state_field_names()[static_cast<int>(f)]) + " = " + num(v) + ", expected " +
                                     check_text(c);
                            break;
                        }
                    }
                }
                if (!failed.empty()) {
                    StateProgress& sp = state_progress_[k];
                    if (sp.failed_ticks++ == 0) {
                        first_tick_[k] = tick;
                        sp.first = where(e.at) + ": tick " + std::to_string(tick) + ", character " +
                                   std::to_string(s.id) + ": " + failed;
                    }
                    break;
                }
            }
        }
    }

    void same_as(int64_t tick, std::span<const kcc::CharacterState> chars) {
        for (size_t k = 0; k < sc_.expect_same_as.size(); ++k) {
            if (same_failed_[k]) continue;
            const SameAsExpectation& e = sc_.expect_same_as[k];
            const std::string head = where(e.at) + ": same_as '" + e.path + "': tick " + std::to_string(tick);
            auto fail = [&](const std::string& why) {
                same_failed_[k] = true;
                expectation_failures_.push_back({CheckFailure::Kind::kExpectation, tick, head + ": " + why});
            };
            if (tick >= static_cast<int64_t>(others_[k].size())) {
                fail("the other scenario ran only " + std::to_string(others_[k].size()) + " ticks");
                continue;
            }
            const std::vector<kcc::CharacterState>& o = others_[k][static_cast<size_t>(tick)];
            if (o.size() != chars.size()) {
                fail(std::to_string(chars.size()) + " characters here, " + std::to_string(o.size()) + " there");
                continue;
            }
            for (size_t i = 0; i < chars.size(); ++i) {
                const kcc::CharacterState& a = chars[i];
                const kcc::CharacterState& b = o[i];
                std::string why;
                auto vec = [](const Vec3& v) { return "(" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + ")"; };
                if (a.id != b.id) why = "character ids differ";
                else if (a.position != b.position + e.offset) why = "position " + vec(a.position) + ", expected " + vec(b.position + e.offset);
                else if (a.velocity != b.velocity) why = "velocity " + vec(a.velocity) + ", expected " + vec(b.velocity);
                else if (a.facing != b.facing) why = "facing " + num(a.facing) + ", expected " + num(b.facing);
                else if (a.grounded != b.grounded) why = std::string("grounded ") + (a.grounded ? "true" : "false") + ", expected " + (b.grounded ? "true" : "false");
                else if (a.ground_normal != b.ground_normal) why = "ground normal " + vec(a.ground_normal) + ", expected " + vec(b.ground_normal);
                else if (a.platform != b.platform) why = "platform differs";
                if (!why.empty()) {
                    fail("character " + std::to_string(a.id) + ": " + why);
                    break;
                }
            }
        }
    }

    void metric_expectations() {
        for (const MetricExpectation& e : sc_.expect_metrics) {
            for (const Tracker& t : trackers_) {
                if (e.character != kcc::kNoId && t.m.id != e.character) continue;
                for (const auto& [m, c] : e.checks) {
                    const MetricValue& v = t.m.values[static_cast<size_t>(m)];
                    std::string why;
                    if (!v.present) why = "no value (the run gave it nothing to measure)";
                    else if (!c.holds(v.value)) why = num(v.value) + ", expected " + check_text(c);
                    if (!why.empty()) {
                        expectation_failures_.push_back({CheckFailure::Kind::kExpectation, -1,
                                                         where(e.at) + ": character " + std::to_string(t.m.id) + ": " +
                                                             metric_info()[m].name + " = " + why});
                    }
                }
            }
        }
    }

    const Scenario& sc_;
    RunSink* inner_;
    CheckReport* report_;
    const kcc::World* world_ = nullptr;
    std::vector<uint32_t> ids_, platform_ids_, mesh_ids_;
    std::vector<InputCursor> cursors_;
    std::vector<Tracker> trackers_;             ///< per character id (ids_)
    std::vector<int64_t> last_seen_;           ///< per id: the last tick it was present
    std::vector<size_t> last_entry_;           ///< per id: its entry (sc.characters) then
    std::vector<TickEvents> events_;
    std::vector<StateProgress> state_progress_;
    std::vector<int64_t> first_tick_;
    std::vector<bool> same_failed_;
    std::vector<std::vector<std::vector<kcc::CharacterState>>> others_;
    std::vector<CheckFailure> expectation_failures_, invariant_failures_;
    Scalar cos_half_degree_;
    int64_t ticks_ = 0;
    bool overflow_reported_ = false;
};

} // namespace

bool run_checked(const Scenario& sc, RunSink* inner, const RunOptions& options, CheckReport* report,
                 std::string* error) {
    *report = CheckReport{};
    Checker checker(sc, inner, report);
    if (!checker.prepare(error)) return false;
    install_overflow_recorder();
    t_recording = true;
    t_overflow_op = nullptr;
    RunOptions opts = options;
    opts.observer = &checker;
    const bool ok = run_scenario(sc, checker, opts, error);
    t_recording = false;
    if (!ok) return false;
    checker.finish(options.stop_after < 0 || options.stop_after >= sc.ticks - 1);
    return true;
}

bool check_ticks(const Scenario& sc, std::span<const CheckedTick> ticks, int64_t overflow_at, CheckReport* report,
                 std::string* error) {
    *report = CheckReport{};
    kcc::World world;
    if (!build_world(sc, &world, error)) return false;
    Checker checker(sc, nullptr, report);
    if (!checker.prepare(error)) return false;
    install_overflow_recorder();
    t_recording = true;
    t_overflow_op = nullptr;
    checker.on_start(world);
    int64_t tick = 0;
    for (const CheckedTick& t : ticks) {
        for (const kcc::TraceEvent& e : t.events) checker.on_event(e);
        if (tick == overflow_at) report_overflow("test");
        if (!checker.on_tick(tick, t.states, {}, {}, error)) {
            t_recording = false;
            return false;
        }
        ++tick;
    }
    t_recording = false;
    checker.finish(tick == sc.ticks);
    return true;
}

} // namespace fx::harness
