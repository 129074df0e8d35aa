// The JSON reports' values, strings, numbers and text (records/json.h): the one file that
// includes nlohmann/json's full header.
#include "records/json.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "records/text.h"

namespace fx::harness {

using Value = nlohmann::ordered_json;

Json::Json() : j_(std::make_unique<Value>()) {}
Json::Json(std::nullptr_t) : Json() {}
Json::Json(bool b) : j_(std::make_unique<Value>(b)) {}
Json::Json(const char* s) : Json(std::string_view(s)) {}
Json::Json(std::string_view s) : j_(std::make_unique<Value>(json_text(s))) {}
Json::Json(const std::string& s) : Json(std::string_view(s)) {}
Json::Json(const Json& other) : j_(std::make_unique<Value>(*other.j_)) {}
Json::Json(Json&& other) noexcept = default;
Json& Json::operator=(const Json& other) {
    if (this != &other) j_ = std::make_unique<Value>(*other.j_);
    return *this;
}
Json& Json::operator=(Json&& other) noexcept = default;
Json::~Json() = default;

void Json::set_integer(std::int64_t v) {
    *j_ = v;
}
void Json::set_unsigned(std::uint64_t v) {
    *j_ = v;
}

Json Json::object(std::initializer_list<Member> members) {
    Json o;
    *o.j_ = Value::object();
    for (const Member& m : members)
        o.set(m.key, m.value);
    return o;
}

Json Json::array() {
    Json a;
    *a.j_ = Value::array();
    return a;
}

Json& Json::set(std::string_view key, Json value) {
    (*j_)[json_text(key)] = std::move(*value.j_);
    return *this;
}

void Json::push_back(Json value) {
    j_->push_back(std::move(*value.j_));
}

std::string json_text(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            o += static_cast<char>(c);
            continue;
        }
        if (const size_t n = text::utf8_sequence(s, i); n > 0) { // well-formed UTF-8
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
    Json number;
    *number.j_ = std::strtod(std::string(text).c_str(), nullptr);
    return number;
}

std::string dump_json(const Json& j) {
    // Strings went through json_text(): replacing is never needed, but a stray byte must not throw.
    const std::string dumped = j.j_->dump(2, ' ', false, Value::error_handler_t::replace) + "\n";
    // The library escapes C0 controls; C1 and bidirectional ones (text::acting_character), which
    // only a string can hold (JSON's own syntax is ASCII), become \u escapes too: the same text
    // to a JSON reader, nothing a terminal acts on when the report is printed (--json -).
    static const char kHex[] = "0123456789abcdef";
    std::string o;
    o.reserve(dumped.size());
    size_t len = 1;
    for (size_t i = 0; i < dumped.size(); i += len) {
        if (!text::acting_character(dumped, i, &len) || len == 1) {
            o.append(dumped, i, len);
            continue;
        }
        const auto b = [&](size_t k) { return static_cast<unsigned>(dumped[i + k]) & 0xFFu; };
        const unsigned cp = len == 2 ? ((b(0) & 0x1F) << 6) | (b(1) & 0x3F)
                                     : ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        o += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4)
            o += kHex[(cp >> shift) & 15];
    }
    return o;
}

} // namespace fx::harness
