// review --html DIR: the before/after picture of each pending golden, the viewer's page of the
// accepted golden against the pending one (forensics/viewer.h, docs/viewer.md).
#include "review_html.h"

#include <filesystem>

#include "forensics/desync.h"
#include "forensics/viewer.h"
#include "records/atomic_file.h"
#include "records/text.h"
#include "records/trajectory.h"
#include "run/suite.h"

namespace fx::harness::review_detail {

namespace {

std::string escaped(const std::string& s) {
    return text::xml_escape(s);
}

/// The page of one pending golden against the accepted one (or alone, for a new scenario).
bool pending_page(const ReviewCommand& cmd, const Pending& p, const Scenario& sc, std::string* html,
                  std::string* err) {
    SuiteOptions golden = cmd.suite;
    golden.target = p.target;
    const std::string old_hashes_path = golden_hashes_path(golden, p.name);
    const std::string old_csv_path = golden_csv_path(golden, p.name);
    HashFile old;
    std::string old_csv, ignored;
    const std::string report = p.change + (p.detail.empty() ? "" : "\n" + p.detail);
    ViewerSummary summary;
    if (read_hash_file(old_hashes_path, &old, &ignored) &&
        read_file(old_csv_path, &old_csv, &ignored)) {
        const DesyncReport r = compare_runs(old, p.hashes);
        return desync_viewer_html(
            sc, r, report, ViewerSide{"accepted " + old_csv_path, old_csv, "", &old},
            ViewerSide{"pending " + p.target + "/" + p.name + ".csv", p.csv, "", &p.hashes}, html,
            &summary, err, "fxkcc review: " + p.target + "/" + p.name);
    }
    ViewerPage page;
    page.title = "fxkcc review: " + p.target + "/" + p.name + " (new)";
    page.scenario = &sc;
    page.report = report;
    ViewerRun run;
    run.label = "pending " + p.target + "/" + p.name + ".csv";
    bool with_render = false;
    if (!parse_trajectory(p.csv, run.label, &run.rows, &with_render, err)) return false;
    run.hashes = &p.hashes;
    page.runs.push_back(std::move(run));
    return viewer_html(page, html, &summary, err);
}

} // namespace

bool write_review_pages(const std::string& dir, const ReviewCommand& cmd,
                        const std::vector<Pending>& pending,
                        const std::map<std::string, const Scenario*>& scenarios, std::ostream& out,
                        std::string* err) {
    std::string rows;
    int pages = 0;
    for (const Pending& p : pending) {
        const std::string rel = p.target + "/" + p.name + ".html";
        std::string html, why;
        const auto it = scenarios.find(p.name);
        bool written = false;
        if (it != scenarios.end() && p.error.empty() &&
            pending_page(cmd, p, *it->second, &html, &why)) {
            if (!write_viewer_page_in_folder((std::filesystem::path(dir) / rel).string(), html,
                                             err))
                return false;
            written = true;
            ++pages;
        }
        const std::string what = p.error.empty() ? p.change : "ERROR " + p.error;
        rows += "<tr><td>" + escaped(p.target) + "</td><td>" +
                (written ? "<a href=\"" + escaped(rel) + "\">" + escaped(p.name) + "</a>"
                         : escaped(p.name)) +
                "</td><td>" + escaped(what) +
                (why.empty() ? "" : " (no page: " + escaped(why) + ")") + "</td></tr>\n";
    }
    const std::string title = "fxkcc review: pending goldens against the accepted ones";
    const std::string index =
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
        escaped(title) +
        "</title><style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:"
        "collapse}td,th{padding:.25em .8em;border-bottom:1px solid #ddd;text-align:left}</style>"
        "</head><body><h1>" +
        escaped(title) + "</h1><p>" + std::to_string(pending.size()) + " pending, " +
        std::to_string(pages) +
        " page(s).</p><table><tr><th>target</th><th>scenario</th><th>what changes</th></tr>\n" +
        rows + "</table></body></html>\n";
    if (!write_viewer_page_in_folder((std::filesystem::path(dir) / "index.html").string(), index,
                                     err))
        return false;
    out << "html: wrote " << (std::filesystem::path(dir) / "index.html").generic_string() << " and "
        << pages << " page" << (pages == 1 ? "" : "s") << "\n";
    return true;
}

} // namespace fx::harness::review_detail
