// verify and bless: a suite of scenarios against the goldens of one target, in parallel.
// Each scenario runs single-threaded on one worker; the costliest start first (so that a long
// one does not start last and leave the other workers idle), and results are reported in path
// order, so the output does not depend on scheduling.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include "harness/atomic_file.h"
#include "harness/build_info.h"
#include "harness/checks.h"
#include "harness/folder_lock.h"
#include "suite_common.h"
#include "text_util.h"

#ifdef _WIN32
#include <io.h>
#define FX_ISATTY(fd) _isatty(fd)
#else
#include <unistd.h>
#define FX_ISATTY(fd) isatty(fd)
#endif

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

/// A golden status; kFailed: the golden matched (or could not be compared) but an expectation
/// or invariant failed.
enum class Status { kPass, kMismatch, kStale, kMissing, kBadInput, kCannotTest, kFailed };

const char* status_name(Status s) {
    switch (s) {
    case Status::kPass: return "pass";
    case Status::kMismatch: return "MISMATCH";
    case Status::kStale: return "STALE";
    case Status::kMissing: return "MISSING";
    case Status::kBadInput: return "ERROR";
    case Status::kCannotTest: return "CANNOT-TEST";
    case Status::kFailed: return "FAILED";
    }
    return "?";
}

struct Outcome {
    std::string path;
    std::string name;
    Status status = Status::kPass;
    std::string summary; ///< one line
    std::string detail;  ///< the full report, may be multi-line
    int64_t ticks = 0;
    int64_t millis = 0;
    bool checks_failed = false; ///< an expectation or invariant failed (whatever the golden status)
};

int exit_code_of(const std::vector<Outcome>& outcomes) {
    int code = kExitOk;
    for (const Outcome& o : outcomes) {
        int c = kExitOk;
        switch (o.status) {
        case Status::kPass: c = kExitOk; break;
        case Status::kMismatch:
        case Status::kStale:
        case Status::kMissing:
        case Status::kFailed: c = kExitMismatch; break;
        case Status::kBadInput: c = kExitBadInput; break;
        case Status::kCannotTest: c = kExitCannotTest; break;
        }
        // Precedence: cannot test > bad input > mismatch > ok.
        auto rank = [](int x) { return x == kExitCannotTest ? 3 : (x == kExitBadInput ? 2 : (x == kExitMismatch ? 1 : 0)); };
        if (rank(c) > rank(code)) code = c;
    }
    return code;
}

// Compares a run with a golden tick by tick and stops at the first divergence.
class VerifySink final : public RunSink {
public:
    explicit VerifySink(const HashFile& golden) : golden_(golden) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3>, std::string* error) override {
        hasher_.hash_into(tick, chars, platforms, &current_);
        ++ticks_run_;
        (void)error;
        if (divergence_.diverged) return true; // only the first divergence is reported; the run goes on for the checks
        if (!recorded_tick(tick, golden_.header.ticks, golden_.header.every)) return true;
        const size_t i = next_++;
        if (i >= golden_.ticks.size()) {
            divergence_.diverged = true;
            divergence_.tick = tick;
            divergence_.reason = "the golden has only " + std::to_string(golden_.ticks.size()) + " ticks";
            return true;
        }
        const TickHashes& g = golden_.ticks[i];
        if (g.tick == tick && g.world == current_.world && g.entities == current_.entities) return true;
        divergence_.diverged = true;
        divergence_.tick = tick;
        for (size_t k = 0; k < current_.entities.size() && k < golden_.header.entities.size(); ++k) {
            if (k >= g.entities.size() || g.entities[k] != current_.entities[k]) {
                divergence_.entities.push_back(golden_.header.entities[k]);
            }
        }
        return true;
    }
    const HashDivergence& divergence() const { return divergence_; }
    int64_t ticks_run() const { return ticks_run_; }
    size_t lines_compared() const { return next_; }

private:
    const HashFile& golden_;
    TickHasher hasher_;
    TickHashes current_;
    HashDivergence divergence_;
    int64_t ticks_run_ = 0;
    size_t next_ = 0; ///< next golden line to compare
};

