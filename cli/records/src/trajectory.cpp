#include "records/trajectory.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "records/text.h"

#include "fx/decimal.h"

namespace fx::harness {

namespace {

using text::append_int;
using text::Lines;
using text::quote;

constexpr std::array<const char*, 15> kStateColumns = {
    "tick",   "character", "x",        "y",        "z",        "vx",           "vy",      "vz",
    "facing", "grounded",  "normal_x", "normal_y", "normal_z", "ground_shape", "platform"};
constexpr std::array<const char*, 3> kRenderColumns = {"render_x", "render_y", "render_z"};

void append_scalar(std::string* s, Scalar v) {
    char buf[kMaxShortestChars];
    s->append(buf, to_chars_shortest(v, buf));
}

void append_id(std::string* s, uint32_t id) {
    if (id != kcc::kNoId) append_int(s, id);
}

void append_row(std::string* s, int64_t tick, const kcc::CharacterState& st, const Vec3* render,
                bool with_render) {
    append_int(s, tick);
    *s += ',';
    append_int(s, st.id);
    for (const Scalar v : {st.position.x, st.position.y, st.position.z, st.velocity.x,
                           st.velocity.y, st.velocity.z, st.facing}) {
        *s += ',';
        append_scalar(s, v);
    }
    *s += st.grounded ? ",1" : ",0";
    for (const Scalar v : {st.ground_normal.x, st.ground_normal.y, st.ground_normal.z}) {
        *s += ',';
        append_scalar(s, v);
    }
    *s += ',';
    append_id(s, st.ground_shape);
    *s += ',';
    append_id(s, st.platform);
    if (with_render) {
        if (render != nullptr) {
            for (const Scalar v : {render->x, render->y, render->z}) {
                *s += ',';
                append_scalar(s, v);
            }
        } else {
            *s += ",,,";
        }
    }
}

/// Canonical unsigned decimal (no sign, no leading zeros except "0") up to `max`.
bool parse_uint(std::string_view t, uint64_t max, uint64_t* out) {
    if (t.empty() || (t.size() > 1 && t[0] == '0')) return false;
    uint64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size() || v > max) return false;
    *out = v;
    return true;
}

struct Cell {
    std::string_view text;
    size_t column; ///< 1-based
};

void split_cells(std::string_view line, std::vector<Cell>* cells) {
    cells->clear();
    size_t pos = 0;
    for (;;) {
        const size_t comma = line.find(',', pos);
        if (comma == std::string_view::npos) {
            cells->push_back({line.substr(pos), pos + 1});
            return;
        }
        cells->push_back({line.substr(pos, comma - pos), pos + 1});
        pos = comma + 1;
    }
}

class CsvParser {
public:
    CsvParser(std::string_view text, const std::string& display, std::string* err)
        : lines_(text), display_(display), err_(err) {}

    bool fail(size_t column, const std::string& what) {
        *err_ = display_ + ":" + std::to_string(lines_.number()) + ":" + std::to_string(column) +
                ": " + what;
        return false;
    }

