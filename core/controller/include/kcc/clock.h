// FrameClock: display frames in, whole fixed ticks out. The accumulator counts nanoseconds
// (integers, exact); the interpolation fraction is a Scalar.
#pragma once

#include <cstdint>

#include "fx/scalar.h"

namespace fx::kcc {

class FrameClock {
public:
    /// tick_rate_hz > 0, max_ticks_per_frame >= 1. The tick length is 1e9 / rate ns, rounded
    /// to nearest (exact for 50 Hz: 20,000,000 ns).
    FrameClock(int tick_rate_hz = 50, int max_ticks_per_frame = 4);

    /// Adds a display frame of frame_ns >= 0 nanoseconds and returns how many ticks to run now
    /// (0..max_ticks_per_frame). When more were due, the extra whole ticks are dropped (after
    /// a 1 s hitch the simulation runs 4 ticks, not 50) and the fraction is kept.
    int advance(int64_t frame_ns);

    /// Fraction of a tick left in the accumulator, in [0, 1): the render pose is
    /// lerp(previous tick pose, current tick pose, alpha()).
    Scalar alpha() const;

    int64_t tick_ns() const { return tick_ns_; }
    int64_t accumulator_ns() const { return accumulator_ns_; }
    int64_t dropped_ticks() const { return dropped_; }

private:
    int64_t tick_ns_;
    int max_ticks_;
    int64_t accumulator_ns_ = 0;
    int64_t dropped_ = 0;
};

} // namespace fx::kcc
