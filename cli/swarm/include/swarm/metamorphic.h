// Transformations of a scenario whose runs must relate exactly to the original's (docs/swarm.md,
// "Oracles"): a translation by whole metres, a relabelling of characters with the listing order
// of world items and of one tick's events shuffled, and a quarter turn about the vertical axis.
// (The display frames removed is a plain copy without `frames`.)
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

/// A quarter turn about +y: (x, y, z) -> (z, y, -x), exact in fixed point (a permutation with
/// one sign).
inline Vec3 quarter_turn(const Vec3& v) {
    return Vec3{v.z, v.y, -v.x};
}

/// The scenario turned a quarter about +y: every position and direction by quarter_turn, every
/// rotation as the exact matrix of the turn times its own, sticks (x, y) -> (y, -x), planes
/// marked exact (their normals are unit already). Expectations are dropped (their bounds are per
/// axis); the runs compare state by state (oracles.cpp).
Scenario turned(const Scenario& sc);

} // namespace fx::harness::swarm
