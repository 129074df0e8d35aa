// `fxkcc verify`: a suite against the goldens of one target (run/verify.h), as a table, a
// summary line, an exit code as git bisect run reads it, and optionally a JUnit report.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/json.h"
#include "records/paths.h"
#include "records/text.h"
#include "run/verify.h"
#include "subcommands.h"

namespace fx::harness {

bool unique_names(const std::vector<Outcome>& outcomes, std::ostream& err) {
    std::string duplicate;
    if (check_unique_names(outcomes, &duplicate)) return true;
    err << "fxkcc: two scenarios are named '" << duplicate
        << "' (names must be unique: they name the goldens)\n";
    return false;
}

bool filter_matched(const char* command, const SuiteOptions& suite, size_t matched, size_t of,
                    std::ostream& err) {
    if (matched > 0 || suite.allow_empty) return true;
    err << "fxkcc " << command << ": no scenario name contains '" << suite.filter << "' (of " << of
        << " scenarios; --allow-empty accepts a filter that selects nothing)\n";
    return false;
}

namespace {

using text::xml_escape;

std::string seconds_text(int64_t millis) {
    std::string frac = std::to_string(millis % 1000);
    return std::to_string(millis / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

std::string junit_xml(const std::vector<Outcome>& outcomes, const std::string& target) {
    int failures = 0, errors = 0;
    int64_t total = 0;
    for (const Outcome& o : outcomes) {
        if (o.status == Status::kMismatch || o.status == Status::kStale ||
            o.status == Status::kMissing || o.status == Status::kFailed) {
            ++failures;
        }
        if (o.status == Status::kBadInput || o.status == Status::kCannotTest) ++errors;
        total += o.millis;
    }
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites>\n<testsuite name=\"fxkcc verify " << xml_escape(target) << "\" tests=\""
      << outcomes.size() << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" time=\""
      << seconds_text(total) << "\">\n";
    for (const Outcome& o : outcomes) {
        x << "  <testcase classname=\"fxkcc." << xml_escape(target) << "\" name=\""
          << xml_escape(o.name.empty() ? o.path : o.name) << "\" file=\"" << xml_escape(o.path)
          << "\" time=\"" << seconds_text(o.millis) << "\"";
        if (o.status == Status::kPass) {
            x << "/>\n";
            continue;
        }
        const bool error = o.status == Status::kBadInput || o.status == Status::kCannotTest;
        x << ">\n    <" << (error ? "error" : "failure") << " type=\"" << status_name(o.status)
          << "\" message=\"" << xml_escape(o.summary) << "\">" << xml_escape(o.detail) << "</"
          << (error ? "error" : "failure") << ">\n";
        x << "  </testcase>\n";
    }
    x << "</testsuite>\n</testsuites>\n";
    return x.str();
}

/// The status of an outcome as a JSON word.
const char* json_status(Status s) {
    switch (s) {
    case Status::kPass:
        return "pass";
    case Status::kMismatch:
        return "mismatch";
    case Status::kStale:
        return "stale";
    case Status::kMissing:
        return "missing";
    case Status::kBadInput:
        return "error";
    case Status::kCannotTest:
        return "cannot-test";
    case Status::kFailed:
        return "failed";
    }
    return "?";
}

std::string report_json(const std::vector<Outcome>& outcomes, const std::string& build_target,
                        const std::string& golden_target, const std::string& note,
                        const int (&counts)[7], int checks_failed, int exit_code) {
    const BuildInfo& b = build_info();
    Json doc = Json::object({{"format", "fxkcc-verify 1"},
                             {"build", Json::object({{"target", build_target},
                                                     {"engine", kEngine},
                                                     {"behaviour", kBehaviourVersion},
                                                     {"source", b.commit},
                                                     {"dirty", b.dirty},
                                                     {"compiler", b.compiler}})},
                             {"goldens", golden_target},
                             {"note", note},
                             {"counts", Json::object({{"scenarios", outcomes.size()},
                                                      {"passed", counts[0]},
                                                      {"mismatched", counts[1]},
                                                      {"stale", counts[2]},
                                                      {"missing", counts[3]},
                                                      {"errors", counts[4]},
                                                      {"cannot_test", counts[5]},
                                                      {"failed_checks", checks_failed}})},
                             {"exit_code", exit_code}});
    Json scenarios = Json::array();
    for (const Outcome& o : outcomes) {
        scenarios.push_back(Json::object({{"name", o.name},
                                          {"path", o.path},
                                          {"status", json_status(o.status)},
                                          {"checks_failed", o.checks_failed},
                                          {"ticks", o.ticks},
                                          {"seconds", json_decimal(seconds_text(o.millis))},
                                          {"summary", o.summary},
                                          {"detail", o.detail}}));
    }
    doc.set("scenarios", std::move(scenarios));
    return dump_json(doc);
}

/// The status word of an outcome, coloured by what it means.
std::string styled_status(Status s, const Style& style) {
    const std::string word = status_name(s);
    switch (s) {
    case Status::kPass:
        return style.good(word);
    case Status::kStale:
    case Status::kMissing:
        return style.warning(word);
    default:
        return style.bad(word);
    }
}

void print_table(const std::vector<Outcome>& outcomes, std::ostream& out, const Style& style,
                 bool failures_only) {
    size_t w = 8;
    for (const Outcome& o : outcomes)
        w = std::max(w, (o.name.empty() ? o.path : o.name).size());
    for (const Outcome& o : outcomes) {
        if (failures_only && o.status == Status::kPass) continue;
        const std::string_view word = status_name(o.status);
        // Padded by the word's own width: the colour codes take no columns.
        out << fmt::format("{}{:{}}{:<{}}{}\n", styled_status(o.status, style), "",
                           12 - word.size(), o.name.empty() ? o.path : o.name, w + 2, o.summary);
        if (!o.detail.empty()) {
            std::istringstream lines(o.detail);
            for (std::string line; std::getline(lines, line);)
                out << "            " << line << "\n";
        }
    }
}

} // namespace

namespace {

/// The golden folder to verify against: --target's, else this build's own, else (no folder of
/// its own, and not --own-goldens) the reference target's, with a note saying so.
SuiteOptions golden_target(const VerifyCommand& cmd, std::string* note) {
    namespace fs = std::filesystem;
    SuiteOptions suite = cmd.suite;
    if (!suite.target.empty() || cmd.own_goldens) return suite;
    const std::string own = build_info().target;
    std::error_code ec;
    if (own == cmd.reference_target || fs::is_directory(fs::path(suite.golden_dir) / own, ec) ||
        !fs::is_directory(fs::path(suite.golden_dir) / cmd.reference_target, ec)) {
        return suite;
    }
    suite.target = cmd.reference_target;
    *note =
        "note: " + (fs::path(suite.golden_dir) / own).generic_string() +
        " does not exist; verifying against the goldens of " + cmd.reference_target +
        " (every target's goldens are identical, as fxkcc compare-goldens proves; --own-goldens requires " +
        own + "'s own)\n";
    return suite;
}

/// verify --pending-dir: what this build produces for each scenario whose golden mismatched, was
/// stale or missing, as pending goldens of this build's target (or --target's) for fxkcc review.
bool write_pending(const VerifyCommand& cmd, const SuiteOptions& requested,
                   const std::vector<Outcome>& outcomes, const std::vector<Loaded>& loaded,
                   std::ostream& out, std::ostream& err) {
    SuiteOptions pending = requested;
    pending.golden_dir = cmd.pending_dir;
    size_t written = 0;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const Status s = outcomes[i].status;
        if (s != Status::kMismatch && s != Status::kStale && s != Status::kMissing) continue;
        HashFile fresh;
        std::string error;
        if (!write_goldens(pending, loaded[i].sc, &fresh, &error)) {
            err << "fxkcc verify: cannot write the pending golden of '" << loaded[i].sc.name
                << "': " << error << "\n";
            return false;
        }
        ++written;
    }
    if (written > 0) {
        out << written << " pending golden" << (written == 1 ? "" : "s") << " written to "
            << (std::filesystem::path(cmd.pending_dir) / suite_target(pending)).generic_string()
            << "/ (show: fxkcc review --pending-dir " << cmd.pending_dir
            << "; accept with --accept)\n";
    }
    return true;
}

} // namespace

namespace {

/// Why verify's reports (--json, --junit) may not be written, or "": they may not name each other
/// or one of the suite's inputs (every scenario file, and the files they reference), nor lie in
/// the golden or the pending folder, whose files they would replace (issue 51).
std::string report_conflict(const VerifyCommand& cmd, const std::vector<std::string>& scenarios,
                            const std::vector<Loaded>& loaded) {
    std::vector<OutputPath> reports;
    if (!cmd.json_path.empty()) reports.push_back({"--json", cmd.json_path});
    if (!cmd.junit_path.empty()) reports.push_back({"--junit", cmd.junit_path});
    if (reports.empty()) return {};
    std::vector<std::string> inputs = scenarios;
    for (const Loaded& l : loaded)
        inputs.insert(inputs.end(), l.sc.inputs.begin(), l.sc.inputs.end());
    if (std::string conflict = output_conflict(reports, inputs); !conflict.empty()) return conflict;
    for (const OutputPath& r : reports) {
        if (r.path == "-") continue;
        const std::filesystem::path at = resolved_path(r.path);
        for (const auto& [what, dir] :
             {std::pair<const char*, const std::string&>{"the golden folder", cmd.suite.golden_dir},
              {"the pending folder", cmd.pending_dir}}) {
            if (!dir.empty() && path_within(at, resolved_path(dir)))
                return r.option + " " + text::quote(r.path) + " is inside " + what + " " +
                       text::quote(dir) + ": a report may not replace its files";
        }
    }
    return {};
}

} // namespace

int verify_command(const VerifyCommand& request, std::ostream& out, std::ostream& err,
                   const Style& style, bool err_terminal) {
    std::string note;
    VerifyCommand cmd = request;
    cmd.suite = golden_target(request, &note);
    const std::string on =
        note.empty() ? suite_target(cmd.suite)
                     : build_info().target + " against the goldens of " + suite_target(cmd.suite);
    if (!cmd.pending_dir.empty() && folders_overlap(cmd.pending_dir, cmd.suite.golden_dir)) {
        err << "fxkcc verify: --pending-dir '" << cmd.pending_dir << "' and the golden folder '"
            << cmd.suite.golden_dir << "' overlap; pending goldens go to a folder of their own\n";
        return kExitBadInput;
    }
    // JSON on stdout replaces the table (and everything else verify prints there).
    std::ostringstream discard;
    std::ostream& text = cmd.json_path == "-" ? discard : out;
    text << note;
    int counts[7] = {0, 0, 0, 0, 0, 0, 0};
    int checks_failed = 0;
    auto write_json = [&](const std::vector<Outcome>& outcomes, int code) {
        if (cmd.json_path.empty()) return true;
        std::string e;
        const std::string j = report_json(outcomes, build_info().target, suite_target(cmd.suite),
                                          note, counts, checks_failed, code);
        if (cmd.json_path == "-") {
            out << j;
        } else if (!write_file_atomic(cmd.json_path, j, &e)) {
            err << "fxkcc verify: cannot write the JSON report: " << e << "\n";
            return false;
        }
        return true;
    };
    std::vector<std::string> all;
    std::string error;
    if (!discover_scenarios(cmd.suite, &all, &error)) {
        err << "fxkcc verify: " << error << "\n";
        return kExitBadInput;
    }
    if (all.empty()) {
        err << "fxkcc verify: no scenarios selected\n";
        return kExitBadInput;
    }
    const bool progress = cmd.progress && err_terminal;
    // Load everything first (in parallel): the filter is on names and the shards by cost. Only
    // what is selected runs.
    std::vector<Loaded> all_loaded = load_all(cmd.suite, all, cmd.jobs, err);
    if (const std::string why = report_conflict(cmd, all, all_loaded); !why.empty()) {
        err << "fxkcc verify: " << why << "\n";
        return kExitBadInput;
    }
    size_t matched = 0;
    const std::vector<size_t> picked = select_scenarios(cmd.suite, all, all_loaded, &matched);
    if (!filter_matched("verify", cmd.suite, matched, all.size(), err)) return kExitBadInput;
    if (picked.empty()) {
        // More CI jobs than scenarios, or a filter allowed to select nothing: not an error.
        if (cmd.suite.shard_count > 0) {
            text << fmt::format(
                "shard {}/{} has no scenarios (the selection has {}): nothing to verify\n",
                cmd.suite.shard_index, cmd.suite.shard_count, matched);
        } else {
            text << "no scenario name contains '" << cmd.suite.filter << "': nothing to verify\n";
        }
        if (!cmd.junit_path.empty() &&
            !write_file_atomic(cmd.junit_path, junit_xml({}, suite_target(cmd.suite)), &error)) {
            err << "fxkcc verify: cannot write JUnit report: " << error << "\n";
            return kExitCannotTest;
        }
        return write_json({}, kExitOk) ? kExitOk : kExitCannotTest;
    }
    std::vector<std::string> paths;
    std::vector<Loaded> loaded;
    for (size_t i : picked) {
        paths.push_back(all[i]);
        loaded.push_back(std::move(all_loaded[i]));
    }
    all_loaded.clear();
    MemoryBudget budget(kVerifyMemoryBudget);
    std::vector<Outcome> outcomes =
        run_parallel(paths, run_costs(loaded), cmd.jobs, progress, err,
                     [&](size_t i) { return verify_one(cmd.suite, paths[i], loaded[i], &budget); });
    for (size_t i = 0; i < outcomes.size(); ++i)
        outcomes[i].millis += loaded[i].millis; // load + run, as before
    if (!unique_names(outcomes, err)) return kExitBadInput;
    for (const Outcome& o : outcomes) {
        ++counts[static_cast<int>(o.status)];
        if (o.checks_failed) ++checks_failed;
    }
    print_table(outcomes, text, style, cmd.failures_only);
    text << fmt::format(
        "\n{} scenarios on {}: {} passed, {} mismatched, {} stale, {} missing, {} errors; {} failed "
        "expectations or invariants\n",
        outcomes.size(), on, counts[0], counts[1], counts[2], counts[3], counts[4], checks_failed);
    if (!cmd.junit_path.empty() &&
        !write_file_atomic(cmd.junit_path, junit_xml(outcomes, suite_target(cmd.suite)), &error)) {
        err << "fxkcc verify: cannot write JUnit report: " << error << "\n";
        return kExitCannotTest;
    }
    if (!cmd.pending_dir.empty() && !write_pending(cmd, request.suite, outcomes, loaded, text, err))
        return kExitCannotTest;
    const int code = exit_code_of(outcomes);
    return write_json(outcomes, code) ? code : kExitCannotTest;
}

namespace {

class VerifySubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        add_suite_options(app, &cmd_.suite);
        app.add("-j,--jobs", &cmd_.jobs, "Scenarios run in parallel (default: all cores)")
            .range(1, 4096);
        app.add("--junit", &cmd_.junit_path, "Write a JUnit XML report");
        app.add(
            "--json", &cmd_.json_path,
            "Write the report as JSON (every row, summary and detail, the counts, the exit code); '-': on "
            "stdout instead of the table");
        app.flag("--failures-only", &cmd_.failures_only,
                 "List only the scenarios that did not pass");
        app.add("--reference-target", &cmd_.reference_target,
                "Goldens to verify against when this build's target has no golden folder")
            .show_default()
            .target_name();
        app.flag("--own-goldens", &cmd_.own_goldens,
                 "Require this build's own golden folder (no reference fallback)");
        app.flag("--no-progress", &no_progress_, "No progress line on a terminal");
        app.add(
            "--pending-dir", &cmd_.pending_dir,
            "Write what this build produces for each mismatched, stale or missing golden as a pending "
            "golden into DIR/<target>/ (a CI artifact, for fxkcc review)");
    }
    int run(const Invocation& inv) override {
        cmd_.progress = !no_progress_;
        return verify_command(cmd_, inv.out, inv.err, inv.out_style, inv.err_terminal);
    }

private:
    VerifyCommand cmd_;
    bool no_progress_ = false;
};

} // namespace

std::unique_ptr<Subcommand> make_verify_subcommand() {
    return std::make_unique<VerifySubcommand>();
}

} // namespace fx::harness
