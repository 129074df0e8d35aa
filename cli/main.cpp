// fxkcc: the command line. A thin layer: CLI11 parses, harness/commands.h does the work.
#include <filesystem>
#include <CLI/CLI.hpp>

#include <iostream>
#include <limits>
#include <string>

#include "harness/build_info.h"
#include "harness/commands.h"
#include "harness/plot.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

namespace h = fx::harness;

namespace {

const char* kExitCodes = "Exit codes (as git bisect run reads them):\n"
                         "  0    everything matched\n"
                         "  1    a golden mismatch, a stale or a missing golden\n"
                         "  2    bad usage or bad input (scenario, golden or CSV file)\n"
                         "  125  cannot test (cannot write an output, setup failure)\n";

/// A golden target folder name (x86_64-linux, ...): one path component, so that --target cannot
/// point the goldens outside --golden-dir ("../x", "/etc").
const CLI::Validator kTargetName(
    [](std::string& v) -> std::string {
        const bool ok = !v.empty() && v != "." && v != ".." &&
                        v.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                            std::string::npos;
        return ok ? std::string() : "expected a target folder name such as x86_64-linux, found '" + v + "'";
    },
    "TARGET");

void add_suite_options(CLI::App* app, h::SuiteOptions* s) {
    app->add_option("scenarios", s->inputs, "Scenario files or folders (default: all of --scenarios-dir)");
    app->add_option("--scenarios-dir", s->scenarios_dir, "The scenarios tree")->capture_default_str();
    app->add_option("--golden-dir", s->golden_dir, "Where goldens live (golden/<target>/)")->capture_default_str();
    app->add_option("--target", s->target, "Golden target folder (default: this build's target)")->check(kTargetName);
    app->add_option("-k,--filter", s->filter, "Only scenarios whose name contains this text");
    app->add_flag("--allow-outside", s->allow_outside, "Let scenarios reference files outside the scenarios tree");
    app->add_option_function<std::string>(
           "--shard",
           [s](const std::string& v) {
               const auto slash = v.find('/');
               int k = 0, n = 0;
               try {
                   k = std::stoi(v.substr(0, slash));
                   n = slash == std::string::npos ? 0 : std::stoi(v.substr(slash + 1));
               } catch (const std::exception&) {
                   n = 0;
               }
               if (slash == std::string::npos || n < 1 || k < 1 || k > n) {
                   throw CLI::ValidationError("--shard", "expected K/N with 1 <= K <= N, found '" + v + "'");
               }
               s->shard_index = k;
               s->shard_count = n;
           },
           "Run the K-th of N shards of the suite (K/N, 1-based)")
        ->type_name("K/N");
}

/// This program's path as the user invoked it (the default side of `desync`).
std::string self_path(const char* argv0) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(argv0, ec);
    return ec ? std::string(argv0) : p.generic_string();
}

} // namespace

