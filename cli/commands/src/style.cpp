#include "commands/style.h"

#include <fmt/color.h>
#include <fmt/format.h>

namespace fx::harness {

bool parse_colour_mode(std::string_view text, ColourMode* out) {
    if (text == "auto")
        *out = ColourMode::kAuto;
    else if (text == "always")
        *out = ColourMode::kAlways;
    else if (text == "never")
        *out = ColourMode::kNever;
    else
        return false;
    return true;
}

bool colour_wanted(ColourMode mode, bool is_terminal, const char* no_color, const char* term) {
    if (mode != ColourMode::kAuto) return mode == ColourMode::kAlways;
    // no-color.org: NO_COLOR present and not empty turns colour off, whatever its value.
    if (no_color != nullptr && *no_color != '\0') return false;
    if (term != nullptr && std::string_view(term) == "dumb") return false;
    return is_terminal;
}

namespace {

std::string styled(bool colour, fmt::text_style style, std::string_view text) {
    return colour ? fmt::format(style, "{}", text) : std::string(text);
}

} // namespace

std::string Style::good(std::string_view text) const {
    return styled(colour, fmt::fg(fmt::terminal_color::green), text);
}
std::string Style::bad(std::string_view text) const {
    return styled(colour, fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold, text);
}
std::string Style::warning(std::string_view text) const {
    return styled(colour, fmt::fg(fmt::terminal_color::yellow), text);
}
std::string Style::strong(std::string_view text) const {
    return styled(colour, fmt::emphasis::bold, text);
}

} // namespace fx::harness
