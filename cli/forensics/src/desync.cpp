#include "forensics/desync.h"

#include <algorithm>

#include "fx/decimal.h"
#include "records/text.h"

namespace fx::harness {

namespace {

std::vector<std::string_view> split_lines(std::string_view s) {
    std::vector<std::string_view> out;
    size_t pos = 0;
    while (pos < s.size()) {
        size_t nl = s.find('\n', pos);
        if (nl == std::string_view::npos) nl = s.size();
        std::string_view line = s.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.push_back(line);
        pos = nl + 1;
    }
    return out;
}

} // namespace

TraceDifference first_trace_difference(std::string_view a, std::string_view b,
                                       size_t context_lines) {
    TraceDifference d;
    const std::vector<std::string_view> la = split_lines(a), lb = split_lines(b);
    const size_t n = std::max(la.size(), lb.size());
    for (size_t i = 0; i < n; ++i) {
        const std::string_view x = i < la.size() ? la[i] : std::string_view{};
        const std::string_view y = i < lb.size() ? lb[i] : std::string_view{};
        if (i < la.size() && i < lb.size() && x == y) continue;
        d.differs = true;
        d.line = i + 1;
        for (size_t k = i > context_lines ? i - context_lines : 0; k < i; ++k)
            d.context.emplace_back(la[k]);
        d.a = std::string(x);
        d.b = std::string(y);
        return d;
    }
    return d;
}

DesyncReport compare_runs(const HashFile& a, const HashFile& b) {
    DesyncReport r;
    const HashDivergence d = first_divergence(a, b);
    r.every = a.header.every;
    if (!d.diverged) return r;
    r.diverged = true;
    r.tick = d.tick;
    r.entities = d.entities;
    r.reason = d.reason;
    return r;
}

void add_state_differences(DesyncReport* report, const std::vector<kcc::CharacterState>& a,
                           const std::vector<kcc::CharacterState>& b) {
    report->characters.clear();
    for (const kcc::CharacterState& sa : a) {
        const auto it = std::find_if(b.begin(), b.end(),
                                     [&](const kcc::CharacterState& s) { return s.id == sa.id; });
        if (it == b.end()) continue;
        std::vector<FieldDiff> fields = diff_states(sa, *it);
        if (!fields.empty()) report->characters.push_back({sa.id, std::move(fields)});
    }
}

std::string format_desync(const DesyncReport& r, const std::string& name_a,
                          const std::string& name_b) {
    if (!r.diverged) return "no desync: every tick's hashes agree\n";
    std::string s;
    if (r.every > 1) {
        s += "first divergent recorded tick " + std::to_string(r.tick) + " (ticks recorded every " +
             std::to_string(r.every) + "; last matching recorded tick " +
             std::to_string(r.tick - r.every) + ")\n";
    } else {
        s += "last matching tick " +
             (r.tick > 0 ? std::to_string(r.tick - 1) : std::string("none")) +
             ", first divergent tick " + std::to_string(r.tick) + "\n";
    }
    if (!r.reason.empty()) s += "  " + r.reason + "\n";
    s += "entities: " + entity_labels(r.entities) + "\n";
    s += "a = " + name_a + "\nb = " + name_b + "\n";
    for (const DesyncReport::Character& c : r.characters) {
        s += "character " + std::to_string(c.id) + ", fields that differ at tick " +
             std::to_string(r.tick) + " (a expected, b actual):\n";
        s += format_field_diffs({EntityKind::kCharacter, c.id}, c.fields);
    }
    if (r.trace_from >= 0) {
        s += "solver traces, ticks " + std::to_string(r.trace_from) + ".." +
             std::to_string(r.trace_to) + ": ";
        if (!r.trace.differs) {
            s += "identical (the differing field does not feed the solve there)\n";
        } else {
            s += "first difference at trace line " + std::to_string(r.trace.line) + "\n";
            // (A side's trace lines, shown: what a side wrote reaches no terminal raw.)
            for (const std::string& c : r.trace.context)
                s += "    " + text::shown(c) + "\n";
            s += "  a " +
                 (r.trace.a.empty() ? std::string("(trace ended)") : text::shown(r.trace.a)) + "\n";
            s += "  b " +
                 (r.trace.b.empty() ? std::string("(trace ended)") : text::shown(r.trace.b)) + "\n";
        }
    }
    return s;
}

} // namespace fx::harness