// The golden side of verify_one: kPass with *golden filled when the run can be compared.
Status golden_status(const SuiteOptions& suite, const Scenario& sc, const std::string& path, HashFile* golden,
                     std::string* summary) {
    const std::string golden_path = golden_hashes_path(suite, sc.name);
    std::error_code ec;
    if (!fs::exists(golden_path, ec)) {
        *summary = "no golden at " + golden_path + " (run: fxkcc bless " + path + ")";
        return Status::kMissing;
    }
    std::string error;
    if (!read_hash_file(golden_path, golden, &error)) {
        *summary = error;
        return Status::kBadInput;
    }
    if (golden->header.digest != sc.digest || golden->header.scenario != sc.name) {
        *summary = "golden is stale: blessed for scenario '" + golden->header.scenario + "' digest " +
                   golden->header.digest + ", the scenario now has digest " + sc.digest +
                   " (it changed since; re-bless if the change is intended)";
        return Status::kStale;
    }
    if (golden->header.behaviour != kBehaviourVersion) {
        *summary = "golden is stale: blessed with behaviour " + std::to_string(golden->header.behaviour) +
                   ", this build is behaviour " + std::to_string(kBehaviourVersion);
        return Status::kStale;
    }
    const std::vector<EntityRef> entities = entities_of(sc);
    if (golden->header.entities != entities) {
        *summary = "entities differ: golden " + entity_labels(golden->header.entities) + ", run " + entity_labels(entities);
        return Status::kMismatch;
    }
    return Status::kPass;
}

std::string checks_summary(const CheckReport& r) {
    const int e = r.expectation_failures(), i = r.invariant_failures();
    if (e == 0 && i == 0) {
        return r.expectations == 0 ? "invariants hold (no expectations)"
                                   : std::to_string(r.expectations) + " expectations and the invariants hold";
    }
    std::string s;
    if (e > 0) s = std::to_string(e) + " expectation" + (e == 1 ? "" : "s") + " failed";
    if (i > 0) s += (s.empty() ? "" : ", ") + std::to_string(i) + " invariant" + (i == 1 ? "" : "s") + " violated";
    return s;
}

/// A scenario loaded for a suite command, or why it could not be.
struct Loaded {
    Scenario sc;
    bool ok = false;
    std::string error;
    int64_t millis = 0; ///< time taken to load
};

/// What loading a scenario costs, roughly: the size of its file (0 when unreadable).
int64_t load_cost(const std::string& path) {
    std::error_code ec;
    const uintmax_t n = fs::file_size(path, ec);
    return ec ? 0 : static_cast<int64_t>(std::min<uintmax_t>(n, INT64_MAX));
}

/// What running a loaded scenario costs, roughly: its character-ticks (ticks alone without
/// characters), plus those of the scenarios its same_as expectations run beside it.
int64_t run_cost(const Scenario& sc) {
    auto own = [](const Scenario& s) { return s.ticks * std::max<int64_t>(1, static_cast<int64_t>(s.characters.size())); };
    int64_t c = own(sc);
    for (const SameAsExpectation& e : sc.expect_same_as) {
        if (e.other) c += own(*e.other);
    }
    return c;
}

Outcome verify_one(const SuiteOptions& suite, const std::string& path, const Loaded& loaded) {
    Outcome o;
    o.path = path;
    if (!loaded.ok) {
        o.status = Status::kBadInput;
        o.summary = loaded.error;
        return o;
    }
    const Scenario& sc = loaded.sc;
    std::string error;
    o.name = sc.name;
    o.ticks = sc.ticks;
    HashFile golden;
    std::string golden_summary;
    o.status = golden_status(suite, sc, path, &golden, &golden_summary);
    if (o.status == Status::kBadInput) {
        o.summary = golden_summary;
        return o;
    }
    // The run always happens: expectations and invariants are checked whatever the golden says.
    VerifySink sink(golden);
    CheckReport report;
    if (!run_checked(sc, o.status == Status::kPass ? &sink : nullptr, RunOptions{}, &report, &error)) {
        o.status = Status::kBadInput;
        o.summary = error;
        return o;
    }
    o.checks_failed = !report.passed();
    const std::string checks = checks_summary(report);
    const std::string failures = format_failures(report, "");
    if (o.status != Status::kPass) {
        o.summary = golden_summary + "; " + checks;
        o.detail = failures;
        return o;
    }
    HashDivergence d = sink.divergence();
    if (!d.diverged && (golden.ticks.size() != sink.lines_compared() || golden.header.ticks != sink.ticks_run())) {
        d.diverged = true;
        d.tick = sink.ticks_run();
        d.reason = "the golden has " + std::to_string(golden.ticks.size()) + " ticks, the run " +
                   std::to_string(sink.ticks_run());
    }
    if (d.diverged) {
        o.status = Status::kMismatch;
        o.summary = "desync at tick " + std::to_string(d.tick) + " (" + entity_labels(d.entities) + "); " + checks;
        o.detail = explain_divergence(sc, d, golden_csv_for(golden_csv_path(suite, sc.name), golden.header)) + failures;
        return o;
    }
    if (o.checks_failed) o.status = Status::kFailed;
    o.summary = std::to_string(sc.ticks) + " ticks identical; " + checks;
    o.detail = failures;
    return o;
}

