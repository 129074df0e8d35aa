#include "run/verify.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <set>
#include <system_error>
#include <thread>

#include "records/build_info.h"
#include "records/trajectory.h"
#include "run/checks.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

// Compares a run with a golden tick by tick and stops at the first divergence; and writes the
// run's trajectory CSV into `csv` (an ExpectedText over the golden CSV) while they agree.
class VerifySink final : public RunSink {
public:
    VerifySink(const HashFile& golden, TrajectoryWriter* csv)
        : golden_(golden), csv_(csv), hasher_(character_ids_of(golden.header.entities)) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override {
        ++ticks_run_;
        if (divergence_.diverged)
            return true; // only the first divergence is reported; the run goes on for the checks
        // Only the ticks the golden records are hashed and compared (every `golden_every`-th
        // and the last): hashing the others cost more than the checks (issue 55).
        if (!recorded_tick(tick, golden_.header.ticks, golden_.header.every)) return true;
        hasher_.hash_into(tick, chars, platforms, &current_);
        // The CSV holds the recorded ticks, as bless writes it (GoldenSink).
        for (size_t i = 0; i < chars.size(); ++i) {
            if (!csv_->write(tick, chars[i], render.empty() ? nullptr : &render[i], error))
                return false;
        }
        const size_t i = next_++;
        if (i >= golden_.ticks.size()) {
            divergence_.diverged = true;
            divergence_.tick = tick;
            divergence_.reason =
                "the golden has only " + std::to_string(golden_.ticks.size()) + " ticks";
            return true;
        }
        const TickHashes& g = golden_.ticks[i];
        if (g.tick == tick && g.world == current_.world && g.entities == current_.entities)
            return true;
        divergence_.diverged = true;
        divergence_.tick = tick;
        for (size_t k = 0; k < current_.entities.size() && k < golden_.header.entities.size();
             ++k) {
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
    TrajectoryWriter* csv_;
    TickHasher hasher_;
    TickHashes current_;
    HashDivergence divergence_;
    int64_t ticks_run_ = 0;
    size_t next_ = 0; ///< next golden line to compare
};

// The golden side of verify_one: kPass with *golden and *csv (the golden trajectory CSV) filled
// when the run can be compared.
Status golden_status(const SuiteOptions& suite, const Scenario& sc, const std::string& path,
                     HashFile* golden, std::string* csv, std::string* summary) {
    const std::string golden_path = golden_hashes_path(suite, sc.name);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(golden_path, ec))) {
        *summary = "no golden at " + golden_path + " (run: fxkcc bless " + path + ")";
        return Status::kMissing;
    }
    if (std::string why = golden_outside_reason(suite.golden_dir, golden_path); !why.empty()) {
        *summary = why;
        return Status::kBadInput;
    }
    std::string error;
    if (!read_hash_file(golden_path, golden, &error)) {
        *summary = error;
        return Status::kBadInput;
    }
    if (golden->header.scenario != sc.name) {
        *summary = "golden is stale: blessed for the scenario named '" + golden->header.scenario +
                   "', this one is named '" + sc.name + "' (re-bless if the rename is intended)";
        return Status::kStale;
    }
    if (golden->header.digest != sc.digest) {
        // Which keys changed, when the golden records a digest of each (its `keys` line).
        const std::string keys = stale_keys_text(golden->header.keys, sc);
        *summary =
            keys.empty()
                ? "golden is stale: blessed for scenario '" + golden->header.scenario +
                      "' digest " + golden->header.digest + ", the scenario now has digest " +
                      sc.digest + " (it changed since; re-bless if the change is intended)"
                : "golden is stale: " + keys + " since the golden was written (scenario digest " +
                      golden->header.digest + ", now " + sc.digest +
                      "; re-bless if the change is intended)";
        return Status::kStale;
    }
    if (golden->header.behaviour != kBehaviourVersion) {
        *summary = "golden is stale: blessed with behaviour " +
                   std::to_string(golden->header.behaviour) + ", this build is behaviour " +
                   std::to_string(kBehaviourVersion);
        return Status::kStale;
    }
    bool csv_missing = false;
    if (std::string why = check_golden_pair(suite.golden_dir, suite_target(suite), sc.name, *golden,
                                            csv, &csv_missing);
        !why.empty()) {
        *summary = why;
        return csv_missing ? Status::kMissing : Status::kBadInput;
    }
    const std::vector<EntityRef> entities = entities_of(sc);
    if (golden->header.entities != entities) {
        *summary = "entities differ: golden " + entity_labels(golden->header.entities) + ", run " +
                   entity_labels(entities);
        return Status::kMismatch;
    }
    return Status::kPass;
}

