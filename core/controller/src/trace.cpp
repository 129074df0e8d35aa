#include "kcc/trace.h"

namespace fx::kcc {

const char* to_string(TraceKind k) {
    switch (k) {
    case TraceKind::kTickBegin:
        return "tick-begin";
    case TraceKind::kPlatformCarry:
        return "platform-carry";
    case TraceKind::kDepenetrate:
        return "depenetrate";
    case TraceKind::kProbe:
        return "probe";
    case TraceKind::kVelocity:
        return "velocity";
    case TraceKind::kSweep:
        return "sweep";
    case TraceKind::kPlaneAdded:
        return "plane-added";
    case TraceKind::kPlaneSolve:
        return "plane-solve";
    case TraceKind::kIterationCap:
        return "iteration-cap";
    case TraceKind::kStepAttempt:
        return "step-attempt";
    case TraceKind::kSnap:
        return "snap";
    case TraceKind::kLanded:
        return "landed";
    case TraceKind::kTickEnd:
        return "tick-end";
    }
    return "?";
}

} // namespace fx::kcc
