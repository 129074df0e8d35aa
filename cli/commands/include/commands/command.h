// The command table. Every subcommand of fxkcc is one entry: its name, its one-line help and a
// factory of a Subcommand, which declares the subcommand's options (bound to its own members)
// and runs it. fxkcc_main builds the command line from the table, parses, and runs the one
// subcommand named. To add a subcommand: write commands/src/<name>.cpp with a Subcommand and
// its make function, and add one line to the table in commands/src/table.cpp.
#pragma once

#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "commands/option_set.h"
#include "commands/style.h"
#include "records/atomic_file.h"

namespace fx::harness {

/// What a subcommand runs with: its streams, their styles, whether err is a terminal, and this
/// program's path (the default side of desync and shrink).
struct Invocation {
    std::ostream& out;
    std::ostream& err;
    Style out_style;
    Style err_style;
    bool err_terminal = false; ///< progress lines
    std::string self;
};

class Subcommand {
public:
    virtual ~Subcommand() = default;
    /// Declares the subcommand's options, bound to members of this object.
    virtual void declare(OptionSet& options) = 0;
    /// Checks what CLI11 cannot (option combinations, formats), then runs; an exit code.
    virtual int run(const Invocation& inv) = 0;
};

struct CommandEntry {
    const char* name;
    const char* help; ///< one line, as `fxkcc --help` lists it
    std::unique_ptr<Subcommand> (*make)();
    /// The exit codes this command returns and what each means there (`fxkcc <command> --help`).
    const char* exit_codes;
};

/// Every subcommand, in the order `fxkcc --help` lists them.
std::span<const CommandEntry> command_table();
/// The entry named `name`, or null.
const CommandEntry* find_command(std::string_view name);

/// The whole command line: parse argv, run the subcommand, return the exit code. `out_terminal`
/// and `err_terminal` say whether the streams are terminals (colour and progress lines).
int fxkcc_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
               bool out_terminal, bool err_terminal);

/// Flushes standard output (`out`, written through CheckedFileBuf) at the end of a command. If
/// any write to it failed (a full disk), says so on `err` with the system's reason
/// and turns 0 or 1 into 125: the output is incomplete, so nothing it says can be trusted.
int finish_standard_output(int code, CheckedFileBuf& out, std::ostream& err);

} // namespace fx::harness