    bool parse(std::vector<TrajectoryRow>* rows, bool* with_render) {
        std::string_view line;
        const std::string prefix = std::string(kTrajectoryMagic) + " ";
        const bool any = lines_.next(&line);
        if (!any || line.substr(0, prefix.size()) != prefix) {
            // Nothing of a file that is not one is quoted (docs/reliability.md).
            return fail(
                1, std::string("not an fxkcc trajectory file (") +
                       (any ? "its first line is not '" + prefix + "<version>'" : "an empty file") +
                       ")");
        }
        const std::string_view version = line.substr(prefix.size());
        uint64_t v = 0;
        if (!parse_uint(version, 1000000, &v)) {
            return fail(prefix.size() + 1, "expected a format version, found " + quote(version));
        }
        if (v != static_cast<uint64_t>(kTrajectoryFormat)) {
            return fail(prefix.size() + 1, "trajectory format " + std::to_string(v) +
                                               (v > static_cast<uint64_t>(kTrajectoryFormat)
                                                    ? " is newer than this build reads ("
                                                    : " is not one this build reads (") +
                                               std::to_string(kTrajectoryFormat) + ")");
        }
        if (!lines_.next(&line)) return fail(1, "expected the column row, found end of file");
        bool render = false;
        if (!parse_columns(line, &render)) return false;

        std::vector<TrajectoryRow> out;
        const size_t n_cells = kStateColumns.size() + (render ? kRenderColumns.size() : 0);
        std::vector<Cell> cells;
        while (lines_.next(&line)) {
            split_cells(line, &cells);
            if (cells.size() < n_cells) {
                return fail(line.size() + 1, "expected " + std::to_string(n_cells) +
                                                 " cells, found " + std::to_string(cells.size()) +
                                                 " (missing '" + column_name(cells.size()) + "')");
            }
            if (cells.size() > n_cells) {
                return fail(cells[n_cells].column - 1, "expected " + std::to_string(n_cells) +
                                                           " cells, found " +
                                                           std::to_string(cells.size()));
            }
            TrajectoryRow row;
            if (!parse_row(cells, render, &row)) return false;
            if (!out.empty()) {
                const TrajectoryRow& prev = out.back();
                if (row.tick < prev.tick ||
                    (row.tick == prev.tick && row.state.id <= prev.state.id)) {
                    return fail(1, "expected rows ordered by tick then character, found tick " +
                                       std::to_string(row.tick) + " character " +
                                       std::to_string(row.state.id) + " after tick " +
                                       std::to_string(prev.tick) + " character " +
                                       std::to_string(prev.state.id));
                }
            }
            out.push_back(row);
        }
        *rows = std::move(out);
        *with_render = render;
        return true;
    }

private:
    static std::string column_name(size_t i) {
        return i < kStateColumns.size() ? kStateColumns[i]
                                        : kRenderColumns[i - kStateColumns.size()];
    }

    bool parse_columns(std::string_view line, bool* render) {
        std::vector<Cell> cells;
        split_cells(line, &cells);
        const size_t total = kStateColumns.size() + kRenderColumns.size();
        for (size_t i = 0; i < total; ++i) {
            if (i == cells.size()) {
                if (i == kStateColumns.size()) {
                    *render = false;
                    return true;
                }
                return fail(line.size() + 1,
                            "expected column '" + column_name(i) + "', found end of line");
            }
            if (cells[i].text != column_name(i)) {
                return fail(cells[i].column,
                            "expected column '" + column_name(i) + "'" +
                                (i == kStateColumns.size() ? " or end of line" : "") + ", found " +
                                quote(cells[i].text));
            }
        }
        if (cells.size() > total) {
            return fail(cells[total].column - 1, "expected end of line, found ','");
        }
        *render = true;
        return true;
    }

    bool scalar(const Cell& c, const char* name, Scalar* out) {
        const DecimalResult r = parse_decimal(c.text);
        if (!r.ok) return fail(c.column + r.error_offset, std::string(name) + ": " + r.error);
        *out = r.value;
        return true;
    }

    bool id(const Cell& c, const char* name, uint32_t* out) {
        if (c.text.empty()) {
            *out = kcc::kNoId;
            return true;
        }
        uint64_t v = 0;
        if (!parse_uint(c.text, kcc::kNoId - 1, &v)) {
            return fail(c.column, std::string(name) + ": expected an id (0 to " +
                                      std::to_string(kcc::kNoId - 1) +
                                      ") or an empty cell for none, found " + quote(c.text));
        }
        *out = static_cast<uint32_t>(v);
        return true;
    }

