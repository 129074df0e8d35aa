// `fxkcc desync`: the one-command report of where two runs part (docs/desync.md).
#include <filesystem>
#include <sstream>

#include "desync_bundle.h"
#include "forensics/desync.h"
#include "forensics/sides.h"
#include "forensics/viewer.h"
#include "records/atomic_file.h"
#include "records/paths.h"
#include "run/suite.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

/// The file's bytes, or "" when it cannot be read (a side that wrote nothing).
std::string slurp(const std::string& path) {
    std::string text, unused;
    return read_file(path, &text, &unused) ? text : std::string();
}

/// States of every character at `tick` from trajectory rows.
std::vector<kcc::CharacterState> states_at_tick(const std::vector<TrajectoryRow>& rows,
                                                int64_t tick) {
    std::vector<kcc::CharacterState> out;
    for (const TrajectoryRow& r : rows) {
        if (r.tick == tick) out.push_back(r.state);
    }
    return out;
}

/// Runs one side twice: all ticks for the hashes (and, for the page, the whole trajectory),
/// then to `trace_to` with CSV and trace.
int run_hashes(const Side& side, const std::string& scenario, bool allow_outside,
               const TempFolder& tmp, const std::string& tag, SideRun* out, std::string* error,
               bool with_csv = false) {
    const std::string h = tmp.file(tag + ".hashes");
    std::vector<std::string> args{"run", scenario, "--hashes", h};
    const std::string full = tmp.file(tag + ".full.csv");
    if (with_csv) {
        args.emplace_back("--csv");
        args.push_back(full);
    }
    if (allow_outside) args.emplace_back("--allow-outside");
    const SideResult r = run_side(side, args);
    if (r.exit_code == 2) {
        *error = "side " + tag + " (" + side.label + ") refused the input: " + r.err;
        return kExitBadInput;
    }
    if (r.exit_code != 0 && r.exit_code != 1) {
        *error = "side " + tag + " (" + side.label + ") could not run: it " + side_outcome(r) +
                 (r.err.empty() ? "" : ": " + r.err);
        return kExitCannotTest;
    }
    std::error_code ec;
    if (!fs::exists(h, ec)) {
        *error = "side " + tag + " (" + side.label + ") " + side_outcome(r) +
                 " without writing its hashes" + (r.err.empty() ? "" : ": " + r.err);
        return kExitCannotTest;
    }
    if (!read_hash_file(h, &out->hashes, error)) {
        *error = "side " + tag + " (" + side.label + "): " + *error;
        return kExitCannotTest;
    }
    if (with_csv) out->full_csv = slurp(full);
    return kExitOk;
}

int run_trace(const Side& side, const std::string& scenario, bool allow_outside,
              const TempFolder& tmp, const std::string& tag, int64_t from, int64_t to, SideRun* out,
              std::string* error) {
    const std::string csv = tmp.file(tag + ".csv"), trace = tmp.file(tag + ".trace");
    std::vector<std::string> args{"run",           scenario,
                                  "--csv",         csv,
                                  "--trace",       trace,
                                  "--trace-ticks", std::to_string(from) + ":" + std::to_string(to),
                                  "--stop-after",  std::to_string(to)};
    if (allow_outside) args.emplace_back("--allow-outside");
    const SideResult r = run_side(side, args);
    if (r.exit_code != 0 && r.exit_code != 1) {
        *error = "side " + tag + " (" + side.label + ") could not trace: it " + side_outcome(r) +
                 (r.err.empty() ? "" : ": " + r.err);
        return kExitCannotTest;
    }
    out->csv = slurp(csv);
    out->trace = slurp(trace);
    Side plain = side; // the build's fingerprint, without the run's extra arguments
    plain.extra.clear();
    out->version = run_side(plain, {"--version"}).out;
    return kExitOk;
}

