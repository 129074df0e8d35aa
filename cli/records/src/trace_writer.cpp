#include "records/trace_writer.h"

#include <string>

#include "fx/decimal.h"
#include "kcc/motion.h"
#include "kcc/solve.h"
#include "kcc/state.h"

namespace fx::harness {
namespace {

std::string scalar(Scalar v) {
    return to_string_shortest(v) + "[" + to_string_raw_hex(v) + "]";
}

std::string vec(const Vec3& v) {
    return "(" + scalar(v.x) + "," + scalar(v.y) + "," + scalar(v.z) + ")";
}

const char* pass_name(kcc::Pass p) {
    switch (p) {
    case kcc::Pass::kNone:
        return "none";
    case kcc::Pass::kHorizontal:
        return "horizontal";
    case kcc::Pass::kVertical:
        return "vertical";
    case kcc::Pass::kStep:
        return "step";
    }
    return "?";
}

/// The reason code by name where the kind has named reasons, else the number.
std::string reason_name(const kcc::TraceEvent& e) {
    if (e.kind == kcc::TraceKind::kStepAttempt)
        return kcc::to_string(static_cast<kcc::StepResult>(e.reason));
    if (e.kind == kcc::TraceKind::kPlaneSolve) {
        switch (static_cast<kcc::PlaneSolveKind>(e.reason)) {
        case kcc::PlaneSolveKind::kFree:
            return "free";
        case kcc::PlaneSolveKind::kSlide:
            return "slide";
        case kcc::PlaneSolveKind::kCrease:
            return "crease";
        case kcc::PlaneSolveKind::kStop:
            return "stop";
        }
    }
    return std::to_string(static_cast<int>(e.reason));
}

} // namespace

TraceWriter::TraceWriter(std::ostream& out) : out_(out) {
    out_ << "# fxkcc-trace 2\n";
}

void TraceWriter::on_event(const kcc::TraceEvent& e) {
    ++events_;
    out_ << "t=" << tick_ << " c=" << e.character << ' ' << kcc::to_string(e.kind)
         << " pass=" << pass_name(e.pass) << " it=" << static_cast<int>(e.iteration)
         << " reason=" << reason_name(e) << " flag=" << (e.flag ? 1 : 0) << " shape=";
    if (e.shape == kcc::kNoId) {
        out_ << '-';
    } else {
        out_ << e.shape;
    }
    out_ << " count=" << e.count << " s=" << scalar(e.s) << " a=" << vec(e.a) << " b=" << vec(e.b)
         << " c=" << vec(e.c) << '\n';
}

} // namespace fx::harness
