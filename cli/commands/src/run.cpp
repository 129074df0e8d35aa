// `fxkcc run`: one scenario, its summary and checks, and the outputs asked for (hashes,
// trajectory CSV, solver trace, feel metrics), each written atomically.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include "forensics/viewer.h"
#include "records/atomic_file.h"
#include "records/checksums.h"
#include "records/trace_writer.h"
#include "run/checks.h"
#include "run/fault.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

// Streams a run to the outputs `run` asked for.
class RunOutputs final : public RunSink {
public:
    HashFileWriter* hashes = nullptr;
    std::ostream* hashes_stream = nullptr; // "-": text to stdout
    int64_t run_ticks = 0, every = 1;
    TrajectoryWriter* csv = nullptr;
    TickHasher hasher;
    TickHashes current;
    uint64_t last_world = 0;
    int64_t ticks = 0;
    HashFile stdout_file; // header only, for stdout formatting
    bool output_failed = false; // a write to an output file failed: exit 125, not "bad input"
    const std::vector<uint64_t>* checksums = nullptr; // --checksums: what every tick must give
    int64_t checksum_mismatch = -1; // the first tick that does not
    uint64_t checksum_actual = 0;
    std::vector<TrajectoryRow>* rows = nullptr; // --html: every row, for the page

    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        hasher.hash_into(tick, chars, platforms, &current);
        last_world = current.world;
        ++ticks;
        if (checksums != nullptr && checksum_mismatch < 0 &&
            (tick >= static_cast<int64_t>(checksums->size()) ||
             (*checksums)[static_cast<size_t>(tick)] != current.world)) {
            checksum_mismatch = tick;
            checksum_actual = current.world;
        }
        const bool recorded = recorded_tick(tick, run_ticks, every); // the scenario's golden_every
        if (recorded && hashes != nullptr && !hashes->write(current, error)) {
            output_failed = true;
            return false;
        }
        if (recorded && hashes_stream != nullptr) {
            *hashes_stream << current.tick << ' ' << hex16(current.world);
            for (uint64_t h : current.entities)
                *hashes_stream << ' ' << entity_cell(h);
            *hashes_stream << '\n';
        }
        if (rows != nullptr) {
            for (size_t i = 0; i < chars.size(); ++i) {
                TrajectoryRow r;
                r.tick = tick;
                r.state = chars[i];
                rows->push_back(r);
            }
        }
        if (csv != nullptr) {
            for (size_t i = 0; i < chars.size(); ++i) {
                if (!csv->write(tick, chars[i], render.empty() ? nullptr : &render[i], error)) {
                    output_failed = true;
                    return false;
                }
            }
        }
        return true;
    }
};

/// Folders a command creates for its outputs, removed again (deepest first, each only if still
/// empty) unless keep() is called: a run that fails leaves nothing behind.
class CreatedFolders {
public:
    CreatedFolders() = default;
    CreatedFolders(const CreatedFolders&) = delete;
    CreatedFolders& operator=(const CreatedFolders&) = delete;
    ~CreatedFolders() {
        std::error_code ec;
        for (const fs::path& p : made_)
            fs::remove(p, ec);
    }
    /// create_directories, remembering the folders that did not exist.
    void create(const fs::path& dir, std::error_code& ec) {
        std::vector<fs::path> missing;
        for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
            missing.push_back(p);
            if (p == p.parent_path()) break;
        }
        fs::create_directories(dir, ec);
        made_.insert(made_.end(), missing.begin(), missing.end()); // deepest first
    }
    void keep() { made_.clear(); }

private:
    std::vector<fs::path> made_;
};

