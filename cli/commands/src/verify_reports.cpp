// verify's reports besides the table: JUnit XML, JSON, GitHub annotations, orphan goldens.
#include "verify_reports.h"

#include <map>
#include <sstream>

#include "records/atomic_file.h"
#include "records/build_info.h"
#include "records/json.h"
#include "records/text.h"

namespace fx::harness {
namespace {

using text::xml_escape;

/// The status of an outcome as a JSON word.
const char* json_status(Status s) {
    switch (s) {
    case Status::kPass:
        return "pass";
    case Status::kMismatch:
        return "mismatch";
    case Status::kStale:
        return "stale";
    case Status::kMissing:
        return "missing";
    case Status::kBadInput:
        return "error";
    case Status::kCannotTest:
        return "cannot-test";
    case Status::kFailed:
        return "failed";
    }
    return "?";
}

/// A workflow command's message: '%', CR and LF escaped (GitHub's toolkit, escapeData).
std::string github_data(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c == '%') {
            out += "%25";
        } else if (c == '\r') {
            out += "%0D";
        } else if (c == '\n') {
            out += "%0A";
        } else {
            out += c;
        }
    }
    return out;
}

/// A workflow command's property value: also ':' and ',' (escapeProperty).
std::string github_property(const std::string& s) {
    std::string out;
    for (const char c : github_data(s)) {
        if (c == ':') {
            out += "%3A";
        } else if (c == ',') {
            out += "%2C";
        } else {
            out += c;
        }
    }
    return out;
}

std::string gh_annotation(const char* level, const std::string& file, int line, int col,
                          const std::string& message) {
    return std::string("::") + level + " file=" + github_property(file) +
           ",line=" + std::to_string(line) + ",col=" + std::to_string(col) +
           "::" + github_data(message) + "\n";
}

/// A positive decimal at the start of `s` (advanced past it), or 0.
int gh_leading_number(std::string_view* s) {
    int v = 0;
    size_t i = 0;
    while (i < s->size() && (*s)[i] >= '0' && (*s)[i] <= '9' && v < 100000000)
        v = v * 10 + ((*s)[i++] - '0');
    s->remove_prefix(i);
    return v;
}

/// Columns of expectation items: the first character of the item on its line (after "- ").
class GhItemColumns {
public:
    int column(const std::string& path, int line) {
        auto it = files_.find(path);
        if (it == files_.end()) {
            std::vector<std::string> lines;
            std::string text, error;
            if (read_file(path, &text, &error)) {
                std::istringstream in(text);
                for (std::string l; std::getline(in, l);)
                    lines.push_back(l);
            }
            it = files_.emplace(path, std::move(lines)).first;
        }
        if (line < 1 || static_cast<size_t>(line) > it->second.size()) return 1;
        const std::string& l = it->second[static_cast<size_t>(line) - 1];
        size_t i = l.find_first_not_of(" \t");
        if (i != std::string::npos && l[i] == '-' && (i + 1 == l.size() || l[i + 1] == ' ')) {
            const size_t after = l.find_first_not_of(" \t", i + 1);
            if (after != std::string::npos) i = after;
        }
        return i == std::string::npos ? 1 : static_cast<int>(i) + 1;
    }

private:
    std::map<std::string, std::vector<std::string>> files_;
};

} // namespace

std::string orphan_message(const Orphan& o) {
    std::string files;
    for (const std::string& f : o.files)
        files += (files.empty() ? "" : ", ") + f;
    return "no scenario is named '" + o.name + "' (renamed or deleted): " + files +
           "; bless --prune removes it";
}

std::string junit_xml(const std::vector<Outcome>& outcomes, const std::string& target,
                      const OrphanReport& orphans) {
    int failures = 0, errors = 0;
    int64_t total = 0;
    for (const Outcome& o : outcomes) {
        if (o.status == Status::kMismatch || o.status == Status::kStale ||
            o.status == Status::kMissing || o.status == Status::kFailed) {
            ++failures;
        }
        if (o.status == Status::kBadInput || o.status == Status::kCannotTest) ++errors;
        total += o.millis;
    }
    if (orphans.fail) failures += static_cast<int>(orphans.orphans.size());
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites>\n<testsuite name=\"fxkcc verify " << xml_escape(target) << "\" tests=\""
      << outcomes.size() + orphans.orphans.size() << "\" failures=\"" << failures << "\" errors=\""
      << errors << "\"";
    if (!orphans.fail && !orphans.orphans.empty())
        x << " skipped=\"" << orphans.orphans.size() << "\"";
    x << " time=\"" << text::decimal(total, 1000, 3) << "\">\n";
    for (const Outcome& o : outcomes) {
        x << "  <testcase classname=\"fxkcc." << xml_escape(target) << "\" name=\""
          << xml_escape(o.name.empty() ? o.path : o.name) << "\" file=\"" << xml_escape(o.path)
          << "\" time=\"" << text::decimal(o.millis, 1000, 3) << "\"";
        if (o.status == Status::kPass) {
            x << "/>\n";
            continue;
        }
        const bool error = o.status == Status::kBadInput || o.status == Status::kCannotTest;
        x << ">\n    <" << (error ? "error" : "failure") << " type=\"" << status_name(o.status)
          << "\" message=\"" << xml_escape(o.summary) << "\">" << xml_escape(o.detail) << "</"
          << (error ? "error" : "failure") << ">\n";
        x << "  </testcase>\n";
    }
    // An orphan golden is a test case of its own: failed with --orphans fail, else skipped (a
    // warning JUnit readers show without failing the run).
    for (const Orphan& o : orphans.orphans) {
        x << "  <testcase classname=\"fxkcc." << xml_escape(target) << ".orphans\" name=\""
          << xml_escape(o.name) << "\" file=\"" << xml_escape(o.files.front())
          << "\" time=\"0.000\">\n";
        if (orphans.fail) {
            x << "    <failure type=\"ORPHAN\" message=\"" << xml_escape(orphan_message(o))
              << "\"></failure>\n";
        } else {
            x << "    <skipped message=\"" << xml_escape("orphan golden: " + orphan_message(o))
              << "\"/>\n";
        }
        x << "  </testcase>\n";
    }
    x << "</testsuite>\n</testsuites>\n";
    return x.str();
}