// Runs work(i) for every index i of `paths` on `jobs` threads, the largest cost first (costs[i]
// is that of paths[i]; ties, and an empty `costs`, in path order); results in path order. Each
// worker takes the next one when it is free, so the longest scenarios do not start last.
template <class Work>
std::vector<Outcome> run_parallel(const std::vector<std::string>& paths, const std::vector<int64_t>& costs, int jobs,
                                  bool progress, std::ostream& err, Work work) {
    std::vector<Outcome> out(paths.size());
    std::vector<size_t> order(paths.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (costs.size() == paths.size()) {
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return costs[a] != costs[b] ? costs[a] > costs[b] : paths[a] < paths[b];
        });
    }
    std::atomic<size_t> next{0};
    std::atomic<size_t> done{0};
    std::mutex print;
    auto worker = [&] {
        for (size_t k = next++; k < order.size(); k = next++) {
            const size_t i = order[k];
            const auto start = std::chrono::steady_clock::now();
            out[i] = work(i);
            out[i].millis = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            const size_t n = ++done;
            if (progress) {
                std::lock_guard<std::mutex> lock(print);
                err << "\r\x1b[2K[" << n << "/" << paths.size() << "] " << (out[i].name.empty() ? out[i].path : out[i].name)
                    << std::flush;
            }
        }
    };
    int n = jobs > 0 ? jobs : static_cast<int>(std::thread::hardware_concurrency());
    n = std::max(1, std::min<int>(n, static_cast<int>(std::max<size_t>(paths.size(), 1))));
    std::vector<std::thread> threads;
    for (int t = 1; t < n; ++t) {
        try {
            threads.emplace_back(worker);
        } catch (const std::system_error&) {
            break; // no threads on this target (wasm without pthreads): fewer workers, same results
        }
    }
    worker();
    for (auto& t : threads) t.join();
    if (progress) err << "\r\x1b[2K" << std::flush;
    return out;
}

// Loads every path on `jobs` threads, the largest file first.
std::vector<Loaded> load_all(const SuiteOptions& suite, const std::vector<std::string>& paths, int jobs, std::ostream& err) {
    std::vector<Loaded> loaded(paths.size());
    std::vector<int64_t> costs(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) costs[i] = load_cost(paths[i]);
    const std::vector<Outcome> times = run_parallel(paths, costs, jobs, false, err, [&](size_t i) {
        loaded[i].ok = load_for_suite(suite, paths[i], &loaded[i].sc, &loaded[i].error);
        return Outcome{};
    });
    for (size_t i = 0; i < paths.size(); ++i) loaded[i].millis = times[i].millis;
    return loaded;
}

/// The run cost of each loaded scenario (0 for one that did not load).
std::vector<int64_t> run_costs(const std::vector<Loaded>& loaded) {
    std::vector<int64_t> costs(loaded.size(), 0);
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (loaded[i].ok) costs[i] = run_cost(loaded[i].sc);
    }
    return costs;
}

using text::xml_escape;

