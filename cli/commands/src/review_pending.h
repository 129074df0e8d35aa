// The pending goldens `fxkcc review` works on (review.cpp): found in the pending folder, each
// examined against the accepted golden and its scenario, accepted into the golden folder or
// checked before it is removed. Private to the commands library.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "commands/commands.h"
#include "records/hash_file.h"
#include "scenario/scenario.h"

namespace fx::harness::review_detail {

/// One pending golden pair and what it changes.
struct Pending {
    std::string target, name;
    std::string hashes_text, csv; ///< the pending files' bytes
    HashFile hashes;
    std::string error; ///< why it cannot be accepted ("" when it can)
    std::string change; ///< one line: what changes against the accepted golden
    std::string detail; ///< field lines of the first changed row, failed checks
    std::string checks; ///< the scenario's expectations and invariants on this build
};

/// What the scenario's expectations and invariants say on this build, by scenario name: computed
/// once, however many targets have a pending golden of it.
struct ChecksMemo {
    std::string checks, detail, error;
};

/// The pending goldens of the selected targets (cmd.suite.target, else every folder under
/// `root`) whose name contains the filter, sorted by target then name; none, with *error, when a
/// pending file's path holds a control or bidirectional character (text::acting_name_error).
std::vector<Pending> find_pending(const std::string& root, const ReviewCommand& cmd,
                                  std::string* error);

/// Why the pair `p` under `root` is not a pending golden that --reject may remove, or "": its
/// hash file must be an fxkcc hash file for the scenario it is named after and the target
/// folder it is in, and its CSV, when there is one, the CSV it records (by digest).
std::string not_a_pending_golden(const std::string& root, const Pending& p);

/// Reads a pending pair and says what it changes against the accepted golden (p->change,
/// p->detail, p->checks), or why it cannot be accepted (p->error).
void examine(const std::string& root, const ReviewCommand& cmd,
             const std::map<std::string, const Scenario*>& scenarios,
             std::map<std::string, ChecksMemo>* memo, Pending* p);

/// Accepts the pending goldens of one target into its golden folder (under its lock) and
/// removes them from the pending folder.
bool accept_target(const ReviewCommand& cmd, const std::string& root, const std::string& target,
                   const std::vector<const Pending*>& pending, std::ostream& out,
                   std::ostream& err);

/// Removes pending target folders left empty, then the pending folder when empty.
void remove_empty(const std::string& root);

} // namespace fx::harness::review_detail
