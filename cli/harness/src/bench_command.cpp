// `fxkcc bench`: the cost of a character-tick on a scenario (docs/performance.md).
//
// Three kinds of run, none of which changes a result: timed runs with no observer (the headline
// ns per character-tick: median, min, max over the repetitions), one run with a counting
// observer (queries per character-tick by kind, derived from the solver trace events), and one
// run with a timing observer (time between consecutive trace events, attributed to the phase
// whose event closes the interval; the clock reads cost time of their own, so phases are
// reported as shares, next to the observer-free median).
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <sstream>

#include "harness/atomic_file.h"
#include "harness/commands.h"
#include "harness/runner.h"
#include "kcc/motion.h"
#include "kcc/trace.h"
#include "suite_common.h"

namespace fx::harness {
namespace {

using Clock = std::chrono::steady_clock;

class NullSink final : public RunSink {
public:
    bool on_tick(int64_t, std::span<const kcc::CharacterState>, std::span<const std::pair<uint32_t, Vec3>>,
                 std::span<const Vec3>, std::string*) override {
        return true;
    }
};

/// Geometry queries the controller made, counted from its trace events.
struct QueryCounts {
    int64_t overlaps = 0;     ///< depenetration: one overlap query per character-tick
    int64_t probe_casts = 0;  ///< ground probe (cast_all)
    int64_t slide_sweeps = 0; ///< collide-and-slide sweeps, both passes
    int64_t step_casts = 0;   ///< step-up: up, forward, down (as far as the attempt got)
    int64_t snap_casts = 0;   ///< snap-to-ground (cast_all)
    int64_t step_attempts = 0;
};

class CountingObserver final : public kcc::TraceObserver {
public:
    QueryCounts counts;
    int64_t character_ticks = 0;
    void on_event(const kcc::TraceEvent& e) override {
        switch (e.kind) {
        case kcc::TraceKind::kTickBegin:
            ++character_ticks;
            ++counts.overlaps;
            break;
        case kcc::TraceKind::kProbe: ++counts.probe_casts; break;
        case kcc::TraceKind::kSweep: ++counts.slide_sweeps; break;
        case kcc::TraceKind::kSnap: ++counts.snap_casts; break;
        case kcc::TraceKind::kStepAttempt: {
            ++counts.step_attempts;
            switch (static_cast<kcc::StepResult>(e.reason)) {
            case kcc::StepResult::kNoMotion: break;
            case kcc::StepResult::kCeiling: counts.step_casts += 1; break;
            case kcc::StepResult::kBlocked: counts.step_casts += 2; break;
            default: counts.step_casts += 3; break;
            }
            break;
        }
        default: break;
        }
    }
};

enum Phase : int { kPhaseDepenetrateProbe, kPhaseVelocity, kPhaseSlide, kPhaseStep, kPhaseSnap, kPhaseOther, kPhaseCount };
constexpr const char* kPhaseNames[kPhaseCount] = {"depenetration + probe", "velocity", "slide (both passes)",
                                                  "step-up", "snap / landing", "bookkeeping"};

class TimingObserver final : public kcc::TraceObserver {
public:
    std::array<int64_t, kPhaseCount> ns{};
    void on_event(const kcc::TraceEvent& e) override {
        const Clock::time_point now = Clock::now();
        if (e.kind != kcc::TraceKind::kTickBegin && have_last_) {
            ns[phase_of(e.kind)] += std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count();
        }
        last_ = now;
        have_last_ = e.kind != kcc::TraceKind::kTickEnd;
    }

private:
    static Phase phase_of(kcc::TraceKind k) {
        switch (k) {
        case kcc::TraceKind::kPlatformCarry:
        case kcc::TraceKind::kDepenetrate:
        case kcc::TraceKind::kProbe: return kPhaseDepenetrateProbe;
        case kcc::TraceKind::kVelocity: return kPhaseVelocity;
        case kcc::TraceKind::kSweep:
        case kcc::TraceKind::kPlaneAdded:
        case kcc::TraceKind::kPlaneSolve:
        case kcc::TraceKind::kIterationCap: return kPhaseSlide;
        case kcc::TraceKind::kStepAttempt: return kPhaseStep;
        case kcc::TraceKind::kSnap:
        case kcc::TraceKind::kLanded: return kPhaseSnap;
        default: return kPhaseOther;
        }
    }
    Clock::time_point last_{};
    bool have_last_ = false;
};

std::string fixed(double v, int digits) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

} // namespace

int bench_command(const BenchCommand& cmd, std::ostream& out, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    if (cmd.repeat < 1) {
        err << "fxkcc bench: --repeat: expected at least 1, found " << cmd.repeat << "\n";
        return kExitBadInput;
    }
    const int64_t char_ticks = sc.ticks * static_cast<int64_t>(sc.characters.size());
    NullSink sink;
    // Warm-up (caches, page faults), then the timed repetitions; each builds its world afresh.
    for (int i = 0; i < cmd.warmup; ++i) {
        if (!run_scenario(sc, sink, RunOptions{}, &error)) {
            err << "fxkcc bench: " << error << "\n";
            return kExitBadInput;
        }
    }
    std::vector<double> per_char_tick;
    for (int i = 0; i < cmd.repeat; ++i) {
        const Clock::time_point start = Clock::now();
        if (!run_scenario(sc, sink, RunOptions{}, &error)) {
            err << "fxkcc bench: " << error << "\n";
            return kExitBadInput;
        }
        const double ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
        per_char_tick.push_back(ns / static_cast<double>(char_ticks));
    }
    std::vector<double> sorted = per_char_tick;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    const double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;

    RunOptions counted;
    CountingObserver counter;
    counted.observer = &counter;
    if (!run_scenario(sc, sink, counted, &error)) {
        err << "fxkcc bench: " << error << "\n";
        return kExitBadInput;
    }
    RunOptions timed;
    TimingObserver timer;
    timed.observer = &timer;
    if (!run_scenario(sc, sink, timed, &error)) {
        err << "fxkcc bench: " << error << "\n";
        return kExitBadInput;
    }
    const double ct = static_cast<double>(std::max<int64_t>(counter.character_ticks, 1));
    const QueryCounts& q = counter.counts;
    std::ostringstream o;
    o << sc.name << ": " << sc.ticks << " ticks x " << sc.characters.size() << " characters = " << char_ticks
      << " character-ticks, " << cmd.repeat << " timed runs after " << cmd.warmup << " warm-up\n";
    o << "ns per character-tick: median " << fixed(median, 1) << ", min " << fixed(sorted.front(), 1) << ", max "
      << fixed(sorted.back(), 1) << "\n";
    o << "queries per character-tick: overlap " << fixed(static_cast<double>(q.overlaps) / ct, 3) << ", probe cast "
      << fixed(static_cast<double>(q.probe_casts) / ct, 3) << ", slide sweep " << fixed(static_cast<double>(q.slide_sweeps) / ct, 3)
      << ", step cast " << fixed(static_cast<double>(q.step_casts) / ct, 3) << ", snap cast "
      << fixed(static_cast<double>(q.snap_casts) / ct, 3) << " (total "
      << fixed(static_cast<double>(q.overlaps + q.probe_casts + q.slide_sweeps + q.step_casts + q.snap_casts) / ct, 3)
      << "; step attempts " << fixed(static_cast<double>(q.step_attempts) / ct, 3) << ")\n";
    // The world's memory per character: its state and its settings (with the derived limits).
    // Nothing is allocated per tick (controller test "a built world steps without allocating").
    constexpr size_t kStateBytes = sizeof(kcc::CharacterState), kParamsBytes = sizeof(kcc::Params);
    o << "world memory per character: " << kStateBytes + kParamsBytes << " bytes (state " << kStateBytes
      << ", settings " << kParamsBytes << "); no allocation per tick\n";
    int64_t total = 0;
    for (int64_t v : timer.ns) total += v;
    o << "time per phase (share of the solve, measured with a clock read per trace event):\n";
    for (int p = 0; p < kPhaseCount; ++p) {
        const double share = total > 0 ? 100.0 * static_cast<double>(timer.ns[static_cast<size_t>(p)]) / static_cast<double>(total) : 0;
        o << "  " << std::left << std::setw(24) << kPhaseNames[p] << std::right << std::setw(6) << fixed(share, 1) << " %  ("
          << fixed(static_cast<double>(timer.ns[static_cast<size_t>(p)]) / ct, 1) << " ns per character-tick with the clock reads)\n";
    }
    out << o.str();
    if (!cmd.json_path.empty()) {
        std::ostringstream j;
        j << "{\"scenario\": \"" << sc.name << "\", \"character_ticks\": " << char_ticks << ", \"repeat\": " << cmd.repeat
          << ", \"ns_per_character_tick\": {\"median\": " << fixed(median, 3) << ", \"min\": " << fixed(sorted.front(), 3)
          << ", \"max\": " << fixed(sorted.back(), 3) << "}, \"queries_per_character_tick\": {\"overlap\": "
          << fixed(static_cast<double>(q.overlaps) / ct, 4) << ", \"probe_cast\": " << fixed(static_cast<double>(q.probe_casts) / ct, 4)
          << ", \"slide_sweep\": " << fixed(static_cast<double>(q.slide_sweeps) / ct, 4) << ", \"step_cast\": "
          << fixed(static_cast<double>(q.step_casts) / ct, 4) << ", \"snap_cast\": " << fixed(static_cast<double>(q.snap_casts) / ct, 4)
          << "}, \"world_bytes_per_character\": " << kStateBytes + kParamsBytes << "}\n";
        if (!write_file_atomic(cmd.json_path, j.str(), &error)) {
            err << "fxkcc bench: " << error << "\n";
            return kExitCannotTest;
        }
    }
    return kExitOk;
}

/// Runs the scenario once with no observer and no output, for instruction counts under
/// callgrind (scripts/bench-callgrind.sh toggles collection around World::step).
int bench_once(const std::string& scenario, bool allow_outside, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(scenario, allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    NullSink sink;
    if (!run_scenario(sc, sink, RunOptions{}, &error)) {
        err << "fxkcc bench: " << error << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace fx::harness
