// The run viewer: one self-contained HTML page (inline script and style, no network reference,
// opens from file://) that replays one or two runs of a scenario: the level from above and from
// the side, the trajectories and the capsules at the current tick, a timeline with the
// agreement of two runs per character, every field of both sides at the selected tick with the
// difference in raw units, ulps and metres, m/s or degrees, the solver traces of both sides
// aligned, and the failed checks marked at their ticks. docs/viewer.md describes the page.
//
// Written once, used by every command that shows runs: `desync --html` (two sides), `run
// --html` (one run); `verify --html` (golden against run) and `review --html` (accepted against
// pending) fill the same ViewerPage from their CSVs. The page's data are compact: per character
// and run, each field a column of zigzag-varint deltas of the raw values in base64; a page whose
// data would pass ViewerPage::max_bytes keeps exact rows only every K-th tick outside a window
// around the focus tick, and says so on the page.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "forensics/desync.h"
#include "kcc/state.h"
#include "records/hash_file.h"
#include "records/trajectory.h"
#include "run/checks.h"
#include "scenario/scenario.h"

namespace fx::harness {

/// One run on the page: its trajectory rows (ordered by tick, then character, as in the CSV;
/// a golden's may hold every K-th tick only) and what else is known of it.
struct ViewerRun {
    std::string label; ///< "a: build/cli/fxkcc", "golden/x86_64-linux/walk-wall.csv", ...
    std::vector<TrajectoryRow> rows;
    /// Its solver trace (records/trace_writer.h lines) of ticks [trace_from, trace_to]; "" none.
    std::string trace;
    int64_t trace_from = -1, trace_to = -1;
    /// Its hash file, when there is one: two runs that both have one also disagree at a tick
    /// where a character's sub-hash differs (a field the CSV does not hold).
    const HashFile* hashes = nullptr;
};

/// A mark on the timeline: a failed expectation or a violated invariant.
struct ViewerMark {
    int64_t tick = -1;
    std::string kind; ///< "expectation" or "invariant"
    int64_t character = -1; ///< -1: none named
    std::string message;
    int run = 0; ///< which run it belongs to (index into ViewerPage::runs)
};

struct ViewerPage {
    std::string title; ///< "fxkcc desync: walk-wall"
    const Scenario* scenario = nullptr;
    /// The ticks the page spans; -1: the scenario's (a run stopped early: the ticks it ran).
    int64_t ticks = -1;
    std::vector<ViewerRun> runs; ///< one or two (the second compared with the first)
    std::vector<ViewerMark> marks;
    /// The tick and character the page opens at (a URL fragment #tick=N&c=ID overrides them);
    /// -1: the first disagreement of two runs, else the first mark, else tick 0 and the first
    /// character.
    int64_t focus_tick = -1;
    int64_t focus_character = -1;
    /// The text report of the command (desync's), shown on the page as it is; "" none.
    std::string report;
    /// The most bytes the page's data may take; past it rows are kept every K-th tick outside
    /// the window around the focus tick (exact rows there), and the page says so.
    int64_t max_bytes = 4'500'000;
    /// Ticks kept exactly on each side of the focus tick when rows are left out.
    int64_t window = 100;
    /// The most bytes of trace kept per run (beyond it: the lines of the characters that
    /// disagree or are marked, then a cut, said on the page).
    int64_t max_trace_bytes = 400'000;
};

/// What the page holds, for the command's summary line and tests.
struct ViewerSummary {
    int64_t bytes = 0; ///< the whole page
    int64_t stride = 1; ///< rows kept every `stride` ticks outside [window_from, window_to]
    int64_t window_from = 0, window_to = -1;
    int64_t rows_kept = 0, rows_total = 0;
    int64_t focus_tick = -1;
    int64_t focus_character = -1;
    bool trace_cut = false;
};

/// The page. False with *err on bad input (no scenario, no run or more than two).
bool viewer_html(const ViewerPage& page, std::string* html, ViewerSummary* summary,
                 std::string* err);

/// The marks of a run's failed checks (the character parsed from "character N" in the message).
std::vector<ViewerMark> viewer_marks(const CheckReport& report, int run = 0);

/// The most rows (ticks x characters) a command holds in memory for a page (about 150 bytes
/// each, per run); a page of more would leave most of them out anyway.
inline constexpr int64_t kMaxPageRows = 8'000'000;

/// "" when a page of `sc`'s run (of its first `ticks` ticks; -1: all) is within kMaxPageRows,
/// else why not: "N ticks x M characters is more than the 8000000 rows a page is made from".
std::string page_rows_refusal(const Scenario& sc, int64_t ticks = -1);

/// The summary line a command prints: "html: wrote F (N KB; every row)" or "(...; rows every K
/// ticks outside ticks A..B)".
std::string viewer_summary_line(const std::string& path, const ViewerSummary& s);

/// One side of a comparison as a command has it: its label, its whole trajectory as CSV text
/// ("" none), its trace ("" none) and its hash file (may be null).
struct ViewerSide {
    std::string label;
    std::string csv;
    std::string trace;
    const HashFile* hashes = nullptr;
};

/// The page of two runs a desync report compares (desync, and later verify and review: golden
/// or accepted as a, the run or pending as b): the first tick and character where their rows or
/// sub-hashes differ as the focus, the traces as the report's ticks (trace_from..trace_to, else
/// the divergent tick), the report's text on the page, titled `title` ("": "fxkcc desync: NAME").
bool desync_viewer_html(const Scenario& sc, const DesyncReport& r, const std::string& report_text,
                        const ViewerSide& a, const ViewerSide& b, std::string* html,
                        ViewerSummary* summary, std::string* err, const std::string& title = "");

/// Writes a page to `path` atomically, its folder created first; false with *err.
bool write_viewer_page(const std::string& path, const std::string& html, std::string* err);
/// The same for a page fxkcc names inside the folder an option gave it (verify and review --html):
/// refused when the file there is a symbolic link (write_folder_file).
bool write_viewer_page_in_folder(const std::string& path, const std::string& html,
                                 std::string* err);

/// The page's HTML around the data (viewer_page.html, embedded at build time): the text before
/// and after the point where the data script goes.
std::string viewer_page_head();
std::string viewer_page_tail();

} // namespace fx::harness