    bool parse_row(const std::vector<Cell>& c, bool render, TrajectoryRow* row) {
        uint64_t u = 0;
        if (!parse_uint(c[0].text, INT64_MAX, &u)) {
            return fail(c[0].column, "tick: expected a tick number, found " + quote(c[0].text));
        }
        row->tick = static_cast<int64_t>(u);
        if (!parse_uint(c[1].text, UINT32_MAX, &u)) {
            return fail(c[1].column,
                        "character: expected a character id, found " + quote(c[1].text));
        }
        kcc::CharacterState& s = row->state;
        s.id = static_cast<uint32_t>(u);
        Scalar* scalars[] = {&s.position.x, &s.position.y, &s.position.z, &s.velocity.x,
                             &s.velocity.y, &s.velocity.z, &s.facing};
        for (size_t i = 0; i < 7; ++i) {
            if (!scalar(c[2 + i], kStateColumns[2 + i], scalars[i])) return false;
        }
        if (c[9].text != "0" && c[9].text != "1") {
            return fail(c[9].column, "grounded: expected 0 or 1, found " + quote(c[9].text));
        }
        s.grounded = c[9].text == "1";
        Scalar* normal[] = {&s.ground_normal.x, &s.ground_normal.y, &s.ground_normal.z};
        for (size_t i = 0; i < 3; ++i) {
            if (!scalar(c[10 + i], kStateColumns[10 + i], normal[i])) return false;
        }
        if (!id(c[13], "ground_shape", &s.ground_shape)) return false;
        if (!id(c[14], "platform", &s.platform)) return false;
        s.previous_position = {};
        s.previous_facing = {};
        s.run_speed = {};
        s.step_hold = {};
        if (render) {
            const bool empty = c[15].text.empty() && c[16].text.empty() && c[17].text.empty();
            if (!empty) {
                Scalar* r[] = {&row->render.x, &row->render.y, &row->render.z};
                for (size_t i = 0; i < 3; ++i) {
                    if (c[15 + i].text.empty()) {
                        return fail(c[15 + i].column,
                                    std::string(kRenderColumns[i]) +
                                        ": expected a number (render cells are all empty or all "
                                        "set), found an empty cell");
                    }
                    if (!scalar(c[15 + i], kRenderColumns[i], r[i])) return false;
                }
                row->has_render = true;
            }
        }
        return true;
    }

    Lines lines_;
    const std::string& display_;
    std::string* err_;
};

} // namespace

ExpectedText::int_type ExpectedText::overflow(int_type ch) {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const char c = traits_type::to_char_type(ch);
    return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
}

std::streamsize ExpectedText::xsputn(const char* s, std::streamsize n) {
    if (n <= 0) return 0;
    const std::string_view chunk(s, static_cast<size_t>(n));
    if (difference_ == std::string_view::npos) {
        const std::string_view want =
            expected_.substr(std::min(offset_, expected_.size()), chunk.size());
        if (want != chunk) {
            size_t i = 0;
            while (i < want.size() && want[i] == chunk[i])
                ++i;
            difference_ = offset_ + i;
            written_ = std::string(chunk);
            written_start_ = offset_;
        }
    }
    offset_ += chunk.size();
    return n;
}

std::string ExpectedText::difference() const {
    if (matches()) return "";
    if (difference_ == std::string_view::npos) {
        return "the golden CSV has " + std::to_string(expected_.size()) + " bytes, the run wrote " +
               std::to_string(offset_);
    }
    // The golden's line that holds the first difference, and the run's (one write per row).
    const size_t line_start = difference_ == 0 ? 0 : expected_.rfind('\n', difference_ - 1) + 1;
    size_t line_end = expected_.find('\n', difference_);
    if (line_end == std::string_view::npos) line_end = expected_.size();
    const std::string_view golden_line = expected_.substr(line_start, line_end - line_start);
    const size_t line = 1 + static_cast<size_t>(std::count(
                                expected_.begin(),
                                expected_.begin() + static_cast<std::ptrdiff_t>(line_start), '\n'));
    std::string_view run_line = written_;
    if (!run_line.empty() && run_line.back() == '\n') run_line.remove_suffix(1);
    if (difference_ >= expected_.size() || written_start_ != line_start) {
        return "line " + std::to_string(line) +
               ": the golden CSV ends or differs where the run wrote " + quote(run_line);
    }
    std::vector<Cell> golden_cells, run_cells;
    split_cells(golden_line, &golden_cells);
    split_cells(run_line, &run_cells);
    std::vector<std::string> names;
    for (const char* c : kStateColumns)
        names.emplace_back(c);
    for (const char* c : kRenderColumns)
        names.emplace_back(c);
    std::string where = "line " + std::to_string(line);
    if (golden_cells.size() >= 2) {
        where += " (tick " + std::string(golden_cells[0].text) + ", character " +
                 std::string(golden_cells[1].text) + ")";
    }
    for (size_t i = 0; i < golden_cells.size() || i < run_cells.size(); ++i) {
        const std::string_view g =
            i < golden_cells.size() ? golden_cells[i].text : std::string_view("(none)");
        const std::string_view r =
            i < run_cells.size() ? run_cells[i].text : std::string_view("(none)");
        if (g == r) continue;
        const std::string column = i < names.size() ? names[i] : "column " + std::to_string(i + 1);
        return where + ": " + column + ": the golden has " + quote(g) + ", the run " + quote(r);
    }
    return where + ": the lines differ";
}

