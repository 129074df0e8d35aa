// Conformance checks of a run: the scenario's expectations (`expect`), the invariants every
// scenario must hold on every tick, and the feel metrics of every character.
//
// A Checker sits between the runner and another sink (it forwards every tick), and observes the
// solver trace. Everything it computes is fixed point, so the metrics, and whether an
// expectation holds, are the same on every target. Definitions: docs/conformance.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "run/runner.h"
#include "scenario/metric_names.h"
#include "scenario/scenario.h"

namespace fx::harness {

/// A metric's value; absent when the run gave it nothing to measure (no release, no slope).
struct MetricValue {
    bool present = false;
    Scalar value;
};
struct CharacterMetrics {
    uint32_t id = 0;
    std::array<MetricValue, kMetricCount> values{};
};

struct CheckFailure {
    enum class Kind : uint8_t { kExpectation, kInvariant };
    Kind kind = Kind::kExpectation;
    int64_t tick = -1; ///< -1: a whole-run check (metrics)
    std::string message; ///< one line, with tick, character, value and bound
};

struct CheckReport {
    std::vector<CharacterMetrics> metrics; ///< ascending id
    std::vector<CheckFailure> failures; ///< expectations first, then invariants, in order found
    int64_t expectations = 0; ///< expectations evaluated (state, metric and same_as items)
    int64_t ticks = 0; ///< ticks checked
    int expectation_failures() const;
    int invariant_failures() const;
    bool passed() const { return failures.empty(); }
};

/// Invariant thresholds (docs/conformance.md).
/// Ticks a body may stay deeper than kPenetrationTolerance in static geometry: twice the ticks
/// depenetration needs for the deepest single-shape depth seen (a union of shapes can be
/// deeper than any one of them), plus 10.
inline int64_t inside_allowance(Scalar deepest, Scalar cap) {
    if (cap.raw() <= 0) return INT64_MAX;
    const int64_t per = (deepest.raw() + cap.raw() - 1) / cap.raw();
    return 2 * per + 10;
}
inline constexpr Scalar kPenetrationTolerance = Scalar::ratio(1, 1000); ///< m
/// Growth of a penetration deeper than kPenetrationTolerance that is rounding, not growth (m),
/// measured from the least depth since the body last got out (docs/conformance.md).
inline constexpr Scalar kPenetrationGrowthTolerance = Scalar::ratio(1, 10000);
inline constexpr Scalar kGroundTolerance = Scalar::ratio(1, 1000); ///< m beyond the probe band
/// Nearest hits of the grounded check's downward cast that are looked at for walkable ground.
inline constexpr size_t kGroundCheckHits = 32;

/// Runs `sc` with every check on, forwarding each tick to `inner` (may be null). A false
/// return is an error of the run itself (*error), not a failed check. With options.stop_after
/// the run is partial: only ticks that ran are checked, metric and same_as items are skipped.
bool run_checked(const Scenario& sc, RunSink* inner, const RunOptions& options, CheckReport* report,
                 std::string* error);

/// For tests of the checks themselves: checks hand-made ticks (states and the trace events of
/// each tick) against the scenario's world as if a run had produced them. `overflow_at` >= 0
/// reports an arithmetic overflow ("test") during that tick.
struct CheckedTick {
    std::vector<kcc::CharacterState> states; ///< ascending id, one per character
    std::vector<kcc::TraceEvent> events;
};
bool check_ticks(const Scenario& sc, std::span<const CheckedTick> ticks, int64_t overflow_at,
                 CheckReport* report, std::string* error);

/// A metric rounded to 6 decimals (half away from zero), trailing zeros dropped; "" when absent.
std::string metric_text(const MetricValue& v);

/// Metrics as an aligned table (one row per character), CSV or JSON.
std::string metrics_table(const CheckReport& report);
std::string metrics_csv(const CheckReport& report);
std::string metrics_json(const Scenario& sc, const CheckReport& report);

/// The failures, one per line, each prefixed by `indent`.
std::string format_failures(const CheckReport& report, const std::string& indent);

} // namespace fx::harness