std::string checks_summary(const CheckReport& r) {
    const int e = r.expectation_failures(), i = r.invariant_failures();
    if (e == 0 && i == 0) {
        return r.expectations == 0
                   ? "invariants hold (no expectations)"
                   : std::to_string(r.expectations) + " expectations and the invariants hold";
    }
    std::string s;
    if (e > 0) s = std::to_string(e) + " expectation" + (e == 1 ? "" : "s") + " failed";
    if (i > 0)
        s += (s.empty() ? "" : ", ") + std::to_string(i) + " invariant" + (i == 1 ? "" : "s") +
             " violated";
    return s;
}

/// What loading a scenario costs, roughly: the size of its file (0 when unreadable).
int64_t load_cost(const std::string& path) {
    std::error_code ec;
    const uintmax_t n = fs::file_size(path, ec);
    return ec ? 0 : static_cast<int64_t>(std::min<uintmax_t>(n, INT64_MAX));
}

} // namespace

const char* status_name(Status s) {
    switch (s) {
    case Status::kPass:
        return "pass";
    case Status::kMismatch:
        return "MISMATCH";
    case Status::kStale:
        return "STALE";
    case Status::kMissing:
        return "MISSING";
    case Status::kBadInput:
        return "ERROR";
    case Status::kCannotTest:
        return "CANNOT-TEST";
    case Status::kFailed:
        return "FAILED";
    }
    return "?";
}

int exit_code_of(const std::vector<Outcome>& outcomes) {
    int code = kExitOk;
    for (const Outcome& o : outcomes) {
        int c = kExitOk;
        switch (o.status) {
        case Status::kPass:
            c = kExitOk;
            break;
        case Status::kMismatch:
        case Status::kStale:
        case Status::kMissing:
        case Status::kFailed:
            c = kExitMismatch;
            break;
        case Status::kBadInput:
            c = kExitBadInput;
            break;
        case Status::kCannotTest:
            c = kExitCannotTest;
            break;
        }
        // Precedence: cannot test > bad input > mismatch > ok.
        auto rank = [](int x) {
            return x == kExitCannotTest ? 3
                                        : (x == kExitBadInput ? 2 : (x == kExitMismatch ? 1 : 0));
        };
        if (rank(c) > rank(code)) code = c;
    }
    return code;
}

int64_t run_cost(const Scenario& sc) {
    auto own = [](const Scenario& s) {
        return s.ticks * std::max<int64_t>(1, static_cast<int64_t>(s.characters.size()));
    };
    int64_t c = own(sc);
    for (const SameAsExpectation& e : sc.expect_same_as) {
        if (e.other) c += own(*e.other);
    }
    return c;
}

std::vector<int64_t> run_costs(const std::vector<Loaded>& loaded) {
    std::vector<int64_t> costs(loaded.size(), 0);
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (loaded[i].ok) costs[i] = run_cost(loaded[i].sc);
    }
    return costs;
}

std::vector<size_t> select_scenarios(const SuiteOptions& suite,
                                     const std::vector<std::string>& paths,
                                     const std::vector<Loaded>& loaded, size_t* matched) {
    std::vector<size_t> kept;
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (!loaded[i].ok || suite.filter.empty() ||
            loaded[i].sc.name.find(suite.filter) != std::string::npos) {
            kept.push_back(i);
        }
    }
    if (matched != nullptr) *matched = kept.size();
    if (suite.shard_count <= 0) return kept;
    std::vector<size_t> order = kept;
    const std::vector<int64_t> costs = run_costs(loaded);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return costs[a] != costs[b] ? costs[a] > costs[b] : paths[a] < paths[b];
    });
    std::vector<int64_t> load(static_cast<size_t>(suite.shard_count), 0);
    std::vector<size_t> mine;
    for (size_t i : order) {
        const size_t to =
            static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        load[to] += std::max<int64_t>(costs[i], 1); // a scenario that costs nothing still counts
        if (static_cast<int>(to) == suite.shard_index - 1) mine.push_back(i);
    }
    std::sort(mine.begin(), mine.end());
    return mine;
}

std::vector<Outcome> run_parallel(const std::vector<std::string>& paths,
                                  const std::vector<int64_t>& costs, int jobs, bool progress,
                                  std::ostream& err, const std::function<Outcome(size_t)>& work) {
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
            out[i].millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count();
            const size_t n = ++done;
            if (progress) {
                std::lock_guard<std::mutex> lock(print);
                err << "\r\x1b[2K[" << n << "/" << paths.size() << "] "
                    << (out[i].name.empty() ? out[i].path : out[i].name) << std::flush;
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
    for (auto& t : threads)
        t.join();
    if (progress) err << "\r\x1b[2K" << std::flush;
    return out;
}

std::vector<Loaded> load_all(const SuiteOptions& suite, const std::vector<std::string>& paths,
                             int jobs, std::ostream& err) {
    std::vector<Loaded> loaded(paths.size());
    std::vector<int64_t> costs(paths.size());
    for (size_t i = 0; i < paths.size(); ++i)
        costs[i] = load_cost(paths[i]);
    const std::vector<Outcome> times = run_parallel(paths, costs, jobs, false, err, [&](size_t i) {
        loaded[i].ok = load_for_suite(suite, paths[i], &loaded[i].sc, &loaded[i].error);
        return Outcome{};
    });
    for (size_t i = 0; i < paths.size(); ++i)
        loaded[i].millis = times[i].millis;
    return loaded;
}

uint64_t MemoryBudget::take(uint64_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    bytes = std::min(bytes, total_);
    freed_.wait(lock, [&] { return used_ + bytes <= total_; });
    used_ += bytes;
    return bytes;
}

void MemoryBudget::give(uint64_t bytes) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        used_ -= bytes;
    }
    freed_.notify_all();
}

