// Trajectory CSV: one row per character per tick, exact decimals. docs/formats.md, "Trajectory
// CSV", has the full description and an example.
//
// Version 1, LF line endings (a trailing '\r' is ignored when reading):
//   # fxkcc-trajectory 1
//   tick,character,x,y,z,vx,vy,vz,facing,grounded,normal_x,normal_y,normal_z,ground_shape,platform
//   4,1,1.25,0,-0.0000000002,0.1,-3,0,0,1,0,1,0,10,
// plus ",render_x,render_y,render_z" columns when the run used a frame clock (cells empty on
// ticks where no frame ended). Scalars are fx::to_string_shortest (reads back to the same raw
// value through fx::parse_decimal); grounded is 0/1; ground_shape/platform are ids, empty for
// none (kcc::kNoId). Rows ordered by tick, then character id. Tick t = state after t+1 steps.
// Not in the CSV (but in the hashes): previous_position, previous_facing, run_speed, step_hold,
// halted.
#pragma once

#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "fx/vec3.h"
#include "kcc/state.h"
#include "records/atomic_file.h"

namespace fx::harness {

inline constexpr int kTrajectoryFormat = 1;
inline constexpr std::string_view kTrajectoryMagic = "# fxkcc-trajectory";

struct TrajectoryRow {
    int64_t tick = 0;
    /// id, position, velocity, facing, grounded, ground_normal, ground_shape, platform; the
    /// previous_* fields are not in the CSV and read back as zero.
    kcc::CharacterState state;
    bool has_render = false;
    Vec3 render;
};

/// Streams rows (nothing buffered beyond the stream's own buffer). To a file: temporary file +
/// rename on commit(), removed if destroyed uncommitted. To a stream (e.g. std::cout): commit()
/// flushes.
class TrajectoryWriter {
public:
    bool open(const std::string& path, bool with_render, std::string* err);
    bool open(std::ostream& out, bool with_render, std::string* err);
    /// `render` may be null (empty render cells); it is ignored when the writer has no render
    /// columns.
    bool write(int64_t tick, const kcc::CharacterState& state, const Vec3* render,
               std::string* err);
    bool commit(std::string* err);

private:
    bool start(bool with_render, std::string* err);
    std::string write_error() const;
    AtomicFile file_;
    std::ostream* out_ = nullptr;
    bool with_render_ = false;
    std::string line_; ///< reused line buffer
};

/// A stream buffer that compares what is written to it with `expected` (a golden CSV) instead
/// of storing it: verify writes its run through a TrajectoryWriter into one, so the golden CSV,
/// render poses included, is checked byte for byte without holding a second copy.
class ExpectedText final : public std::streambuf {
public:
    explicit ExpectedText(std::string_view expected) : expected_(expected) {}
    /// Everything written equals `expected`, whole.
    bool matches() const {
        return difference_ == std::string_view::npos && offset_ == expected_.size();
    }
    /// "" when it matches; else where the two first differ: "line 5 (tick 3, character 1): x:
    /// the golden has 1.25, the run 1.5" (rows are written one whole line at a time).
    std::string difference() const;

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

private:
    std::string_view expected_;
    size_t offset_ = 0;
    size_t difference_ = std::string_view::npos; ///< offset of the first differing byte
    std::string written_; ///< what was written in the call that differed
    size_t written_start_ = 0; ///< its offset
};

/// The column row (without line break).
std::string trajectory_columns(bool with_render);
/// One data row (without line break), exactly as TrajectoryWriter writes it.
std::string trajectory_row_text(int64_t tick, const kcc::CharacterState& state, const Vec3* render,
                                bool with_render);

/// Reads a trajectory CSV. Refuses a wrong magic or version, wrong columns, bad numbers, rows out
/// of order; errors are "<path>:<line>:<column>: <what>" (column 1-based, in characters), e.g.
///   "t.csv:3:8: x: unexpected 'a' after the number, expected end of text"
/// `max_bytes`: the largest file read (plot reads less).
bool read_trajectory(const std::string& path, std::vector<TrajectoryRow>* rows, bool* with_render,
                     std::string* err, uint64_t max_bytes = kMaxReadBytes);
bool parse_trajectory(std::string_view text, const std::string& display,
                      std::vector<TrajectoryRow>* rows, bool* with_render, std::string* err);

/// A state field by name, for reports: Scalars as raw int64, flags 0/1, ids as integers
/// (kcc::kNoId = 4294967295).
struct Field {
    const char* name;
    int64_t raw;
    bool is_scalar;
};
/// The CSV's state columns in CSV order (x, y, z, vx, vy, vz, facing, grounded, normal_x,
/// normal_y, normal_z, ground_shape, platform), then the fields the CSV does not carry:
/// previous_x, previous_y, previous_z, previous_facing, run_speed, step_hold, halted. The id is not
/// a field.
std::vector<Field> state_fields(const kcc::CharacterState& s);

} // namespace fx::harness
