// Sync test (GGPO's synctest; docs/embedding.md, "Snapshots and rollback"): a scenario run
// with a rollback at every tick. After tick t is computed, the world is restored to its snapshot
// of the start of tick t + 1 - N and ticks t + 1 - N .. t are simulated again with the same
// inputs; every re-simulated tick must give the first run's bits. A mismatch is reported as a
// desync: the tick, the character, the fields, both runs' tick hashes.
#pragma once

#include <cstdint>
#include <string>

#include "run/fault.h"
#include "scenario/scenario.h"

namespace fx::harness {

struct SyncTestOptions {
    int rollback = 8; ///< N, ticks rolled back at every tick (>= 1)
    /// Flips bits of a field of a character right after a restore to the start of fault->tick:
    /// a restore that brings back a wrong value, which the test must catch. May be null.
    const Fault* restore_fault = nullptr;
};

struct SyncTestResult {
    bool ok = true;
    int64_t ticks = 0; ///< ticks of the first run
    int64_t resimulated = 0; ///< ticks simulated again after restores
    int64_t restores = 0;
    /// When !ok: the first re-simulated tick that differs, after restoring `restored_tick`.
    int64_t tick = -1;
    int64_t restored_tick = -1;
    std::string report; ///< one line per differing character field, and both hashes
};

/// Runs the sync test; false with *error when the world cannot be built or a restore fails.
bool sync_test(const Scenario& scenario, const SyncTestOptions& options, SyncTestResult* result,
               std::string* error);

} // namespace fx::harness
