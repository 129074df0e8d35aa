// desync's bundle (docs/desync.md, "The bundle"): a folder of everything about one desync,
// written whole or not at all, replacing only an earlier bundle.
#pragma once

#include <string>

#include "commands/commands.h"
#include "forensics/desync.h"
#include "records/hash_file.h"
#include "scenario/scenario.h"

namespace fx::harness {

/// What desync has of one side: its hashes, the divergent ticks' rows (CSV) and trace, its build.
struct SideRun {
    HashFile hashes;
    std::string csv, trace, version;
    std::string full_csv; ///< the whole run's trajectory (for the page), "" when not asked for
};

/// "" when `dir` may receive a bundle: it does not exist, or is an empty folder, or holds an
/// earlier bundle and nothing else; and it is not the current folder or one that contains it.
std::string bundle_refusal(const std::string& dir);

/// Writes the bundle of desync report `rep` (its text `report_text`, the viewer's `page`, "":
/// a page saying why there is none) into `dir`, replacing an earlier bundle there.
bool write_bundle(const std::string& dir, const DesyncCommand& cmd, const Scenario& sc,
                  const DesyncReport& rep, const std::string& report_text, const SideRun& a,
                  const SideRun& b, const std::string& page, std::string* error);

} // namespace fx::harness
