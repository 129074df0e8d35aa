// Running the harness as a separate program: a "side" is a command prefix (the fxkcc binary,
// possibly under an emulator: "qemu-aarch64 -L /sysroot build-aarch64-linux/cli/fxkcc",
// "node build-wasm32-emscripten/cli/fxkcc.js") to which a subcommand and its arguments are
// appended. Used by `desync` and `shrink` to compare two builds or targets.
#pragma once

#include <string>
#include <vector>

namespace fx::harness {

struct Side {
    std::string label; ///< as the user wrote it (reports)
    std::vector<std::string> command; ///< the prefix, split into words
    std::vector<std::string> extra; ///< appended after the subcommand's own arguments
};

/// Splits on spaces; "double" or 'single' quotes group words. False on an unclosed quote.
bool split_words(const std::string& text, std::vector<std::string>* out, std::string* error);
/// A side from a command prefix and extra arguments (both as text).
bool make_side(const std::string& command, const std::string& extra, Side* out, std::string* error);

struct SideResult {
    int exit_code = -1; ///< -1: could not be started or was killed
    std::string out, err;
};
/// Runs side.command + args + side.extra with stdout and stderr captured (through files in a
/// private temporary folder). The current directory is inherited.
SideResult run_side(const Side& side, const std::vector<std::string>& args);

/// A private temporary folder, removed with everything in it when destroyed.
class TempFolder {
public:
    TempFolder();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    bool ok() const { return !path_.empty(); }

private:
    std::string path_;
};

} // namespace fx::harness
