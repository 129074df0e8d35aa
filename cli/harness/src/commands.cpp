// run, diff, list and validate.
#include "harness/commands.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "harness/atomic_file.h"
#include "harness/checks.h"
#include "harness/trace_writer.h"
#include "suite_common.h"

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

    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        hasher.hash_into(tick, chars, platforms, &current);
        last_world = current.world;
        ++ticks;
        const bool recorded = recorded_tick(tick, run_ticks, every); // the scenario's golden_every
        if (recorded && hashes != nullptr && !hashes->write(current, error)) return false;
        if (recorded && hashes_stream != nullptr) {
            *hashes_stream << current.tick << ' ' << hex16(current.world);
            for (uint64_t h : current.entities) *hashes_stream << ' ' << hex16(h);
            *hashes_stream << '\n';
        }
        if (csv != nullptr) {
            for (size_t i = 0; i < chars.size(); ++i) {
                if (!csv->write(tick, chars[i], render.empty() ? nullptr : &render[i], error)) return false;
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
        for (const fs::path& p : made_) fs::remove(p, ec);
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

enum class FileKind { kHashes, kTrajectory, kScenario, kUnknown };

FileKind sniff(const std::string& path) {
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".yaml" || ext == ".yml") return FileKind::kScenario;
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    if (first.rfind("fxkcc-hashes", 0) == 0) return FileKind::kHashes;
    if (first.rfind("# fxkcc-trajectory", 0) == 0) return FileKind::kTrajectory;
    return FileKind::kUnknown;
}

/// Why `path` cannot be read ("cannot read 'p': No such file or directory"), or "" if it can.
std::string unreadable(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return "cannot read '" + path + "': " + std::make_error_code(std::errc::is_a_directory).message();
    }
    errno = 0;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        return "cannot read '" + path + "': " + std::error_code(errno != 0 ? errno : EIO, std::generic_category()).message();
    }
    std::fclose(f);
    return {};
}

} // namespace

int run_command(const RunCommand& cmd, std::ostream& out, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    Fault fault;
    if (!cmd.fault.empty() && !parse_fault(cmd.fault, &fault, &error)) {
        err << "fxkcc run: --inject-fault: " << error << "\n";
        return kExitBadInput;
    }
    const int64_t run_ticks = cmd.stop_after >= 0 && cmd.stop_after < sc.ticks ? cmd.stop_after + 1 : sc.ticks;
    RunOutputs sink;
    sink.run_ticks = run_ticks;
    sink.every = sc.golden_every;
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
    if (metrics_format.empty()) metrics_format = fs::path(cmd.metrics_path).extension() == ".json" ? "json" : "csv";
    if (metrics_format != "csv" && metrics_format != "json") {
        err << "fxkcc run: --metrics-format: expected csv or json, found '" << metrics_format << "'\n";
        return kExitBadInput;
    }
    const std::string* outputs[] = {&cmd.hashes_path, &cmd.csv_path, &cmd.trace_path, &cmd.metrics_path};
    for (const std::string* path : outputs) {
        std::error_code ec;
        if (!path->empty() && *path != "-" && fs::is_directory(*path, ec)) {
            err << "fxkcc run: cannot write '" << *path << "': " << std::make_error_code(std::errc::is_a_directory).message()
                << "\n";
            return kExitCannotTest;
        }
    }
    for (const std::string* path : outputs) {
        if (path->empty() || *path == "-") continue;
        const fs::path parent = fs::path(*path).parent_path();
        std::error_code ec;
        if (!parent.empty()) created.create(parent, ec);
        if (ec) {
            err << "fxkcc run: cannot create folder '" << parent.generic_string() << "': " << ec.message() << "\n";
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
                err << "fxkcc run: cannot write trace file '" << cmd.trace_path << "': " << error << "\n";
                return kExitCannotTest;
            }
            trace_out = &trace_file.stream();
        }
        trace = std::make_unique<TraceWriter>(*trace_out);
        opts.trace = trace.get();
        opts.trace_from = cmd.trace_from;
        opts.trace_to = cmd.trace_to < 0 ? sc.ticks - 1 : cmd.trace_to;
    }
    CheckReport report;
    if (!run_checked(sc, &sink, opts, &report, &error)) {
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
        const std::string text = metrics_format == "json" ? metrics_json(sc, report) : metrics_csv(report);
        if (cmd.metrics_path == "-") {
            out << text;
        } else if (!write_file_atomic(cmd.metrics_path, text, &error)) {
            err << "fxkcc run: " << error << "\n";
            return kExitCannotTest;
        }
    }
    created.keep();
    // The summary goes to stderr when stdout carries data.
    const bool data_on_stdout =
        cmd.hashes_path == "-" || cmd.csv_path == "-" || cmd.trace_path == "-" || cmd.metrics_path == "-";
    std::ostream& summary = data_on_stdout ? err : out;
    summary << sc.name << ": " << sink.ticks << " ticks, " << sc.characters.size() << " characters, final hash "
            << hex16(sink.last_world) << "\n";
    const int failed_expectations = report.expectation_failures(), failed_invariants = report.invariant_failures();
    summary << "checks: " << report.expectations << " expectations, " << failed_expectations << " failed; invariants "
            << (failed_invariants == 0 ? std::string("hold") : std::to_string(failed_invariants) + " violated") << "\n";
    summary << format_failures(report, "  ");
    summary << "metrics:\n" << metrics_table(report);
    return report.passed() ? kExitOk : kExitMismatch;
}