/// The viewer's page of one run (docs/viewer.md): its rows, its failed checks at their ticks and
/// a solver trace: the one written with --trace (from a file), else the first failed check's tick
/// traced by running the scenario again up to it.
/// With --checksums, `checksums` is the verdict line and `checksum_tick` the first tick whose
/// checksum differs (-1: none, or the counts differ): marked, and the page opens there.
bool run_page(const RunCommand& cmd, const Scenario& sc, const CheckReport& report,
              const RunOptions& opts, std::vector<TrajectoryRow> rows, const std::string& checksums,
              int64_t checksum_tick, std::string* html, ViewerSummary* summary,
              std::string* error) {
    ViewerPage page;
    page.title = "fxkcc run: " + sc.name;
    page.scenario = &sc;
    if (cmd.stop_after >= 0) page.ticks = cmd.stop_after + 1; // the ticks it ran
    page.marks = viewer_marks(report);
    page.report = checksums;
    if (checksum_tick >= 0) {
        ViewerMark m;
        m.tick = checksum_tick;
        m.kind = "checksum";
        m.message = checksums;
        page.marks.insert(page.marks.begin(), m);
        std::stable_sort(page.marks.begin(), page.marks.end(),
                         [](const ViewerMark& a, const ViewerMark& b) { return a.tick < b.tick; });
    }
    page.runs.resize(1);
    ViewerRun& run = page.runs.front();
    run.label = "run of " + cmd.scenario + " (this build" +
                (cmd.fault.empty() ? std::string() : ", --inject-fault " + cmd.fault) + ")";
    run.rows = std::move(rows);
    std::string unused;
    if (!cmd.trace_path.empty() && cmd.trace_path != "-" &&
        read_file(cmd.trace_path, &run.trace, &unused)) {
        run.trace_from = cmd.trace_from;
        run.trace_to = cmd.trace_to < 0 ? sc.ticks - 1 : cmd.trace_to;
    } else {
        int64_t first = -1;
        for (const CheckFailure& f : report.failures) {
            if (f.tick >= 0 && (first < 0 || f.tick < first)) first = f.tick;
        }
        if (first >= 0) {
            std::ostringstream text;
            TraceWriter trace(text);
            RunOptions again = opts;
            again.trace = &trace;
            again.trace_from = again.trace_to = first;
            again.stop_after = first;
            class Nothing final : public RunSink {
                bool on_tick(int64_t, std::span<const kcc::CharacterState>,
                             std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                             std::string*) override {
                    return true;
                }
            } nothing;
            if (run_scenario(sc, nothing, again, error)) {
                run.trace = text.str();
                run.trace_from = run.trace_to = first;
            }
        }
    }
    return viewer_html(page, html, summary, error);
}

/// run_command with `--html F`: the viewer's page of the run written to F ("": none).
int run_with_page(const RunCommand& cmd, const std::string& html, std::ostream& out,
                  std::ostream& err, const Style& out_style, const Style& err_style);

} // namespace

int run_command(const RunCommand& cmd, std::ostream& out, std::ostream& err, const Style& out_style,
                const Style& err_style) {
    return run_with_page(cmd, "", out, err, out_style, err_style);
}

