// Small text helpers shared by the hash-file and trajectory readers and writers.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace fx::harness::text {

/// Text escaped for XML attribute values and character data (&, <, >, ").
inline std::string xml_escape(std::string_view s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        default: o += c;
        }
    }
    return o;
}

/// Splits text into lines (LF; one trailing CR per line is dropped, for CRLF checkouts),
/// counting them 1-based. After the last line, next() returns false and number() is the line
/// where the end of the text was met.
class Lines {
public:
    explicit Lines(std::string_view text) : text_(text) {}
    bool next(std::string_view* line) {
        ++number_;
        if (pos_ >= text_.size()) return false;
        size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        std::string_view l = text_.substr(pos_, end - pos_);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        pos_ = end + 1;
        *line = l;
        return true;
    }
    int number() const { return number_; }

private:
    std::string_view text_;
    size_t pos_ = 0;
    int number_ = 0;
};

/// A piece of text as quoted in messages: at most 60 characters.
inline std::string quote(std::string_view s) {
    if (s.size() > 60) return "'" + std::string(s.substr(0, 57)) + "...'";
    return "'" + std::string(s) + "'";
}

inline void append_int(std::string* s, int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s->append(buf, r.ptr);
}

} // namespace fx::harness::text
