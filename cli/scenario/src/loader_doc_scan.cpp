// yaml-cpp 0.7.0's ScanScalar (src/scanscalar.cpp) and Exp::Escape (src/exp.cpp), transcribed
// onto the fast reader's cursor (loader_doc_scan.h): the same three phases per line (to the
// line's end, its break, the next line's indentation), the same folding and chomping, so that
// a scalar's bytes are yaml-cpp's. Where yaml-cpp throws, the reader declines (and yaml-cpp
// then reports the error itself).
#include <algorithm>
#include <cstdint>

#include "loader_doc_scan.h"

namespace fx::harness::detail::fast_yaml {

namespace {
bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
} // namespace

/// The length of p.end matched here, or -1.
int Cursor::end_match(const ScalarParams& p) const {
    const char c = at();
    switch (p.end) {
    case End::kPlainBlock: // EndScalar | BlankOrBreak + Comment
        if (c == ':' && ws_or_eof(at(1))) return 1;
        return (blank(c) || c == '\n') && at(1) == '#' ? 2 : -1;
    case End::kPlainFlow: // EndScalarInFlow | BlankOrBreak + Comment
        if (c == ':' && (ws_or_eof(at(1)) || at(1) == ',' || at(1) == ']' || at(1) == '}'))
            return 1;
        if (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') return 1;
        return (blank(c) || c == '\n') && at(1) == '#' ? 2 : -1;
    case End::kDouble:
        return c == '"' ? 1 : -1;
    case End::kSingle:
        return c == '\'' && at(1) != '\'' ? 1 : -1;
    case End::kEofOnly:
        return eof() ? 0 : -1;
    }
    return -1;
}

/// yaml-cpp's Exp::Escape, at the escape character.
void Cursor::escape(std::string& out, char esc) {
    ++pos_;
    const char ch = at();
    if (eof()) decline("end of file in an escape");
    ++pos_;
    if (esc == '\'' && ch == '\'') {
        out += '\'';
        return;
    }
    int digits = 0;
    switch (ch) {
    case '0':
        out += '\0';
        return;
    case 'a':
        out += '\x07';
        return;
    case 'b':
        out += '\x08';
        return;
    case 't':
        out += '\x09';
        return;
    case 'n':
        out += '\x0A';
        return;
    case 'v':
        out += '\x0B';
        return;
    case 'f':
        out += '\x0C';
        return;
    case 'r':
        out += '\x0D';
        return;
    case 'e':
        out += '\x1B';
        return;
    case ' ':
        out += ' ';
        return;
    case '"':
        out += '"';
        return;
    case '\'':
        out += '\'';
        return;
    case '\\':
        out += '\\';
        return;
    case '/':
        out += '/';
        return;
    case 'N':
        out += '\x85';
        return; // one byte, as yaml-cpp 0.7.0 writes it
    case '_':
        out += '\xA0';
        return;
    case 'L':
        out += "\xE2\x80\xA8";
        return;
    case 'P':
        out += "\xE2\x80\xA9";
        return;
    case 'x':
        digits = 2;
        break;
    case 'u':
        digits = 4;
        break;
    case 'U':
        digits = 8;
        break;
    default:
        decline("an unknown escape");
    }
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
        const char h = at();
        if (!is_hex_digit(h)) decline("a bad hexadecimal escape");
        v = (v << 4) | static_cast<uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        ++pos_;
    }
    if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) decline("an escape outside Unicode");
    auto byte = [&](uint32_t b) { out += static_cast<char>(static_cast<unsigned char>(b)); };
    if (v <= 0x7F) {
        byte(v);
    } else if (v <= 0x7FF) {
        byte(0xC0 + (v >> 6));
        byte(0x80 + (v & 0x3F));
    } else if (v <= 0xFFFF) {
        byte(0xE0 + (v >> 12));
        byte(0x80 + ((v >> 6) & 0x3F));
        byte(0x80 + (v & 0x3F));
    } else {
        byte(0xF0 + (v >> 18));
        byte(0x80 + ((v >> 12) & 0x3F));
        byte(0x80 + ((v >> 6) & 0x3F));
        byte(0x80 + (v & 0x3F));
    }
}

