// `fxkcc swarm` (docs/swarm.md): generated runs checked by oracles that do not trust the solver;
// every finding shrunk, de-duplicated by signature and written as a ready-to-commit scenario,
// reproducible from seed, run index and commit.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "forensics/shrink.h"
#include "swarm/generate.h"
#include "swarm/oracles.h"

namespace fx::harness::swarm {

struct SwarmOptions {
    uint64_t seed = 1;
    int64_t runs = 100; ///< runs 0 .. runs - 1 (with time_limit: at most that many)
    int64_t only_run = -1; ///< >= 0: this run alone (a finding's reproduction)
    int64_t time_limit = 0; ///< seconds; > 0: stop starting runs after this long
    int jobs = 1;
    FeatureMask features = kAllFeatures;
    std::string features_text; ///< as given (repro lines)
    std::string out_dir; ///< findings' scenarios (empty: not written)
    std::string emit_dir; ///< every run's scenario (empty: not written)
    OracleSet oracles;
    std::string side_args; ///< the side options as given (repro lines)
    int shrink_runs = 300; ///< candidates per shrink at most
    /// Set (to a signal's number) when the user asked the swarm to stop: no run starts after it;
    /// the runs that finished are checked, shrunk and reported (may be null).
    const std::atomic<int>* stop = nullptr;
    /// Findings already known (oracle|family keys, known_key()): reported, but not a failure.
    std::vector<std::string> known;
    /// Files the swarm reads or runs (the --known file, the sides' programs, fxkcc itself): no
    /// file it writes into --out or --emit may be one of them (write_folder_file).
    std::vector<std::string> inputs;
    std::function<void(const std::string&)> progress; ///< may be null
};

struct SwarmFinding {
    Finding finding;
    std::string
        signature; ///< oracle|family|features left after shrinking|solver steps at the failing tick
    int64_t run = 0;
    FeatureMask run_features = 0;
    FeatureMask kept_features = 0;
    std::string steps;
    std::string scenario; ///< written file (empty: not written)
    std::string repro;
    ShrinkSizes before, after;
    int duplicates = 0; ///< later findings of the same oracle and family, not shrunk again
    std::string key; ///< oracle|family of the failing character (known_key)
    bool known = false; ///< listed in SwarmOptions::known
    std::vector<int64_t> duplicate_runs;
};

struct SwarmReport {
    uint64_t seed = 0;
    int64_t runs = 0;
    int64_t character_ticks = 0;
    std::map<std::string, int64_t> oracles; ///< name -> runs it checked
    std::vector<SwarmFinding> findings; ///< one per signature
    std::string commit;
    int interrupted = 0; ///< the signal that stopped it early (SwarmOptions::stop), or 0
    /// Wall time and processor time (process_cpu_ms: every job's thread, the shrinking, the
    /// sides' processes) from the first run to the report, in milliseconds; cpu_ms -1 when the
    /// system does not say.
    int64_t wall_ms = 0;
    int64_t cpu_ms = 0;
};

/// Reads a file of known findings: one `oracle|family` key a line, `#` comments, blank lines.
bool read_known(const std::string& path, std::vector<std::string>* out, std::string* error);

/// Makes the folders of --out and --emit (before the first run, not found unwritable after
/// hours); false with *error ("DIR: cannot create the folder: ..."). run_swarm calls it first.
bool make_output_folders(const SwarmOptions& o, std::string* error);

/// Exit code: 0 no finding (or only known ones), 1 a finding not known, 125 cannot test (*error:
/// an output or a side).
int run_swarm(const SwarmOptions& options, SwarmReport* report, std::string* error);

std::string report_json(const SwarmReport& r);
std::string report_junit(const SwarmReport& r);
/// The terminal text: one block per finding and the summary line.
std::string report_text(const SwarmReport& r);

} // namespace fx::harness::swarm
