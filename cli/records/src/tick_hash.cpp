#include "records/tick_hash.h"

#include "kcc/checksum.h"
#include "kcc/state_bytes.h"

namespace fx::harness {

std::string EntityRef::label() const {
    return static_cast<char>(kind) + std::to_string(id);
}

bool parse_entity_label(std::string_view text, EntityRef* out) {
    if (text.size() < 2 || text.size() > 11) return false;
    EntityKind kind;
    if (text[0] == 'c') {
        kind = EntityKind::kCharacter;
    } else if (text[0] == 'p') {
        kind = EntityKind::kPlatform;
    } else {
        return false;
    }
    const std::string_view digits = text.substr(1);
    if (digits.size() > 1 && digits[0] == '0') return false;
    uint64_t v = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v > UINT32_MAX) return false;
    *out = {kind, static_cast<uint32_t>(v)};
    return true;
}

std::string entity_labels(std::span<const EntityRef> entities) {
    std::string s;
    for (const EntityRef& e : entities) {
        if (!s.empty()) s += ' ';
        s += e.label();
    }
    return s;
}

std::vector<uint32_t> character_ids_of(std::span<const EntityRef> entities) {
    std::vector<uint32_t> ids;
    for (const EntityRef& e : entities) {
        if (e.kind == EntityKind::kCharacter) ids.push_back(e.id);
    }
    return ids;
}

uint64_t xxh3(std::span<const uint8_t> bytes) {
    return kcc::xxh3_64(bytes);
}

std::vector<EntityRef> entity_list(std::span<const kcc::CharacterState> chars,
                                   std::span<const std::pair<uint32_t, Vec3>> platforms) {
    std::vector<EntityRef> out;
    out.reserve(chars.size() + platforms.size());
    for (const kcc::CharacterState& c : chars)
        out.push_back({EntityKind::kCharacter, c.id});
    for (const auto& p : platforms)
        out.push_back({EntityKind::kPlatform, p.first});
    return out;
}

TickHashes TickHasher::hash(int64_t tick, std::span<const kcc::CharacterState> chars,
                            std::span<const std::pair<uint32_t, Vec3>> platforms) {
    TickHashes h;
    hash_into(tick, chars, platforms, &h);
    return h;
}

void TickHasher::hash_into(int64_t tick, std::span<const kcc::CharacterState> chars,
                           std::span<const std::pair<uint32_t, Vec3>> platforms, TickHashes* out) {
    // One contiguous buffer: each entity's sub-hash reads its slice, the world hash reads it all
    // (one-shot XXH3 of the concatenation, so anyone can recompute it from the bytes alone).
    const size_t total = chars.size() * kcc::kStateBytes + platforms.size() * kPlatformBytes;
    buffer_.resize(total);
    out->tick = tick;
    const size_t n_chars = ids_.empty() ? chars.size() : ids_.size();
    out->entities.resize(n_chars + platforms.size());
    uint8_t* p = buffer_.data();
    size_t k = 0, j = 0;
    for (const kcc::CharacterState& c : chars) {
        if (!ids_.empty()) {
            while (j < ids_.size() && ids_[j] != c.id)
                out->entities[j++] = kAbsentHash;
            k = j++;
        }
        const auto bytes = kcc::serialize_state(c);
        std::copy(bytes.begin(), bytes.end(), p);
        out->entities[k++] = kcc::xxh3_64({p, bytes.size()});
        p += bytes.size();
    }
    if (!ids_.empty()) {
        while (j < ids_.size())
            out->entities[j++] = kAbsentHash;
        k = ids_.size();
    }
    for (const auto& [id, center] : platforms) {
        const auto bytes = serialize_platform(id, center);
        std::copy(bytes.begin(), bytes.end(), p);
        out->entities[k++] = kcc::xxh3_64({p, bytes.size()});
        p += bytes.size();
    }
    out->world = kcc::xxh3_64({buffer_.data(), total});
}

} // namespace fx::harness