/// A run of side a against a golden hash file (and the golden trajectory CSV beside it, for the
/// states); only the run has a trace, shown for the divergent characters.
int desync_against_golden(const DesyncCommand& cmd, const std::string& html, bool page_wanted,
                          const Scenario& sc, const Side& side, const TempFolder& tmp,
                          std::ostream& out, std::ostream& err) {
    std::string error;
    HashFile golden;
    if (!read_hash_file(cmd.golden, &golden, &error)) {
        err << "fxkcc desync: " << error << "\n";
        return kExitBadInput;
    }
    SideRun run;
    if (int rc = run_hashes(side, cmd.scenario, cmd.allow_outside, tmp, "run", &run, &error,
                            page_wanted);
        rc != kExitOk) {
        err << "fxkcc desync: " << error << "\n";
        return rc;
    }
    if (const std::string why = incomparable_reason(golden.header, run.hashes.header);
        !why.empty()) {
        err << "fxkcc desync: cannot compare with the golden: " << why << "\n";
        return kExitBadInput;
    }
    DesyncReport r = compare_runs(golden, run.hashes);
    const std::string golden_label = cmd.golden + " (golden)";
    std::string golden_csv = cmd.golden;
    if (golden_csv.size() > 7 && golden_csv.compare(golden_csv.size() - 7, 7, ".hashes") == 0) {
        golden_csv.replace(golden_csv.size() - 7, 7, ".csv");
    }
    golden_csv = golden_csv_for(golden_csv, golden.header);
    // Side a of the page and the bundle is the golden: its hashes, its trajectory rows, its
    // provenance (a golden has no trace); side b is the run. The page is written to --html.
    SideRun g;
    g.hashes = golden;
    std::string page;
    const auto make_page = [&](const std::string& text) {
        ViewerSummary summary;
        if (!desync_viewer_html(sc, r, text, {golden_label, g.csv, "", &g.hashes},
                                {side.label, run.full_csv, run.trace, &run.hashes}, &page, &summary,
                                &error)) {
            err << "fxkcc desync: --html: " << error << "\n";
            return false;
        }
        if (html.empty()) return true;
        if (!write_viewer_page(html, page, &error)) {
            err << "fxkcc desync: " << error << "\n";
            return false;
        }
        out << viewer_summary_line(html, summary) << "\n";
        return true;
    };
    if (!r.diverged) {
        const std::string text =
            "no desync: the run matches " + golden_label + " on every recorded tick\n";
        out << text;
        // The page says so (an earlier page at that path showed a desync).
        if (fs::exists(golden_csv)) g.csv = slurp(golden_csv);
        return html.empty() || make_page(text) ? kExitOk : kExitCannotTest;
    }
    const int64_t from = r.every > 1 ? std::max<int64_t>(0, r.tick - r.every + 1) : r.tick;
    if (int rc = run_trace(side, cmd.scenario, cmd.allow_outside, tmp, "run", from, r.tick, &run,
                           &error);
        rc != kExitOk) {
        err << "fxkcc desync: " << error << "\n";
        return rc;
    }
    std::vector<TrajectoryRow> rows_golden, rows_run;
    bool render = false;
    const bool states = fs::exists(golden_csv) &&
                        read_trajectory(golden_csv, &rows_golden, &render, &error) &&
                        parse_trajectory(run.csv, "run.csv", &rows_run, &render, &error);
    if (states)
        add_state_differences(&r, states_at_tick(rows_golden, r.tick),
                              states_at_tick(rows_run, r.tick));
    std::string text = "scenario " + sc.name + " (" + cmd.scenario + ")\n" +
                       format_desync(r, golden_label, side.label);
    if (!states) {
        text += "(no golden trajectory CSV at " + golden_csv + ": fields not compared)\n";
    } else if (r.characters.empty()) {
        text += "(no character's state differs at tick " + std::to_string(r.tick) +
                " in the trajectories: only hashes the CSV does not hold differ)\n";
    }
    // The run's own trace of the divergent tick, for the characters that differ (a golden has
    // none).
    text +=
        "solver trace of the run, tick " + std::to_string(r.tick) + " (the golden has no trace):\n";
    std::istringstream lines(run.trace);
    for (std::string line; std::getline(lines, line);) {
        for (const EntityRef& e : r.entities) {
            const std::string head =
                "t=" + std::to_string(r.tick) + " c=" + std::to_string(e.id) + " ";
            if (e.kind == EntityKind::kCharacter && line.rfind(head, 0) == 0)
                text += "    " + line + "\n";
        }
    }
    out << text;
    if (states) g.csv = slurp(golden_csv);
    if (page_wanted && !make_page(text)) return kExitCannotTest;
    if (!cmd.bundle.empty()) {
        g.trace = "(a golden has no trace)\n";
        const Provenance& pv = golden.header.provenance;
        g.version = "golden: " + cmd.golden + "\ntarget:   " + pv.target +
                    "\ncompiler: " + pv.compiler + "\nflags:    " + pv.flags +
                    "\nwide:     " + pv.wide + "\nbehaviour " +
                    std::to_string(golden.header.behaviour) + "\n";
        DesyncCommand named = cmd;
        named.a = cmd.golden + " (golden)";
        named.a_args.clear();
        named.b = side.label;
        named.b_args = cmd.a_args;
        if (!write_bundle(cmd.bundle, named, sc, r, text, g, run, page, &error)) {
            err << "fxkcc desync: " << error << "\n";
            return kExitCannotTest;
        }
        out << "bundle: " << cmd.bundle
            << "/ (report, the golden's and the run's states, input up to tick " << r.tick
            << ", the golden's provenance and the run's build, the run's trace, both hash files)\n";
    }
    return kExitMismatch;
}

} // namespace