int diff_command(const DiffCommand& cmd, std::ostream& out, std::ostream& err) {
    const FileKind ka = sniff(cmd.a), kb = sniff(cmd.b);
    std::string error;
    if (ka == FileKind::kTrajectory && kb == FileKind::kTrajectory) {
        std::vector<TrajectoryRow> a, b;
        bool ra = false, rb = false;
        if (!read_trajectory(cmd.a, &a, &ra, &error) || !read_trajectory(cmd.b, &b, &rb, &error)) {
            err << "fxkcc diff: " << error << "\n";
            return kExitBadInput;
        }
        const CsvDivergence d = first_divergence(a, b);
        if (!d.diverged) {
            out << "identical: " << a.size() << " rows\n";
            return kExitOk;
        }
        out << "first divergent tick " << d.tick << ", character " << d.character;
        if (!d.reason.empty()) out << ": " << d.reason;
        out << "\n" << format_field_diffs({EntityKind::kCharacter, d.character}, d.fields);
        return kExitMismatch;
    }
    HashFile a, b;
    Scenario sc;
    bool have_scenario = false;
    auto load_side = [&](const std::string& path, FileKind kind, HashFile* hf) -> int {
        if (kind == FileKind::kHashes) return read_hash_file(path, hf, &error) ? kExitOk : kExitBadInput;
        if (kind == FileKind::kScenario) {
            if (!load_single_scenario(path, cmd.allow_outside, &sc, &error)) return kExitBadInput;
            have_scenario = true;
            return run_to_hash_file(sc, hf, &error) ? kExitOk : kExitBadInput;
        }
        error = unreadable(path);
        if (error.empty()) {
            error = "'" + path + "' is neither a scenario (.yaml), an fxkcc hash file nor an fxkcc trajectory CSV";
        }
        return kExitBadInput;
    };
    if (int rc = load_side(cmd.a, ka, &a); rc != kExitOk) {
        err << "fxkcc diff: " << error << "\n";
        return rc;
    }
    if (int rc = load_side(cmd.b, kb, &b); rc != kExitOk) {
        err << "fxkcc diff: " << error << "\n";
        return rc;
    }
    const HashDivergence d = first_divergence(a, b);
    if (!d.diverged) {
        out << "identical: " << a.ticks.size() << " ticks\n";
        return kExitOk;
    }
    if (have_scenario) {
        // Field-level detail: the golden's trajectory beside a hash file, when there is one.
        const std::string other = ka == FileKind::kScenario ? cmd.b : cmd.a;
        const std::string csv = (fs::path(other).parent_path() / (fs::path(other).stem().string() + ".csv")).generic_string();
        out << explain_divergence(sc, d, csv);
    } else {
        out << "first divergent tick " << d.tick;
        if (d.tick > 0) out << " (last matching tick " << d.tick - 1 << ")";
        if (!d.reason.empty()) out << ": " << d.reason;
        out << "\n";
        if (!d.entities.empty()) out << "  entities whose hash differs: " << entity_labels(d.entities) << "\n";
        if (d.tick >= 0 && static_cast<size_t>(d.tick) < a.ticks.size() && static_cast<size_t>(d.tick) < b.ticks.size()) {
            out << "  " << cmd.a << ": " << hex16(a.ticks[static_cast<size_t>(d.tick)].world) << "\n";
            out << "  " << cmd.b << ": " << hex16(b.ticks[static_cast<size_t>(d.tick)].world) << "\n";
        }
    }
    return kExitMismatch;
}

namespace {

std::string plural(size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// One scenario as a Markdown section (docs/conformance.md is generated from these).
void list_markdown(const Scenario& sc, const std::string& path, std::ostream& out) {
    const size_t expectations = sc.expect_states.size() + sc.expect_metrics.size() + sc.expect_same_as.size();
    out << "### " << sc.name << "\n\n`" << path << "`: " << plural(static_cast<size_t>(sc.ticks), "tick") << ", "
        << plural(sc.characters.size(), "character") << ", " << plural(expectations, "expectation") << "\n\n"
        << sc.description << "\n\n";
    if (!sc.deviation.empty()) out << "**Accepted deviation from KCC-SPEC:** " << sc.deviation << "\n\n";
}

} // namespace

int list_command(const SuiteOptions& suite, bool markdown, std::ostream& out, std::ostream& err) {
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(suite, &paths, &error)) {
        err << "fxkcc list: " << error << "\n";
        return kExitBadInput;
    }
    int code = kExitOk;
    for (const std::string& p : paths) {
        Scenario sc;
        if (!load_for_suite(suite, p, &sc, &error)) {
            err << error << "\n";
            code = kExitBadInput;
            continue;
        }
        if (!suite.filter.empty() && sc.name.find(suite.filter) == std::string::npos) continue;
        if (markdown) {
            list_markdown(sc, p, out);
            continue;
        }
        out << sc.name << "\t" << sc.ticks << " ticks\t" << sc.characters.size() << " characters\t" << p << "\t"
            << sc.description << "\n";
    }
    return code;
}

int validate_command(const SuiteOptions& suite, std::ostream& out, std::ostream& err) {
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(suite, &paths, &error)) {
        err << "fxkcc validate: " << error << "\n";
        return kExitBadInput;
    }
    int bad = 0;
    for (const std::string& p : paths) {
        Scenario sc;
        if (!load_for_suite(suite, p, &sc, &error)) {
            err << error << "\n";
            ++bad;
            continue;
        }
        // Geometry that loads may still fail to build (e.g. a scene-level check).
        kcc::World world;
        if (!build_world(sc, &world, &error)) {
            err << p << ": " << error << "\n";
            ++bad;
            continue;
        }
        out << "ok  " << sc.name << "  (" << p << ")\n";
    }
    out << paths.size() - static_cast<size_t>(bad) << " valid, " << bad << " invalid\n";
    return bad == 0 ? kExitOk : kExitBadInput;
}

} // namespace fx::harness
