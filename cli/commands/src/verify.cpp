// `fxkcc verify`: a suite against the goldens of one target (run/verify.h), as a table, a
// summary line, an exit code as git bisect run reads it, and optionally JUnit and JSON reports
// and GitHub annotations (verify_reports.h); goldens without a scenario as orphans.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/paths.h"
#include "records/text.h"
#include "run/verify.h"
#include "subcommands.h"
#include "verify_html.h"
#include "verify_reports.h"

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
/// the golden or the pending folder, whose files they would replace (issue 51), nor be named as
/// a page of the --html folder (index.html, SCENARIO.html: written after them, a page replaced the
/// report or the report the index).
std::string report_conflict(const VerifyCommand& cmd, const std::vector<std::string>& scenarios,
                            const std::vector<Loaded>& loaded, const std::string& html_dir) {
    std::vector<OutputPath> reports;
    if (!cmd.json_path.empty()) reports.push_back({"--json", cmd.json_path});
    if (!cmd.junit_path.empty()) reports.push_back({"--junit", cmd.junit_path});
    if (reports.empty()) return {};
    std::vector<std::string> inputs = scenarios;
    for (const Loaded& l : loaded)
        inputs.insert(inputs.end(), l.sc.inputs.begin(), l.sc.inputs.end());
    if (std::string conflict = output_conflict(reports, inputs, cmd.suite.golden_dir);
        !conflict.empty())
        return conflict;
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
        std::string extension = std::filesystem::path(r.path).extension().string();
        for (char& c : extension)
            c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (!html_dir.empty() && extension == ".html" &&
            folder_within(std::filesystem::path(r.path).parent_path().empty()
                              ? std::filesystem::path(".")
                              : std::filesystem::path(r.path).parent_path(),
                          html_dir))
            return r.option + " " + text::quote(r.path) +
                   " is named as a page of the --html folder " + text::quote(html_dir) +
                   " (index.html, SCENARIO.html): a report may not be one";
    }
    return {};
}

} // namespace

