#include "harness/trace_writer.h"

#include <string>

#include "fx/decimal.h"
#include "kcc/state.h"

namespace fx::harness {
namespace {

std::string scalar(Scalar v) { return to_string_shortest(v) + "[" + to_string_raw_hex(v) + "]"; }

std::string vec(const Vec3& v) { return "(" + scalar(v.x) + "," + scalar(v.y) + "," + scalar(v.z) + ")"; }

const char* pass_name(kcc::Pass p) {
    switch (p) {
    case kcc::Pass::kNone: return "none";
    case kcc::Pass::kHorizontal: return "horizontal";
    case kcc::Pass::kVertical: return "vertical";
    case kcc::Pass::kStep: return "step";
    }
    return "?";
}

} // namespace

TraceWriter::TraceWriter(std::ostream& out) : out_(out) { out_ << "# fxkcc-trace 1\n"; }

void TraceWriter::on_event(const kcc::TraceEvent& e) {
    ++events_;
    out_ << "t=" << tick_ << " c=" << e.character << ' ' << kcc::to_string(e.kind) << " pass=" << pass_name(e.pass)
         << " it=" << static_cast<int>(e.iteration) << " reason=" << static_cast<int>(e.reason)
         << " flag=" << (e.flag ? 1 : 0) << " shape=";
    if (e.shape == kcc::kNoId) {
        out_ << '-';
    } else {
        out_ << e.shape;
    }
    out_ << " count=" << e.count << " s=" << scalar(e.s) << " a=" << vec(e.a) << " b=" << vec(e.b) << '\n';
}

} // namespace fx::harness