namespace {

int run_with_page(const RunCommand& cmd, const std::string& html, std::ostream& out,
                  std::ostream& err, const Style& out_style, const Style& err_style) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    if (html == "-") {
        err << "fxkcc run: --html: the page is written to a file, not to stdout\n";
        return kExitBadInput;
    }
    if (const std::string why =
            html.empty() ? ""
                         : page_rows_refusal(sc, cmd.stop_after >= 0 ? cmd.stop_after + 1 : -1);
        !why.empty()) {
        err << "fxkcc run: --html: " << why << ": shorten the run (--stop-after)\n";
        return kExitBadInput;
    }
    Fault fault;
    if (!cmd.fault.empty() && !parse_fault(cmd.fault, &fault, &error)) {
        err << "fxkcc run: --inject-fault: " << error << "\n";
        return kExitBadInput;
    }
    const int64_t run_ticks =
        cmd.stop_after >= 0 && cmd.stop_after < sc.ticks ? cmd.stop_after + 1 : sc.ticks;
    if (!cmd.fault.empty() && fault.tick >= run_ticks) { // it would never happen: say so
        err << "fxkcc run: --inject-fault: tick " << fault.tick << " is past the run's last tick "
            << run_ticks - 1 << " (" << sc.name << " runs ticks 0 to " << run_ticks - 1 << ")\n";
        return kExitBadInput;
    }
    std::vector<uint64_t> checksums;
    RunOutputs sink;
    if (!cmd.checksums_path.empty()) sink.checksums = &checksums;
    sink.run_ticks = run_ticks;
    sink.every = sc.golden_every;
    sink.hasher = TickHasher(character_ids(sc)); // a cell per character, '-' while absent
    // Declared before the writers, so destroyed after them: the folders are empty by then.
    CreatedFolders created;
    HashFileWriter hashes;
    TrajectoryWriter csv;
    AtomicFile trace_file;
    std::unique_ptr<TraceWriter> trace;
    HashFileHeader header = header_for(sc);
    header.ticks = run_ticks; // --stop-after: the hash file covers the ticks run
    // Output folders are created on demand, like the goldens' folders.
    std::string metrics_format = cmd.metrics_format;
    if (metrics_format.empty())
        metrics_format = fs::path(cmd.metrics_path).extension() == ".json" ? "json" : "csv";
    if (metrics_format != "csv" && metrics_format != "json") {
        err << "fxkcc run: --metrics-format: expected csv or json, found '" << metrics_format
            << "'\n";
        return kExitBadInput;
    }
    std::vector<OutputPath> named;
    for (const OutputPath& o :
         {OutputPath{"--hashes", cmd.hashes_path}, OutputPath{"--csv", cmd.csv_path},
          OutputPath{"--trace", cmd.trace_path}, OutputPath{"--metrics", cmd.metrics_path},
          OutputPath{"--html", html}}) {
        if (!o.path.empty()) named.push_back(o);
    }
    // The recording's checksum file is an input too (it would be replaced by an output on it).
    std::vector<std::string> inputs = sc.inputs;
    if (!cmd.checksums_path.empty()) inputs.push_back(cmd.checksums_path);
    if (const std::string conflict = output_conflict(named, inputs); !conflict.empty()) {
        err << "fxkcc run: " << conflict << "\n";
        return kExitBadInput;
    }
    if (!cmd.checksums_path.empty() &&
        !read_checksum_file(cmd.checksums_path, &checksums, &error)) {
        err << "fxkcc run: --checksums: " << error << "\n";
        return kExitBadInput;
    }
    const std::string* outputs[] = {&cmd.hashes_path, &cmd.csv_path, &cmd.trace_path,
                                    &cmd.metrics_path, &html};
    for (const std::string* path : outputs) {
        std::error_code ec;
        if (!path->empty() && *path != "-" && fs::is_directory(*path, ec)) {
            err << "fxkcc run: cannot write '" << *path
                << "': " << std::make_error_code(std::errc::is_a_directory).message() << "\n";
            return kExitCannotTest;
        }
    }
    for (const std::string* path : outputs) {
        if (path->empty() || *path == "-") continue;
        const fs::path parent = fs::path(*path).parent_path();
        std::error_code ec;
        if (!parent.empty()) created.create(parent, ec);
        if (ec) {
            err << "fxkcc run: cannot create folder '" << parent.generic_string()
                << "': " << ec.message() << "\n";
            return kExitCannotTest;
        }
    }
    if (cmd.hashes_path == "-") {
        HashFile h;
        h.header = header;
        const std::string text = hash_file_text(h); // header and trailer of an empty run
        out << text.substr(0, text.rfind("end "));
        sink.hashes_stream = &out;
    } else if (!cmd.hashes_path.empty()) {
        if (!hashes.open(cmd.hashes_path, header, &error)) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
        sink.hashes = &hashes;
    }
    if (!cmd.csv_path.empty()) {
        if (cmd.csv_path == "-" ? !csv.open(out, !sc.frames.empty(), &error)
                                : !csv.open(cmd.csv_path, !sc.frames.empty(), &error)) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
        sink.csv = &csv;
    }
    RunOptions opts;
    if (!cmd.fault.empty()) opts.fault = &fault;
    opts.stop_after = cmd.stop_after;
    if (!cmd.trace_path.empty()) {
        std::ostream* trace_out = &out;
        if (cmd.trace_path != "-") {
            if (!trace_file.open(cmd.trace_path, &error)) {
                err << "fxkcc run: " << error << "\n";
                return kExitCannotTest;
            }
            trace_out = &trace_file.stream();
        }
        trace = std::make_unique<TraceWriter>(*trace_out);
        opts.trace = trace.get();
        opts.trace_from = cmd.trace_from;
        opts.trace_to = cmd.trace_to < 0 ? sc.ticks - 1 : cmd.trace_to;
    }
    std::vector<TrajectoryRow> page_rows;
    if (!html.empty()) sink.rows = &page_rows;
    CheckReport report;
    if (!run_checked(sc, &sink, opts, &report, &error)) {
        if (sink.output_failed) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
        err << "fxkcc run: " << sc.path << ": " << error << "\n";
        return kExitBadInput;
    }
    if (sink.hashes_stream != nullptr) out << "end " << sink.ticks << "\n";
    if (sink.hashes != nullptr && !hashes.commit(&error)) {
        err << "fxkcc run: " << error << "\n";
        return kExitCannotTest;
    }
    if (sink.csv != nullptr && !csv.commit(&error)) {
        err << "fxkcc run: " << error << "\n";
        return kExitCannotTest;
    }
    if (trace_file.is_open() && !trace_file.commit(&error)) {
        err << "fxkcc run: " << error << "\n";
        return kExitCannotTest;
    }
    if (!cmd.metrics_path.empty()) {
        const std::string text =
            metrics_format == "json" ? metrics_json(sc, report) : metrics_csv(report);
        if (cmd.metrics_path == "-") {
            out << text;
        } else if (!write_file_atomic(cmd.metrics_path, text, &error)) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
    }
    // A recording's checksums: the replay gives the game's world hash at every tick. The
    // verdict line, in a style (the page's plain, the terminal's coloured); "" without them.
    const auto recorded = static_cast<int64_t>(checksums.size());
    const bool checksum_differs = sink.checksum_mismatch >= 0 && sink.checksum_mismatch < recorded;
    const bool checksums_ok =
        sink.checksums == nullptr || (sink.checksum_mismatch < 0 && sink.ticks == recorded);
    const int64_t checksum_tick = checksum_differs ? sink.checksum_mismatch : -1;
    const auto checksum_verdict = [&](const Style& style) -> std::string {
        if (sink.checksums == nullptr) return {};
        if (checksum_differs)
            return fmt::format(
                "checksums: {}: tick {}: this run {}, recorded {} ({})", style.bad("differ"),
                sink.checksum_mismatch, hex16(sink.checksum_actual),
                hex16(checksums[static_cast<size_t>(sink.checksum_mismatch)]),
                sink.checksum_mismatch == 0
                    ? std::string("no tick equal")
                    : fmt::format("ticks 0 to {} equal", sink.checksum_mismatch - 1));
        if (!checksums_ok)
            return fmt::format("checksums: {}: this run has {} ticks, '{}' {}", style.bad("differ"),
                               sink.ticks, cmd.checksums_path, recorded);
        return fmt::format("checksums: {} ticks, every one {} '{}'", recorded,
                           style.good("equal to"), cmd.checksums_path);
    };
    std::string page_line;
    if (!html.empty()) {
        std::string page;
        ViewerSummary page_summary;
        RunOptions plain = opts; // the page's trace: a run of its own, without the file's writer
        plain.trace = nullptr;
        if (!run_page(cmd, sc, report, plain, std::move(page_rows), checksum_verdict(Style{}),
                      checksum_tick, &page, &page_summary, &error)) {
            err << "fxkcc run: --html: " << error << "\n";
            return kExitCannotTest;
        }
        if (!write_file_atomic(html, page, &error)) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
        page_line = viewer_summary_line(html, page_summary) + "\n";
    }
    created.keep();
    // The summary goes to stderr when stdout carries data.
    const bool data_on_stdout = cmd.hashes_path == "-" || cmd.csv_path == "-" ||
                                cmd.trace_path == "-" || cmd.metrics_path == "-";
    std::ostream& summary = data_on_stdout ? err : out;
    const Style& style = data_on_stdout ? err_style : out_style;
    summary << fmt::format("{}: {} ticks, {} characters, final hash {}\n", style.strong(sc.name),
                           sink.ticks, character_ids(sc).size(), hex16(sink.last_world));
    const int failed_expectations = report.expectation_failures(),
              failed_invariants = report.invariant_failures();
    const std::string failed = fmt::format("{} failed", failed_expectations);
    const std::string invariants = failed_invariants == 0
                                       ? std::string("hold")
                                       : fmt::format("{} violated", failed_invariants);
    summary << fmt::format("checks: {} expectations, {}; invariants {}\n", report.expectations,
                           failed_expectations == 0 ? failed : style.bad(failed),
                           failed_invariants == 0 ? style.good(invariants) : style.bad(invariants));
    summary << format_failures(report, "  ");
    summary << "metrics:\n" << metrics_table(report);
    summary << page_line;
    if (sink.checksums != nullptr) summary << checksum_verdict(style) << "\n";
    return report.passed() && checksums_ok ? kExitOk : kExitMismatch;
}

} // namespace

