// The names a scenario's `expect` can use: the feel metrics and the state fields, in the order
// they are printed. The checks (run/checks.h) compute them; the loader and writer spell them.
#pragma once

#include <span>
#include <string_view>

namespace fx::harness {

/// The feel metrics, in the order they are printed.
enum Metric : int {
    kStopTimeMs = 0,
    kSlopeSpeedRatioMin,
    kSlopeSpeedRatioMax,
    kFlickerCount,
    kJitter,
    kStepAttempts,
    kStepSuccesses,
    kMaxDepenetration,
    kMaxSlideIterations,
    kTicksAtCap,
    kMaxHorizontalSpeed,
    kAirborneTicks,
    kMaxPenetration,
    kMaxCharacterOverlap,
    kMetricCount,
};

struct MetricInfo {
    const char* name; ///< as written in `expect` and printed
    const char* unit; ///< "ms", "m", "m/s", "" (a count or a ratio)
    const char* meaning;
};
std::span<const MetricInfo> metric_info();
/// Index in metric_info(), or -1.
int find_metric(std::string_view name);
/// Names of the state fields `expect` can check, in StateField order.
std::span<const char* const> state_field_names();

} // namespace fx::harness
