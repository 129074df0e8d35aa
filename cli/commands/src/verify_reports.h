// What `fxkcc verify` writes besides its table (verify.cpp): the JUnit and JSON reports, GitHub
// annotations (--format github) and the lines naming orphan goldens (--orphans). Private to the
// commands library.
#pragma once

#include <string>
#include <vector>

#include "run/verify.h"

namespace fx::harness {

/// The orphan goldens verify found, and what it makes of them.
struct OrphanReport {
    bool checked = false; ///< the whole suite was selected (whole_suite): orphans were looked for
    bool fail = false; ///< --orphans fail: they fail the run (exit 1); otherwise a warning
    std::vector<Orphan> orphans;
};

/// One line saying why `o` is an orphan, without its status word.
std::string orphan_message(const Orphan& o);

std::string junit_xml(const std::vector<Outcome>& outcomes, const std::string& target,
                      const OrphanReport& orphans);

std::string report_json(const std::vector<Outcome>& outcomes, const std::string& build_target,
                        const std::string& golden_target, const std::string& note,
                        const int (&counts)[7], int checks_failed, const OrphanReport& orphans,
                        int exit_code);

/// GitHub workflow commands, one a line: `::error file=PATH,line=N,col=M::message` for each
/// failed expectation at its line in the scenario file, for each violated invariant, mismatched,
/// stale, missing or unreadable golden at line 1 of the scenario file; for each orphan golden at
/// line 1 of its hash file (`::warning`, or `::error` with --orphans fail).
std::string github_annotations(const std::vector<Outcome>& outcomes, const OrphanReport& orphans);

} // namespace fx::harness
