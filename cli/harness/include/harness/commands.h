// The harness's commands as functions: plain options in, an exit code out, text written to
// the given streams (the logic never prints elsewhere). cli/main.cpp maps the command line
// onto these.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace fx::harness {

/// Exit codes, as `git bisect run` reads them.
enum ExitCode : int {
    kExitOk = 0,         ///< everything matched / succeeded
    kExitMismatch = 1,   ///< a golden mismatch, a stale or missing golden
    kExitBadInput = 2,   ///< bad usage or bad input (scenario, golden or CSV file)
    kExitCannotTest = 125, ///< the test could not be run (setup failure, cannot write)
};

/// Where scenarios and goldens live; shared by every command.
struct SuiteOptions {
    std::string scenarios_dir = "scenarios";
    std::string golden_dir = "golden";
    std::string target; ///< golden/<target>/; empty: this build's target
    bool allow_outside = false;
    std::vector<std::string> inputs; ///< scenario files or folders; empty: all of scenarios_dir
    std::string filter;              ///< keep scenarios whose name contains this
    int shard_index = 0;             ///< 1-based K of --shard K/N; 0: no sharding
    int shard_count = 0;
};

struct RunCommand {
    std::string scenario;
    std::string hashes_path; ///< "-" for stdout, empty: none
    std::string csv_path;
    std::string trace_path;
    int64_t trace_from = 0, trace_to = -1;
    bool allow_outside = false;
    std::string metrics_path;   ///< the feel metrics as CSV or JSON ("-": stdout); empty: none
    std::string metrics_format; ///< "csv" or "json"; empty: from the extension (.json: JSON)
    std::string fault;          ///< "TICK:CHARACTER:FIELD:BITS" (desync.h); empty: none
    int64_t stop_after = -1;    ///< last tick to run; -1: all (hashes then cover the ticks run)
};
/// Exit 1 when an expectation or invariant fails (the outputs are still written).
int run_command(const RunCommand& cmd, std::ostream& out, std::ostream& err);

struct VerifyCommand {
    SuiteOptions suite;
    int jobs = 0; ///< 0: all cores
    std::string junit_path;
    bool progress = true; ///< a progress line on stderr when it is a terminal
};
int verify_command(const VerifyCommand& cmd, std::ostream& out, std::ostream& err);

struct BlessCommand {
    SuiteOptions suite;
    int jobs = 0;
};
int bless_command(const BlessCommand& cmd, std::ostream& out, std::ostream& err);

struct DiffCommand {
    std::string a, b; ///< two hash files, two trajectory CSVs, or a scenario and a hash file
    bool allow_outside = false;
};
int diff_command(const DiffCommand& cmd, std::ostream& out, std::ostream& err);

/// Compares every target's goldens with a reference target's (golden/<target>/).
struct CompareGoldensCommand {
    std::string golden_dir = "golden";
    std::vector<std::string> targets; ///< empty: every folder under golden_dir
    std::string reference;            ///< empty: x86_64-linux if present, else the first
};
int compare_goldens_command(const CompareGoldensCommand& cmd, std::ostream& out, std::ostream& err);

/// Tab-separated lines, or (markdown) one Markdown section per scenario: the generated part of
/// docs/conformance.md.
/// Where two runs of a scenario part (docs/desync.md): two sides (command prefixes that run
/// fxkcc, e.g. under an emulator), or two hash files.
struct DesyncCommand {
    std::string scenario;           ///< empty: compare hashes_a and hashes_b
    std::string hashes_a, hashes_b;
    std::string golden;             ///< with a scenario: compare side a's run with this hash file
    std::string a, b;               ///< command prefixes (default: this binary)
    std::string a_args, b_args;     ///< appended to each side's run arguments
    std::string bundle;             ///< write the bug-report bundle into this folder
    int context = 5;                ///< trace lines shown before the first difference
    bool allow_outside = false;
};
/// Exit 0: no desync; 1: desync found (reported); 2: bad input; 125: a side could not run.
int desync_command(const DesyncCommand& cmd, std::ostream& out, std::ostream& err);

/// The cost of a character-tick on a scenario (docs/performance.md): timed runs (median, min,
/// max ns per character-tick), queries per character-tick by kind, time per phase.
struct BenchCommand {
    std::string scenario;
    int repeat = 10;
    int warmup = 2;
    std::string json_path;
    bool once = false; ///< one untimed run and nothing else (instruction counts under callgrind)
    bool allow_outside = false;
};
int bench_command(const BenchCommand& cmd, std::ostream& out, std::ostream& err);
int bench_once(const std::string& scenario, bool allow_outside, std::ostream& err);

int list_command(const SuiteOptions& suite, bool markdown, std::ostream& out, std::ostream& err);
int validate_command(const SuiteOptions& suite, std::ostream& out, std::ostream& err);

/// Reduces a failing scenario to a smaller one that fails the same way (harness/shrink.h,
/// docs/shrink.md): a failed expectation or invariant, or (a / b set) a desync between two sides.
struct ShrinkCommand {
    std::string scenario;
    std::string output;         ///< the shrunk scenario (YAML, written atomically)
    std::string a, b;           ///< command prefixes of the two sides; both empty: check failures
    std::string a_args, b_args; ///< appended to each side's run arguments
    int max_runs = 1000;        ///< candidates tested at most
    bool allow_outside = false;
};
/// Exit 0: shrunk, written and re-checked; 2: bad input, or the scenario does not fail (the
/// sides do not diverge); 125: a side could not run, or the output cannot be written.
int shrink_command(const ShrinkCommand& cmd, std::ostream& out, std::ostream& err);

} // namespace fx::harness
