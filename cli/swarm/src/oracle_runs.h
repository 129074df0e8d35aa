// The oracles that compare runs (private to the swarm library): the metamorphic transforms and
// their comparison, the snapshot round trip and the synctest, and what the oracles share.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kcc/state.h"
#include "scenario/scenario.h"
#include "swarm/generate.h"
#include "swarm/oracles.h"

namespace fx::harness::swarm::detail {

using States = std::vector<kcc::CharacterState>;

/// "tick T, character C".
std::string at_text(int64_t tick, uint32_t id);
/// Rounded to 6 decimals at any size (metric_text: integer arithmetic on the raw value).
std::string m6(Scalar v);

/// A scenario a run is compared with, and how.
struct Metamorphic {
    std::string oracle;
    Scenario other;
    std::map<uint32_t, uint32_t> ids; ///< permute: original id -> id in `other`
    Vec3 shift; ///< translate: the offset of every position
    bool turn = false; ///< turn: positions, velocities, normals turned a quarter
    /// Set: compared with a run of this scenario instead of the original's.
    std::optional<Scenario> base;
};

/// The transformed scenarios the run `sc` is compared with (translation, permutation, frames
/// off, the quarter turn of its ghosts); `plant` names the one that gets a planted difference.
std::vector<Metamorphic> transforms(const GeneratedRun& run, const Scenario& sc,
                                    const std::string& plant);
/// Runs m.other and compares it, tick by tick, with `states` (or with m.base's run). True, with
/// *f filled, at the first difference.
bool metamorphic_fails(const GeneratedRun& run, const Scenario& sc,
                       const std::vector<States>& states, const Metamorphic& m, Finding* f,
                       int64_t* character_ticks);
/// The synctest at the run's rollback (1 to 12 ticks, from the seed).
bool synctest_fails(const GeneratedRun& run, const Scenario& sc, bool plant, Finding* f,
                    int64_t* character_ticks);
/// A snapshot restored into a world built afresh continues as the world it was taken from.
bool roundtrip_fails(const GeneratedRun& run, const Scenario& sc, bool plant, Finding* f,
                     int64_t* character_ticks);

} // namespace fx::harness::swarm::detail
