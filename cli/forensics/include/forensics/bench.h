// The cost of a character-tick on a scenario (docs/performance.md).
//
// Three kinds of run, none of which changes a result: timed runs with no observer (the headline
// ns per character-tick: median, min, max over the repetitions), one run with a counting
// observer (queries per character-tick by kind, derived from the solver trace events), and one
// run with a timing observer (time between consecutive trace events, attributed to the phase
// whose event closes the interval; the clock reads cost time of their own, so phases are
// reported as shares, next to the observer-free median).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "scenario/scenario.h"

namespace fx::harness {

/// Geometry queries the controller made, counted from its trace events.
struct QueryCounts {
    int64_t overlaps = 0; ///< depenetration's overlap queries made
    int64_t probe_casts = 0; ///< ground probe casts made (cast_all)
    int64_t overlaps_reused =
        0; ///< overlap queries answered from the last tick's cast (kcc::GroundMemo)
    int64_t probes_reused = 0; ///< probes answered from it
    int64_t probes_bodies_cast =
        0; ///< of those, with a cast against the other characters near merged in
    int64_t slide_sweeps = 0; ///< collide-and-slide sweeps, both passes
    int64_t step_casts = 0; ///< step-up: up, forward, down (as far as the attempt got)
    int64_t snap_casts = 0; ///< snap-to-ground (cast_all)
    int64_t step_attempts = 0;
    int64_t body_sweeps = 0; ///< slide sweeps whose first hit is another character (kBodyShape)
};

/// Phases of the solve the timing run attributes time to.
enum Phase : int {
    kPhaseDepenetrateProbe,
    kPhaseVelocity,
    kPhaseSlide,
    kPhaseStep,
    kPhaseSnap,
    kPhaseOther,
    kPhaseCount
};
/// Their names, as printed.
extern const char* const kPhaseNames[kPhaseCount];

struct BenchResult {
    int64_t character_ticks = 0; ///< per run
    double median_ns = 0, min_ns = 0, max_ns = 0; ///< per character-tick, over the timed runs
    QueryCounts queries; ///< over the counting run
    int64_t counted_character_ticks = 0;
    std::array<int64_t, kPhaseCount> phase_ns{}; ///< over the timing run, clock reads included
};

/// `warmup` untimed runs, `repeat` (>= 1) timed runs, one counting run and one timing run; false
/// with *error when the scenario cannot run.
bool bench_scenario(const Scenario& sc, int warmup, int repeat, BenchResult* out,
                    std::string* error);

/// One run with no observer and no output (instruction counts under callgrind).
bool run_once(const Scenario& sc, std::string* error);

} // namespace fx::harness