std::string Cursor::scan(ScalarParams& p) {
    bool found_non_empty_line = false;
    bool past_opening_break = p.fold == Fold::kFlow;
    bool empty_line = false, more_indented = false;
    int folded_newlines = 0;
    bool folded_started_more_indented = false;
    size_t last_escaped = std::string::npos;
    std::string text;
    p.leading_spaces = false;
    while (!eof()) {
        // Phase 1: to the end of the line.
        size_t last_non_ws = text.size();
        bool escaped_newline = false;
        while (end_match(p) < 0 && at() != '\n') {
            if (eof()) break;
            if (col() == 0 && doc_indicator()) {
                if (p.on_doc == OnDoc::kBreak) break;
                if (p.on_doc == OnDoc::kThrow) decline("a document marker in a quoted scalar");
            }
            found_non_empty_line = true;
            past_opening_break = true;
            if (p.escape == '\\' && at() == '\\' && at(1) == '\n') {
                ++pos_;
                last_non_ws = last_escaped = text.size();
                escaped_newline = true;
                break;
            }
            if (p.escape != 0 && at() == p.escape) {
                escape(text, p.escape);
                last_non_ws = last_escaped = text.size();
                continue;
            }
            const char ch = s_[pos_++];
            text += ch;
            if (!blank(ch)) last_non_ws = text.size();
        }
        if (eof()) {
            if (p.eat_end) decline("end of file in a quoted scalar");
            break;
        }
        if (p.on_doc == OnDoc::kBreak && col() == 0 && doc_indicator()) break;
        if (const int n = end_match(p); n >= 0) {
            if (p.eat_end) pos_ += static_cast<size_t>(n);
            break;
        }
        if (p.fold == Fold::kFlow) text.erase(last_non_ws);
        // Phase 2: the line break.
        next_line();
        // Phase 3: the indentation, then (eat_leading_ws) any other blanks.
        while (at() == ' ' && (col() < p.indent || (p.detect_indent && !found_non_empty_line)) &&
               end_match(p) < 0)
            ++pos_;
        if (p.detect_indent && !found_non_empty_line) p.indent = std::max(p.indent, col());
        while (blank(at())) {
            if (!p.eat_leading_ws || end_match(p) >= 0) break;
            ++pos_;
        }
        const bool next_empty_line = at() == '\n';
        const bool next_more_indented = blank(at());
        if (p.fold == Fold::kBlock && folded_newlines == 0 && next_empty_line)
            folded_started_more_indented = more_indented;
        if (past_opening_break) {
            switch (p.fold) {
            case Fold::kNone:
                text += '\n';
                break;
            case Fold::kBlock:
                if (!empty_line && !next_empty_line && !more_indented && !next_more_indented &&
                    col() >= p.indent) {
                    text += ' ';
                } else if (next_empty_line) {
                    ++folded_newlines;
                } else {
                    text += '\n';
                }
                if (!next_empty_line && folded_newlines > 0) {
                    text.append(static_cast<size_t>(folded_newlines - 1), '\n');
                    if (folded_started_more_indented || next_more_indented || !found_non_empty_line)
                        text += '\n';
                    folded_newlines = 0;
                }
                break;
            case Fold::kFlow:
                if (next_empty_line)
                    text += '\n';
                else if (!empty_line && !escaped_newline)
                    text += ' ';
                break;
            }
        }
        empty_line = next_empty_line;
        more_indented = next_more_indented;
        past_opening_break = true;
        if (!empty_line && col() < p.indent) {
            p.leading_spaces = true;
            break;
        }
    }
    // Post-processing: trailing blanks, then chomping.
    if (p.trim_trailing) {
        size_t at_last = text.find_last_not_of(" \t");
        if (last_escaped != std::string::npos &&
            (at_last < last_escaped || at_last == std::string::npos))
            at_last = last_escaped;
        if (at_last < text.size()) text.erase(at_last + 1);
    }
    if (p.chomp != Chomp::kKeep) {
        size_t at_last = text.find_last_not_of('\n');
        if (last_escaped != std::string::npos &&
            (at_last < last_escaped || at_last == std::string::npos))
            at_last = last_escaped;
        if (at_last == std::string::npos)
            text.erase();
        else if (p.chomp == Chomp::kClip && at_last + 1 < text.size())
            text.erase(at_last + 2);
        else if (p.chomp == Chomp::kStrip && at_last < text.size())
            text.erase(at_last + 1);
    }
    return text;
}

} // namespace fx::harness::detail::fast_yaml