namespace {

/// What verify takes beyond VerifyCommand (commands.h): --orphans and --format.
struct VerifyExtras {
    bool orphans_fail = false; ///< --orphans fail: a golden without a scenario exits 1
    bool github = false; ///< --format github: annotations after the table
    std::string html_dir; ///< --html DIR: an index and a page per scenario that did not pass
};

/// The orphan goldens when the whole suite is selected and every scenario loaded (a scenario
/// that did not load has no name to tell its golden by); nothing otherwise.
OrphanReport orphans_of(const VerifyCommand& cmd, const VerifyExtras& extras,
                        const std::vector<Loaded>& all_loaded, std::string* error) {
    OrphanReport r;
    r.fail = extras.orphans_fail;
    if (!whole_suite(cmd.suite)) return r;
    std::vector<std::string> names;
    for (const Loaded& l : all_loaded) {
        if (!l.ok) return r;
        names.push_back(l.sc.name);
    }
    r.checked = find_orphans(cmd.suite, names, &r.orphans, error);
    return r;
}

void print_orphans(const OrphanReport& r, std::ostream& out, const Style& style) {
    for (const Orphan& o : r.orphans) {
        const std::string_view word = "ORPHAN";
        out << fmt::format("{}{:{}}{}\n", r.fail ? style.bad(word) : style.warning(word), "",
                           12 - word.size(), orphan_message(o));
    }
}

int verify_with(const VerifyCommand& request, const VerifyExtras& extras, std::ostream& out,
                std::ostream& err, const Style& style, bool err_terminal) {
    std::string note;
    VerifyCommand cmd = request;
    cmd.suite = golden_target(request, &note);
    const std::string on =
        note.empty() ? suite_target(cmd.suite)
                     : build_info().target + " against the goldens of " + suite_target(cmd.suite);
    for (const auto& [what, dir] :
         {std::pair<const char*, const std::string&>{"the golden folder", cmd.suite.golden_dir},
          {"the scenarios folder", cmd.suite.scenarios_dir},
          {"the pending folder", cmd.pending_dir}}) {
        if (!extras.html_dir.empty() && !dir.empty() && folders_overlap(extras.html_dir, dir)) {
            err << "fxkcc verify: --html '" << extras.html_dir << "' and " << what << " '" << dir
                << "' overlap; the pages go to a folder of their own\n";
            return kExitBadInput;
        }
    }
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
    OrphanReport orphans;
    orphans.fail = extras.orphans_fail;
    auto write_json = [&](const std::vector<Outcome>& outcomes, int code) {
        if (cmd.json_path.empty()) return true;
        std::string e;
        const std::string j = report_json(outcomes, build_info().target, suite_target(cmd.suite),
                                          note, counts, checks_failed, orphans, code);
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
    if (const std::string why = report_conflict(cmd, all, all_loaded, extras.html_dir);
        !why.empty()) {
        err << "fxkcc verify: " << why << "\n";
        return kExitBadInput;
    }
    orphans = orphans_of(cmd, extras, all_loaded, &error);
    if (!error.empty()) {
        err << "fxkcc verify: " << error << "\n";
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
            !write_file_atomic(cmd.junit_path, junit_xml({}, suite_target(cmd.suite), orphans),
                               &error)) {
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
    print_orphans(orphans, text, style);
    if (const std::string annotations = extras.github ? github_annotations(outcomes, orphans) : "";
        !annotations.empty())
        text << "\n" << annotations;
    const size_t n_orphans = orphans.orphans.size();
    text << fmt::format(
        "\n{} scenarios on {}: {} passed, {} mismatched, {} stale, {} missing, {} errors; {} failed "
        "expectations or invariants{}\n",
        outcomes.size(), on, counts[0], counts[1], counts[2], counts[3], counts[4], checks_failed,
        n_orphans == 0
            ? std::string()
            : fmt::format("; {} orphan golden{} ({})", n_orphans, n_orphans == 1 ? "" : "s",
                          orphans.fail ? "--orphans fail" : "a warning"));
    if (!cmd.junit_path.empty() &&
        !write_file_atomic(cmd.junit_path, junit_xml(outcomes, suite_target(cmd.suite), orphans),
                           &error)) {
        err << "fxkcc verify: cannot write JUnit report: " << error << "\n";
        return kExitCannotTest;
    }
    if (!cmd.pending_dir.empty() && !write_pending(cmd, request.suite, outcomes, loaded, text, err))
        return kExitCannotTest;
    if (!extras.html_dir.empty() &&
        !write_verify_pages(extras.html_dir, cmd.suite, outcomes, loaded, "fxkcc verify on " + on,
                            text, &error)) {
        err << "fxkcc verify: --html: " << error << "\n";
        return kExitCannotTest;
    }
    int code = exit_code_of(outcomes);
    if (orphans.fail && n_orphans > 0 && code == kExitOk) code = kExitMismatch;
    return write_json(outcomes, code) ? code : kExitCannotTest;
}

} // namespace

int verify_command(const VerifyCommand& request, std::ostream& out, std::ostream& err,
                   const Style& style, bool err_terminal) {
    return verify_with(request, VerifyExtras{}, out, err, style, err_terminal);
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
        app.add(
               "--html", &extras_.html_dir,
               "Write DIR/index.html and, for each scenario that did not pass, a page of its golden "
               "against this build's run (docs/viewer.md)")
            .type_name("DIR");
        app.custom(
               "--orphans",
               [this](const std::string& v) {
                   if (v != "warn" && v != "fail")
                       return "expected warn or fail, found '" + v + "'";
                   extras_.orphans_fail = v == "fail";
                   return std::string();
               },
               "Goldens of the target whose scenario no longer exists (renamed or deleted): warn "
               "(default: a line each and a count, the exit code unchanged) or fail (exit 1). "
               "Looked for only when the whole suite is selected: no scenario paths, no -k, no "
               "--shard other than 1/1")
            .type_name("warn|fail");
        app.custom(
               "--format",
               [this](const std::string& v) {
                   if (v != "table" && v != "github")
                       return "expected table or github, found '" + v + "'";
                   extras_.github = v == "github";
                   return std::string();
               },
               "table (default), or github: the table, then a GitHub annotation "
               "(::error file=PATH,line=N,col=M::message) for each failed expectation at its line "
               "in the scenario file, and for each failed golden at line 1")
            .type_name("table|github");
    }
    int run(const Invocation& inv) override {
        cmd_.progress = !no_progress_;
        if (extras_.github && cmd_.json_path == "-") {
            inv.err << "fxkcc verify: --format github and --json - both write to stdout; write the "
                       "JSON to a file\n";
            return kExitBadInput;
        }
        return verify_with(cmd_, extras_, inv.out, inv.err, inv.out_style, inv.err_terminal);
    }

private:
    VerifyCommand cmd_;
    VerifyExtras extras_;
    bool no_progress_ = false;
};

} // namespace

std::unique_ptr<Subcommand> make_verify_subcommand() {
    return std::make_unique<VerifySubcommand>();
}

} // namespace fx::harness