std::string trajectory_columns(bool with_render) {
    std::string s;
    for (const char* c : kStateColumns) {
        if (!s.empty()) s += ',';
        s += c;
    }
    if (with_render) {
        for (const char* c : kRenderColumns) {
            s += ',';
            s += c;
        }
    }
    return s;
}

std::string trajectory_row_text(int64_t tick, const kcc::CharacterState& state, const Vec3* render,
                                bool with_render) {
    std::string s;
    append_row(&s, tick, state, render, with_render);
    return s;
}

bool TrajectoryWriter::open(const std::string& path, bool with_render, std::string* err) {
    if (out_ != nullptr) {
        *err = "trajectory writer already open";
        return false;
    }
    if (!file_.open(path, err)) return false;
    file_.set_limit(kMaxReadBytes); // what read_trajectory accepts
    out_ = &file_.stream();
    return start(with_render, err);
}

bool TrajectoryWriter::open(std::ostream& out, bool with_render, std::string* err) {
    if (out_ != nullptr) {
        *err = "trajectory writer already open";
        return false;
    }
    out_ = &out;
    return start(with_render, err);
}

bool TrajectoryWriter::start(bool with_render, std::string* err) {
    with_render_ = with_render;
    *out_ << kTrajectoryMagic << ' ' << kTrajectoryFormat << '\n'
          << trajectory_columns(with_render) << '\n';
    if (!*out_) {
        *err = write_error();
        return false;
    }
    return true;
}

std::string TrajectoryWriter::write_error() const {
    return file_.is_open() ? file_.write_error() : "cannot write the trajectory to its stream";
}

bool TrajectoryWriter::write(int64_t tick, const kcc::CharacterState& state, const Vec3* render,
                             std::string* err) {
    if (out_ == nullptr) {
        *err = "trajectory writer is not open";
        return false;
    }
    line_.clear();
    append_row(&line_, tick, state, render, with_render_);
    line_ += '\n';
    out_->write(line_.data(), static_cast<std::streamsize>(line_.size()));
    if (!*out_) {
        *err = write_error();
        return false;
    }
    return true;
}

bool TrajectoryWriter::commit(std::string* err) {
    if (out_ == nullptr) {
        *err = "trajectory writer is not open";
        return false;
    }
    std::ostream* out = out_;
    out_ = nullptr;
    if (file_.is_open()) return file_.commit(err);
    out->flush();
    if (!*out) {
        *err = "cannot write the trajectory to its stream";
        return false;
    }
    return true;
}

bool parse_trajectory(std::string_view text, const std::string& display,
                      std::vector<TrajectoryRow>* rows, bool* with_render, std::string* err) {
    return CsvParser(text, display, err).parse(rows, with_render);
}

bool read_trajectory(const std::string& path, std::vector<TrajectoryRow>* rows, bool* with_render,
                     std::string* err, uint64_t max_bytes) {
    std::string text, reason;
    if (!read_file_limited(path, max_bytes, &text, &reason)) {
        *err = "cannot read '" + path + "': " + reason;
        return false;
    }
    return parse_trajectory(text, path, rows, with_render, err);
}

std::vector<Field> state_fields(const kcc::CharacterState& s) {
    return {
        {"x", s.position.x.raw(), true},
        {"y", s.position.y.raw(), true},
        {"z", s.position.z.raw(), true},
        {"vx", s.velocity.x.raw(), true},
        {"vy", s.velocity.y.raw(), true},
        {"vz", s.velocity.z.raw(), true},
        {"facing", s.facing.raw(), true},
        {"grounded", s.grounded ? 1 : 0, false},
        {"normal_x", s.ground_normal.x.raw(), true},
        {"normal_y", s.ground_normal.y.raw(), true},
        {"normal_z", s.ground_normal.z.raw(), true},
        {"ground_shape", static_cast<int64_t>(s.ground_shape), false},
        {"platform", static_cast<int64_t>(s.platform), false},
        {"previous_x", s.previous_position.x.raw(), true},
        {"previous_y", s.previous_position.y.raw(), true},
        {"previous_z", s.previous_position.z.raw(), true},
        {"previous_facing", s.previous_facing.raw(), true},
        {"run_speed", s.run_speed.raw(), true},
        {"step_hold", s.step_hold.raw(), true},
        {"halted", s.halted ? 1 : 0, false},
    };
}

} // namespace fx::harness
