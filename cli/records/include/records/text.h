// Small text helpers shared by the hash-file and trajectory readers and writers.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fx::harness::text {

/// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" hints.
inline int edit_distance(std::string_view a, std::string_view b) {
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = static_cast<int>(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = static_cast<int>(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

/// The word of `valid` that `word` was probably meant to be: the closest within edit distance 2
/// (the first in `valid`'s order on ties), else one that starts with it or that it starts with;
/// nullptr when none is close.
inline const std::string* closest_word(std::string_view word,
                                       const std::vector<std::string>& valid) {
    int best = 3;
    const std::string* pick = nullptr;
    for (const std::string& k : valid) {
        const int d = edit_distance(word, k);
        if (d < best) {
            best = d;
            pick = &k;
        }
    }
    if (pick == nullptr && !word.empty()) {
        for (const std::string& k : valid) {
            if (k.starts_with(word) || word.starts_with(k)) return &k;
        }
    }
    return pick;
}

/// The length of the well-formed UTF-8 sequence at s[i] (a first byte from 0x80 up): 2 to 4, or 0
/// when it is not one (a stray continuation byte, a cut or overlong sequence, a surrogate, past
/// U+10FFFF).
inline size_t utf8_sequence(std::string_view s, size_t i) {
    const auto at = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = at(0);
    const size_t n = c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((at(k) & 0xC0) != 0x80) return 0;
    // The second byte's range where the first allows less than 0x80..0xBF (Unicode table 3-7).
    if ((c == 0xE0 && at(1) < 0xA0) || (c == 0xED && at(1) > 0x9F) || (c == 0xF0 && at(1) < 0x90) ||
        (c == 0xF4 && at(1) > 0x8F))
        return 0;
    return n;
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

/// Appends one byte of quoted text: line breaks and tabs as \n, \r, \t, other control bytes as
/// \xNN, and bytes from 0x7F up as \xNN too when `escape_high` (ASCII formats) or raw otherwise
/// (UTF-8 text, where only DEL is escaped). Messages stay on one line and never carry terminal
/// escapes.
inline void append_escaped(std::string& o, unsigned char c, bool escape_high) {
    static const char kHex[] = "0123456789abcdef";
    if (c == '\n') {
        o += "\\n";
    } else if (c == '\r') {
        o += "\\r";
    } else if (c == '\t') {
        o += "\\t";
    } else if (c < 0x20 || c == 0x7F || (escape_high && c > 0x7F)) {
        o += "\\x";
        o += kHex[c >> 4];
        o += kHex[c & 15];
    } else {
        o += static_cast<char>(c);
    }
}

/// A piece of text as quoted in messages: at most 60 bytes of it, escaped by append_escaped
/// (these formats are ASCII; a binary file must not write raw bytes into a one-line error).
inline std::string quote(std::string_view s) {
    const bool cut = s.size() > 60;
    if (cut) s = s.substr(0, 57);
    std::string o = "'";
    for (const char ch : s)
        append_escaped(o, static_cast<unsigned char>(ch), true);
    return o + (cut ? "...'" : "'");
}

/// The code point of the well-formed UTF-8 sequence of `len` bytes (utf8_sequence's) at s[i].
inline uint32_t code_point(std::string_view s, size_t i, size_t len) {
    const auto b = [&](size_t k) {
        return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k]));
    };
    uint32_t cp = len == 1   ? b(0)
                  : len == 2 ? (b(0) & 0x1F)
                  : len == 3 ? (b(0) & 0x0F)
                             : (b(0) & 0x07);
    for (size_t k = 1; k < len; ++k)
        cp = (cp << 6) | (b(k) & 0x3F);
    return cp;
}

/// Appends \uXXXX (four lower-case hex digits) for a code point below U+10000.
inline void append_u_escape(std::string& o, uint32_t cp) {
    static const char kHex[] = "0123456789abcdef";
    o += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        o += kHex[(cp >> shift) & 15];
}

/// Whether the character at s[i] is one a terminal or a CI log acts on instead of showing it: a
/// C0 control (tab and line feed too: a name or an argument holds none, and a line break lets it
/// start a CI log's command line), DEL, a C1 control (U+0080..U+009F, or a byte 0x80..0x9F that
/// is not part of well-formed UTF-8: an 8-bit terminal's CSI is 0x9B) or a bidirectional control
/// (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069). *len: the character's length in
/// bytes (1 for a byte that does not start well-formed UTF-8, otherwise shown as it is: a Latin-1
/// name's 0xE9).
inline bool acting_character(std::string_view s, size_t i, size_t* len) {
    const auto c = static_cast<unsigned char>(s[i]);
    *len = 1;
    if (c < 0x20 || c == 0x7F) return true;
    if (c < 0x80) return false;
    const size_t n = utf8_sequence(s, i);
    if (n == 0) return c <= 0x9F;
    *len = n;
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    if (n == 2) return (c == 0xC2 && b(1) <= 0x9F) || (c == 0xD8 && b(1) == 0x9C);
    if (n != 3 || c != 0xE2) return false;
    return (b(1) == 0x80 && (b(2) == 0x8E || b(2) == 0x8F || (b(2) >= 0xAA && b(2) <= 0xAE))) ||
           (b(1) == 0x81 && b(2) >= 0xA6 && b(2) <= 0xA9);
}

/// Whether `s` holds a character of acting_character's kinds.
inline bool has_acting_character(std::string_view s) {
    size_t len = 1;
    for (size_t i = 0; i < s.size(); i += len)
        if (acting_character(s, i, &len)) return true;
    return false;
}

/// `s` as a message shows it: every character of acting_character's kinds escaped (\n, \t, \r,
/// \x1b, \x9b for a lone byte, \u202e), everything else as it is.
inline std::string shown(std::string_view s) {
    std::string o;
    size_t len = 1;
    for (size_t i = 0; i < s.size(); i += len) {
        if (!acting_character(s, i, &len))
            o.append(s.substr(i, len));
        else if (len == 1)
            append_escaped(o, static_cast<unsigned char>(s[i]), true);
        else
            append_u_escape(o, code_point(s, i, len));
    }
    return o;
}

/// A number in lower-case hex digits, no leading zeros ("9b", "202e").
inline std::string hex_of(uint32_t v) {
    static const char kHex[] = "0123456789abcdef";
    std::string o;
    do {
        o.insert(o.begin(), kHex[v & 15]);
        v >>= 4;
    } while (v != 0);
    return o;
}

/// Text escaped for XML 1.0 attribute values and character data, whatever bytes it holds: &, <,
/// > and " as entities; the control characters XML cannot hold (all below 0x20 but tab, line feed
/// and carriage return) as the text \xNN; well-formed UTF-8 as it is, but U+FFFE and U+FFFF (not
/// XML characters) as \uFFFE and \uFFFF; any other byte from 0x80 up read as Latin-1 (the byte
/// 0xE9 of a Latin-1 file name becomes U+00E9), as JSON reports do (json_text); C1 and
/// bidirectional characters (acting_character's, however they came) as character references
/// (&#x9b;, &#x202e;): the same text to an XML reader, nothing a terminal acts on.
inline std::string xml_escape(std::string_view s) {
    static const char kHex[] = "0123456789abcdef";
    std::string o;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
        case '&':
            o += "&amp;";
            continue;
        case '<':
            o += "&lt;";
            continue;
        case '>':
            o += "&gt;";
            continue;
        case '"':
            o += "&quot;";
            continue;
        default:
            break;
        }
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            o += "\\x";
            o += kHex[c >> 4];
            o += kHex[c & 15];
        } else if (c < 0x80) {
            o += static_cast<char>(c);
        } else if (const size_t n = utf8_sequence(s, i); n > 0) {
            const std::string_view seq = s.substr(i, n);
            if (seq == "\xEF\xBF\xBE" || seq == "\xEF\xBF\xBF")
                o += seq.back() == '\xBE' ? "\\uFFFE" : "\\uFFFF";
            else if (size_t len = 0; acting_character(s, i, &len)) // C1, bidirectional: a reference
                o += "&#x" + hex_of(code_point(s, i, n)) + ";";
            else
                o.append(seq);
            i += n - 1;
        } else if (c <= 0x9F) { // U+0080..U+009F (C1), a terminal's controls: a reference
            o += "&#x" + hex_of(c) + ";";
        } else { // U+00A0..U+00FF in UTF-8
            o += static_cast<char>(0xC0 | (c >> 6));
            o += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return o;
}

