// The JSON reports' strings, numbers and text (records/json.h).
#include "records/json.h"

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
    Json j = Json::parse(text, nullptr, false);
    return j.is_number() ? j : Json(nullptr);
}

std::string dump_json(const Json& j) {
    // Strings went through json_text(): replacing is never needed, but a stray byte must not throw.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace fx::harness
