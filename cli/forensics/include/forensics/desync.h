// Desync forensics (faults to inject: run/fault.h): the first difference between
// two solver traces, and the one-command report that puts hashes, states and traces together.
// Walk-through with real output: docs/desync.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kcc/state.h"
#include "records/compare.h"
#include "records/hash_file.h"

namespace fx::harness {

/// The first line where two traces differ, with the lines both had before it.
struct TraceDifference {
    bool differs = false;
    size_t line = 0; ///< 1-based line number (in both traces: the lines before agree)
    std::vector<std::string> context; ///< up to N common lines before it
    std::string a, b; ///< the differing lines ("" when a trace ended)
};
TraceDifference first_trace_difference(std::string_view a, std::string_view b,
                                       size_t context_lines);

/// Everything the report says, for the command, the bundle and the tests.
struct DesyncReport {
    bool diverged = false;
    int64_t tick = -1; ///< first divergent (recorded) tick
    int64_t every = 1; ///< recording stride of the hash files
    std::vector<EntityRef> entities;
    std::string reason; ///< from HashDivergence, when not a plain sub-hash difference
    struct Character {
        uint32_t id = 0;
        std::vector<FieldDiff> fields;
    };
    std::vector<Character> characters; ///< characters whose state differs at `tick`
    int64_t trace_from = -1, trace_to = -1;
    TraceDifference trace; ///< over ticks [trace_from, trace_to]
};

/// Fills the hash part of a report (tick, entities, reason).
DesyncReport compare_runs(const HashFile& a, const HashFile& b);
/// Adds the state differences at report.tick from both sides' states at that tick.
void add_state_differences(DesyncReport* report, const std::vector<kcc::CharacterState>& a,
                           const std::vector<kcc::CharacterState>& b);

/// The terminal summary. `name_a`/`name_b` label the two sides.
std::string format_desync(const DesyncReport& r, const std::string& name_a,
                          const std::string& name_b);

} // namespace fx::harness