/// desync_command with `--html F`: the viewer's page of both runs written to F ("": none).
static int desync_with_page(const DesyncCommand& cmd, const std::string& html, std::ostream& out,
                            std::ostream& err) {
    std::string error;
    if (!html.empty() && cmd.scenario.empty()) {
        err << "fxkcc desync: --html: the page needs a scenario to run (two hash files hold no "
               "states)\n";
        return kExitBadInput;
    }
    if (!html.empty()) {
        std::vector<std::string> inputs{cmd.scenario};
        if (!cmd.golden.empty()) inputs.push_back(cmd.golden);
        if (const std::string conflict = output_conflict({{"--html", html}}, inputs);
            !conflict.empty()) {
            err << "fxkcc desync: " << conflict << "\n";
            return kExitBadInput;
        }
        // The bundle's folder is replaced whole once it is complete: a page inside it would be
        // written, then refused with it.
        if (!cmd.bundle.empty() &&
            folder_within(fs::absolute(fs::path(html)).parent_path(), cmd.bundle)) {
            err << "fxkcc desync: --html '" << html << "' is inside the --bundle folder '"
                << cmd.bundle << "', which desync writes whole\n";
            return kExitBadInput;
        }
    }
    bool page_wanted = !html.empty() || !cmd.bundle.empty();
    // Two hash files: where they part (no states or traces without a scenario to run).
    if (cmd.scenario.empty()) {
        HashFile a, b;
        if (!read_hash_file(cmd.hashes_a, &a, &error) ||
            !read_hash_file(cmd.hashes_b, &b, &error)) {
            err << "fxkcc desync: " << error << "\n";
            return kExitBadInput;
        }
        if (const std::string why = incomparable_reason(a.header, b.header); !why.empty()) {
            err << "fxkcc desync: cannot compare: " << why << "\n";
            return kExitBadInput;
        }
        const DesyncReport r = compare_runs(a, b);
        out << format_desync(r, cmd.hashes_a, cmd.hashes_b);
        return r.diverged ? kExitMismatch : kExitOk;
    }
    Scenario sc;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    // A page holds both runs' rows in memory: past kMaxPageRows --html is refused, and a bundle
    // gets a report.html that says why it has no page.
    const std::string too_long = page_rows_refusal(sc);
    if (!html.empty() && !too_long.empty()) {
        err << "fxkcc desync: --html: " << too_long << "\n";
        return kExitBadInput;
    }
    if (!too_long.empty()) page_wanted = false;
    if (!cmd.bundle.empty()) {
        // The bundle replaces its folder: only ever an earlier bundle or nothing.
        if (std::string why = bundle_refusal(cmd.bundle); !why.empty()) {
            err << "fxkcc desync: --bundle: " << why << "\n";
            return kExitBadInput;
        }
        if (std::string why = output_folder_conflict({"--bundle", cmd.bundle}, "golden");
            !why.empty()) {
            err << "fxkcc desync: " << why << "\n";
            return kExitBadInput;
        }
    }
    Side a, b;
    if (!make_side(cmd.a, cmd.a_args, &a, &error) || !make_side(cmd.b, cmd.b_args, &b, &error)) {
        err << "fxkcc desync: " << error << "\n";
        return kExitBadInput;
    }
    a.timeout_ms = b.timeout_ms = side_limit_ms(cmd.side_timeout, sc);
    TempFolder tmp;
    if (!tmp.ok()) {
        err << "fxkcc desync: cannot create a temporary folder\n";
        return kExitCannotTest;
    }
    if (!cmd.golden.empty())
        return desync_against_golden(cmd, html, page_wanted, sc, a, tmp, out, err);
    SideRun ra, rb;
    if (int rc = run_hashes(a, cmd.scenario, cmd.allow_outside, tmp, "a", &ra, &error, page_wanted);
        rc != kExitOk) {
        err << "fxkcc desync: " << error << "\n";
        return rc;
    }
    if (int rc = run_hashes(b, cmd.scenario, cmd.allow_outside, tmp, "b", &rb, &error, page_wanted);
        rc != kExitOk) {
        err << "fxkcc desync: " << error << "\n";
        return rc;
    }
    DesyncReport r = compare_runs(ra.hashes, rb.hashes);
    // The page of both runs, written to --html and put into the bundle.
    std::string page;
    auto make_page = [&](const std::string& text) {
        ViewerSummary summary;
        if (!desync_viewer_html(sc, r, text, {a.label, ra.full_csv, ra.trace, &ra.hashes},
                                {b.label, rb.full_csv, rb.trace, &rb.hashes}, &page, &summary,
                                &error)) {
            err << "fxkcc desync: --html: " << error << "\n";
            return false;
        }
        if (!html.empty()) {
            if (!write_viewer_page(html, page, &error)) {
                err << "fxkcc desync: " << error << "\n";
                return false;
            }
            out << viewer_summary_line(html, summary) << "\n";
        }
        return true;
    };
    if (!r.diverged) {
        const std::string text = "no desync: " + std::to_string(ra.hashes.ticks.size()) +
                                 " recorded ticks identical on both sides\na = " + a.label +
                                 "\nb = " + b.label + "\n";
        out << text;
        if (!html.empty() && !make_page(text)) return kExitCannotTest;
        return kExitOk;
    }
    // The divergent tick and the next, traced on both sides.
    r.trace_from = r.every > 1 ? std::max<int64_t>(0, r.tick - r.every + 1) : r.tick;
    r.trace_to = std::min(r.tick + 1, sc.ticks - 1);
    for (auto [side, run, tag] : {std::tuple{&a, &ra, "a"}, std::tuple{&b, &rb, "b"}}) {
        if (int rc = run_trace(*side, cmd.scenario, cmd.allow_outside, tmp, tag, r.trace_from,
                               r.trace_to, run, &error);
            rc != kExitOk) {
            err << "fxkcc desync: " << error << "\n";
            return rc;
        }
    }
    std::vector<TrajectoryRow> rows_a, rows_b;
    bool render = false;
    if (!parse_trajectory(ra.csv, "a.csv", &rows_a, &render, &error) ||
        !parse_trajectory(rb.csv, "b.csv", &rows_b, &render, &error)) {
        err << "fxkcc desync: " << error << "\n";
        return kExitCannotTest;
    }
    add_state_differences(&r, states_at_tick(rows_a, r.tick), states_at_tick(rows_b, r.tick));
    r.trace = first_trace_difference(ra.trace, rb.trace, static_cast<size_t>(cmd.context));
    const std::string text =
        "scenario " + sc.name + " (" + cmd.scenario + ")\n" + format_desync(r, a.label, b.label);
    out << text;
    if (page_wanted && !make_page(text)) return kExitCannotTest;
    if (!cmd.bundle.empty()) {
        if (!write_bundle(cmd.bundle, cmd, sc, r, text, ra, rb, page, &error)) {
            err << "fxkcc desync: " << error << "\n";
            return kExitCannotTest;
        }
        out << "bundle: " << cmd.bundle << "/ (report, both states, input up to tick " << r.tick
            << ", both build fingerprints, traces, hashes)\n";
    }
    return kExitMismatch;
}

