// desync's bundle: the folder of one desync's files, written whole (docs/desync.md).
#include "desync_bundle.h"

#include <filesystem>
#include <sstream>

#include "forensics/viewer.h"
#include "fx/decimal.h"
#include "records/atomic_file.h"
#include "records/paths.h"
#include "records/text.h"
#include "run/runner.h"
#include "scenario/writer.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

/// The rows of `tick`, as CSV text with the trajectory header.
std::string rows_text(const std::string& csv, int64_t tick) {
    std::istringstream in(csv);
    std::string out, line;
    const std::string prefix = std::to_string(tick) + ",";
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0 || line.rfind("tick,", 0) == 0 || line.rfind(prefix, 0) == 0)
            out += line + "\n";
    }
    return out;
}

/// Each character's recorded input up to and including `tick`, one row per tick.
std::string input_text(const Scenario& sc, int64_t tick) {
    std::string s = "tick,character,stick_x,stick_y,jump,impulse_x,impulse_y,impulse_z\n";
    std::vector<InputCursor> cursors;
    for (const CharacterDef& c : sc.characters)
        cursors.emplace_back(*c.input);
    for (int64_t t = 0; t <= tick && t < sc.ticks; ++t) {
        for (size_t i = 0; i < cursors.size(); ++i) {
            if (!sc.characters[i].present_at(t)) continue; // an entry's rows while it is present
            const kcc::Input in = cursors[i].at(t);
            s += std::to_string(t) + "," + std::to_string(sc.characters[i].id) + "," +
                 to_string_shortest(in.stick_x) + "," + to_string_shortest(in.stick_y) + "," +
                 (in.jump ? "1" : "0") + "," + to_string_shortest(in.impulse.x) + "," +
                 to_string_shortest(in.impulse.y) + "," + to_string_shortest(in.impulse.z) + "\n";
        }
    }
    return s;
}

/// The files of a bundle, and the marker that says a folder is one.
constexpr const char* kBundleMarker = ".fxkcc-desync-bundle";
constexpr const char* kBundleFiles[] = {
    "report.txt",  "report.html", "scenario.yaml", "input.csv",     "a.state.csv",
    "b.state.csv", "a.trace",     "b.trace",       "a.version.txt", "b.version.txt",
    "a.hashes",    "b.hashes",    kBundleMarker};

bool is_bundle_file(const std::string& name) {
    for (const char* f : kBundleFiles) {
        if (name == f) return true;
    }
    return false;
}

/// The bundle folder as a path with no trailing separator ("out/" is "out").
fs::path bundle_folder(const std::string& dir) {
    fs::path p = fs::path(dir).lexically_normal();
    while (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path();
    return p;
}

/// Removes an earlier bundle: its files, then the folder (which must then be empty).
bool remove_bundle(const fs::path& p, std::string* error) {
    std::error_code ec;
    for (const char* f : kBundleFiles)
        fs::remove(p / f, ec);
    fs::remove(p, ec);
    if (ec) {
        *error = "cannot remove the earlier bundle '" + p.generic_string() + "': " + ec.message();
        return false;
    }
    return true;
}

/// The bundle's report.html when the run is too long for a page (page_rows_refusal): says so.
std::string no_page_html(const Scenario& sc) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fxkcc desync: " +
           sc.name + "</title></head><body><p>No page: " + text::xml_escape(page_rows_refusal(sc)) +
           ". The report is report.txt.</p></body></html>\n";
}

} // namespace

std::string bundle_refusal(const std::string& dir) {
    const fs::path p = bundle_folder(dir);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(p, ec))) return "";
    const fs::path canon = resolved_path(p), cwd = resolved_path(fs::current_path(ec));
    if (p.filename() == "." || p.filename() == ".." || path_within(cwd, canon) ||
        canon == canon.root_path()) {
        return "'" + dir +
               "' is the current folder or contains it: a bundle needs a folder of its own";
    }
    if (!fs::is_directory(fs::symlink_status(p, ec)))
        return "'" + dir + "' exists and is not a folder";
    bool any = false, marked = false;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code kind_ec;
        if (!is_bundle_file(name) || !it->is_regular_file(kind_ec)) {
            return "'" + dir + "' holds '" + text::shown(name) +
                   "', which is not part of a desync bundle: refusing to replace it";
        }
        any = true;
        marked = marked || name == kBundleMarker || name == "report.txt";
    }
    if (ec) return "cannot read '" + dir + "': " + ec.message();
    if (any && !marked) return "'" + dir + "' is not a desync bundle: refusing to replace it";
    return "";
}

