// The swarm's oracles (docs/swarm.md, "Oracles"). None takes the solver's own output as truth:
//   invariant:<kind>  the checks every scenario must hold (run/checks.h): penetration, inside,
//                     grounded, halted, overflow (checked builds)
//   rule:<rule>       an expectation the generator derived from KCC-SPEC (swarm/generate.h)
//   floor             airborne for 3 ticks or more, not rising, with walkable static ground within
//                     the probe band under the feet ("no fall while a floor is under the feet")
//   crowd-apart       an idle crowd's colliding members overlap by more than 1 cm at its end
//   rest-skin         a body at rest closer than its skin (less 1 mm) to a static surface
//   rest-path         a body pushed out of a union ends farther from its spawn than the smallest
//   way out translate         the run moved by whole metres is not the run moved, exactly permute
//   relabelled characters, shuffled world items and same-tick events change more
//                     than the labels
//   frames            display frames change the tick path
//   turn              the run with every character a ghost, turned a quarter about +y, is not the
//                     ghost run turned (positions, velocities, ground normals; not the facing)
//   roundtrip         a snapshot restored into a world built afresh does not continue the same
//   synctest          a rollback and re-simulation gives other bits (run/synctest.h)
//   sides             two builds (--a, --b) give other hashes (forensics/desync.h)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "forensics/shrink.h"
#include "forensics/sides.h"
#include "swarm/generate.h"

namespace fx::harness::swarm {

struct Finding {
    std::string oracle; ///< "invariant:penetration", "rule:wall-slide", "floor", "translate", ...
    bool has_character = false;
    uint32_t character = 0;
    int64_t tick = -1;
    std::string message; ///< one line
    FailureSignature sig; ///< what the shrinker keeps failing
};

/// Which oracles run (all by default).
struct OracleSet {
    bool metamorphic = true;
    bool synctest = true;
    const Side* a = nullptr; ///< both set: the sides oracle
    const Side* b = nullptr;
    /// The test of the test (--inject-oracle-fault): this oracle's comparison gets a planted
    /// difference (a transformed run's first character moved 1 mm at its spawn; the restored
    /// world's first character's x flipped in its 3 lowest bits; a synctest restore fault at
    /// tick 0), so that it must report a finding on every run. Empty: none.
    std::string plant;
};
/// The oracles --inject-oracle-fault can plant a difference in.
const std::vector<std::string>& plantable_oracles();

/// Runs every oracle of `set` on `run` (its scenario and rules). Findings are appended, at most
/// one per oracle and character; `checked` counts, per oracle name, that it checked this run.
/// *character_ticks: the character-ticks simulated (every run of every oracle). False with
/// *error when the scenario cannot run at all (a generator bug).
bool check_run(const GeneratedRun& run, const OracleSet& set, std::vector<Finding>* out,
               std::map<std::string, int64_t>* checked, int64_t* character_ticks,
               std::string* error);

/// Whether `candidate` (a reduced copy of run.scenario) still fails as `f` says: the shrinker's
/// oracle for a finding; *tick receives the failing tick.
bool fails_again(const GeneratedRun& run, const Finding& f, const OracleSet& set,
                 const Scenario& candidate, int64_t* tick);

/// The solver steps of character `id` in tick `tick` of a run of `sc`: the notable trace events
/// (platform carry, depenetration, iteration cap, step attempts and their result, snap, landing)
/// in solve order, e.g. "depenetrate,iteration_cap"; "" when none.
std::string solver_steps(const Scenario& sc, uint32_t id, int64_t tick);

} // namespace fx::harness::swarm
