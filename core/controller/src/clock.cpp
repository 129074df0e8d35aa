#include "kcc/clock.h"

namespace fx::kcc {

FrameClock::FrameClock(int tick_rate_hz, int max_ticks_per_frame)
    : tick_ns_((int64_t{1000000000} + tick_rate_hz / 2) / (tick_rate_hz > 0 ? tick_rate_hz : 1)),
      max_ticks_(max_ticks_per_frame > 0 ? max_ticks_per_frame : 1) {}

int FrameClock::advance(int64_t frame_ns) {
    if (frame_ns > 0) accumulator_ns_ += frame_ns;
    int64_t due = accumulator_ns_ / tick_ns_;
    accumulator_ns_ -= due * tick_ns_;
    if (due > max_ticks_) {
        dropped_ += due - max_ticks_;
        due = max_ticks_;
    }
    return static_cast<int>(due);
}

Scalar FrameClock::alpha() const {
    return Scalar::ratio(accumulator_ns_, tick_ns_);
}

} // namespace fx::kcc
