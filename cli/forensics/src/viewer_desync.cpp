// The run viewer's page of two compared runs (forensics/viewer.h): what desync (and later verify
// and review) hand it, and writing a page.
#include "forensics/viewer.h"

#include <filesystem>
#include <system_error>

#include "records/atomic_file.h"
#include "records/paths.h"

namespace fs = std::filesystem;

namespace fx::harness {

bool desync_viewer_html(const Scenario& sc, const DesyncReport& r, const std::string& report_text,
                        const ViewerSide& a, const ViewerSide& b, std::string* html,
                        ViewerSummary* summary, std::string* err, const std::string& title) {
    ViewerPage page;
    page.title = title.empty() ? "fxkcc desync: " + sc.name : title;
    page.scenario = &sc;
    page.report = report_text;
    page.runs.resize(2);
    const ViewerSide* sides[2] = {&a, &b};
    for (size_t i = 0; i < 2; ++i) {
        ViewerRun& run = page.runs[i];
        const ViewerSide& side = *sides[i];
        run.label = side.label;
        bool render = false;
        if (!side.csv.empty() &&
            !parse_trajectory(side.csv, i ? "b.csv" : "a.csv", &run.rows, &render, err))
            return false;
        run.hashes = side.hashes;
        if (!side.trace.empty()) {
            run.trace = side.trace;
            run.trace_from = r.trace_from >= 0 ? r.trace_from : r.tick;
            run.trace_to = r.trace_from >= 0 ? r.trace_to : r.tick;
        }
    }
    // The focus is where the rows (or the sub-hashes) first differ, which with a stride of
    // recorded ticks (golden_every) comes before the report's first divergent recorded tick.
    return viewer_html(page, html, summary, err);
}

bool write_viewer_page(const std::string& path, const std::string& html, std::string* err) {
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    if (ec) {
        *err = "cannot create folder '" + parent.generic_string() + "': " + ec.message();
        return false;
    }
    return write_file_atomic(path, html, err);
}

bool write_viewer_page_in_folder(const std::string& path, const std::string& html,
                                 std::string* err) {
    // Its refusal; the option is named by the caller's message ("fxkcc verify: --html: ...").
    if (is_link(path)) return write_folder_file({"", path}, html, {}, err);
    return write_viewer_page(path, html, err);
}

} // namespace fx::harness
