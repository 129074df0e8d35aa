// The checks' report: metrics as a table, CSV or JSON, and the failures, one per line.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "records/json.h"
#include "records/text.h"
#include "run/checks.h"

namespace fx::harness {

/// v rounded to 6 decimals (half away from zero), trailing zeros dropped: metrics resolve
/// nothing near 1e-6, and exact expansions of Q31.32 values are 32 digits long.
std::string metric_text(const MetricValue& v) {
    if (!v.present) return "";
    const int64_t raw = v.value.raw();
    const bool negative = raw < 0;
    const uint64_t mag =
        negative ? uint64_t{0} - static_cast<uint64_t>(raw) : static_cast<uint64_t>(raw);
    uint64_t whole = mag >> Scalar::kFracBits;
    uint64_t micro = ((mag & 0xFFFFFFFFu) * 1000000u + (uint64_t{1} << 31)) >> Scalar::kFracBits;
    if (micro == 1000000u) {
        ++whole;
        micro = 0;
    }
    std::string out = (negative && (whole != 0 || micro != 0) ? "-" : "") + std::to_string(whole);
    if (micro != 0) {
        std::string frac = std::to_string(micro);
        frac = std::string(6 - frac.size(), '0') + frac;
        while (frac.back() == '0')
            frac.pop_back();
        out += "." + frac;
    }
    return out;
}

std::string metrics_table(const CheckReport& report) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"character"};
    for (const MetricInfo& m : metric_info())
        head.emplace_back(m.name);
    rows.push_back(head);
    for (const CharacterMetrics& c : report.metrics) {
        std::vector<std::string> r{std::to_string(c.id)};
        for (const MetricValue& v : c.values)
            r.push_back(v.present ? metric_text(v) : "-");
        rows.push_back(r);
    }
    std::vector<size_t> width(head.size(), 0);
    for (const auto& r : rows) {
        for (size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    }
    fmt::memory_buffer out;
    for (const auto& r : rows) {
        for (size_t i = 0; i + 1 < r.size(); ++i)
            fmt::format_to(std::back_inserter(out), "{:<{}}", r[i], width[i] + 2);
        fmt::format_to(std::back_inserter(out), "{}\n", r.back());
    }
    return fmt::to_string(out);
}

std::string metrics_csv(const CheckReport& report) {
    std::string out = "character";
    for (const MetricInfo& m : metric_info())
        out += std::string(",") + m.name;
    out += "\n";
    for (const CharacterMetrics& c : report.metrics) {
        out += std::to_string(c.id);
        for (const MetricValue& v : c.values)
            out += "," + metric_text(v);
        out += "\n";
    }
    return out;
}

std::string metrics_json(const Scenario& sc, const CheckReport& report) {
    Json doc = Json::object({{"scenario", sc.name}, {"ticks", report.ticks}});
    Json characters = Json::array();
    for (const CharacterMetrics& c : report.metrics) {
        Json one = Json::object({{"id", c.id}});
        for (int m = 0; m < kMetricCount; ++m) {
            const MetricValue& v = c.values[static_cast<size_t>(m)];
            // The CSV's digits (metric_text), as a number.
            one.set(metric_info()[m].name,
                    v.present ? json_decimal(metric_text(v)) : Json(nullptr));
        }
        characters.push_back(std::move(one));
    }
    doc.set("characters", std::move(characters));
    doc.set("expectations", report.expectations);
    Json failures = Json::array();
    for (const CheckFailure& f : report.failures) {
        failures.push_back(Json::object(
            {{"kind", f.kind == CheckFailure::Kind::kExpectation ? "expectation" : "invariant"},
             {"tick", f.tick},
             {"message", f.message}}));
    }
    doc.set("failures", std::move(failures));
    return dump_json(doc);
}

std::string format_failures(const CheckReport& report, const std::string& indent) {
    std::string out;
    for (const CheckFailure& f : report.failures) {
        out += indent +
               (f.kind == CheckFailure::Kind::kExpectation ? "expectation failed: "
                                                           : "invariant violated: ") +
               f.message + "\n";
    }
    return out;
}

} // namespace fx::harness