namespace {

class RunSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("scenario", &cmd_.scenario, "Scenario file").required();
        app.add("--hashes", &cmd_.hashes_path, "Write per-tick hashes to this file ('-': stdout)");
        app.add("--csv", &cmd_.csv_path, "Write the trajectory CSV to this file ('-': stdout)");
        app.add("--trace", &cmd_.trace_path, "Write the solver trace to this file ('-': stdout)");
        app.add("--trace-ticks", &trace_ticks_,
                "Tick range of the trace, A:B inclusive (default: all)");
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let the scenario reference files outside its tree");
        app.add("--metrics", &cmd_.metrics_path,
                "Write the feel metrics to this file as CSV or JSON ('-': stdout)");
        app.add("--metrics-format", &cmd_.metrics_format,
                "csv or json (default: from the extension, .json: JSON)");
        app.add(
            "--inject-fault", &cmd_.fault,
            "TICK:CHARACTER:FIELD:BITS: flip the low BITS bits of FIELD of CHARACTER after TICK (tests of desync)");
        app.add(
            "--checksums", &cmd_.checksums_path,
            "A recording's checksum file: every tick's world hash must equal it (exit 1 at the first that does not)");
        app.add("--stop-after", &cmd_.stop_after, "Run ticks 0..N only")
            .range(0, std::numeric_limits<int64_t>::max());
        app.add("--html", &html_,
                "Write the viewer's page of the run to this file: one self-contained HTML file, "
                "failed checks marked at their ticks (docs/viewer.md)");
    }
    int run(const Invocation& inv) override {
        if (!trace_ticks_.empty()) {
            std::string error;
            if (!parse_tick_range(trace_ticks_, &cmd_.trace_from, &cmd_.trace_to, &error)) {
                inv.err << "fxkcc run: --trace-ticks: " << error << "\n";
                return kExitBadInput;
            }
            if (cmd_.trace_path.empty()) cmd_.trace_path = "-";
        }
        return run_with_page(cmd_, html_, inv.out, inv.err, inv.out_style, inv.err_style);
    }

private:
    RunCommand cmd_;
    std::string html_;
    std::string trace_ticks_;
};

} // namespace

std::unique_ptr<Subcommand> make_run_subcommand() {
    return std::make_unique<RunSubcommand>();
}

} // namespace fx::harness
