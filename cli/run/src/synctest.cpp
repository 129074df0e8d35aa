#include "run/synctest.h"

#include <cstdio>
#include <vector>

#include "kcc/world.h"
#include "records/compare.h"
#include "records/tick_hash.h"
#include "run/runner.h"

namespace fx::harness {

bool sync_test(const Scenario& sc, const SyncTestOptions& options, SyncTestResult* result,
               std::string* error) {
    *result = SyncTestResult{};
    if (options.rollback < 1) {
        *error = "the rollback must be at least 1 tick";
        return false;
    }
    kcc::World world;
    if (!build_world(sc, &world, error)) return false;
    const size_t ring = static_cast<size_t>(options.rollback) + 1;
    Timeline timeline(sc);
    // Per slot (tick % ring): the snapshot at the start of the tick (before its runtime changes),
    // its inputs, and the first run's states and world hash after it.
    std::vector<std::vector<uint8_t>> snaps(ring);
    std::vector<std::vector<kcc::Input>> inputs(ring);
    std::vector<std::vector<kcc::CharacterState>> states(ring);
    std::vector<uint64_t> hashes(ring);
    TickHasher hasher;
    TickHashes h;
    // The characters' world hash (the goldens' hash without the platforms, whose poses follow
    // from the tick alone).
    const std::vector<std::pair<uint32_t, Vec3>> no_platforms;
    auto world_hash = [&](int64_t t) {
        hasher.hash_into(t, world.characters(), no_platforms, &h);
        return h.world;
    };
    for (int64_t t = 0; t < sc.ticks; ++t) {
        const size_t slot = static_cast<size_t>(t) % ring;
        world.snapshot(&snaps[slot]);
        if (!timeline.apply(t, &world, error)) return false;
        timeline.inputs(t, &inputs[slot]);
        world.step(inputs[slot]);
        states[slot].assign(world.characters().begin(), world.characters().end());
        hashes[slot] = world_hash(t);
        ++result->ticks;

        const int64_t from = t + 1 - options.rollback < 0 ? 0 : t + 1 - options.rollback;
        if (!world.restore(snaps[static_cast<size_t>(from) % ring], error)) return false;
        ++result->restores;
        if (options.restore_fault != nullptr && options.restore_fault->tick == from &&
            !apply_fault(*options.restore_fault, &world, "restore fault", error))
            return false;
        for (int64_t u = from; u <= t; ++u) {
            const size_t us = static_cast<size_t>(u) % ring;
            if (!timeline.apply(u, &world, error)) return false;
            world.step(inputs[us]);
            ++result->resimulated;
            const uint64_t again = world_hash(u);
            if (again == hashes[us]) continue;
            result->ok = false;
            result->tick = u;
            result->restored_tick = from;
            std::string r;
            for (size_t i = 0; i < states[us].size() && i < world.characters().size(); ++i) {
                const std::vector<FieldDiff> d = diff_states(states[us][i], world.characters()[i]);
                if (!d.empty())
                    r += format_field_diffs(EntityRef{EntityKind::kCharacter, states[us][i].id}, d);
            }
            char line[160];
            std::snprintf(line, sizeof line,
                          "  characters' hash: first run %016llx, after the rollback %016llx\n",
                          static_cast<unsigned long long>(hashes[us]),
                          static_cast<unsigned long long>(again));
            result->report = r + line;
            return true;
        }
    }
    return true;
}

} // namespace fx::harness
