// Transformations of a scenario whose runs must relate exactly to the original's (docs/swarm.md,
// "Oracles"): a translation by whole metres, and a relabelling of characters with the listing
// order of world items and of one tick's events shuffled. (The display frames removed is a plain
// copy without `frames`.)
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "fx/vec3.h"
#include "scenario/scenario.h"
#include "swarm/rng.h"

namespace fx::harness::swarm {

/// Every position of the scenario moved by d (whole metres keep every product exact): shapes,
/// plane offsets, platforms' waypoints, spawns, teleports, and the x / y / z bounds of its
/// expectations.
Scenario translated(const Scenario& sc, const Vec3& d);

/// Character ids relabelled by a random bijection (ids_out: old -> new), world items listed
/// in a shuffled order (their ids kept), and the events of each tick shuffled among
/// themselves. Expectations follow the relabelling.
Scenario permuted(const Scenario& sc, Rng& rng, std::map<uint32_t, uint32_t>* ids_out);

} // namespace fx::harness::swarm
