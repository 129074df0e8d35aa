// The JSON reports (verify --json, run --metrics F.json, bench --json, swarm --json) are
// documents of nlohmann/json (keys kept in the order written) and written by dump_json(). The
// harness never reads them back; tests and CI tools do (docs/formats.md).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fx::harness {

using Json = nlohmann::ordered_json;

/// A string for a JSON document, whatever bytes `s` holds: well-formed UTF-8 sequences as they
/// are, any other byte b as the character U+00bb (its Latin-1 reading), so that the document is
/// always valid JSON and no byte of a path or a message is lost.
std::string json_text(std::string_view s);

/// A JSON number written as the decimal `text` says ("120", "-0.25", "6.2"): an integer as an
/// integer, exactly; a fraction as the double nearest to it, which prints back as the same
/// digits (the reports' decimals have at most 15 significant digits; below 1e-4 in exponent
/// form, 1e-06). Not a number: null.
Json json_decimal(std::string_view text);

/// The document as text: two-space indentation, a newline at the end.
std::string dump_json(const Json& j);

} // namespace fx::harness
