// The pending goldens of `fxkcc review` (review_pending.h): found, examined against the accepted
// golden (first changed tick, largest change) and the scenario's checks, accepted or checked.
#include "review_pending.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/folder_lock.h"
#include "records/paths.h"
#include "records/text.h"
#include "records/trajectory.h"
#include "run/checks.h"
#include "run/suite.h"
#include "run/verify.h"

namespace fs = std::filesystem;

namespace fx::harness::review_detail {
namespace {

/// The largest change between two trajectories of the same ticks and characters: of position
/// (metres) and velocity (m/s), with where it happens.
struct LargestChange {
    double metres = 0, speed = 0;
    int64_t metres_tick = -1, speed_tick = -1;
    uint32_t metres_character = 0, speed_character = 0;
};

double length_m(const Vec3& a, const Vec3& b) {
    auto d = [](Scalar x, Scalar y) {
        return (static_cast<double>(x.raw()) - static_cast<double>(y.raw())) /
               4294967296.0; // Q32.32 to metres
    };
    const double dx = d(a.x, b.x), dy = d(a.y, b.y), dz = d(a.z, b.z);
    return std::sqrt(dx * dx + dy * dy +
                     dz * dz); // a report's figure: the harness may use floating point
}

LargestChange largest_change(const std::vector<TrajectoryRow>& a,
                             const std::vector<TrajectoryRow>& b) {
    LargestChange c;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const auto ka = std::make_pair(a[i].tick, a[i].state.id),
                   kb = std::make_pair(b[j].tick, b[j].state.id);
        if (ka < kb) {
            ++i;
            continue;
        }
        if (kb < ka) {
            ++j;
            continue;
        }
        const double m = length_m(a[i].state.position, b[j].state.position);
        const double v = length_m(a[i].state.velocity, b[j].state.velocity);
        if (m > c.metres) {
            c.metres = m;
            c.metres_tick = a[i].tick;
            c.metres_character = a[i].state.id;
        }
        if (v > c.speed) {
            c.speed = v;
            c.speed_tick = a[i].tick;
            c.speed_character = a[i].state.id;
        }
        ++i;
        ++j;
    }
    return c;
}

} // namespace

/// The pending goldens of the selected targets, sorted by target then name.
std::vector<Pending> find_pending(const std::string& root, const ReviewCommand& cmd,
                                  std::string* error) {
    std::vector<Pending> found;
    std::error_code ec;
    std::vector<std::string> targets;
    if (!cmd.suite.target.empty()) {
        targets.push_back(cmd.suite.target);
    } else {
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            if (it->is_directory(ec)) targets.push_back(it->path().filename().string());
        }
        std::sort(targets.begin(), targets.end());
    }
    for (const std::string& t : targets) {
        std::vector<std::string> names;
        for (fs::directory_iterator it(fs::path(root) / t, ec), end; !ec && it != end;
             it.increment(ec)) {
            const fs::path p = it->path();
            if (p.extension() != ".hashes") continue;
            if (*error = text::acting_name_error(p.generic_string()); !error->empty()) return {};
            names.push_back(p.stem().string());
        }
        std::sort(names.begin(), names.end());
        for (const std::string& n : names) {
            if (!cmd.suite.filter.empty() && n.find(cmd.suite.filter) == std::string::npos)
                continue;
            Pending p;
            p.target = t;
            p.name = n;
            found.push_back(std::move(p));
        }
    }
    return found;
}

/// Why the pair `p` under `root` is not a pending golden that --reject may remove, or "": its
/// hash file must be an fxkcc hash file for the scenario it is named after and the target
/// folder it is in, and its CSV, when there is one, the CSV it records (by digest).
std::string not_a_pending_golden(const std::string& root, const Pending& p) {
    const std::string path = (fs::path(root) / p.target / (p.name + ".hashes")).generic_string();
    std::string text, error;
    HashFile hashes;
    if (!read_file(path, &text, &error) || !parse_hash_file(text, path, &hashes, &error))
        return error;
    if (hashes.header.scenario != p.name)
        return "'" + path + "' is for the scenario named '" + hashes.header.scenario + "'";
    std::string csv;
    bool csv_missing = false;
    const std::string why = check_golden_pair(root, p.target, p.name, hashes, &csv, &csv_missing);
    return csv_missing ? std::string() : why;
}

