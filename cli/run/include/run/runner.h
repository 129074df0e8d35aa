// The replay runner: builds a kcc::World from a Scenario and plays its input for
// `scenario.ticks` ticks, headless, reporting every tick to a sink. Single-threaded by design
// (that is what makes a run replayable); suites run scenarios in parallel, one per thread.
//
// Tick numbering: tick t is the state after the world has stepped t + 1 times, i.e. after the
// input recorded for tick t was applied. With a frame clock, display frames are played in
// order and each runs the whole ticks it is due (at most max_ticks_per_frame of the first
// character, default 4); the render pose after a frame is reported with that frame's last
// tick.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kcc/state.h"
#include "kcc/trace.h"
#include "kcc/world.h"
#include "records/trace_writer.h"
#include "run/fault.h"
#include "scenario/scenario.h"

namespace fx::harness {

/// Receives each tick's results, in tick order.
class RunSink {
public:
    virtual ~RunSink() = default;
    /// chars: ascending id. platforms: (id, centre) ascending id. render: one per character when
    /// a frame ended on this tick (frame clock runs), else empty.
    virtual bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                         std::span<const std::pair<uint32_t, Vec3>> platforms,
                         std::span<const Vec3> render, std::string* error) = 0;
    /// Called once, after the world is built and before the first tick. The world outlives
    /// the run; sinks may query its scene (read-only) in on_tick.
    virtual void on_start(const kcc::World& world) { (void)world; }
};

/// Builds the world of a scenario. Fails with a message naming the shape on invalid geometry.
bool build_world(const Scenario& scenario, kcc::World* world, std::string* error);

struct RunOptions {
    /// Receives trace events for ticks in [trace_from, trace_to] (inclusive). May be null.
    TraceWriter* trace = nullptr;
    int64_t trace_from = 0;
    int64_t trace_to = -1;
    /// Receives every trace event of every tick (the conformance checks). May be null.
    kcc::TraceObserver* observer = nullptr;
    /// Flips bits of one field of one character right after that tick is computed (run/fault.h).
    const Fault* fault = nullptr;
    /// Stop after this tick (inclusive); -1: run all ticks.
    int64_t stop_after = -1;
    /// kcc::World::set_reuse_casts (the same results either way; off for the test that shows it).
    bool reuse_casts = true;
};

/// Runs the scenario; false with *error when the world cannot be built, the fault names no
/// character of the scenario, or the sink fails.
bool run_scenario(const Scenario& scenario, RunSink& sink, const RunOptions& options,
                  std::string* error);

/// The input of one character at tick t, read sequentially (ticks must not go backwards).
class InputCursor {
public:
    explicit InputCursor(const InputStream& stream) : stream_(&stream) {}
    /// The input of `tick`; call with non-decreasing ticks.
    kcc::Input at(int64_t tick) {
        if (tick >= same_from_ && tick < same_until_) return same_;
        return find(tick);
    }

private:
    const InputStream* stream_;
    size_t stick_ = 0, jump_ = 0, impulse_ = 0;
    /// The last input found holds, unchanged, for the ticks [same_from_, same_until_): until the
    /// stick's next segment boundary, jump or impulse (a tick with a jump or an impulse is its
    /// own). Most ticks of a recorded stream are such a tick (a held stick).
    kcc::Input same_;
    int64_t same_from_ = 0, same_until_ = 0;
    kcc::Input find(int64_t tick);
};

/// A scenario's runtime changes (docs/scenarios.md, "Joins, leaves and events") applied to its
/// world, and its characters' inputs. At world tick t, before that tick's step: the leaves of t,
/// the joins of t (ascending id), the events of t in list order; then the inputs of tick t for
/// the characters present, in the world's (ascending id) order.
class Timeline {
public:
    explicit Timeline(const Scenario& sc);
    /// Applies the changes of world tick t (t == world->tick()). Stateless: a world restored to
    /// tick t (before its changes) may apply them again. False with *error when the world
    /// refuses one.
    bool apply(int64_t t, kcc::World* world, std::string* error) const;
    /// The inputs of tick t for the characters present after apply(t), ascending id (resized;
    /// no allocation once its capacity suffices). Reads each entry's input forward: call with
    /// non-decreasing t.
    void inputs(int64_t t, std::vector<kcc::Input>* out);
    /// Whether any change happens at tick t.
    bool changes_at(int64_t t) const;

private:
    const Scenario* sc_;
    std::vector<InputCursor> cursors_; ///< per entry of sc.characters
    std::vector<size_t> present_; ///< entries present at present_tick_, ascending id
    int64_t present_tick_ = -1;
    std::vector<int64_t> change_ticks_; ///< ascending, unique
};

} // namespace fx::harness
