#include "scenario/scenario.h"

#include <algorithm>

namespace fx::harness {

std::vector<kcc::CharacterId> character_ids(const Scenario& sc) {
    std::vector<kcc::CharacterId> ids;
    for (const CharacterDef& c : sc.characters) {
        if (ids.empty() || ids.back() != c.id) ids.push_back(c.id); // entries in (id, join) order
    }
    return ids;
}

size_t entry_at(const Scenario& sc, kcc::CharacterId id, int64_t t) {
    auto it = std::lower_bound(sc.characters.begin(), sc.characters.end(), id,
                               [](const CharacterDef& c, kcc::CharacterId v) { return c.id < v; });
    for (; it != sc.characters.end() && it->id == id; ++it) {
        if (it->present_at(t)) return static_cast<size_t>(it - sc.characters.begin());
    }
    return sc.characters.size();
}

} // namespace fx::harness
