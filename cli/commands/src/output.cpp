// The end of every command: standard output flushed and its write errors reported.
#include <system_error>

#include "commands/command.h"
#include "run/suite.h"

namespace fx::harness {

int finish_standard_output(int code, CheckedFileBuf& out, std::ostream& err) {
    out.close();
    if (out.error() == 0) return code;
    err << "fxkcc: cannot write to standard output: "
        << std::error_code(out.error(), std::generic_category()).message() << "\n";
    return code == kExitOk || code == kExitMismatch ? kExitCannotTest : code;
}

} // namespace fx::harness
