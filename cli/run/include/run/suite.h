// The suite: scenario discovery, golden paths, and runs that hash, write or compare a scenario
// tick by tick (the pieces verify, bless and the forensics share).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "records/compare.h"
#include "records/hash_file.h"
#include "records/tick_hash.h"
#include "records/trajectory.h"
#include "run/runner.h"
#include "scenario/loader.h"

namespace fx::harness {

/// Exit codes, as `git bisect run` reads them.
enum ExitCode : int {
    kExitOk = 0, ///< everything matched / succeeded
    kExitMismatch = 1, ///< a golden mismatch, a stale or missing golden
    kExitBadInput = 2, ///< bad usage or bad input (scenario, golden or CSV file)
    kExitCannotTest = 125, ///< the test could not be run (setup failure, cannot write)
};

/// Where scenarios and goldens live; shared by every command.
struct SuiteOptions {
    std::string scenarios_dir = "scenarios";
    std::string golden_dir = "golden";
    std::string target; ///< golden/<target>/; empty: this build's target
    bool allow_outside = false;
    std::vector<std::string> inputs; ///< scenario files or folders; empty: all of scenarios_dir
    std::string filter; ///< keep scenarios whose name contains this
    int shard_index = 0; ///< 1-based K of --shard K/N; 0: no sharding
    int shard_count = 0;
    bool allow_empty = false; ///< a filter that matches no scenario is not an error
};

/// Scenario files named by the suite options: the inputs (files, or folders searched recursively
/// for *.yaml / *.yml), or all of scenarios_dir; sorted by path. Fails on an input that does not
/// exist. The filter and the shard apply once they are loaded (select_scenarios, run/verify.h).
bool discover_scenarios(const SuiteOptions& suite, std::vector<std::string>* paths,
                        std::string* error);

std::string suite_target(const SuiteOptions& suite);
std::string golden_hashes_path(const SuiteOptions& suite, const std::string& name);
std::string golden_csv_path(const SuiteOptions& suite, const std::string& name);
/// The trajectory CSV that belongs to a golden hash file whose CSV is at csv_path: csv_path,
/// or csv_path + ".next" when a bless was interrupted after committing the hash file but
/// before renaming the CSV into place (write_goldens), recognised by the header's CSV digest.
/// When `verified` is given, it tells whether the returned file was read and has that digest;
/// its bytes are then moved to *bytes, so that a caller needs not read it again.
std::string golden_csv_for(const std::string& csv_path, const HashFileHeader& header,
                           std::string* bytes = nullptr, bool* verified = nullptr);
/// "" when `path` (a golden file, existing) resolves inside `golden_dir`; else why not. Goldens
/// may be symbolic links (git stores them), but only to files of the golden folder: a link to
/// /proc/self/environ or /etc/shadow is refused before anything is read.
std::string golden_outside_reason(const std::string& golden_dir, const std::string& path);

/// Why the golden pair `name` of `suite` (its folder golden_dir/target, its .hashes and .csv)
/// may not be written or removed, or "": a write or a removal never goes through a link nor into
/// a special file. The golden folder and its target folder, where they exist, must be folders,
/// not links (a link there sent writes, and `bless --prune`'s removals, to another folder), and
/// each file, where it exists, a regular file: not a link (written through, it replaced a file
/// outside), a FIFO (a bless blocked for ever) or a device (written to, nothing kept). Reads may
/// follow links within the golden folder (golden_outside_reason); writes never do (issue 51).
std::string golden_write_refusal(const SuiteOptions& suite, const std::string& name);
/// The folder part of golden_write_refusal(): golden_dir and golden_dir/target.
std::string golden_folder_refusal(const std::string& golden_dir, const std::string& target);

/// Checks a golden pair whose hash file was read: its target header names its folder, and its
/// trajectory CSV (golden_csv_for) lies inside the golden folder and has the digest the hash
/// file records. "" when whole, *csv_bytes then holding the CSV; else the reason, with
/// *csv_missing set when the CSV does not exist.
std::string check_golden_pair(const std::string& golden_dir, const std::string& target,
                              const std::string& name, const HashFile& hashes,
                              std::string* csv_bytes, bool* csv_missing);

/// hex16 of XXH3-64 of the bytes (the golden CSV digest).
std::string content_digest(std::string_view bytes);

/// Loads with the suite's root and options.
bool load_for_suite(const SuiteOptions& suite, const std::string& path, Scenario* sc,
                    std::string* error);

/// Loads one scenario given on the command line (run, diff, desync, shrink, plot, bench): its
/// own folder is the tree, or the default scenarios/ tree when the file lies inside it.
bool load_single_scenario(const std::string& path, bool allow_outside, Scenario* sc,
                          std::string* error);

/// The header a run of this build writes for a scenario.
HashFileHeader header_for(const Scenario& sc);
std::vector<EntityRef> entities_of(const Scenario& sc);

/// Collects the hashes of a run in memory (for bless and diff).
class CollectSink final : public RunSink {
public:
    /// out->header.entities must be set: every character of the run.
    explicit CollectSink(HashFile* out)
        : out_(out), hasher_(character_ids_of(out->header.entities)) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override;

private:
    HashFile* out_;
    TickHasher hasher_;
};

/// Runs a scenario and returns its hash file (in memory).
bool run_to_hash_file(const Scenario& sc, HashFile* out, std::string* error);

/// Runs a scenario to `tick` and returns every character's state there.
bool states_at(const Scenario& sc, int64_t tick, std::vector<kcc::CharacterState>* out,
               std::string* error);

/// Runs the scenario once and writes its goldens (trajectory CSV, then hashes) atomically;
/// *hashes receives the new hash file.
bool write_goldens(const SuiteOptions& suite, const Scenario& sc, HashFile* hashes,
                   std::string* error);

/// Installs a golden pair written elsewhere (a pending golden, `fxkcc review --accept`): the
/// CSV's bytes and the hash file's text into suite's golden folder, in write_goldens's order
/// (the CSV as "<name>.csv.next", the hash file atomically, the CSV renamed into place), so an
/// interruption leaves what tidy_golden_folder completes, never a half-written golden.
bool install_goldens(const SuiteOptions& suite, const std::string& name,
                     std::string_view hashes_text, std::string_view csv, std::string* error);

/// Where pending goldens go by default (bless --pending, review): "<golden_dir>.pending" beside
/// the golden folder ("golden.pending" for "golden"), laid out as it is: <target>/<name>.hashes
/// and <name>.csv.
std::string default_pending_dir(const std::string& golden_dir);

/// Run by bless while it holds the golden folder's lock (so no other bless is writing there):
/// finishes what an interrupted bless left half done, and removes its temporary files. A
/// "<name>.csv.next.tmp.<pid>.<token>" whose digest is the one "<name>.hashes" records, while
/// "<name>.csv" is not, is renamed over "<name>.csv" (the step the bless did not reach); every
/// other temporary file ("*.tmp.<pid>.<token>", records/atomic_file.h) is removed. Each action
/// is appended to *done ("completed the interrupted bless of 'x.csv'", "removed 'x.tmp...'").
bool tidy_golden_folder(const std::string& folder, std::vector<std::string>* done,
                        std::string* error);

/// Whether `name` is a temporary file's name ("<base>.tmp.<digits>.<16 hex digits>"); *base
/// receives what precedes ".tmp.".
bool is_temporary_name(std::string_view name, std::string_view* base);

/// The detailed report of a divergence: first tick, entities, and for characters the fields
/// that differ, expected from the golden trajectory CSV when readable, actual from a re-run.
std::string explain_divergence(const Scenario& sc, const HashDivergence& d,
                               const std::string& golden_csv);

} // namespace fx::harness
