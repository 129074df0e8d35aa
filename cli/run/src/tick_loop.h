// The tick loop of run_scenario (runner.cpp), in a translation unit of its own (kept out of the
// unity batch: cli/CMakeLists.txt) so that the compiler cannot inline it into run_scenario. There,
// beside the vectors run_scenario owns, every call that may throw needs a landing pad, and with
// wasm32's exceptions (emscripten's, in JavaScript) such a call goes out to JavaScript and back
// (an `invoke_` wrapper): once per tick. Here no object needs destroying, so a tick is a plain
// call, and run_scenario's call of run_ticks is the one such call of a run.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kcc/trace.h"
#include "kcc/world.h"
#include "run/runner.h"

namespace fx::harness {

/// Sends every event to two observers, in order.
class TeeObserver final : public kcc::TraceObserver {
public:
    kcc::TraceObserver* first = nullptr;
    kcc::TraceObserver* second = nullptr;
    void on_event(const kcc::TraceEvent& e) override {
        first->on_event(e);
        second->on_event(e);
    }
    uint32_t kinds() const override { return first->kinds() | second->kinds(); }
};

/// A run's parts, built once by run_scenario and used by every tick.
struct RunParts {
    const Scenario& sc;
    RunSink& sink;
    const RunOptions& options;
    std::string* error;
    kcc::World& world;
    const std::vector<kcc::Platform>& platforms;
    std::vector<std::pair<uint32_t, Vec3>>& poses;
    Timeline& timeline;
    std::vector<kcc::Input>& inputs;
    std::vector<Vec3>& render;
    TeeObserver& tee;
};

/// Steps the world from its tick to the run's last, through the sink; false (and *error) when a
/// tick fails.
bool run_ticks(const RunParts& r);

} // namespace fx::harness
