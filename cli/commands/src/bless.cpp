// `fxkcc bless`: regenerates the goldens of one target, one bless of a golden folder at a time
// (a folder lock), each golden replaced atomically; reports what changed.
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/folder_lock.h"
#include "records/paths.h"
#include "records/text.h"
#include "run/verify.h"
#include "subcommands.h"

namespace fs = std::filesystem;

namespace fx::harness {

int bless_command(const BlessCommand& request, std::ostream& out, std::ostream& err,
                  const Style& style, bool err_terminal) {
    BlessCommand cmd = request;
    if (!cmd.pending_dir.empty()) cmd.pending = true;
    if (cmd.pending && !cmd.capture_dir.empty()) {
        err << "fxkcc bless: --capture and --pending write to different places; choose one\n";
        return kExitBadInput;
    }
    // Where this bless writes: the golden folder, a capture folder, or the pending folder.
    SuiteOptions write_suite = cmd.suite;
    if (cmd.pending) {
        write_suite.golden_dir =
            cmd.pending_dir.empty() ? default_pending_dir(cmd.suite.golden_dir) : cmd.pending_dir;
        if (folders_overlap(write_suite.golden_dir, cmd.suite.golden_dir)) {
            err << "fxkcc bless: --pending-dir '" << write_suite.golden_dir
                << "' and the golden folder '" << cmd.suite.golden_dir
                << "' overlap; pending goldens go to a folder of their own (fxkcc review "
                   "accepts them)\n";
            return kExitBadInput;
        }
    } else if (!cmd.capture_dir.empty()) {
        if (folders_overlap(cmd.capture_dir, cmd.suite.golden_dir)) {
            err << "fxkcc bless: --capture '" << cmd.capture_dir << "' and the golden folder '"
                << cmd.suite.golden_dir
                << "' overlap; capture into a folder of its own (goldens change only by a deliberate, reviewed commit)\n";
            return kExitBadInput;
        }
        write_suite.golden_dir = cmd.capture_dir;
    } else if (const char* ci = std::getenv("CI"); ci_is_set(ci)) {
        err << "fxkcc bless: refusing to regenerate goldens because CI is set (CI="
            << text::shown(ci)
            << "); goldens change only by a deliberate, reviewed commit (to capture this runner's goldens into "
               "another folder: bless --capture DIR)\n";
        return kExitBadInput;
    }
    // Into the repository's golden folder, a build writes its own target's goldens: another
    // target's folder would silently hold this build's results, and a mistyped target would make
    // a new folder. --other-target allows both (recorded as blessed-by); a capture names its
    // folder freely (it is an artifact, compared with the others afterwards).
    if (const std::string own = build_info().target; cmd.capture_dir.empty() &&
                                                     !cmd.suite.target.empty() &&
                                                     cmd.suite.target != own && !cmd.other_target) {
        std::error_code ec;
        const fs::path folder = fs::path(cmd.suite.golden_dir) / cmd.suite.target;
        err << "fxkcc bless: --target " << cmd.suite.target << " is not this build's target ("
            << own << ")";
        if (fs::is_directory(folder, ec)) {
            err << ": its goldens would hold this build's results; bless them with that target's build "
                   "(scripts/cross.sh "
                << cmd.suite.target << " bless), or pass --other-target to write them anyway\n";
        } else {
            err << " and " << folder.generic_string()
                << " does not exist (a mistyped target?); pass --other-target "
                   "to create it\n";
        }
        return kExitBadInput;
    }
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(cmd.suite, &paths, &error)) {
        err << "fxkcc bless: " << error << "\n";
        return kExitBadInput;
    }
    // Load everything first, so that nothing is written when one scenario is bad or two collide.
    const std::vector<Loaded> scenarios = load_all(cmd.suite, paths, cmd.jobs, err);
    std::vector<Outcome> loaded(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        loaded[i].path = paths[i];
        if (!scenarios[i].ok) {
            loaded[i].status = Status::kBadInput;
            loaded[i].summary = scenarios[i].error;
        }
        loaded[i].name = scenarios[i].sc.name;
    }
    if (!unique_names(loaded, err)) return kExitBadInput;
    for (const Outcome& o : loaded) {
        if (o.status == Status::kBadInput) {
            err << "fxkcc bless: " << o.summary << "\n";
            return kExitBadInput;
        }
    }
    size_t matched = 0;
    const std::vector<size_t> selected_index =
        select_scenarios(cmd.suite, paths, scenarios, &matched); ///< into paths
    if (!filter_matched("bless", cmd.suite, matched, paths.size(), err)) return kExitBadInput;
    // One bless of a golden folder at a time: a second one waits, then finds the first one's
    // goldens (Windows refuses two processes replacing one file at the same moment).
    const fs::path golden_folder = fs::path(write_suite.golden_dir) / suite_target(write_suite);
    FolderLock lock;
    {
        std::error_code ec;
        fs::create_directories(golden_folder, ec);
        if (ec) {
            err << "fxkcc bless: cannot create '" << golden_folder.generic_string()
                << "': " << ec.message() << "\n";
            return kExitCannotTest;
        }
        FolderLock::Result r = lock.try_lock(golden_folder.string(), &error);
        if (r == FolderLock::Result::kBusy) {
            err << "fxkcc bless: waiting for another bless of '" << golden_folder.generic_string()
                << "' to finish\n";
            r = lock.lock(golden_folder.string(), &error) ? FolderLock::Result::kLocked
                                                          : FolderLock::Result::kError;
        }
        if (r == FolderLock::Result::kError) {
            err << "fxkcc bless: " << error << "\n";
            return kExitCannotTest;
        }
    }
    // Only the sole writer may remove another bless's leftovers: where no system lock keeps other
    // blesses out (node), they may be a running bless's files.
    if (lock.exclusive()) {
        std::vector<std::string> tidied;
        if (!tidy_golden_folder(golden_folder.string(), &tidied, &error)) {
            err << "fxkcc bless: " << error << "\n";
            return kExitCannotTest;
        }
        for (const std::string& t : tidied)
            err << "fxkcc bless: " << t << "\n";
    }
    std::vector<std::string> selected;
    std::vector<int64_t> costs;
    for (size_t i : selected_index) {
        selected.push_back(paths[i]);
        costs.push_back(run_cost(scenarios[i].sc));
    }
    std::vector<Outcome> outcomes =
        run_parallel(selected, costs, cmd.jobs, err_terminal, err, [&](size_t k) {
            Outcome o;
            o.path = selected[k];
            const Scenario& sc = scenarios[selected_index[k]].sc;
            std::string e;
            o.name = sc.name;
            HashFile old;
            std::error_code ec;
            const bool had = fs::exists(golden_hashes_path(cmd.suite, sc.name), ec);
            std::string old_error;
            const bool old_ok =
                had && read_hash_file(golden_hashes_path(cmd.suite, sc.name), &old, &old_error);
            // The golden's bytes as they were (a plain bless replaces them).
            std::string old_bytes;
            if (old_ok && old.header.keys.empty())
                read_file(golden_hashes_path(cmd.suite, sc.name), &old_bytes, &old_error);
            HashFile fresh;
            if (!write_goldens(write_suite, sc, &fresh, &e)) {
                o.status = Status::kCannotTest;
                o.summary = e;
                return o;
            }
            // A golden written before the `keys` line keeps its bytes when that line is all that
            // would change: no golden changes for it alone (issue 53, docs/formats.md).
            if (old_ok && old.header.keys.empty() && !fresh.header.keys.empty()) {
                HashFile plain = fresh;
                plain.header.keys.clear();
                const std::string plain_text = hash_file_text(plain);
                if (old_bytes == plain_text) {
                    if (!write_file_atomic(golden_hashes_path(write_suite, sc.name), plain_text, &e,
                                           kMaxReadBytes)) {
                        o.status = Status::kCannotTest;
                        o.summary = e;
                        return o;
                    }
                    fresh = std::move(plain);
                }
            }
            if (cmd.pending && old_ok) {
                // Nothing pending when the golden would not change by a byte.
                std::string old_text;
                if (read_file(golden_hashes_path(cmd.suite, sc.name), &old_text, &e) &&
                    old_text == hash_file_text(fresh)) {
                    fs::remove(golden_hashes_path(write_suite, sc.name), ec);
                    fs::remove(golden_csv_path(write_suite, sc.name), ec);
                    o.summary = "unchanged: nothing pending";
                    return o;
                }
            }
            if (!had) {
                o.summary = "new: " + std::to_string(sc.ticks) + " ticks";
            } else if (!old_ok) {
                o.summary = "replaced an unreadable golden (" + old_error + ")";
            } else {
                const HashDivergence d = first_divergence(old, fresh);
                std::string note;
                if (old.header.digest != fresh.header.digest) note += "; scenario digest updated";
                if (old.header.behaviour != fresh.header.behaviour) {
                    note += "; behaviour " + std::to_string(old.header.behaviour) + " -> " +
                            std::to_string(fresh.header.behaviour);
                }
                if (!d.diverged) {
                    o.summary = note.empty() ? "unchanged" : "unchanged results" + note;
                } else {
                    o.summary = "changed: first changed tick " + std::to_string(d.tick) +
                                (d.entities.empty() ? "" : " (" + entity_labels(d.entities) + ")") +
                                (d.reason.empty() ? "" : ": " + d.reason);
                }
            }
            return o;
        });
    size_t pending = 0;
    for (const Outcome& o : outcomes) {
        const bool unchanged = cmd.pending && o.summary.starts_with("unchanged");
        if (cmd.pending && o.status == Status::kPass && !unchanged) ++pending;
        out << (o.status != Status::kPass ? style.bad(status_name(o.status))
                : !cmd.pending            ? style.good("blessed")
                : unchanged               ? style.good("same   ")
                                          : style.warning("pending"))
            << "  " << (o.name.empty() ? o.path : o.name) << ": " << o.summary << "\n";
    }
    if (cmd.pending) {
        out << "\n"
            << pending << " pending golden" << (pending == 1 ? "" : "s") << " in "
            << golden_folder.generic_string() << "/";
        if (pending > 0) {
            const std::string dir =
                cmd.pending_dir.empty() ? "" : " --pending-dir " + cmd.pending_dir;
            out << "; show them: fxkcc review" << dir << "; accept: fxkcc review" << dir
                << " --accept";
        }
        out << "\n";
        return exit_code_of(outcomes);
    }
    // Goldens of this target that belong to no scenario: removed only when asked (--prune), and
    // only for the whole suite; otherwise named, so that a deleted scenario's goldens are seen.
    if (cmd.suite.inputs.empty() && cmd.suite.filter.empty() && cmd.suite.shard_count == 0) {
        std::set<std::string> names;
        for (const Outcome& o : loaded)
            names.insert(o.name);
        std::error_code ec;
        std::vector<fs::path> stale;
        if (const std::string why =
                golden_folder_refusal(write_suite.golden_dir, suite_target(write_suite));
            cmd.prune && !why.empty()) {
            err << "fxkcc bless: --prune: " << why << "; nothing removed\n";
            return kExitBadInput;
        }
        for (fs::directory_iterator it(golden_folder, ec), end; !ec && it != end;
             it.increment(ec)) {
            const fs::path p = it->path();
            if ((p.extension() == ".hashes" || p.extension() == ".csv") &&
                names.count(p.stem().string()) == 0) {
                stale.push_back(p);
            }
        }
        std::sort(stale.begin(), stale.end());
        for (const fs::path& p : stale) {
            if (!cmd.prune) {
                out << "orphan   " << text::shown(p.generic_string()) << " (no scenario named '"
                    << text::shown(p.stem().string()) << "'; bless --prune removes it)\n";
                continue;
            }
            if (!fs::is_regular_file(fs::symlink_status(p, ec))) {
                out << "kept     " << text::shown(p.generic_string())
                    << " (not a regular file: a link or a special file is never removed)\n";
                continue;
            }
            fs::remove(p, ec);
            out << "removed  " << text::shown(p.generic_string()) << " (no scenario named '"
                << text::shown(p.stem().string()) << "')\n";
        }
    }
    return exit_code_of(outcomes);
}

namespace {

class BlessSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        add_suite_options(app, &cmd_.suite);
        app.add("-j,--jobs", &cmd_.jobs, "Scenarios run in parallel (default: all cores)")
            .range(1, 4096);
        app.add(
            "--capture", &cmd_.capture_dir,
            "Write the goldens to DIR/<target>/, not the golden folder (allowed under CI: a runner's capture)");
        app.flag(
            "--other-target", &cmd_.other_target,
            "Allow --target to name another target than this build's, or one without a golden folder");
        app.flag(
            "--pending", &cmd_.pending,
            "Write the goldens that would change as pending goldens (beside the golden folder, "
            "<golden-dir>.pending/) for fxkcc review, not into the golden folder");
        app.add("--pending-dir", &cmd_.pending_dir, "The pending folder (implies --pending)");
        app.flag(
            "--prune", &cmd_.prune,
            "Remove goldens of the target that belong to no scenario (whole suite only; without it they are named)");
    }
    int run(const Invocation& inv) override {
        return bless_command(cmd_, inv.out, inv.err, inv.out_style, inv.err_terminal);
    }

private:
    BlessCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_bless_subcommand() {
    return std::make_unique<BlessSubcommand>();
}

} // namespace fx::harness
