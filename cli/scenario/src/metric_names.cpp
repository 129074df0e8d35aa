#include "scenario/metric_names.h"

#include "scenario/scenario.h"

namespace fx::harness {
namespace {

constexpr MetricInfo kMetrics[kMetricCount] = {
    {"stop_time_ms", "ms",
     "longest time from releasing the stick while grounded and moving to zero horizontal velocity"},
    {"slope_speed_ratio_min", "",
     "smallest distance moved / (horizontal speed x tick time) while walking on a walkable slope"},
    {"slope_speed_ratio_max", "",
     "largest such ratio (1: speed along the surface equals the flat speed)"},
    {"flicker_count", "",
     "airborne spells of at most 0.1 s that did not start with a jump or an impulse"},
    {"jitter", "m",
     "largest back-and-forth movement on consecutive ticks while pressed into a wall or corner"},
    {"step_attempts", "", "step-up attempts with motion"},
    {"step_successes", "", "accepted step-ups"},
    {"max_depenetration", "m", "largest depenetration push in one tick"},
    {"max_slide_iterations", "", "most sweeps used by one collide-and-slide pass"},
    {"ticks_at_cap", "", "ticks where a pass reached the iteration cap with motion left"},
    {"max_horizontal_speed", "m/s", "largest horizontal speed"},
    {"airborne_ticks", "", "ticks ending airborne"},
    {"max_penetration", "m", "deepest overlap with static geometry after a tick"},
    {"max_character_overlap", "m", "deepest overlap with another colliding character after a tick"},
};

constexpr const char* kFieldNames[kStateFieldCount] = {
    "x",
    "y",
    "z",
    "vx",
    "vy",
    "vz",
    "speed",
    "horizontal_speed",
    "surface_speed",
    "ground_angle",
    "facing",
    "character_overlap",
};

} // namespace

std::span<const MetricInfo> metric_info() {
    return kMetrics;
}
std::span<const char* const> state_field_names() {
    return kFieldNames;
}

int find_metric(std::string_view name) {
    for (int i = 0; i < kMetricCount; ++i) {
        if (name == kMetrics[i].name) return i;
    }
    return -1;
}

} // namespace fx::harness
