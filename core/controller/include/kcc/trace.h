// The solver trace: every step of a tick reported to an optional observer. A null observer
// costs one branch per event site; events are plain values (no allocation).
#pragma once

#include <cstdint>

#include "fx/vec3.h"

namespace fx::kcc {

enum class TraceKind : uint8_t {
    kTickBegin = 0, ///< a = position, b = velocity, s = facing
    kPlatformCarry = 1, ///< shape = platform, a = platform's displacement, b = body's (swept)
    kDepenetrate =
        2, ///< count = contacts, a = push applied, s = push length before the cap, c = feet before
    kProbe =
        3, ///< count = hits within the ground band, shape = chosen, a = normal, flag = grounded, s
           ///< = distance, c = feet; reason = queries answered from the last tick's cast (0, 1: the
           ///< probe, 2: the probe and the overlap), plus kProbeBodiesCast when other characters'
           ///< hits were cast afresh and merged into the probe's answer
    kVelocity = 4, ///< a = velocity after input, flag = jumped
    kSweep = 5, ///< pass, iteration; a = motion queried, c = from; flag = hit, s = distance, shape,
                ///< b = normal
    kPlaneAdded = 6, ///< pass, iteration; a = plane normal, shape, count = planes now
    kPlaneSolve =
        7, ///< pass, iteration; reason = PlaneSolveKind, count = candidates, a = motion after
    kIterationCap = 8, ///< pass; a = motion dropped
    kStepAttempt = 9, ///< a = blocked motion, c = from; reason = StepResult; b = result, s = rise
    kSnap = 10, ///< c = from; flag = landed; s = drop; shape, a = normal
    kLanded = 11, ///< vertical pass landed on walkable ground; shape, a = normal
    kTickEnd = 12, ///< a = position, b = velocity, flag = grounded
};

/// Added to a kProbe event's reason when the probe's answer came from the last tick's cast for
/// the shapes and from a cast against the other characters near (LocalScene::cast_bodies).
inline constexpr uint8_t kProbeBodiesCast = 4;

/// Which pass a sweep belongs to.
enum class Pass : uint8_t { kNone = 0, kHorizontal = 1, kVertical = 2, kStep = 3 };

struct TraceEvent {
    TraceKind kind = TraceKind::kTickBegin;
    Pass pass = Pass::kNone;
    uint8_t iteration = 0;
    uint8_t reason = 0;
    bool flag = false;
    uint32_t character = 0;
    uint32_t shape = 0xFFFFFFFFu;
    uint32_t count = 0;
    Vec3 a;
    Vec3 b;
    Scalar s;
    /// The query's input where there is one: the feet position a sweep, probe, snap, step
    /// attempt or depenetration started from (zero otherwise).
    Vec3 c;
};

/// A kind's bit in TraceObserver::kinds().
constexpr uint32_t trace_bit(TraceKind k) {
    return uint32_t{1} << static_cast<uint32_t>(k);
}
inline constexpr uint32_t kAllTraceKinds = (trace_bit(TraceKind::kTickEnd) << 1) - 1;

/// Receives trace events in solve order. Implementations must not touch the world.
class TraceObserver {
public:
    virtual ~TraceObserver() = default;
    virtual void on_event(const TraceEvent& e) = 0;
    /// The kinds it is sent (trace_bit of each), asked once per character and tick: the solve
    /// builds no event of another kind. All of them unless an observer says otherwise.
    virtual uint32_t kinds() const { return kAllTraceKinds; }
};

const char* to_string(TraceKind k);

} // namespace fx::kcc
