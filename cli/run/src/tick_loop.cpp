#include "tick_loop.h"

#include <algorithm>

#include "kcc/clock.h"
#include "run/fault.h"

namespace fx::harness {

namespace {

bool step_once(const RunParts& r, bool frame_end, Scalar alpha) {
    const int64_t t = r.world.tick();
    if (!r.timeline.apply(t, &r.world, r.error)) return false;
    r.timeline.inputs(t, &r.inputs);
    const RunOptions& options = r.options;
    const bool traced =
        options.trace != nullptr && t >= options.trace_from && t <= options.trace_to;
    if (traced) options.trace->begin_tick(t);
    kcc::TraceObserver* observer = options.observer;
    if (traced) {
        r.tee.first = options.trace;
        observer =
            options.observer != nullptr ? static_cast<kcc::TraceObserver*>(&r.tee) : options.trace;
    }
    r.world.step(r.inputs, observer);
    if (options.fault != nullptr && options.fault->tick == t &&
        !apply_fault(*options.fault, &r.world, "fault", r.error))
        return false;
    for (size_t i = 0; i < r.platforms.size(); ++i)
        r.poses[i] = {r.platforms[i].id, r.platforms[i].center_at(r.world.tick())};
    r.render.clear();
    if (frame_end) {
        for (size_t i = 0; i < r.world.characters().size(); ++i)
            r.render.push_back(r.world.render_position(i, alpha));
    }
    return r.sink.on_tick(t, r.world.characters(), r.poses, r.render, r.error);
}

} // namespace

bool run_ticks(const RunParts& r) {
    const Scenario& sc = r.sc;
    const int64_t last = r.options.stop_after >= 0 && r.options.stop_after < sc.ticks
                             ? r.options.stop_after
                             : sc.ticks - 1;
    if (sc.frames.empty()) {
        while (r.world.tick() <= last) {
            if (!step_once(r, false, Scalar{})) return false;
        }
        return true;
    }
    const int max_per_frame =
        sc.characters.empty() ? 4 : sc.characters.front().settings.max_ticks_per_frame;
    kcc::FrameClock clock(sc.tick_rate_hz, max_per_frame);
    size_t seg = 0;
    int64_t used = 0;
    while (r.world.tick() <= last) {
        const FrameSegment& f = sc.frames[seg];
        // Frames shorter than a tick that leave it not yet due are added at once: the same
        // accumulator as one by one, and no tick ran for them (frames of 1 ns at 1 Hz took a
        // billion iterations a tick: issue 51). Only this segment's frames (the last repeats),
        // and never the one that makes a tick due.
        if (f.ns < clock.tick_ns()) {
            const int64_t quiet = (clock.tick_ns() - 1 - clock.accumulator_ns()) / f.ns;
            const int64_t left = seg + 1 < sc.frames.size() ? f.count - used - 1 : quiet;
            if (const int64_t idle = std::min(quiet, left); idle > 0) {
                clock.advance(idle * f.ns); // 0 ticks: idle * f.ns < tick_ns - accumulator
                used += idle;
            }
        }
        if (++used >= f.count && seg + 1 < sc.frames.size()) {
            ++seg; // the last segment repeats until the run is over
            used = 0;
        }
        const int n = clock.advance(f.ns);
        for (int i = 0; i < n && r.world.tick() <= last; ++i) {
            const bool frame_end = i == n - 1 || r.world.tick() == last;
            if (!step_once(r, frame_end, clock.alpha())) return false;
        }
    }
    return true;
}

} // namespace fx::harness