int desync_command(const DesyncCommand& cmd, std::ostream& out, std::ostream& err) {
    return desync_with_page(cmd, "", out, err);
}

namespace {

class DesyncSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add(
               "inputs", &inputs_,
               "A scenario (run by both sides), a scenario and a golden hash file, or two hash files")
            .required()
            .expected(1, 2);
        app.add("--a", &cmd_.a, "Command that runs fxkcc for side a (default: this binary)");
        app.add(
            "--b", &cmd_.b,
            "Command that runs fxkcc for side b, e.g. 'qemu-aarch64 build-aarch64-linux/cli/fxkcc'");
        app.add("--a-args", &cmd_.a_args,
                "Extra run arguments for side a (e.g. --inject-fault 57:1:vx:3)");
        app.add("--b-args", &cmd_.b_args, "Extra run arguments for side b");
        app.add("--bundle", &cmd_.bundle,
                "Write a bug-report bundle into this folder (the page of --html included)");
        app.add("--html", &html_,
                "Write the viewer's page of both runs to this file: one self-contained HTML file "
                "(docs/viewer.md)");
        app.add("--context", &cmd_.context, "Trace lines shown before the first difference")
            .show_default();
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let the scenario reference files outside its tree");
        add_side_timeout(app, &cmd_.side_timeout);
    }
    int run(const Invocation& inv) override {
        assign_desync_inputs(inputs_, &cmd_);
        default_desync_sides(inv.self, &cmd_);
        return desync_with_page(cmd_, html_, inv.out, inv.err);
    }

private:
    DesyncCommand cmd_;
    std::string html_;
    std::vector<std::string> inputs_;
};

} // namespace

std::unique_ptr<Subcommand> make_desync_subcommand() {
    return std::make_unique<DesyncSubcommand>();
}

} // namespace fx::harness
