#include "forensics/bench.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "kcc/motion.h"
#include "kcc/trace.h"
#include "run/runner.h"

namespace fx::harness {

const char* const kPhaseNames[kPhaseCount] = {"depenetration + probe", "velocity",
                                              "slide (both passes)",   "step-up",
                                              "snap / landing",        "bookkeeping"};

namespace {

using Clock = std::chrono::steady_clock;

class NullSink final : public RunSink {
public:
    bool on_tick(int64_t, std::span<const kcc::CharacterState>,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        return true;
    }
};

class CountingObserver final : public kcc::TraceObserver {
public:
    QueryCounts counts;
    int64_t character_ticks = 0;
    void on_event(const kcc::TraceEvent& e) override {
        switch (e.kind) {
        case kcc::TraceKind::kTickBegin:
            ++character_ticks;
            break;
        case kcc::TraceKind::kProbe: // every tick that is not halted probes, after depenetrating
        {
            const int answered =
                e.reason & ~kcc::kProbeBodiesCast; // 0, 1 or 2 queries from the last tick's cast
            ++(answered < 2 ? counts.overlaps : counts.overlaps_reused);
            ++(answered < 1 ? counts.probe_casts : counts.probes_reused);
            counts.probes_bodies_cast += (e.reason & kcc::kProbeBodiesCast) != 0;
            break;
        }
        case kcc::TraceKind::kSweep:
            ++counts.slide_sweeps;
            if (e.flag && e.shape == geo::kBodyShape) ++counts.body_sweeps;
            break;
        case kcc::TraceKind::kSnap:
            ++counts.snap_casts;
            break;
        case kcc::TraceKind::kStepAttempt: {
            ++counts.step_attempts;
            switch (static_cast<kcc::StepResult>(e.reason)) {
            case kcc::StepResult::kNoMotion:
            case kcc::StepResult::kAboveStep:
                break;
            case kcc::StepResult::kCeiling:
                counts.step_casts += 1;
                break;
            case kcc::StepResult::kBlocked:
                counts.step_casts += 2;
                break;
            default:
                counts.step_casts += 3;
                break;
            }
            break;
        }
        default:
            break;
        }
    }
};

class TimingObserver final : public kcc::TraceObserver {
public:
    std::array<int64_t, kPhaseCount> ns{};
    void on_event(const kcc::TraceEvent& e) override {
        const Clock::time_point now = Clock::now();
        if (e.kind != kcc::TraceKind::kTickBegin && have_last_) {
            ns[phase_of(e.kind)] +=
                std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count();
        }
        last_ = now;
        have_last_ = e.kind != kcc::TraceKind::kTickEnd;
    }

private:
    static Phase phase_of(kcc::TraceKind k) {
        switch (k) {
        case kcc::TraceKind::kPlatformCarry:
        case kcc::TraceKind::kDepenetrate:
        case kcc::TraceKind::kProbe:
            return kPhaseDepenetrateProbe;
        case kcc::TraceKind::kVelocity:
            return kPhaseVelocity;
        case kcc::TraceKind::kSweep:
        case kcc::TraceKind::kPlaneAdded:
        case kcc::TraceKind::kPlaneSolve:
        case kcc::TraceKind::kIterationCap:
            return kPhaseSlide;
        case kcc::TraceKind::kStepAttempt:
            return kPhaseStep;
        case kcc::TraceKind::kSnap:
        case kcc::TraceKind::kLanded:
            return kPhaseSnap;
        default:
            return kPhaseOther;
        }
    }
    Clock::time_point last_{};
    bool have_last_ = false;
};

} // namespace

bool bench_scenario(const Scenario& sc, int warmup, int repeat, BenchResult* out,
                    std::string* error) {
    out->character_ticks = 0; // the ticks each character entry is present
    for (const CharacterDef& c : sc.characters) {
        out->character_ticks += (c.leave == CharacterDef::kNever ? sc.ticks : c.leave) - c.join;
    }
    NullSink sink;
    // Warm-up (caches, page faults), then the timed repetitions; each builds its world afresh.
    for (int i = 0; i < warmup; ++i) {
        if (!run_scenario(sc, sink, RunOptions{}, error)) return false;
    }
    std::vector<double> per_char_tick;
    for (int i = 0; i < repeat; ++i) {
        const Clock::time_point start = Clock::now();
        if (!run_scenario(sc, sink, RunOptions{}, error)) return false;
        const double ns = static_cast<double>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        per_char_tick.push_back(ns /
                                static_cast<double>(std::max<int64_t>(out->character_ticks, 1)));
    }
    std::sort(per_char_tick.begin(), per_char_tick.end());
    const size_t n = per_char_tick.size();
    if (n > 0) {
        out->median_ns = n % 2 == 1 ? per_char_tick[n / 2]
                                    : (per_char_tick[n / 2 - 1] + per_char_tick[n / 2]) / 2;
        out->min_ns = per_char_tick.front();
        out->max_ns = per_char_tick.back();
    }
    RunOptions counted;
    CountingObserver counter;
    counted.observer = &counter;
    if (!run_scenario(sc, sink, counted, error)) return false;
    out->queries = counter.counts;
    out->counted_character_ticks = counter.character_ticks;
    RunOptions timed;
    TimingObserver timer;
    timed.observer = &timer;
    if (!run_scenario(sc, sink, timed, error)) return false;
    out->phase_ns = timer.ns;
    return true;
}

bool run_once(const Scenario& sc, std::string* error) {
    NullSink sink;
    return run_scenario(sc, sink, RunOptions{}, error);
}

} // namespace fx::harness
