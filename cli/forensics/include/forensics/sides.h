// Running the harness as a separate program: a "side" is a command prefix (the fxkcc binary,
// possibly under an emulator: "qemu-aarch64 -L /sysroot build-aarch64-linux/cli/fxkcc",
// "node build-wasm32-emscripten/cli/fxkcc.js") to which a subcommand and its arguments are
// appended. Used by `desync` and `shrink` to compare two builds or targets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fx::harness {

struct Side {
    std::string label; ///< as the user wrote it (reports)
    std::vector<std::string> command; ///< the prefix, split into words
    std::vector<std::string> extra; ///< appended after the subcommand's own arguments
    /// The most a run of the side may take, in ms (0: no limit); past it the side and what it
    /// started are killed (side_timeout_ms() gives the default).
    int64_t timeout_ms = 0;
};

/// The default time limit of a side's run of a scenario of `character_ticks` (ticks times
/// characters): 120 s, plus 2 ms a character-tick (an emulated side, under qemu or node, runs
/// a character-tick in well under 1 ms, checks and trace included).
int64_t side_timeout_ms(int64_t character_ticks);

/// Splits on spaces; "double" or 'single' quotes group words. False on an unclosed quote.
bool split_words(const std::string& text, std::vector<std::string>* out, std::string* error);
/// A side from a command prefix and extra arguments (both as text).
bool make_side(const std::string& command, const std::string& extra, Side* out, std::string* error);

struct SideResult {
    int exit_code = -1; ///< -1: could not be started, was killed or timed out
    bool timed_out = false; ///< killed after side.timeout_ms
    int64_t timeout_ms = 0; ///< the side's time limit (side.timeout_ms), for side_outcome
    int signal = 0; ///< the signal that ended it (POSIX), 0 when it exited or did not start
    std::string start_error; ///< why it could not be started; empty when it started
    std::string out, err;
};
/// What became of a side's run, in words for a message: "could not be started: No such file or
/// directory", "was killed by signal 11 (SIGSEGV)", "was killed after 3.0 s, its time limit
/// (--side-timeout)", "exited 3".
std::string side_outcome(const SideResult& r);
/// Runs side.command + args + side.extra with stdout and stderr captured (through files in a
/// private temporary folder). The current directory is inherited. The side runs in a process
/// group of its own (POSIX), which a SIGINT, SIGTERM or SIGHUP to fxkcc kills before fxkcc ends
/// (remove_temporaries_on_signal), as it does after side.timeout_ms.
SideResult run_side(const Side& side, const std::vector<std::string>& args);

/// A private temporary folder, removed with everything in it when destroyed.
class TempFolder {
public:
    TempFolder();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return path_; }
    /// The path of file `name` in it, registered with the signal handler so that a SIGINT or
    /// SIGTERM removes it (and then the folder) before fxkcc ends.
    std::string file(const std::string& name) const;
    bool ok() const { return !path_.empty(); }

private:
    std::string path_;
    mutable std::vector<std::string> names_;
    mutable std::vector<int> slots_; ///< signal handler registrations (atomic_file.h)
};

} // namespace fx::harness
