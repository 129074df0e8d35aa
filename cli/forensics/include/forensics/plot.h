// `fxkcc plot`: an SVG picture of a scenario's level and one or two trajectories, a top view and
// a side view, with the first divergence of two trajectories marked and the characters'
// capsules drawn at chosen ticks. docs/plot.md describes the picture.
//
// The simulation is fixed point; the picture is not: drawing coordinates are doubles (only
// core/ and geometry/ are float-free), converted from the exact values only for drawing, and
// every number is printed with a fixed precision, so the same inputs give the same SVG bytes
// on the same machine.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "records/compare.h"
#include "records/trajectory.h"
#include "run/runner.h"
#include "scenario/scenario.h"

namespace fx::harness {

/// The most rows one trajectory of a plot may have (ticks x characters), and the largest CSV it
/// reads: a picture of more is no use, and the rows are held in memory (about 200 bytes each).
inline constexpr int64_t kMaxPlotRows = 2'000'000;
inline constexpr uint64_t kMaxPlotCsvBytes = uint64_t{256} << 20;

/// One trajectory to draw: rows ordered by tick, then character (as in the CSV).
struct PlotSource {
    std::string label; ///< the legend's name for it: the CSV path, or "run of <scenario>"
    std::vector<TrajectoryRow> rows;
};

struct PlotOptions {
    /// Ticks at which the characters' capsules are drawn (any order; duplicates are ignored).
    std::vector<int64_t> capsule_ticks;
    /// Only this character (its polyline, capsules and divergence); -1: every character.
    int64_t character = -1;
    /// The views show the trajectories' bounding box plus this margin (metres) on every side;
    /// level geometry outside is clipped.
    double margin_m = 3.0;
};

/// What plot_svg drew, for the summary line and tests.
struct PlotSummary {
    bool compared = false; ///< two sources
    CsvDivergence divergence;
    std::string divergence_label; ///< "first divergence: tick T, character C, fields x, z" / "no
                                  ///< divergence ..."
    char side_axis = 'x'; ///< horizontal axis of the side view: 'x' or 'z'
};

/// The picture. One or two sources (the second is compared with the first). False with *err
/// (no "fxkcc plot:" prefix) on bad input: no source or more than two, an unknown --character,
/// a capsule tick outside the run or recorded by no source.
bool plot_svg(const Scenario& sc, const std::vector<PlotSource>& sources,
              const PlotOptions& options, std::string* svg, PlotSummary* summary, std::string* err);

/// A run's sink that keeps every character's state at every tick as trajectory rows (with the
/// render pose when the run has one).
class RowCollector final : public RunSink {
public:
    explicit RowCollector(std::vector<TrajectoryRow>* rows) : rows_(rows) {}
    bool on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>> platforms, std::span<const Vec3> render,
                 std::string* error) override;

private:
    std::vector<TrajectoryRow>* rows_;
};

/// Runs the scenario in process and collects every character's state at every tick.
bool collect_trajectory(const Scenario& sc, std::vector<TrajectoryRow>* rows, std::string* err);

/// Whether a trajectory CSV can be one of this scenario: the same characters, ticks within the
/// run, render columns exactly when the scenario has a frame clock. "" when it can, else why not
/// (naming `display`).
std::string trajectory_mismatch(const Scenario& sc, const std::vector<TrajectoryRow>& rows,
                                bool with_render, const std::string& display);

} // namespace fx::harness
