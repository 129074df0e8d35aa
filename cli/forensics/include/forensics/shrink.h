// `fxkcc shrink`: reduces a failing scenario to a smaller one that still fails the same way
// (delta debugging, ddmin-style), for bug reports and regression scenarios. docs/shrink.md.
//
// A failure is one of:
//   - a failed expectation: the same `expect` item (its identity is its original index; the
//     item itself is never changed, except that a tick range is clipped to a shortened run);
//   - a violated invariant: the same kind (penetration, grounded, overflow) on the same
//     character;
//   - a desync between two sides (forensics/sides.h): the runs still diverge, at the same entity
//     (character or platform); the first divergent tick may move earlier.
// Every candidate is written as YAML (scenario/writer.h) and loaded back before it is
// run, so what is tested is exactly what would be written.
//
// Reductions, in order, repeated until a round removes nothing (each kept only if the failure
// persists): (a) ticks: cut the run just past the failing tick (else binary search),
// (b) characters other than the failing one, (c) world items and platforms (ddmin over whole
// items), (d) input events (ddmin over stick segments, jumps and impulses of every character,
// then merging adjacent stick segments), (e) expectation items other than the failing one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "forensics/desync.h"
#include "forensics/sides.h"
#include "records/tick_hash.h"
#include "run/checks.h"
#include "scenario/scenario.h"

namespace fx::harness {

struct FailureSignature {
    enum class Kind : uint8_t { kExpectation, kInvariant, kDesync };
    Kind kind = Kind::kExpectation;
    int expect_index = -1; ///< kExpectation: SourceRef::index in the original scenario
    std::string
        invariant; ///< kInvariant: "penetration", "inside", "grounded", "halted" or "overflow"
    bool has_character = false; ///< the failure names a character
    uint32_t character = 0;
    bool has_entity = false; ///< kDesync: the entity that must still diverge
    EntityRef entity;
    int64_t tick = -1; ///< where it failed (-1: a whole-run check)
    std::string message; ///< as reported (check message, or desync summary)
    /// One line: "expect[3] (line 40): tick 57, character 2: x = ...", "desync at c7 (tick 40)".
    std::string describe() const;
};

/// What a check failure is: the expectation's index or the invariant's kind, and its character.
FailureSignature classify_failure(const CheckFailure& f);

/// Runs `sc` with every check and takes its first failure (expectations first, as `run` lists
/// them). *failed = false when the run passes. False with *error when it cannot run.
bool find_check_failure(const Scenario& sc, FailureSignature* out, bool* failed,
                        std::string* error);

/// Runs both sides on `sc` (written as YAML into `tmp`); false with *error when a side cannot
/// run. *diverged, and *out (the first divergent tick and entity) when it did.
bool find_desync(const Scenario& sc, const Side& a, const Side& b, const TempFolder& tmp,
                 FailureSignature* out, bool* diverged, std::string* error);

/// Tests a candidate: true when it fails the same way; *tick receives its failing tick (-1: a
/// whole-run check).
using ShrinkOracle = std::function<bool(const Scenario& candidate, int64_t* tick)>;

/// In-process oracle for expectation / invariant failures. Candidates are written to YAML and
/// loaded back with referenced paths resolving against `base_dir` (the original's folder).
ShrinkOracle check_oracle(const FailureSignature& sig, const std::string& base_dir);
/// Two-sides oracle for a desync.
ShrinkOracle desync_oracle(const FailureSignature& sig, const Side& a, const Side& b,
                           const TempFolder& tmp);

struct ShrinkSizes {
    int64_t ticks = 0, characters = 0, world_items = 0, input_events = 0, expectations = 0;
};
ShrinkSizes shrink_sizes(const Scenario& sc);
/// "ticks 600, characters 4, world items 45, input events 37, expectations 6"
std::string format_sizes(const ShrinkSizes& s);

struct ShrinkOptions {
    int max_runs = 1000; ///< candidates tested at most (the initial run not counted)
    std::function<void(const std::string&)> progress; ///< one line per kept reduction; may be null
};
struct ShrinkResult {
    Scenario scenario; ///< the smallest failing candidate found (expect indices as in the original)
    int runs = 0; ///< candidates tested
    bool out_of_runs = false; ///< stopped by max_runs
    int64_t tick = -1; ///< its failing tick
};

/// Shrinks `sc` (which fails as `sig` says) with `oracle`. Non-failing same_as items and, for a
/// desync, every expectation are dropped first (they cannot change the failure).
ShrinkResult shrink_scenario(const Scenario& sc, const FailureSignature& sig,
                             const ShrinkOracle& oracle, const ShrinkOptions& options);

/// Position of the failing expectation among the items of `sc` (ordered by original index): its
/// index in a file written from `sc`. -1 when it is not there.
int expectation_position(const Scenario& sc, int original_index);

/// The failing tick of the failure in `report` that matches `sig` (the expectation at
/// `position`, see expectation_position), if any.
std::optional<int64_t> failure_tick(const CheckReport& report, const FailureSignature& sig,
                                    int position);

/// Runs both sides on the scenario file `file` (hash files in `tmp`) and compares their runs.
bool run_sides(const std::string& file, const Side& a, const Side& b, const TempFolder& tmp,
               DesyncReport* rep, std::string* error);

} // namespace fx::harness