bool write_bundle(const std::string& dir, const DesyncCommand& cmd, const Scenario& sc,
                  const DesyncReport& rep, const std::string& report_text, const SideRun& a,
                  const SideRun& b, const std::string& page, std::string* error) {
    // Built in a sibling temporary folder of this process's own and renamed into place: never
    // half-written, and never touching a folder it did not make (two desyncs at once each have
    // their own).
    const fs::path final_dir = bundle_folder(dir);
    const fs::path tmp_dir = temp_path_for(final_dir.string());
    std::error_code ec;
    if (!final_dir.parent_path().empty()) fs::create_directories(final_dir.parent_path(), ec);
    if (ec || !fs::create_directory(tmp_dir, ec)) {
        *error = "cannot create '" + tmp_dir.generic_string() +
                 "': " + (ec ? ec.message() : "it already exists");
        return false;
    }
    const std::string t = tmp_dir.generic_string() + "/";
    const std::vector<std::pair<std::string, std::string>> files{
        {"report.txt", report_text},
        // The viewer's page of both sides (docs/viewer.md), or a page saying why there is none.
        {"report.html", page.empty() ? no_page_html(sc) : page},
        // Self-contained: inputs read from CSV files and OBJ meshes written inline, so that
        // `fxkcc run BUNDLE/scenario.yaml` runs what was compared (same digest, same hashes).
        {"scenario.yaml",
         scenario_to_yaml(sc, ScenarioWriteOptions{.output_dir = dir, .drop_same_as = true})},
        {"input.csv", input_text(sc, rep.tick)},
        {"a.state.csv", rows_text(a.csv, rep.tick)},
        {"b.state.csv", rows_text(b.csv, rep.tick)},
        {"a.trace", a.trace},
        {"b.trace", b.trace},
        {"a.version.txt",
         "command: " + cmd.a + (cmd.a_args.empty() ? "" : " ... " + cmd.a_args) + "\n" + a.version},
        {"b.version.txt",
         "command: " + cmd.b + (cmd.b_args.empty() ? "" : " ... " + cmd.b_args) + "\n" + b.version},
        {"a.hashes", hash_file_text(a.hashes)},
        {"b.hashes", hash_file_text(b.hashes)},
        {kBundleMarker, "fxkcc desync bundle 1\n"},
    };
    for (const auto& [name, text] : files) {
        if (!write_file_atomic(t + name, text, error)) {
            std::string unused;
            remove_bundle(tmp_dir, &unused);
            return false;
        }
    }
    // Checked again just before replacing: the folder may have changed during the runs.
    if (std::string why = bundle_refusal(final_dir.string()); !why.empty()) {
        *error = why;
        std::string unused;
        remove_bundle(tmp_dir, &unused);
        return false;
    }
    // The earlier bundle is moved aside first, so that the new one takes its place in one rename.
    fs::path old_dir;
    if (fs::exists(fs::symlink_status(final_dir, ec))) {
        old_dir = temp_path_for(final_dir.string() + ".old");
        fs::rename(final_dir, old_dir, ec);
        if (ec) {
            *error = "cannot replace the earlier bundle '" + dir + "': " + ec.message();
            std::string unused;
            remove_bundle(tmp_dir, &unused);
            return false;
        }
    }
    fs::rename(tmp_dir, final_dir, ec);
    if (ec) {
        *error = "cannot move the bundle into '" + dir + "': " + ec.message();
        std::string unused;
        remove_bundle(tmp_dir, &unused);
        if (!old_dir.empty()) fs::rename(old_dir, final_dir, ec); // put the earlier one back
        return false;
    }
    // The new bundle is in place; the earlier one goes (best effort: a folder left over is a
    // temporary name, ignored by git and by the next bundle).
    std::string unused;
    if (!old_dir.empty()) remove_bundle(old_dir, &unused);
    return true;
}

} // namespace fx::harness
