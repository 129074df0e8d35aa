// Solver trace as text: one line per event the controller's trace hook reports, diffable
// across machines (nothing machine-dependent: no addresses, no timings). Every Scalar is
// printed as its shortest exact decimal followed by its raw bits in hex, e.g.
//   t=12 c=1 sweep pass=horizontal it=0 reason=0 flag=1 shape=4 count=0
//   s=0.0123[0x0000000003261f2e] a=(...) b=(...) c=(...)
// Format version 2 (first line "# fxkcc-trace 2"); docs/formats.md describes each event.
#pragma once

#include <cstdint>
#include <ostream>

#include "kcc/trace.h"

namespace fx::harness {

class TraceWriter final : public kcc::TraceObserver {
public:
    explicit TraceWriter(std::ostream& out);
    /// Called by the runner before each traced tick.
    void begin_tick(int64_t tick) { tick_ = tick; }
    void on_event(const kcc::TraceEvent& e) override;
    int64_t events() const { return events_; }

private:
    std::ostream& out_;
    int64_t tick_ = 0;
    int64_t events_ = 0;
};

} // namespace fx::harness
