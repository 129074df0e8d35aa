// What one tick produces for the harness: canonical bytes of each entity and the tick's hashes.
//
// Entities of a run, in their canonical order (the order of every hash and every list below):
// characters by ascending id, then platforms by ascending id. Labels: "c<id>" for a character,
// "p<id>" for a platform (e.g. "c1", "p50").
//
// Hashes (hash algorithm "xxh3-64", XXH3_64bits with seed 0):
//   entity sub-hash = XXH3-64 of that entity's canonical bytes
//                     (characters: kcc::serialize_state, 142 bytes, state-bytes version 2;
//                      platforms:  serialize_platform below, 29 bytes, platform-bytes version 1)
//   world hash      = XXH3-64 of the concatenation of all entities' canonical bytes, in entity
//                     order (not a hash of the sub-hashes).
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fx/vec3.h"
#include "kcc/checksum.h"
#include "kcc/state.h"

namespace fx::harness {

enum class EntityKind : uint8_t { kCharacter = 'c', kPlatform = 'p' };

/// One entity of a run. The defaulted ordering is the canonical entity order ('c' < 'p', then id).
struct EntityRef {
    EntityKind kind = EntityKind::kCharacter;
    uint32_t id = 0;
    friend auto operator<=>(const EntityRef&, const EntityRef&) = default;
    /// "c1", "p50".
    std::string label() const;
};

/// Parses "c<id>" / "p<id>" (decimal id, no sign, no leading zeros except "0", fits uint32).
bool parse_entity_label(std::string_view text, EntityRef* out);
/// Labels joined by single spaces: "c1 c2 p50".
std::string entity_labels(std::span<const EntityRef> entities);

/// Canonical platform bytes (version 1: kcc/checksum.h, which defines them with the checksum).
using kcc::kPlatformBytes;
using kcc::kPlatformBytesVersion;
using kcc::serialize_platform;

/// The name of the hash algorithm in files.
inline constexpr std::string_view kHashAlgorithm = "xxh3-64";
/// XXH3-64 (seed 0) of the bytes: kcc::xxh3_64, the library's (tests/controller/checksum_test.cpp
/// holds it to the xxHash library's).
uint64_t xxh3(std::span<const uint8_t> bytes);

/// The entity hash of a character absent at that tick (a scenario's joins and leaves): written
/// `-` in hash files. An XXH3-64 of 142 bytes equal to it (odds 2^-64) would read as absent,
/// and the world hash, which covers the bytes, still tells two such runs apart.
inline constexpr uint64_t kAbsentHash = 0;

/// Per-tick hashes: `entities[i]` is the sub-hash of the i-th entity in entity order
/// (kAbsentHash for a character absent at that tick); `world` is the hash of the present
/// entities' bytes concatenated in that order (kcc::World::checksum).
struct TickHashes {
    int64_t tick = 0;
    uint64_t world = 0;
    std::vector<uint64_t> entities;
    friend bool operator==(const TickHashes&, const TickHashes&) = default;
};

/// The entity list of a run: characters (ascending id) then platforms (ascending id).
std::vector<EntityRef> entity_list(std::span<const kcc::CharacterState> chars,
                                   std::span<const std::pair<uint32_t, Vec3>> platforms);

/// Computes TickHashes for one tick. Reuses an internal byte buffer: after the first call with a
/// given entity count, hash_into() allocates nothing (when `out` is reused as well).
/// Preconditions (not checked): `chars` ascending by id, `platforms` ascending by id, the same
/// platforms every tick; the characters those of `character_ids` when given (else the same
/// every tick).
class TickHasher {
public:
    TickHasher() = default;
    /// Every character the run may have (ascending): `entities` has one hash per id, those
    /// absent from a tick's `chars` kAbsentHash.
    explicit TickHasher(std::vector<uint32_t> character_ids) : ids_(std::move(character_ids)) {}
    TickHashes hash(int64_t tick, std::span<const kcc::CharacterState> chars,
                    std::span<const std::pair<uint32_t, Vec3>> platforms);
    void hash_into(int64_t tick, std::span<const kcc::CharacterState> chars,
                   std::span<const std::pair<uint32_t, Vec3>> platforms, TickHashes* out);

private:
    std::vector<uint8_t> buffer_;
    std::vector<uint32_t> ids_;
};

/// The character ids among a hash file's entities (ascending).
std::vector<uint32_t> character_ids_of(std::span<const EntityRef> entities);

} // namespace fx::harness
