// The JSON reports' strings, numbers and text (records/json.h).
#include "records/json.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace fx::harness {

std::string json_text(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            o += static_cast<char>(c);
            continue;
        }
        // The length of the sequence c starts (0: c starts none), then whether it is whole.
        const size_t n = c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        bool whole = n > 0 && i + n <= s.size();
        for (size_t k = 1; whole && k < n; ++k)
            whole = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        if (whole) {
            o.append(s.substr(i, n));
            i += n - 1;
        } else { // U+0080..U+00FF in UTF-8
            o += static_cast<char>(0xC0 | (c >> 6));
            o += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return o;
}

Json json_decimal(std::string_view text) {
    // [-]digits[.digits] (what the reports' decimal texts are), read without the library's
    // parser: instantiating it made this file the slowest of the build.
    size_t i = text.size() > 0 && text[0] == '-' ? 1 : 0;
    const size_t int_start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i;
    const size_t int_end = i;
    if (int_end == int_start) return Json(nullptr);
    if (i == text.size()) {
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        return ec == std::errc() && end == text.data() + text.size() ? Json(v) : Json(nullptr);
    }
    if (text[i] != '.') return Json(nullptr);
    ++i;
    const size_t frac_start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i;
    if (i != text.size() || i == frac_start) return Json(nullptr);
    // The nearest double (strtod rounds correctly; the program never changes the C locale).
    return Json(std::strtod(std::string(text).c_str(), nullptr));
}

std::string dump_json(const Json& j) {
    // Strings went through json_text(): replacing is never needed, but a stray byte must not throw.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace fx::harness
