// The checksum file a recording writes beside its scenario (kcc::Recorder; docs/formats.md,
// "Checksum file"): the World::checksum() the game's world had after every tick, which a replay
// of the recording must give (`fxkcc run SCENARIO --checksums FILE`).
//
//   fxkcc-checksums 1
//   hash xxh3-64
//   ticks N
//   0 <16 lowercase hex digits>
//   ...
//   N-1 <16 lowercase hex digits>
//   end N
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fx::harness {

inline constexpr int kChecksumFileFormat = 1;

/// Parses a checksum file; false with "<display>:<line>:<column>: <what was expected>".
bool parse_checksum_file(std::string_view text, const std::string& display,
                         std::vector<uint64_t>* out, std::string* err);
/// Reads and parses one (at most kMaxReadBytes).
bool read_checksum_file(const std::string& path, std::vector<uint64_t>* out, std::string* err);

} // namespace fx::harness
