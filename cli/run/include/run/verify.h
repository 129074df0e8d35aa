// Running a suite: each scenario against its golden (verify_one), on worker threads, the
// costliest first (so that a long one does not start last and leave the others idle); results
// in path order, so the output does not depend on scheduling. The commands verify and bless
// print what this returns.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "run/checks.h"
#include "run/suite.h"

namespace fx::harness {

/// A golden status; kFailed: the golden matched (or could not be compared) but an expectation
/// or invariant failed.
enum class Status { kPass, kMismatch, kStale, kMissing, kBadInput, kCannotTest, kFailed };

const char* status_name(Status s);

struct Outcome {
    std::string path;
    std::string name;
    Status status = Status::kPass;
    std::string summary; ///< one line
    std::string detail; ///< the full report, may be multi-line
    int64_t ticks = 0;
    int64_t millis = 0;
    bool checks_failed = false; ///< an expectation or invariant failed (whatever the golden status)
    std::vector<CheckFailure> failures; ///< the failed checks, as in `detail` (verify --format)
};

/// The exit code of a suite: cannot test > bad input > mismatch > ok.
int exit_code_of(const std::vector<Outcome>& outcomes);

/// A scenario loaded for a suite command, or why it could not be.
struct Loaded {
    Scenario sc;
    bool ok = false;
    std::string error;
    int64_t millis = 0; ///< time taken to load
};

/// Loads every path on `jobs` threads (0: all cores), the largest file first.
std::vector<Loaded> load_all(const SuiteOptions& suite, const std::vector<std::string>& paths,
                             int jobs, std::ostream& err);

/// What running a loaded scenario costs, roughly: its character-ticks (ticks alone without
/// characters), plus those of the scenarios its same_as expectations run beside it.
int64_t run_cost(const Scenario& sc);
/// The run cost of each loaded scenario (0 for one that did not load).
std::vector<int64_t> run_costs(const std::vector<Loaded>& loaded);

/// What a suite command works on, as indices into `loaded` in path order: the scenarios whose name
/// contains suite.filter (one that did not load is kept whatever its name: its error is
/// reported), then suite's shard K/N balanced by run cost. The shards are dealt the same way on
/// every machine: scenarios by descending run cost (ties by path), each to the shard with the
/// least cost so far (ties to the lowest), so N shards take about the same time and their union
/// is the selection, each scenario once. `*matched`: how many the filter kept, before sharding.
std::vector<size_t> select_scenarios(const SuiteOptions& suite,
                                     const std::vector<std::string>& paths,
                                     const std::vector<Loaded>& loaded, size_t* matched = nullptr);

/// Runs work(i) for every index i of `paths` on `jobs` threads (0: all cores), the largest cost
/// first (costs[i] is that of paths[i]; ties, and an empty `costs`, in path order); results in
/// path order, each with its time. `progress`: a progress line on `err`.
std::vector<Outcome> run_parallel(const std::vector<std::string>& paths,
                                  const std::vector<int64_t>& costs, int jobs, bool progress,
                                  std::ostream& err, const std::function<Outcome(size_t)>& work);

/// Bytes of memory shared by the jobs of one verify: a job takes what its goldens will hold
/// before reading them and gives it back when done, waiting while others hold too much. A job
/// larger than the whole budget runs alone. So `-j N` never holds N times the largest golden.
class MemoryBudget {
public:
    explicit MemoryBudget(uint64_t bytes) : total_(bytes) {}
    /// Takes min(bytes, the whole budget), waiting until it is free; returns what it took.
    uint64_t take(uint64_t bytes);
    void give(uint64_t bytes);

private:
    std::mutex mutex_;
    std::condition_variable freed_;
    uint64_t total_, used_ = 0;
};

/// What verify's jobs may hold at once beyond their scenarios: 2 GiB (docs/reliability.md).
inline constexpr uint64_t kVerifyMemoryBudget = uint64_t{2} << 30;

/// Verifies one loaded scenario against its golden: the hashes tick by tick, the trajectory CSV
/// (its digest, then byte for byte against the run's, render poses included), and runs its
/// expectations and invariants, whatever the golden says. `budget` (may be null) bounds what
/// concurrent calls hold.
Outcome verify_one(const SuiteOptions& suite, const std::string& path, const Loaded& loaded,
                   MemoryBudget* budget = nullptr);

/// Whether the suite options select the whole suite: no scenario paths, no -k filter, no shard
/// other than 1/1. Only then can a golden without a scenario be told from one not selected.
bool whole_suite(const SuiteOptions& suite);

/// A golden of the target folder whose scenario is not in the suite (renamed or deleted): its
/// name (the files' stem) and its files (the hash file and the CSV, those that exist).
struct Orphan {
    std::string name;
    std::vector<std::string> files;
};

/// The goldens of golden/<target>/ named after no scenario of `names` (hidden files and an
/// interrupted bless's temporaries are not goldens), sorted by name; false with *error when the
/// folder cannot be listed (a folder that does not exist has no orphans).
bool find_orphans(const SuiteOptions& suite, const std::vector<std::string>& names,
                  std::vector<Orphan>* orphans, std::string* error);

/// A digest of each top-level key of what `sc` simulates, as the hash file's `keys` line holds
/// them (docs/formats.md): "tick_rate=<16 hex> ticks=<16 hex> world=<16 hex> ...", in the order
/// scenario_to_yaml writes them; every key the scenario's digest covers, none of the others
/// (name, description, expectations).
std::string scenario_key_digests(const Scenario& sc);
/// The keys whose digests differ between two such lines, those of `now` first in its order, then
/// those `now` no longer has; none when either line is empty (a golden written before the line).
std::vector<std::string> changed_keys(const std::string& then, const std::string& now);
/// "the scenario changed (world, characters)": what changed in `sc` since a golden whose `keys`
/// line is `then` was written; "" when that cannot be told (no line, or no key differs).
std::string stale_keys_text(const std::string& then, const Scenario& sc);

/// False with *duplicate when two outcomes share a scenario name (names name the goldens).
bool check_unique_names(const std::vector<Outcome>& outcomes, std::string* duplicate);

} // namespace fx::harness
