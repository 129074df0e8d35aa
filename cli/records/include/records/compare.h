// First-divergence reports between two runs: from hash files (which tick, which entities) and
// from trajectory rows or states (which fields, by how many raw units). Pure functions; the
// report text is built here, printing is the caller's business.
//
// Report lines print every value in full, decimal (fx::to_string_shortest) next to raw hex, so
// they can be pasted into a test or compared across machines:
//   first divergent tick 137 (last matching tick 136)
//     c1: x expected 1.25 (raw 0x0000000140000000) actual 1.2500000007 (raw 0x0000000140000003)
//     delta +3 ulp
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kcc/state.h"
#include "records/hash_file.h"
#include "records/tick_hash.h"
#include "records/trajectory.h"

namespace fx::harness {

struct HashDivergence {
    bool diverged = false;
    /// First tick whose hashes differ (or the first tick one file lacks); -1 when not diverged.
    int64_t tick = -1;
    /// Entities whose sub-hash differs at that tick (entity order). When the entity lists
    /// differ: the entities present in only one of the files.
    std::vector<EntityRef> entities;
    /// Empty when sub-hashes differ at a common tick; otherwise what differs, e.g.
    /// "tick counts differ: 300 vs 250", "entities differ: c1 c2 vs c1",
    /// "world hash differs but no entity hash does".
    std::string reason;
};

/// Compares tick by tick (expected first, actual second in every message). Different entity
/// lists diverge at tick 0. If all common ticks agree but the counts differ, the divergence is
/// at the first tick one file lacks. Headers are not compared (see incomparable_reason).
HashDivergence first_divergence(const HashFile& expected, const HashFile& actual);

/// Why two hash files cannot honestly be compared tick by tick, or "" when they can. Different
/// scenario digests ("stale: scenario digest differs: <e> vs <a>"), engine or behaviour
/// versions. Provenance never matters: all targets must agree.
std::string incomparable_reason(const HashFileHeader& expected, const HashFileHeader& actual);

/// "first divergent tick 137 (last matching tick 136)" / "... (no tick before it)".
std::string format_divergent_tick(int64_t tick, int64_t every = 1);

/// Full report of a hash divergence: the tick line, the reason if any, then the world hash and
/// each differing entity's sub-hash, expected and actual in full. "" when not diverged.
std::string format_hash_divergence(const HashDivergence& d, const HashFile& expected,
                                   const HashFile& actual);

struct FieldDiff {
    std::string field; ///< a state_fields() name
    int64_t expected_raw = 0;
    int64_t actual_raw = 0;
    bool is_scalar = false; ///< delta = actual - expected in raw units (ulps)
};

/// Fields (state_fields order, including previous_*) whose raw values differ.
std::vector<FieldDiff> diff_states(const kcc::CharacterState& expected,
                                   const kcc::CharacterState& actual);

/// One line per field, each "  c1: <field> expected <value> actual <value>[ delta <+-n> ulp]\n".
/// Scalars print as "<shortest decimal> (raw 0x<16 hex>)", delta exact even across the full
/// int64 range; flags as 0/1; ids as integers or "none".
std::string format_field_diffs(EntityRef entity, const std::vector<FieldDiff>& diffs);

struct CsvDivergence {
    bool diverged = false;
    int64_t tick = -1;
    uint32_t character = 0;
    /// Differing fields of that row: state_fields names, plus render_x/y/z.
    std::vector<FieldDiff> fields;
    /// Empty when fields differ; otherwise e.g. "row counts differ: 600 vs 500",
    /// "rows differ: expected tick 5 character 2, found tick 5 character 3",
    /// "render position in expected only".
    std::string reason;
};

/// Compares rows in order; the first row that differs (or is missing) is the divergence.
CsvDivergence first_divergence(const std::vector<TrajectoryRow>& expected,
                               const std::vector<TrajectoryRow>& actual);

/// Full report: tick line, reason if any, field lines. "" when not diverged.
std::string format_csv_divergence(const CsvDivergence& d);

} // namespace fx::harness
