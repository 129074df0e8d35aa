#include "loader_text.h"

#include <string>

#include "fx/decimal.h"
#include "loader_yaml.h"
#include "records/text.h"

namespace fx::harness::detail {

namespace {

struct Line {
    std::string_view text; ///< without the newline and a trailing CR
    int number = 0; ///< 1-based
};

std::vector<Line> split_lines(std::string_view text) {
    std::vector<Line> lines;
    size_t start = 0;
    int n = 1;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        const bool last = end == std::string_view::npos;
        if (last) end = text.size();
        std::string_view l = text.substr(start, end - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        if (!(last && l.empty())) lines.push_back({l, n});
        if (last) break;
        start = end + 1;
        ++n;
    }
    return lines;
}

struct Token {
    std::string_view text;
    int column = 1; ///< 1-based
};

std::vector<Token> split_ws(std::string_view l) {
    std::vector<Token> out;
    size_t i = 0;
    while (i < l.size()) {
        while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
            ++i;
        if (i == l.size()) break;
        const size_t b = i;
        while (i < l.size() && l[i] != ' ' && l[i] != '\t')
            ++i;
        out.push_back({l.substr(b, i - b), static_cast<int>(b) + 1});
    }
    return out;
}

std::vector<Token> split_commas(std::string_view l) {
    std::vector<Token> out;
    size_t b = 0;
    while (true) {
        const size_t e = l.find(',', b);
        if (e == std::string_view::npos) {
            out.push_back({l.substr(b), static_cast<int>(b) + 1});
            return out;
        }
        out.push_back({l.substr(b, e - b), static_cast<int>(b) + 1});
        b = e + 1;
    }
}

std::string q(std::string_view s) {
    return text::quote(
        s); // cut to 60 bytes; control and non-ASCII bytes escaped (OBJ and CSV are ASCII)
}

} // namespace

void parse_obj(std::string_view text, const std::string& file, std::vector<Vec3>* vertices,
               std::vector<uint32_t>* indices) {
    for (const Line& line : split_lines(text)) {
        std::string_view l = line.text;
        const size_t hash = l.find('#');
        if (hash != std::string_view::npos) l = l.substr(0, hash);
        const std::vector<Token> t = split_ws(l);
        if (t.empty()) continue;
        auto fail = [&](const Token& at, const std::string& message) {
            fail_at(file, line.number, at.column, "", message);
        };
        const std::string_view kw = t[0].text;
        if (kw == "v") {
            if (t.size() < 4) {
                fail(t[0],
                     "expected 3 coordinates after 'v', found " + std::to_string(t.size() - 1));
            }
            Scalar c[3];
            for (int i = 0; i < 3; ++i) {
                const Token& tok = t[static_cast<size_t>(i) + 1];
                const DecimalResult r = parse_decimal(tok.text);
                if (!r.ok) {
                    // parse_decimal may already say exactly this: then its message stands alone.
                    const std::string ours = "expected a number, found " + q(tok.text);
                    fail(tok, r.error.rfind(ours, 0) == 0 ? r.error : ours + " (" + r.error + ")");
                }
                if (!in_bound(r.value, kCoordinate)) {
                    fail(tok,
                         std::string("expected ") + kCoordinate.what + ", found " + q(tok.text));
                }
                c[i] = r.value;
            }
            vertices->push_back({c[0], c[1], c[2]});
        } else if (kw == "f") {
            if (t.size() < 4) {
                fail(t[0], "expected at least 3 vertices after 'f', found " +
                               std::to_string(t.size() - 1));
            }
            std::vector<uint32_t> face;
            const int64_t count = static_cast<int64_t>(vertices->size());
            for (size_t i = 1; i < t.size(); ++i) {
                const std::string_view s = t[i].text.substr(0, t[i].text.find('/'));
                int64_t v = 0;
                if (!parse_integer(s, &v) || v == 0) {
                    fail(
                        t[i],
                        "expected a vertex index (1-based, or negative from the last vertex), found " +
                            q(t[i].text));
                }
                const int64_t idx = v > 0 ? v - 1 : count + v;
                if (idx < 0 || idx >= count) {
                    fail(t[i], "vertex index " + std::string(s) + " out of range (" +
                                   std::to_string(count) + " vertices defined so far)");
                }
                face.push_back(static_cast<uint32_t>(idx));
            }
            for (size_t i = 1; i + 1 < face.size(); ++i) {
                indices->push_back(face[0]);
                indices->push_back(face[i]);
                indices->push_back(face[i + 1]);
            }
        } else if (kw == "vn" || kw == "vt" || kw == "vp" || kw == "o" || kw == "g" || kw == "s" ||
                   kw == "usemtl" || kw == "mtllib" || kw == "l" || kw == "p") {
            continue;
        } else {
            fail(
                t[0],
                "unknown OBJ statement " + q(kw) +
                    " (expected v, f, or one of the ignored vn, vt, vp, o, g, s, usemtl, mtllib, l, p)");
        }
    }
}

void parse_input_csv(std::string_view text, const std::string& file, int64_t ticks,
                     InputStream* out) {
    static const char* const kHeader4 = "tick,stick_x,stick_y,jump";
    static const char* const kHeader7 = "tick,stick_x,stick_y,jump,impulse_x,impulse_y,impulse_z";
    std::vector<Line> lines = split_lines(text);
    while (!lines.empty() && lines.back().text.empty())
        lines.pop_back(); // trailing empty lines
    if (lines.empty() || (lines[0].text != kHeader4 && lines[0].text != kHeader7)) {
        fail_at(file, 1, 1, "",
                std::string("expected the header '") + kHeader4 + "' or '" + kHeader7 +
                    "', found " +
                    (lines.empty() ? std::string("an empty file") : q(lines[0].text)));
    }
    const bool impulses = lines[0].text == kHeader7;
    const size_t columns = impulses ? 7 : 4;
    static const char* const kNames[7] = {"tick",      "stick_x",   "stick_y",  "jump",
                                          "impulse_x", "impulse_y", "impulse_z"};
    InputStream in;
    int64_t prev = -1;
    for (size_t r = 1; r < lines.size(); ++r) {
        const Line& line = lines[r];
        const std::vector<Token> t = split_commas(line.text);
        if (t.size() != columns) {
            fail_at(file, line.number, 1, "",
                    "expected " + std::to_string(columns) + " columns (" +
                        (impulses ? kHeader7 : kHeader4) + "), found " + std::to_string(t.size()));
        }
        auto fail = [&](size_t col, const std::string& message) {
            fail_at(file, line.number, t[col].column, "", message);
        };
        int64_t tick = 0;
        if (!parse_integer(t[0].text, &tick))
            fail(0, "expected an integer in column 'tick', found " + q(t[0].text));
        if (tick <= prev) {
            fail(0, "tick " + std::to_string(tick) + " out of order (after tick " +
                        std::to_string(prev) + ")");
        }
        if (tick != prev + 1) {
            fail(0, "expected tick " + std::to_string(prev + 1) + ", found tick " +
                        std::to_string(tick) + " (rows must have consecutive ticks from 0)");
        }
        if (tick >= ticks) {
            fail(0, "tick " + std::to_string(tick) +
                        " is past the end of the scenario (ticks: " + std::to_string(ticks) + ")");
        }
        prev = tick;
        Scalar v[7];
        for (size_t c = 1; c < columns; ++c) {
            if (c == 3) continue;
            const DecimalResult d = parse_decimal(t[c].text);
            if (!d.ok)
                fail(c, std::string("expected a number in column '") + kNames[c] + "', found " +
                            q(t[c].text));
            const Bound& b = c < 3 ? kStick : kSpeed;
            if (!in_bound(d.value, b)) {
                fail(c, std::string("expected ") + b.what + " in column '" + kNames[c] +
                            "', found " + q(t[c].text));
            }
            v[c] = d.value;
        }
        if (t[3].text != "0" && t[3].text != "1")
            fail(3, "expected 0 or 1 in column 'jump', found " + q(t[3].text));
        if (t[3].text == "1") in.jumps.push_back(tick);
        if (!in.sticks.empty() && in.sticks.back().x == v[1] && in.sticks.back().y == v[2]) {
            in.sticks.back().to = tick + 1;
        } else {
            in.sticks.push_back({tick, tick + 1, v[1], v[2]});
        }
        if (impulses) {
            const Vec3 imp{v[4], v[5], v[6]};
            if (!imp.is_zero()) in.impulses.push_back({tick, imp});
        }
    }
    *out = std::move(in);
}

} // namespace fx::harness::detail