std::string seconds_text(int64_t millis) {
    std::string frac = std::to_string(millis % 1000);
    return std::to_string(millis / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

std::string junit_xml(const std::vector<Outcome>& outcomes, const std::string& target) {
    int failures = 0, errors = 0;
    int64_t total = 0;
    for (const Outcome& o : outcomes) {
        if (o.status == Status::kMismatch || o.status == Status::kStale || o.status == Status::kMissing ||
            o.status == Status::kFailed) {
            ++failures;
        }
        if (o.status == Status::kBadInput || o.status == Status::kCannotTest) ++errors;
        total += o.millis;
    }
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites>\n<testsuite name=\"fxkcc verify " << xml_escape(target) << "\" tests=\"" << outcomes.size()
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" time=\"" << seconds_text(total) << "\">\n";
    for (const Outcome& o : outcomes) {
        x << "  <testcase classname=\"fxkcc." << xml_escape(target) << "\" name=\""
          << xml_escape(o.name.empty() ? o.path : o.name) << "\" file=\"" << xml_escape(o.path) << "\" time=\""
          << seconds_text(o.millis) << "\"";
        if (o.status == Status::kPass) {
            x << "/>\n";
            continue;
        }
        const bool error = o.status == Status::kBadInput || o.status == Status::kCannotTest;
        x << ">\n    <" << (error ? "error" : "failure") << " type=\"" << status_name(o.status) << "\" message=\""
          << xml_escape(o.summary) << "\">" << xml_escape(o.detail) << "</" << (error ? "error" : "failure") << ">\n";
        x << "  </testcase>\n";
    }
    x << "</testsuite>\n</testsuites>\n";
    return x.str();
}

void print_table(const std::vector<Outcome>& outcomes, std::ostream& out) {
    size_t w = 8;
    for (const Outcome& o : outcomes) w = std::max(w, (o.name.empty() ? o.path : o.name).size());
    for (const Outcome& o : outcomes) {
        const std::string name = o.name.empty() ? o.path : o.name;
        out << status_name(o.status) << std::string(12 - std::string(status_name(o.status)).size(), ' ') << name
            << std::string(w + 2 - name.size(), ' ') << o.summary << "\n";
        if (!o.detail.empty()) {
            std::istringstream lines(o.detail);
            for (std::string line; std::getline(lines, line);) out << "            " << line << "\n";
        }
    }
}

bool check_unique_names(const std::vector<Outcome>& outcomes, std::ostream& err) {
    std::set<std::string> seen;
    for (const Outcome& o : outcomes) {
        if (o.name.empty()) continue;
        if (!seen.insert(o.name).second) {
            err << "fxkcc: two scenarios are named '" << o.name << "' (names must be unique: they name the goldens)\n";
            return false;
        }
    }
    return true;
}

} // namespace

int verify_command(const VerifyCommand& cmd, std::ostream& out, std::ostream& err) {
    std::vector<std::string> paths;
    std::string error;
    if (!discover_scenarios(cmd.suite, &paths, &error)) {
        err << "fxkcc verify: " << error << "\n";
        return kExitBadInput;
    }
    if (paths.empty()) {
        err << "fxkcc verify: no scenarios selected\n";
        return kExitBadInput;
    }
    const bool progress = cmd.progress && FX_ISATTY(2);
    // Load first (in parallel), so that the runs can be dealt out longest first.
    const std::vector<Loaded> loaded = load_all(cmd.suite, paths, cmd.jobs, err);
    std::vector<Outcome> outcomes = run_parallel(paths, run_costs(loaded), cmd.jobs, progress, err,
                                                 [&](size_t i) { return verify_one(cmd.suite, paths[i], loaded[i]); });
    for (size_t i = 0; i < outcomes.size(); ++i) outcomes[i].millis += loaded[i].millis; // load + run, as before
    if (!cmd.suite.filter.empty()) {
        std::erase_if(outcomes, [&](const Outcome& o) {
            return o.status != Status::kBadInput && o.name.find(cmd.suite.filter) == std::string::npos;
        });
    }
    if (!check_unique_names(outcomes, err)) return kExitBadInput;
    print_table(outcomes, out);
    int counts[7] = {0, 0, 0, 0, 0, 0, 0};
    int checks_failed = 0;
    for (const Outcome& o : outcomes) {
        ++counts[static_cast<int>(o.status)];
        if (o.checks_failed) ++checks_failed;
    }
    out << "\n" << outcomes.size() << " scenarios on " << suite_target(cmd.suite) << ": " << counts[0] << " passed, "
        << counts[1] << " mismatched, " << counts[2] << " stale, " << counts[3] << " missing, " << counts[4]
        << " errors; " << checks_failed << " failed expectations or invariants\n";
    if (!cmd.junit_path.empty() && !write_file_atomic(cmd.junit_path, junit_xml(outcomes, suite_target(cmd.suite)), &error)) {
        err << "fxkcc verify: cannot write JUnit report: " << error << "\n";
        return kExitCannotTest;
    }
    return exit_code_of(outcomes);
}

int bless_command(const BlessCommand& cmd, std::ostream& out, std::ostream& err) {
    if (const char* ci = std::getenv("CI"); ci != nullptr && *ci != '\0') {
        err << "fxkcc bless: refusing to regenerate goldens because CI is set (CI=" << ci
            << "); goldens change only by a deliberate, reviewed commit\n";
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
    if (!check_unique_names(loaded, err)) return kExitBadInput;
    for (const Outcome& o : loaded) {
        if (o.status == Status::kBadInput) {
            err << "fxkcc bless: " << o.summary << "\n";
            return kExitBadInput;
        }
    }
    // One bless of a golden folder at a time: a second one waits, then finds the first one's
    // goldens (Windows refuses two processes replacing one file at the same moment).
    const fs::path golden_folder = fs::path(cmd.suite.golden_dir) / suite_target(cmd.suite);
    FolderLock lock;
    {
        std::error_code ec;
        fs::create_directories(golden_folder, ec);
        if (ec) {
            err << "fxkcc bless: cannot create '" << golden_folder.generic_string() << "': " << ec.message() << "\n";
            return kExitCannotTest;
        }
        FolderLock::Result r = lock.try_lock(golden_folder.string(), &error);
        if (r == FolderLock::Result::kBusy) {
            err << "fxkcc bless: waiting for another bless of '" << golden_folder.generic_string() << "' to finish\n";
            r = lock.lock(golden_folder.string(), &error) ? FolderLock::Result::kLocked : FolderLock::Result::kError;
        }
        if (r == FolderLock::Result::kError) {
            err << "fxkcc bless: " << error << "\n";
            return kExitCannotTest;
        }
    }
    std::vector<std::string> selected;
    std::vector<size_t> selected_index; ///< into paths and scenarios
    std::vector<int64_t> costs;
    for (size_t i = 0; i < loaded.size(); ++i) {
        const Outcome& o = loaded[i];
        if (cmd.suite.filter.empty() || o.name.find(cmd.suite.filter) != std::string::npos) {
            selected.push_back(o.path);
            selected_index.push_back(i);
            costs.push_back(run_cost(scenarios[i].sc));
        }
    }
    std::vector<Outcome> outcomes = run_parallel(selected, costs, cmd.jobs, FX_ISATTY(2), err, [&](size_t k) {
        Outcome o;
        o.path = selected[k];
        const Scenario& sc = scenarios[selected_index[k]].sc;
        std::string e;
        o.name = sc.name;
        HashFile old;
        std::error_code ec;
        const bool had = fs::exists(golden_hashes_path(cmd.suite, sc.name), ec);
        std::string old_error;
        const bool old_ok = had && read_hash_file(golden_hashes_path(cmd.suite, sc.name), &old, &old_error);
        HashFile fresh;
        if (!write_goldens(cmd.suite, sc, &fresh, &e)) {
            o.status = Status::kCannotTest;
            o.summary = e;
            return o;
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
    for (const Outcome& o : outcomes) {
        out << (o.status == Status::kPass ? "blessed" : status_name(o.status)) << "  "
            << (o.name.empty() ? o.path : o.name) << ": " << o.summary << "\n";
    }
    // Goldens of this target that belong to no scenario (only meaningful for the whole suite).
    if (cmd.suite.inputs.empty() && cmd.suite.filter.empty() && cmd.suite.shard_count == 0) {
        std::set<std::string> names;
        for (const Outcome& o : loaded) names.insert(o.name);
        std::error_code ec;
        std::vector<fs::path> stale;
        for (fs::directory_iterator it(golden_folder, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path p = it->path();
            if ((p.extension() == ".hashes" || p.extension() == ".csv") && names.count(p.stem().string()) == 0) {
                stale.push_back(p);
            }
        }
        std::sort(stale.begin(), stale.end());
        for (const fs::path& p : stale) {
            fs::remove(p, ec);
            out << "removed  " << p.generic_string() << " (no scenario named '" << p.stem().string() << "')\n";
        }
    }
    return exit_code_of(outcomes);
}

} // namespace fx::harness