Outcome verify_one(const SuiteOptions& suite, const std::string& path, const Loaded& loaded,
                   MemoryBudget* budget) {
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
    // What this job will hold: the hash file parsed (about twice its text) and the CSV's bytes.
    struct Held {
        MemoryBudget* budget;
        uint64_t bytes = 0;
        ~Held() {
            if (budget != nullptr) budget->give(bytes);
        }
    } held{budget};
    if (budget != nullptr) {
        std::error_code ec;
        const uintmax_t h = fs::file_size(golden_hashes_path(suite, sc.name), ec);
        const uintmax_t c = fs::file_size(golden_csv_path(suite, sc.name), ec);
        held.bytes =
            budget->take(2 * static_cast<uint64_t>(h == static_cast<uintmax_t>(-1) ? 0 : h) +
                         static_cast<uint64_t>(c == static_cast<uintmax_t>(-1) ? 0 : c));
    }
    HashFile golden;
    std::string golden_csv, golden_summary;
    o.status = golden_status(suite, sc, path, &golden, &golden_csv, &golden_summary);
    if (o.status == Status::kBadInput) {
        o.summary = golden_summary;
        return o;
    }
    // The run always happens: expectations and invariants are checked whatever the golden says.
    ExpectedText expected_csv(golden_csv);
    std::ostream csv_stream(&expected_csv);
    TrajectoryWriter csv;
    if (!csv.open(csv_stream, !sc.frames.empty(), &error)) {
        o.status = Status::kCannotTest;
        o.summary = error;
        return o;
    }
    VerifySink sink(golden, &csv);
    CheckReport report;
    if (!run_checked(sc, o.status == Status::kPass ? &sink : nullptr, RunOptions{}, &report,
                     &error)) {
        o.status = Status::kBadInput;
        o.summary = error;
        return o;
    }
    csv.commit(&error);
    o.checks_failed = !report.passed();
    o.failures = report.failures;
    const std::string checks = checks_summary(report);
    const std::string failures = format_failures(report, "");
    if (o.status != Status::kPass) {
        o.summary = golden_summary + "; " + checks;
        o.detail = failures;
        return o;
    }
    HashDivergence d = sink.divergence();
    if (!d.diverged &&
        (golden.ticks.size() != sink.lines_compared() || golden.header.ticks != sink.ticks_run())) {
        d.diverged = true;
        d.tick = sink.ticks_run();
        d.reason = "the golden has " + std::to_string(golden.ticks.size()) + " ticks, the run " +
                   std::to_string(sink.ticks_run());
    }
    if (d.diverged) {
        o.status = Status::kMismatch;
        // Which entities differ; when none does (the world hash alone, or the tick counts), why.
        const std::string which = !d.entities.empty() ? entity_labels(d.entities)
                                  : !d.reason.empty() ? d.reason
                                                      : "the world hash only";
        o.summary = "desync at tick " + std::to_string(d.tick) + " (" + which + "); " + checks;
        o.detail = explain_divergence(
                       sc, d, golden_csv_for(golden_csv_path(suite, sc.name), golden.header)) +
                   failures;
        return o;
    }
    if (!expected_csv.matches()) {
        // The hashes agree but the CSV does not: render poses (not hashed) differ, or the golden
        // CSV was rewritten together with the digest its hash file records.
        o.status = Status::kMismatch;
        o.summary = "the golden trajectory CSV differs from the run: " + expected_csv.difference() +
                    "; " + checks;
        o.detail = failures;
        return o;
    }
    if (o.checks_failed) o.status = Status::kFailed;
    o.summary = std::to_string(sc.ticks) + " ticks identical; " + checks;
    o.detail = failures;
    return o;
}

bool check_unique_names(const std::vector<Outcome>& outcomes, std::string* duplicate) {
    std::set<std::string> seen;
    for (const Outcome& o : outcomes) {
        if (o.name.empty()) continue;
        if (!seen.insert(o.name).second) {
            *duplicate = o.name;
            return false;
        }
    }
    return true;
}

} // namespace fx::harness