void examine(const std::string& root, const ReviewCommand& cmd,
             const std::map<std::string, const Scenario*>& scenarios,
             std::map<std::string, ChecksMemo>* memo, Pending* p) {
    SuiteOptions pending_suite = cmd.suite, golden_suite = cmd.suite;
    pending_suite.golden_dir = root;
    pending_suite.target = golden_suite.target = p->target;
    const std::string path = golden_hashes_path(pending_suite, p->name);
    std::string error;
    if (!read_file(path, &p->hashes_text, &error) ||
        !parse_hash_file(p->hashes_text, path, &p->hashes, &error)) {
        p->error = error;
        return;
    }
    bool csv_missing = false;
    if (std::string why =
            check_golden_pair(root, p->target, p->name, p->hashes, &p->csv, &csv_missing);
        !why.empty()) {
        p->error = why;
        return;
    }
    if (p->hashes.header.scenario != p->name) {
        p->error = "'" + path + "' is for the scenario named '" + p->hashes.header.scenario + "'";
        return;
    }
    // The scenario as it is now: a pending golden of an older version of it would be stale at once.
    const auto it = scenarios.find(p->name);
    if (it == scenarios.end()) {
        p->error = "no scenario is named '" + p->name +
                   "' (a deleted or renamed scenario's pending golden: reject it)";
        return;
    }
    const Scenario& sc = *it->second;
    if (sc.digest != p->hashes.header.digest) {
        const std::string keys = stale_keys_text(p->hashes.header.keys, sc);
        p->error = keys.empty()
                       ? "stale: written for scenario digest " + p->hashes.header.digest +
                             ", the scenario now has " + sc.digest + " (bless --pending it again)"
                       : "stale: " + keys +
                             " since the pending golden was written (scenario digest " +
                             p->hashes.header.digest + ", now " + sc.digest +
                             "; bless --pending it again)";
        return;
    }
    if (p->hashes.header.behaviour != kBehaviourVersion) {
        p->error = "stale: written by behaviour " + std::to_string(p->hashes.header.behaviour) +
                   ", this build is " + std::to_string(kBehaviourVersion);
        return;
    }
    if (memo->count(p->name) == 0) {
        ChecksMemo& m = (*memo)[p->name];
        CheckReport report;
        if (!run_checked(sc, nullptr, RunOptions{}, &report, &m.error)) {
            m.error = m.error.empty() ? "the run failed" : m.error;
        } else {
            const int failed = report.expectation_failures() + report.invariant_failures();
            m.checks =
                failed == 0
                    ? (report.expectations == 0 ? std::string("invariants hold")
                                                : std::to_string(report.expectations) +
                                                      " expectations and the invariants hold")
                    : std::to_string(report.expectation_failures()) + " expectations failed, " +
                          std::to_string(report.invariant_failures()) + " invariants violated";
            if (failed > 0) m.detail = format_failures(report, "");
        }
    }
    const ChecksMemo& m = memo->at(p->name);
    if (!m.error.empty()) {
        p->error = m.error;
        return;
    }
    p->checks = m.checks;
    p->detail = m.detail;

    // The accepted golden, when there is a whole one.
    HashFile old;
    std::string old_csv;
    const std::string golden_path = golden_hashes_path(golden_suite, p->name);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(golden_path, ec))) {
        p->change = "new: " + std::to_string(p->hashes.header.ticks) + " ticks, no accepted golden";
        return;
    }
    bool old_csv_missing = false;
    if (!read_hash_file(golden_path, &old, &error)) {
        p->change = "replaces an unreadable golden (" + error + ")";
        return;
    }
    if (std::string why = check_golden_pair(cmd.suite.golden_dir, p->target, p->name, old, &old_csv,
                                            &old_csv_missing);
        !why.empty()) {
        p->change = "replaces a broken golden (" + why + ")";
        return;
    }
    std::string header;
    if (old.header.digest != p->hashes.header.digest) {
        header += "; scenario digest " + old.header.digest + " -> " + p->hashes.header.digest;
        std::string keys;
        for (const std::string& k : changed_keys(old.header.keys, p->hashes.header.keys))
            keys += (keys.empty() ? "" : ", ") + k;
        if (!keys.empty())
            header += ": the scenario changed (" + keys + ") since the golden was written";
    }
    if (old.header.behaviour != p->hashes.header.behaviour) {
        header += "; behaviour " + std::to_string(old.header.behaviour) + " -> " +
                  std::to_string(p->hashes.header.behaviour);
    }
    const HashDivergence d = first_divergence(old, p->hashes);
    if (!d.diverged && old_csv == p->csv) {
        p->change = (header.empty() ? "identical to the accepted golden" : "same results") + header;
        return;
    }
    std::vector<TrajectoryRow> a, b;
    bool ra = false, rb = false;
    if (!parse_trajectory(old_csv, golden_csv_path(golden_suite, p->name), &a, &ra, &error) ||
        !parse_trajectory(p->csv, golden_csv_path(pending_suite, p->name), &b, &rb, &error)) {
        p->change = "changed (" + error + ")";
        return;
    }
    const LargestChange c = largest_change(a, b);
    if (d.diverged) {
        p->change = "first changed tick " + std::to_string(d.tick) +
                    (d.entities.empty() ? "" : " (" + entity_labels(d.entities) + ")") +
                    (d.reason.empty() ? "" : ": " + d.reason);
    } else {
        p->change = "same hashes, render poses changed";
    }
    auto part = [](const char* what, double v, const char* unit, int64_t tick, uint32_t character) {
        return v == 0 ? fmt::format("{} unchanged", what)
                      : fmt::format("{} {:.4f} {} (tick {}, c{})", what, v, unit, tick, character);
    };
    p->change +=
        "; largest change: " + part("position", c.metres, "m", c.metres_tick, c.metres_character) +
        ", " + part("velocity", c.speed, "m/s", c.speed_tick, c.speed_character) + header;
    const CsvDivergence cd = first_divergence(a, b);
    if (cd.diverged) p->detail = format_csv_divergence(cd) + p->detail;
}

