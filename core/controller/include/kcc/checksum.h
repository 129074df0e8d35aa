// The per-tick checksum of a world, in the library (docs/embedding.md, "Checksums"): XXH3-64
// (seed 0) of the canonical bytes of every character (state_bytes.h) and every platform, the
// world hash the goldens record for each tick (docs/formats.md). Computed here, not through the
// xxHash library, so that the controller depends on nothing; tests/controller/checksum_test.cpp
// compares xxh3_64 with the xxHash library's XXH3_64bits on every length up to 2,048 bytes and on
// random inputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "fx/vec3.h"

namespace fx::kcc {

/// XXH3-64 with seed 0 and the default secret (XXH3_64bits), as specified by xxHash 0.8.
uint64_t xxh3_64(std::span<const uint8_t> bytes);

/// Canonical platform bytes, version 1 (little-endian):
///    0  u8      format version (kPlatformBytesVersion)
///    1  u32     platform id
///    5  i64 x3  centre x, y, z (raw Q31.32)
///   29          end (kPlatformBytes)
inline constexpr uint8_t kPlatformBytesVersion = 1;
inline constexpr size_t kPlatformBytes = 29;
std::array<uint8_t, kPlatformBytes> serialize_platform(uint32_t id, const Vec3& center);

} // namespace fx::kcc
