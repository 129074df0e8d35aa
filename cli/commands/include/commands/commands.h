// The subcommands as functions: plain options in, an exit code out, text written to the given
// streams (the logic never prints elsewhere). The command table (commands/command.h) maps the
// command line onto these; tests call them directly.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "commands/style.h"
#include "run/suite.h"

namespace fx::harness {

struct RunCommand {
    std::string scenario;
    std::string hashes_path; ///< "-" for stdout, empty: none
    std::string csv_path;
    std::string trace_path;
    int64_t trace_from = 0, trace_to = -1;
    bool allow_outside = false;
    std::string metrics_path; ///< the feel metrics as CSV or JSON ("-": stdout); empty: none
    std::string metrics_format; ///< "csv" or "json"; empty: from the extension (.json: JSON)
    std::string fault; ///< "TICK:CHARACTER:FIELD:BITS" (run/fault.h); empty: none
    int64_t stop_after = -1; ///< last tick to run; -1: all (hashes then cover the ticks run)
    /// A checksum file (a recording's, records/checksums.h): every tick's world hash must equal
    /// it (exit 1 at the first that does not); empty: none.
    std::string checksums_path;
};
/// Exit 1 when an expectation or invariant fails (the outputs are still written).
int run_command(const RunCommand& cmd, std::ostream& out, std::ostream& err,
                const Style& out_style = {}, const Style& err_style = {});

struct VerifyCommand {
    SuiteOptions suite;
    int jobs = 0; ///< 0: all cores
    std::string junit_path;
    bool progress = true; ///< a progress line on stderr when it is a terminal
    /// Without --target, a build whose target has no golden folder (macOS arm64, MSVC, a new
    /// target) verifies against this target's goldens, and says so; every target's goldens are
    /// identical (compare-goldens). own_goldens: no such fallback (the target's own, or missing).
    std::string reference_target = "x86_64-linux";
    bool own_goldens = false;
    /// --pending-dir DIR: for every scenario whose golden mismatched, was stale or missing, write
    /// what this build produces as a pending golden into DIR/<target>/ (CI uploads DIR as an
    /// artifact; `fxkcc review --pending-dir DIR` shows and accepts it).
    std::string pending_dir;
    /// --json PATH: the report as JSON (docs/formats.md, "Verify report"): every row, summary and
    /// detail the terminal shows, the counts, the exit code; "-": on stdout instead of the table.
    std::string json_path;
    bool failures_only = false; ///< the table lists only what did not pass (the summary line stays)
};
/// `err_terminal`: a progress line on err (when cmd.progress).
int verify_command(const VerifyCommand& cmd, std::ostream& out, std::ostream& err,
                   const Style& style = {}, bool err_terminal = false);

struct BlessCommand {
    SuiteOptions suite;
    int jobs = 0;
    /// --capture DIR: write the goldens to DIR/<target>/ instead of the golden folder, allowed
    /// under CI (capturing a real runner's goldens into an artifact); refused when DIR is the
    /// golden folder itself, so CI never rewrites the repository's goldens.
    std::string capture_dir;
    /// --prune: remove the target's goldens that belong to no scenario (a bless of the whole
    /// suite only); without it they are listed as orphans and left alone.
    bool prune = false;
    /// --other-target: allow --target naming another target than this build's (its folder then
    /// holds this build's results, recorded as `blessed-by` in each hash file), or one that has
    /// no folder yet (a new target, not a typo).
    bool other_target = false;
    /// --pending: write each golden that would change into the pending folder (pending_dir, or
    /// default_pending_dir beside the golden folder) instead of the golden folder, for `fxkcc
    /// review`; an unchanged one leaves nothing pending. Allowed under CI (an artifact).
    bool pending = false;
    std::string pending_dir; ///< --pending-dir DIR (implies --pending)
};
int bless_command(const BlessCommand& cmd, std::ostream& out, std::ostream& err,
                  const Style& style = {}, bool err_terminal = false);

struct DiffCommand {
    std::string a, b; ///< two hash files, two trajectory CSVs, or a scenario and a hash file
    bool allow_outside = false;
};
int diff_command(const DiffCommand& cmd, std::ostream& out, std::ostream& err,
                 const Style& style = {});

/// Compares every target's goldens with a reference target's (golden/<target>/).
struct CompareGoldensCommand {
    std::string golden_dir = "golden";
    std::vector<std::string> targets; ///< empty: every folder under golden_dir
    std::string reference; ///< empty: x86_64-linux if present, else the first
};
int compare_goldens_command(const CompareGoldensCommand& cmd, std::ostream& out, std::ostream& err);

/// Where two runs of a scenario part (docs/desync.md): two sides (command prefixes that run
/// fxkcc, e.g. under an emulator), or two hash files.
struct DesyncCommand {
    std::string scenario; ///< empty: compare hashes_a and hashes_b
    std::string hashes_a, hashes_b;
    std::string golden; ///< with a scenario: compare side a's run with this hash file
    std::string a, b; ///< command prefixes (default: this binary)
    std::string a_args, b_args; ///< appended to each side's run arguments
    std::string bundle; ///< write the bug-report bundle into this folder
    int context = 5; ///< trace lines shown before the first difference
    bool allow_outside = false;
    /// Seconds a side's run may take before it is killed; 0: side_timeout_ms() of the scenario.
    int64_t side_timeout = 0;
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

/// `fxkcc review`: the pending goldens (bless --pending, verify --pending-dir) against the
/// accepted ones, scenario by scenario: first changed tick, characters and fields, the largest
/// position and velocity change, whether the scenario's expectations and invariants hold; then
/// accepts them into the golden folder or rejects them (all, or those the filter names).
struct ReviewCommand {
    SuiteOptions suite; ///< golden_dir, scenarios (to check expectations), target, filter
    std::string pending_dir; ///< empty: default_pending_dir(suite.golden_dir)
    bool accept = false;
    bool reject = false;
};
/// Exit 0: shown (or accepted / rejected); 2: bad input (a pending golden unreadable or stale,
/// a filter matching nothing); 125: a golden could not be written.
int review_command(const ReviewCommand& cmd, std::ostream& out, std::ostream& err,
                   const Style& style = {});

/// Tab-separated lines, or (markdown) one Markdown section per scenario: the generated part of
/// docs/conformance.md.
int list_command(const SuiteOptions& suite, bool markdown, std::ostream& out, std::ostream& err);
int validate_command(const SuiteOptions& suite, std::ostream& out, std::ostream& err);

struct PlotCommand {
    std::string scenario;
    std::vector<std::string> csvs; ///< 0 (run in process), 1 or 2 trajectory CSVs
    std::vector<int64_t> ticks; ///< capsule ticks
    int64_t character = -1; ///< -1: every character
    std::string out_path; ///< the SVG ("-": stdout)
    bool allow_outside = false;
};
/// Exit 0 when the picture is written (whether or not two trajectories differ), 2 on bad input,
/// 125 when the output cannot be written.
int plot_command(const PlotCommand& cmd, std::ostream& out, std::ostream& err);

/// Reduces a failing scenario to a smaller one that fails the same way (forensics/shrink.h,
/// docs/shrink.md): a failed expectation or invariant, or (a / b set) a desync between two sides.
struct ShrinkCommand {
    std::string scenario;
    std::string output; ///< the shrunk scenario (YAML, written atomically)
    std::string a, b; ///< command prefixes of the two sides; both empty: check failures
    std::string a_args, b_args; ///< appended to each side's run arguments
    int max_runs = 1000; ///< candidates tested at most
    bool allow_outside = false;
    /// Seconds a side's run may take before it is killed; 0: side_timeout_ms() of the scenario.
    int64_t side_timeout = 0;
};
/// Exit 0: shrunk, written and re-checked; 2: bad input, or the scenario does not fail (the
/// sides do not diverge); 125: a side could not run, or the output cannot be written.
int shrink_command(const ShrinkCommand& cmd, std::ostream& out, std::ostream& err);

} // namespace fx::harness