/// Accepts the pending goldens of one target into its golden folder (under its lock) and
/// removes them from the pending folder.
bool accept_target(const ReviewCommand& cmd, const std::string& root, const std::string& target,
                   const std::vector<const Pending*>& pending, std::ostream& out,
                   std::ostream& err) {
    SuiteOptions golden = cmd.suite, from = cmd.suite;
    golden.target = from.target = target;
    from.golden_dir = root;
    const fs::path folder = fs::path(cmd.suite.golden_dir) / target;
    std::error_code ec;
    fs::create_directories(folder, ec);
    std::string error;
    FolderLock lock;
    if (ec || !lock.lock(folder.string(), &error)) {
        err << "fxkcc review: cannot write '" << folder.generic_string()
            << "': " << (ec ? ec.message() : error) << "\n";
        return false;
    }
    for (const Pending* p : pending) {
        if (!install_goldens(golden, p->name, p->hashes_text, p->csv, &error)) {
            err << "fxkcc review: " << error << "\n";
            return false;
        }
        fs::remove(golden_hashes_path(from, p->name), ec);
        fs::remove(golden_csv_path(from, p->name), ec);
        out << "accepted " << target << "/" << p->name << "\n";
    }
    return true;
}

/// Removes pending target folders left empty, then the pending folder when empty.
void remove_empty(const std::string& root) {
    std::error_code ec;
    std::vector<fs::path> folders;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        folders.push_back(it->path());
    for (const fs::path& f : folders) {
        if (fs::is_directory(f, ec) && fs::is_empty(f, ec)) fs::remove(f, ec);
    }
    if (fs::is_empty(root, ec)) fs::remove(root, ec);
}

} // namespace fx::harness::review_detail
