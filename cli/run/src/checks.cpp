// A checked run: the Checker follows the trace and every tick (checks.cpp), and records an
// arithmetic overflow met during a tick; run_checked() and check_ticks() drive it.
#include "checker.h"

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "fx/overflow.h"

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

} // namespace

int CheckReport::expectation_failures() const {
    return static_cast<int>(
        std::count_if(failures.begin(), failures.end(), [](const CheckFailure& f) {
            return f.kind == CheckFailure::Kind::kExpectation;
        }));
}
int CheckReport::invariant_failures() const {
    return static_cast<int>(failures.size()) - expectation_failures();
}

namespace checking {

void Checker::on_event(const kcc::TraceEvent& e) {
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
    case kcc::TraceKind::kIterationCap:
        t.at_cap = true;
        break;
    case kcc::TraceKind::kPlatformCarry:
        t.carried = true;
        break;
    case kcc::TraceKind::kDepenetrate:
        t.push = std::max(t.push, length(e.a));
        break;
    case kcc::TraceKind::kSweep:
        if (e.pass == kcc::Pass::kHorizontal || e.pass == kcc::Pass::kVertical) {
            t.max_iteration = std::max(t.max_iteration, static_cast<int>(e.iteration) + 1);
        }
        break;
    default:
        break;
    }
}

bool Checker::on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                      std::span<const std::pair<uint32_t, Vec3>> platforms,
                      std::span<const Vec3> render, std::string* error) {
    ticks_ = tick + 1;
    character_overlaps(chars);
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
        invariant(tick,
                  std::string("arithmetic overflow in ") + t_overflow_op + " during this tick");
    }
    expectations(tick, chars);
    same_as(tick, chars);
    return inner_ == nullptr || inner_->on_tick(tick, chars, platforms, render, error);
}

void Checker::finish(bool complete) {
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
        if (sp.failed_ticks > 1)
            msg += " (and " + std::to_string(sp.failed_ticks - 1) + " more ticks)";
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
                     where(sc_.expect_same_as[k].at) + ": same_as '" + sc_.expect_same_as[k].path +
                         "' ran " + std::to_string(others_[k].size()) + " ticks, this scenario " +
                         std::to_string(ticks_)});
            }
        }
    }
    // Per-tick failures in tick order, then whole-run ones (tick -1).
    auto key = [](const CheckFailure& f) { return f.tick < 0 ? INT64_MAX : f.tick; };
    std::stable_sort(expectation_failures_.begin(), expectation_failures_.end(),
                     [&](const CheckFailure& a, const CheckFailure& b) { return key(a) < key(b); });
    report_->failures = expectation_failures_;
    report_->failures.insert(report_->failures.end(), invariant_failures_.begin(),
                             invariant_failures_.end());
    report_->ticks = ticks_;
}

} // namespace checking

using checking::Checker;

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

bool check_ticks(const Scenario& sc, std::span<const CheckedTick> ticks, int64_t overflow_at,
                 CheckReport* report, std::string* error) {
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
        for (const kcc::TraceEvent& e : t.events)
            checker.on_event(e);
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
