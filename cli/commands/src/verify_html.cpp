// verify --html DIR: an index of the run and, for every scenario that did not pass, the viewer's
// page of its golden against this build's run (forensics/viewer.h), failed checks marked at
// their ticks. A CI artifact a reviewer opens in a browser (docs/viewer.md).
#include "verify_html.h"

#include <filesystem>
#include <span>
#include <utility>

#include "forensics/plot.h"
#include "forensics/viewer.h"
#include "records/atomic_file.h"
#include "records/hash_file.h"
#include "records/text.h"
#include "records/trajectory.h"
#include "run/checks.h"
#include "run/runner.h"
#include "run/suite.h"

namespace fx::harness {

namespace {

std::string escaped(const std::string& s) {
    return text::xml_escape(s);
}

/// A page's file name for a scenario: its name (a scenario name is [a-z0-9][a-z0-9._-]*), but
/// the scenario named `index`'s, _index.html (no scenario's name starts with _): index.html is
/// the index, which replaced that scenario's page.
std::string page_name(const std::string& scenario) {
    return scenario == "index" ? "_index.html" : scenario + ".html";
}

/// The page of one scenario: the golden (when its CSV reads) against this build's run.
bool scenario_page(const SuiteOptions& suite, const Scenario& sc, const Outcome& o,
                   std::string* html, ViewerSummary* summary, std::string* err) {
    if (std::string why = page_rows_refusal(sc); !why.empty()) {
        *err = std::move(why); // both runs' rows would be held in memory
        return false;
    }
    ViewerPage page;
    page.title = "fxkcc verify: " + sc.name + " (" + status_name(o.status) + ")";
    page.scenario = &sc;
    page.report = o.detail.empty() ? o.summary : o.detail;
    HashFile golden_hashes;
    std::string ignored;
    ViewerRun golden;
    const std::string csv = golden_csv_path(suite, sc.name);
    bool with_render = false;
    if (std::filesystem::exists(csv) &&
        read_trajectory(csv, &golden.rows, &with_render, &ignored)) {
        golden.label = "golden " + csv;
        if (read_hash_file(golden_hashes_path(suite, sc.name), &golden_hashes, &ignored))
            golden.hashes = &golden_hashes;
        page.runs.push_back(std::move(golden));
    }
    ViewerRun run;
    run.label = "this build's run";
    RowCollector sink(&run.rows);
    CheckReport report;
    if (!run_checked(sc, &sink, RunOptions{}, &report, err)) return false;
    page.runs.push_back(std::move(run));
    page.marks = viewer_marks(report, static_cast<int>(page.runs.size()) - 1);
    return viewer_html(page, html, summary, err);
}

} // namespace

bool write_verify_pages(const std::string& dir, const SuiteOptions& suite,
                        const std::vector<Outcome>& outcomes, const std::vector<Loaded>& loaded,
                        const std::string& title, std::ostream& out, std::string* err) {
    std::string rows;
    int pages = 0;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const Outcome& o = outcomes[i];
        std::string link, no_page;
        if ((o.status != Status::kPass || o.checks_failed) && loaded[i].ok) {
            std::string html, why;
            ViewerSummary s;
            if (scenario_page(suite, loaded[i].sc, o, &html, &s, &why)) {
                if (!write_viewer_page_in_folder(
                        (std::filesystem::path(dir) / page_name(o.name)).string(), html, err))
                    return false;
                link = page_name(o.name);
                ++pages;
            } else {
                link.clear();
                no_page = " (no page: " + why + ")";
            }
        }
        const bool ok = o.status == Status::kPass && !o.checks_failed;
        const std::string& shown =
            o.name.empty() ? o.path : o.name; // one that did not load: its file
        rows += "<tr class=\"" + std::string(ok ? "pass" : "fail") + "\"><td>" +
                (link.empty() ? escaped(shown)
                              : "<a href=\"" + escaped(link) + "\">" + escaped(shown) + "</a>") +
                "</td><td>" +
                (o.checks_failed && o.status == Status::kPass ? "FAILED" : status_name(o.status)) +
                "</td><td>" + escaped(o.summary + no_page) + "</td></tr>\n";
    }
    const std::string index =
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
        escaped(title) +
        "</title><style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:"
        "collapse}td,th{padding:.25em .8em;border-bottom:1px solid #ddd;text-align:left}"
        "tr.fail td:nth-child(2){color:#b00;font-weight:600}tr.pass td:nth-child(2){color:#070}"
        "</style></head><body><h1>" +
        escaped(title) + "</h1><p>" + std::to_string(outcomes.size()) + " scenarios, " +
        std::to_string(pages) +
        " page(s) of those that did not pass (golden against this build's run).</p><table>"
        "<tr><th>scenario</th><th>status</th><th>summary</th></tr>\n" +
        rows + "</table></body></html>\n";
    if (!write_viewer_page_in_folder((std::filesystem::path(dir) / "index.html").string(), index,
                                     err))
        return false;
    out << "html: wrote " << (std::filesystem::path(dir) / "index.html").generic_string() << " and "
        << pages << " scenario page" << (pages == 1 ? "" : "s") << "\n";
    return true;
}

} // namespace fx::harness