/// The error for a path met by listing a folder that holds a character of acting_character's
/// kinds, or "" when it holds none: every message naming the file would carry it to terminals
/// and CI logs (a line break and "::error::" make a GitHub Actions command), so such a file is
/// refused where it is found, as the command line refuses such an argument.
inline std::string acting_name_error(std::string_view path) {
    if (!has_acting_character(path)) return {};
    return "'" + shown(path) +
           "': a file name with a control or bidirectional character is refused (a terminal or a "
           "CI log would act on it; rename the file)";
}

inline void append_int(std::string* s, int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s->append(buf, r.ptr);
}

/// value / unit as a decimal with `digits` digits after the point (1 to 9), rounded half up;
/// value >= 0 and unit > 0. decimal(3436649, 1000, 1) is "3436.6" (milliseconds as seconds),
/// decimal(3436600, 3600000, 2) is "0.95" (as hours), decimal(1500, 1000, 3) is "1.500".
inline std::string decimal(int64_t value, int64_t unit, int digits) {
    int64_t scale = 1;
    for (int k = 0; k < digits; ++k)
        scale *= 10;
    const int64_t q = value / unit, r = value % unit;
    int64_t frac = (r * scale * 2 + unit) / (unit * 2);
    int64_t whole = q;
    if (frac == scale) {
        ++whole;
        frac = 0;
    }
    std::string f = std::to_string(frac);
    return std::to_string(whole) + "." + std::string(static_cast<size_t>(digits) - f.size(), '0') +
           f;
}

} // namespace fx::harness::text
