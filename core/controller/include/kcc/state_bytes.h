// Canonical state bytes of a character: the input of the harness's per-tick hashes.
// Field by field, little-endian, never raw struct memory. Layout (version 2), offsets in bytes:
//    0  u8      format version (kStateBytesVersion)
//    1  u32     id
//    5  i64 x3  position x, y, z (raw Q31.32)
//   29  i64 x3  velocity x, y, z
//   53  i64     facing (rad)
//   61  u8      flags: bit0 grounded, bit1 halted
//   62  i64 x3  ground normal x, y, z
//   86  u32     ground shape id (0xFFFFFFFF: none)
//   90  u32     platform id (0xFFFFFFFF: none)
//   94  i64 x3  previous position x, y, z
//  118  i64     previous facing
//  126  i64     run speed (m/s; version 2)
//  134  i64     step hold (m; version 2)
//  142          end (kStateBytes)
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "kcc/settings.h"
#include "kcc/state.h"

namespace fx::kcc {

inline constexpr uint8_t kStateBytesVersion = 2;
inline constexpr size_t kStateBytes = 142;

std::array<uint8_t, kStateBytes> serialize_state(const CharacterState& s);
/// Reads bytes written by serialize_state; false (and *out untouched) on a wrong size or an
/// unknown version.
bool deserialize_state(std::span<const uint8_t> bytes, CharacterState* out);

/// A character's settings as bytes (snapshots, version 2): every field in declaration order
/// (kcc/settings.h), Scalars as i64 raw, ints as i32, collide_characters as u8 (0 or 1), all
/// little-endian: 19 x 8 + 4 x 4 + 1 bytes.
inline constexpr size_t kSettingsBytes = 169;
std::array<uint8_t, kSettingsBytes> serialize_settings(const Settings& s);
/// Reads bytes written by serialize_settings; false (and *out untouched) on a wrong size or a
/// flag byte other than 0 or 1. The values are not validated here (kcc::validate does that).
bool deserialize_settings(std::span<const uint8_t> bytes, Settings* out);

} // namespace fx::kcc