int main(int argc, char** argv) {
#ifdef _WIN32
    // Byte-exact output on Windows: no CRLF translation of hashes, CSVs and reports.
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
    CLI::App app{"fxkcc: deterministic replay and conformance harness for a fixed-point kinematic character "
                 "controller"};
    app.footer(kExitCodes);
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version, "Print the target, compiler, numeric format, engine and hash versions");

    h::RunCommand run;
    std::string trace_ticks;
    CLI::App* run_app = app.add_subcommand("run", "Run one scenario: summary, and optionally hashes, CSV, trace");
    run_app->add_option("scenario", run.scenario, "Scenario file")->required();
    run_app->add_option("--hashes", run.hashes_path, "Write per-tick hashes to this file ('-': stdout)");
    run_app->add_option("--csv", run.csv_path, "Write the trajectory CSV to this file ('-': stdout)");
    run_app->add_option("--trace", run.trace_path, "Write the solver trace to this file ('-': stdout)");
    run_app->add_option("--trace-ticks", trace_ticks, "Tick range of the trace, A:B inclusive (default: all)");
    run_app->add_flag("--allow-outside", run.allow_outside, "Let the scenario reference files outside its tree");
    run_app->add_option("--metrics", run.metrics_path, "Write the feel metrics to this file as CSV or JSON ('-': stdout)");
    run_app->add_option("--metrics-format", run.metrics_format, "csv or json (default: from the extension, .json: JSON)");
    run_app->add_option("--inject-fault", run.fault,
                        "TICK:CHARACTER:FIELD:BITS: flip the low BITS bits of FIELD of CHARACTER after TICK (tests of desync)");
    run_app->add_option("--stop-after", run.stop_after, "Run ticks 0..N only")
        ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));

    // bench: ns per character-tick, queries, phases (docs/performance.md).
    h::BenchCommand bench;
    CLI::App* bench_app = app.add_subcommand("bench", "Cost of a character-tick: timed runs, queries per tick, phases");
    bench_app->add_option("scenario", bench.scenario, "Scenario file")->required();
    bench_app->add_option("--repeat", bench.repeat, "Timed runs")->capture_default_str();
    bench_app->add_option("--warmup", bench.warmup, "Untimed runs first")
        ->capture_default_str()
        ->check(CLI::Range(0, std::numeric_limits<int>::max()));
    bench_app->add_option("--json", bench.json_path, "Also write the figures as JSON");
    bench_app->add_flag("--once", bench.once, "One untimed run only (for callgrind: scripts/bench-callgrind.sh)");
    bench_app->add_flag("--allow-outside", bench.allow_outside, "Let the scenario reference files outside its tree");

    // desync: where two builds, targets or runs part (docs/desync.md).
    h::DesyncCommand desync;
    std::vector<std::string> desync_inputs;
    CLI::App* desync_app = app.add_subcommand(
        "desync", "Where two runs part: first divergent tick, character, fields, first differing solver step");
    desync_app->add_option("inputs", desync_inputs, "A scenario (run by both sides), a scenario and a golden hash file, or two hash files")->required()->expected(1, 2);
    desync_app->add_option("--a", desync.a, "Command that runs fxkcc for side a (default: this binary)");
    desync_app->add_option("--b", desync.b, "Command that runs fxkcc for side b, e.g. 'qemu-aarch64 build-aarch64-linux/cli/fxkcc'");
    desync_app->add_option("--a-args", desync.a_args, "Extra run arguments for side a (e.g. --inject-fault 57:1:vx:3)");
    desync_app->add_option("--b-args", desync.b_args, "Extra run arguments for side b");
    desync_app->add_option("--bundle", desync.bundle, "Write a bug-report bundle into this folder");
    desync_app->add_option("--context", desync.context, "Trace lines shown before the first difference")->capture_default_str();
    desync_app->add_flag("--allow-outside", desync.allow_outside, "Let the scenario reference files outside its tree");

    h::VerifyCommand verify;
    bool no_progress = false;
    CLI::App* verify_app = app.add_subcommand("verify", "Verify scenarios against this target's goldens");
    add_suite_options(verify_app, &verify.suite);
    verify_app->add_option("-j,--jobs", verify.jobs, "Scenarios run in parallel (default: all cores)");
    verify_app->add_option("--junit", verify.junit_path, "Write a JUnit XML report");
    verify_app->add_flag("--no-progress", no_progress, "No progress line on a terminal");

    h::BlessCommand bless;
    CLI::App* bless_app = app.add_subcommand("bless", "Regenerate goldens for this target (refused when CI is set)");
    add_suite_options(bless_app, &bless.suite);
    bless_app->add_option("-j,--jobs", bless.jobs, "Scenarios run in parallel (default: all cores)");

    h::DiffCommand diff;
    CLI::App* diff_app = app.add_subcommand(
        "diff", "First divergence between two hash files, two trajectory CSVs, or a scenario's run and a hash file");
    diff_app->add_option("a", diff.a, "First file")->required();
    diff_app->add_option("b", diff.b, "Second file")->required();
    diff_app->add_flag("--allow-outside", diff.allow_outside, "Let a scenario reference files outside its tree");

    h::CompareGoldensCommand compare;
    CLI::App* compare_app = app.add_subcommand(
        "compare-goldens", "Prove every target captured identical goldens (golden/<target>/), naming any difference");
    compare_app->add_option("--golden-dir", compare.golden_dir, "Where goldens live")->capture_default_str();
    compare_app->add_option("--targets", compare.targets, "Target folders to compare (default: all)")
        ->delimiter(',')
        ->check(kTargetName);
    compare_app->add_option("--reference", compare.reference, "Reference target (default: x86_64-linux)")
        ->check(kTargetName);

    h::SuiteOptions list;
    CLI::App* list_app = app.add_subcommand("list", "List scenarios: name, ticks, characters, path, description");
    add_suite_options(list_app, &list);
    bool list_markdown = false;
    list_app->add_flag("--markdown", list_markdown, "One Markdown section per scenario (docs/conformance.md)");
    h::SuiteOptions validate;
    CLI::App* validate_app = app.add_subcommand("validate", "Load and check scenarios without running them");
    add_suite_options(validate_app, &validate);

    // plot: an SVG of the level and one or two trajectories (harness/plot.h, docs/plot.md).
    h::PlotCommand plot;
    CLI::App* plot_app = app.add_subcommand(
        "plot", "SVG of the level and one or two trajectories: top and side views, first divergence, capsules");
    plot_app->add_option("scenario", plot.scenario, "Scenario file")->required();
    plot_app->add_option("--csv", plot.csvs, "Trajectory CSV to draw (once or twice; none: run the scenario)")
        ->take_all()
        ->expected(1);
    plot_app->add_option("--ticks", plot.ticks, "Draw the capsules at these ticks (comma-separated)")->delimiter(',');
    plot_app->add_option("--character", plot.character, "Only this character")
        ->check(CLI::Range(int64_t{0}, int64_t{4294967295}));
    plot_app->add_option("-o,--output", plot.out_path, "The SVG file to write ('-': stdout)")->required();
    plot_app->add_flag("--allow-outside", plot.allow_outside, "Let the scenario reference files outside its tree");

    // shrink: a smaller scenario that fails the same way (harness/shrink.h, docs/shrink.md).
    h::ShrinkCommand shrink;
    CLI::App* shrink_app = app.add_subcommand(
        "shrink", "Reduce a failing scenario (expectation, invariant, or a desync of two sides) to a smaller one");
    shrink_app->add_option("scenario", shrink.scenario, "Scenario file that fails")->required();
    shrink_app->add_option("-o,--output", shrink.output, "Where to write the shrunk scenario (YAML)")->required();
    shrink_app->add_option("--a", shrink.a, "Command that runs fxkcc for side a (a desync; default: this binary)");
    shrink_app->add_option("--b", shrink.b, "Command that runs fxkcc for side b (a desync; default: this binary)");
    shrink_app->add_option("--a-args", shrink.a_args, "Extra run arguments for side a (e.g. --inject-fault 57:1:vx:3)");
    shrink_app->add_option("--b-args", shrink.b_args, "Extra run arguments for side b");
    shrink_app->add_option("--max-runs", shrink.max_runs, "Candidates tested at most")->capture_default_str();
    shrink_app->add_flag("--allow-outside", shrink.allow_outside, "Let the scenario reference files outside its tree");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? h::kExitOk : h::kExitBadInput;
    }
    if (version) {
        std::cout << h::version_text();
        return h::kExitOk;
    }
    if (*run_app) {
        if (!trace_ticks.empty()) {
            const auto colon = trace_ticks.find(':');
            try {
                run.trace_from = std::stoll(trace_ticks.substr(0, colon));
                run.trace_to = colon == std::string::npos ? run.trace_from : std::stoll(trace_ticks.substr(colon + 1));
            } catch (const std::exception&) {
                run.trace_from = -1;
            }
            if (run.trace_from < 0 || run.trace_to < run.trace_from) {
                std::cerr << "fxkcc run: --trace-ticks: expected A:B with 0 <= A <= B, found '" << trace_ticks << "'\n";
                return h::kExitBadInput;
            }
            if (run.trace_path.empty()) run.trace_path = "-";
        }
        return h::run_command(run, std::cout, std::cerr);
    }
    if (*bench_app) {
        return bench.once ? h::bench_once(bench.scenario, bench.allow_outside, std::cerr)
                          : h::bench_command(bench, std::cout, std::cerr);
    }
    if (*desync_app) {
        const auto is_yaml = [](const std::string& p) {
            const std::string ext = std::filesystem::path(p).extension().string();
            return ext == ".yaml" || ext == ".yml";
        };
        if (desync_inputs.size() == 2 && is_yaml(desync_inputs[0])) {
            desync.scenario = desync_inputs[0]; // a run (side a) against a golden
            desync.golden = desync_inputs[1];
        } else if (desync_inputs.size() == 2) {
            desync.hashes_a = desync_inputs[0];
            desync.hashes_b = desync_inputs[1];
        } else {
            desync.scenario = desync_inputs[0];
        }
        if (desync.a.empty()) desync.a = self_path(argv[0]);
        if (desync.b.empty()) desync.b = self_path(argv[0]);
        return h::desync_command(desync, std::cout, std::cerr);
    }
    if (*verify_app) {
        verify.progress = !no_progress;
        return h::verify_command(verify, std::cout, std::cerr);
    }
    if (*bless_app) return h::bless_command(bless, std::cout, std::cerr);
    if (*diff_app) return h::diff_command(diff, std::cout, std::cerr);
    if (*compare_app) return h::compare_goldens_command(compare, std::cout, std::cerr);
    if (*list_app) return h::list_command(list, list_markdown, std::cout, std::cerr);
    if (*validate_app) return h::validate_command(validate, std::cout, std::cerr);
    if (*plot_app) return h::plot_command(plot, std::cout, std::cerr);
    if (*shrink_app) {
        // Any side option makes it a desync shrink; a side not given is this binary.
        if (!shrink.a.empty() || !shrink.b.empty() || !shrink.a_args.empty() || !shrink.b_args.empty()) {
            if (shrink.a.empty()) shrink.a = self_path(argv[0]);
            if (shrink.b.empty()) shrink.b = self_path(argv[0]);
        }
        return h::shrink_command(shrink, std::cout, std::cerr);
    }
    std::cout << app.help();
    return h::kExitBadInput;
}
