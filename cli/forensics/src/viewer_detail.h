// The run viewer's parts (private to fx_forensics): the page's data are written as compact JSON
// text directly (short numbers, no indentation), strings escaped so that nothing in them can end
// the script element they sit in.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "scenario/scenario.h"

namespace fx::harness::viewer_detail {

/// A JSON string: quoted, escaped, '<' and '>' as \u003c and \u003e, bytes that are not UTF-8 as
/// their Latin-1 reading (json_text).
std::string jstr(std::string_view s);
/// A double with at most 4 decimals, trailing zeros dropped, never "-0".
std::string jnum(double v);

/// The most mesh triangles the page holds and draws.
inline constexpr size_t kMaxMeshTriangles = 20000;

/// The level as the page draws it: {"boxes":[[id,[c],[h],[m 9]]],"spheres":...,"platforms":...}.
std::string level_json(const Scenario& sc);
/// [[id, radius, height], ...] for each character (a rejoin: its first entry's body).
std::string characters_json(const Scenario& sc);

/// The trace, or when it is longer than max_bytes only the lines of the characters in `keep`,
/// up to max_bytes; *cut says whether anything was left out.
std::string cut_trace(const std::string& trace, const std::set<uint32_t>& keep, int64_t max_bytes,
                      bool* cut);

/// Zigzag varints of the deltas of `values`, in base64 (the page's column encoding).
std::string delta_column(const int64_t* values, size_t n);

} // namespace fx::harness::viewer_detail
