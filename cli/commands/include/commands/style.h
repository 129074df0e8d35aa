// Colour on a terminal: status words and headings through fmt's text styles, off when the
// output is not a terminal, when NO_COLOR is set (and not empty) or TERM is "dumb", unless
// `--color always` asks for it; `--color never` turns it off everywhere.
#pragma once

#include <string>
#include <string_view>

namespace fx::harness {

enum class ColourMode { kAuto, kAlways, kNever };

/// Parses "auto", "always" or "never"; false for anything else.
bool parse_colour_mode(std::string_view text, ColourMode* out);

/// Whether to colour a stream: `mode`, whether the stream is a terminal, and the values of
/// NO_COLOR and TERM (null: unset).
bool colour_wanted(ColourMode mode, bool is_terminal, const char* no_color, const char* term);

/// Text styles of one output stream; with colour off every function returns its text as is.
struct Style {
    bool colour = false;

    std::string good(std::string_view text) const; ///< green: pass, identical
    std::string bad(std::string_view text) const; ///< bold red: mismatch, failed, desync
    std::string warning(std::string_view text) const; ///< yellow: stale, missing, changed
    std::string strong(std::string_view text) const; ///< bold: names, headings
};

} // namespace fx::harness