std::string report_json(const std::vector<Outcome>& outcomes, const std::string& build_target,
                        const std::string& golden_target, const std::string& note,
                        const int (&counts)[7], int checks_failed, const OrphanReport& orphans,
                        int exit_code) {
    const BuildInfo& b = build_info();
    Json doc = Json::object({{"format", "fxkcc-verify 1"},
                             {"build", Json::object({{"target", build_target},
                                                     {"engine", kEngine},
                                                     {"behaviour", kBehaviourVersion},
                                                     {"source", b.commit},
                                                     {"dirty", b.dirty},
                                                     {"compiler", b.compiler}})},
                             {"goldens", golden_target},
                             {"note", note},
                             {"counts", Json::object({{"scenarios", outcomes.size()},
                                                      {"passed", counts[0]},
                                                      {"mismatched", counts[1]},
                                                      {"stale", counts[2]},
                                                      {"missing", counts[3]},
                                                      {"errors", counts[4]},
                                                      {"cannot_test", counts[5]},
                                                      {"failed_checks", checks_failed},
                                                      {"orphans", orphans.orphans.size()}})},
                             {"exit_code", exit_code}});
    Json scenarios = Json::array();
    for (const Outcome& o : outcomes) {
        scenarios.push_back(
            Json::object({{"name", o.name},
                          {"path", o.path},
                          {"status", json_status(o.status)},
                          {"checks_failed", o.checks_failed},
                          {"ticks", o.ticks},
                          {"seconds", json_decimal(text::decimal(o.millis, 1000, 3))},
                          {"summary", o.summary},
                          {"detail", o.detail}}));
    }
    doc.set("scenarios", std::move(scenarios));
    Json list = Json::array();
    for (const Orphan& o : orphans.orphans) {
        Json files = Json::array();
        for (const std::string& f : o.files)
            files.push_back(f);
        list.push_back(Json::object(
            {{"name", o.name}, {"files", std::move(files)}, {"message", orphan_message(o)}}));
    }
    doc.set("orphans", Json::object({{"checked", orphans.checked},
                                     {"mode", orphans.fail ? "fail" : "warn"},
                                     {"goldens", std::move(list)}}));
    return dump_json(doc);
}

std::string github_annotations(const std::vector<Outcome>& outcomes, const OrphanReport& orphans) {
    std::string out;
    GhItemColumns columns;
    for (const Outcome& o : outcomes) {
        const std::string name = o.name.empty() ? o.path : o.name;
        if (o.status == Status::kBadInput && o.summary.rfind(o.path + ":", 0) == 0) {
            // A load error names its place: "path:line:column: what".
            std::string_view rest = std::string_view(o.summary).substr(o.path.size() + 1);
            const int line = gh_leading_number(&rest);
            int col = 1;
            if (!rest.empty() && rest[0] == ':') {
                rest.remove_prefix(1);
                col = std::max(1, gh_leading_number(&rest));
            }
            out += gh_annotation("error", o.path, std::max(1, line), col, name + ": " + o.summary);
        } else if (o.status != Status::kPass && o.status != Status::kFailed) {
            out += gh_annotation("error", o.path, 1, 1,
                                 name + ": " + status_name(o.status) + ": " + o.summary);
        }
        for (const CheckFailure& f : o.failures) {
            if (f.kind == CheckFailure::Kind::kInvariant) {
                out += gh_annotation("error", o.path, 1, 1,
                                     name + ": invariant violated: " + f.message);
                continue;
            }
            // The message starts with the item's place: "expect[I] (line L): ..."
            int line = 1;
            if (const size_t at = f.message.find("(line "); at != std::string::npos) {
                std::string_view rest = std::string_view(f.message).substr(at + 6);
                line = std::max(1, gh_leading_number(&rest));
            }
            out += gh_annotation("error", o.path, line, line > 1 ? columns.column(o.path, line) : 1,
                                 name + ": expectation failed: " + f.message);
        }
    }
    for (const Orphan& o : orphans.orphans) {
        out += gh_annotation(orphans.fail ? "error" : "warning", o.files.front(), 1, 1,
                             "orphan golden: " + orphan_message(o));
    }
    return out;
}

} // namespace fx::harness
