#include "records/checksums.h"

#include "records/atomic_file.h"
#include "records/hash_file.h"

namespace fx::harness {
namespace {

/// A line's text as shown in a message: cut to 60 bytes, control bytes escaped.
std::string shown(std::string_view t) {
    std::string s = "'";
    for (size_t i = 0; i < t.size() && i < 60; ++i) {
        const auto c = static_cast<unsigned char>(t[i]);
        if (c < 0x20 || c >= 0x7f) {
            static const char kHex[] = "0123456789ABCDEF";
            s += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        } else {
            s += static_cast<char>(c);
        }
    }
    return s + (t.size() > 60 ? "...'" : "'");
}

bool parse_count(std::string_view t, int64_t* out) {
    if (t.empty() || t.size() > 18 || (t.size() > 1 && t[0] == '0')) return false;
    int64_t v = 0;
    for (const char c : t) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
}

bool parse_hex(std::string_view t, uint64_t* out) {
    if (t.size() != 16) return false;
    uint64_t v = 0;
    for (const char c : t) {
        const int d = c >= '0' && c <= '9' ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
        if (d < 0) return false;
        v = (v << 4) | static_cast<uint64_t>(d);
    }
    *out = v;
    return true;
}

} // namespace

bool parse_checksum_file(std::string_view text, const std::string& display,
                         std::vector<uint64_t>* out, std::string* err) {
    std::vector<uint64_t> sums;
    size_t pos = 0;
    int line_no = 0;
    std::string_view line;
    auto next = [&]() {
        if (pos >= text.size()) return false;
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = end + 1;
        ++line_no;
        return true;
    };
    auto fail = [&](int column, const std::string& what) {
        *err = display + ":" + std::to_string(line_no) + ":" + std::to_string(column) + ": " + what;
        return false;
    };
    if (!next()) return fail(1, "not an fxkcc checksum file (an empty file)");
    if (line.substr(0, 16) != "fxkcc-checksums ") {
        return fail(
            1,
            "not an fxkcc checksum file (its first line is not 'fxkcc-checksums <version>'), found " +
                shown(line));
    }
    if (line.substr(16) != std::to_string(kChecksumFileFormat)) {
        return fail(17, "checksum file format " + shown(line.substr(16)) +
                            " is not one this build reads (" + std::to_string(kChecksumFileFormat) +
                            ")");
    }
    if (!next() || line != "hash xxh3-64")
        return fail(1, "expected 'hash xxh3-64', found " + shown(line));
    int64_t ticks = 0;
    if (!next() || line.substr(0, 6) != "ticks " || !parse_count(line.substr(6), &ticks) ||
        ticks > 100000000) {
        return fail(1, "expected 'ticks <count>' (0 to 100000000), found " + shown(line));
    }
    for (int64_t t = 0; t < ticks; ++t) {
        if (!next())
            return fail(1, "truncated file: expected tick " + std::to_string(t) +
                               ", found end of file");
        const size_t sp = line.find(' ');
        int64_t tick = -1;
        if (sp == std::string_view::npos || !parse_count(line.substr(0, sp), &tick) || tick != t) {
            return fail(1, "expected '" + std::to_string(t) + " <checksum>', found " + shown(line));
        }
        uint64_t v = 0;
        if (!parse_hex(line.substr(sp + 1), &v)) {
            return fail(static_cast<int>(sp) + 2,
                        "expected a checksum of 16 lowercase hex digits, found " +
                            shown(line.substr(sp + 1)));
        }
        sums.push_back(v);
    }
    const std::string end = "end " + std::to_string(ticks);
    if (!next()) return fail(1, "truncated file: expected '" + end + "', found end of file");
    if (line != end) return fail(1, "expected '" + end + "', found " + shown(line));
    while (next()) {
        if (!line.empty())
            return fail(1, "expected end of file after '" + end + "', found " + shown(line));
    }
    *out = std::move(sums);
    return true;
}

bool read_checksum_file(const std::string& path, std::vector<uint64_t>* out, std::string* err) {
    std::string text;
    if (!read_file(path, &text, err)) return false;
    return parse_checksum_file(text, path, out, err);
}

} // namespace fx::harness
