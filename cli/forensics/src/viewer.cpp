// The run viewer (forensics/viewer.h, docs/viewer.md): the page's data from one or two runs, cut
// to the page's size bound, between the page's HTML (viewer_page.html, embedded at build time).
#include "forensics/viewer.h"

#include "viewer_detail.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace fx::harness {
namespace {

using namespace viewer_detail;

/// The CSV's state columns: what the page shows and compares (previous_* and the rest are not in
/// a trajectory; two runs that differ only there differ in their hashes).
constexpr size_t kFields = 13;
/// Per field how the page shows a difference: m metres, v m/s, f radians (facing: degrees), b a
/// flag, n a unit normal's component, i an id.
constexpr const char* kFieldKinds = "mmmvvvfbnnnii";
/// Raw values a column holds as varints; beyond it (a body far outside any level) as decimals,
/// so that the page's Number arithmetic stays exact (|delta| < 2^52).
constexpr int64_t kVarintLimit = int64_t{1} << 51;

using Rows = std::vector<const TrajectoryRow*>; // one character's rows in one run, by tick

struct Prepared {
    std::vector<uint32_t> ids;
    std::vector<std::map<uint32_t, Rows>> rows; // per run
    std::map<uint32_t, std::vector<char>> mismatch; // per character, per tick (two runs)
    std::map<uint32_t, int64_t> first_mismatch;
    /// Per character, the ticks whose row the second run holds: where it differs from the first
    /// run, and where the first has no row (a golden recorded every K-th tick against a run).
    std::map<uint32_t, std::vector<char>> second_holds;
    int64_t ticks = 0;
};

bool same_fields(const kcc::CharacterState& a, const kcc::CharacterState& b) {
    const std::vector<Field> fa = state_fields(a), fb = state_fields(b);
    for (size_t i = 0; i < kFields; ++i) {
        if (fa[i].raw != fb[i].raw) return false;
    }
    return true;
}

void find_mismatches(const ViewerPage& page, Prepared* p) {
    if (page.runs.size() < 2) return;
    std::vector<char> recorded[2];
    for (size_t r = 0; r < 2; ++r) {
        recorded[r].assign(static_cast<size_t>(p->ticks), 0);
        for (const TrajectoryRow& row : page.runs[r].rows) {
            if (row.tick >= 0 && row.tick < p->ticks)
                recorded[r][static_cast<size_t>(row.tick)] = 1;
        }
    }
    for (uint32_t id : p->ids) {
        std::vector<char>& m = p->mismatch[id];
        m.assign(static_cast<size_t>(p->ticks), 0);
        const Rows& a = p->rows[0][id];
        const Rows& b = p->rows[1][id];
        size_t i = 0, k = 0;
        while (i < a.size() || k < b.size()) {
            const int64_t ta = i < a.size() ? a[i]->tick : INT64_MAX;
            const int64_t tb = k < b.size() ? b[k]->tick : INT64_MAX;
            const int64_t t = std::min(ta, tb);
            if (t < 0 || t >= p->ticks) break;
            if (ta == tb) {
                if (!same_fields(a[i]->state, b[k]->state)) m[static_cast<size_t>(t)] = 1;
                ++i;
                ++k;
            } else if (ta < tb) { // in a only: a difference where b recorded the tick
                if (recorded[1][static_cast<size_t>(t)]) m[static_cast<size_t>(t)] = 1;
                ++i;
            } else {
                if (recorded[0][static_cast<size_t>(t)]) m[static_cast<size_t>(t)] = 1;
                ++k;
            }
        }
    }
    // Sub-hashes: the fields a trajectory does not hold.
    const HashFile* ha = page.runs[0].hashes;
    const HashFile* hb = page.runs[1].hashes;
    if (ha != nullptr && hb != nullptr && ha->header.entities == hb->header.entities) {
        std::map<int64_t, size_t> at_b;
        for (size_t j = 0; j < hb->ticks.size(); ++j)
            at_b[hb->ticks[j].tick] = j;
        for (const TickHashes& ta : ha->ticks) {
            auto it = at_b.find(ta.tick);
            if (it == at_b.end() || ta.tick < 0 || ta.tick >= p->ticks) continue;
            const TickHashes& tb = hb->ticks[it->second];
            for (size_t e = 0; e < ha->header.entities.size(); ++e) {
                const EntityRef& ref = ha->header.entities[e];
                if (ref.kind != EntityKind::kCharacter || e >= ta.entities.size() ||
                    e >= tb.entities.size() || ta.entities[e] == tb.entities[e])
                    continue;
                auto m = p->mismatch.find(ref.id);
                if (m != p->mismatch.end()) m->second[static_cast<size_t>(ta.tick)] = 1;
            }
        }
    }
    for (auto& [id, m] : p->mismatch) {
        const auto it = std::find(m.begin(), m.end(), 1);
        p->first_mismatch[id] = it == m.end() ? p->ticks : it - m.begin();
        std::vector<char>& holds = p->second_holds[id];
        holds = m;
        std::vector<char> in_a(m.size(), 0);
        for (const TrajectoryRow* row : p->rows[0][id]) {
            if (row->tick >= 0 && row->tick < p->ticks) in_a[static_cast<size_t>(row->tick)] = 1;
        }
        for (const TrajectoryRow* row : p->rows[1][id]) {
            if (row->tick >= 0 && row->tick < p->ticks && !in_a[static_cast<size_t>(row->tick)])
                holds[static_cast<size_t>(row->tick)] = 1;
        }
    }
}

std::string mismatch_json(const Prepared& p) {
    std::string o = "{";
    bool first = true;
    for (const auto& [id, m] : p.mismatch) {
        std::string ranges;
        for (size_t t = 0; t < m.size(); ++t) {
            if (!m[t]) continue;
            size_t e = t;
            while (e + 1 < m.size() && m[e + 1])
                ++e;
            ranges +=
                (ranges.empty() ? "[" : ",[") + std::to_string(t) + "," + std::to_string(e) + "]";
            t = e;
        }
        o += std::string(first ? "" : ",") + "\"" + std::to_string(id) + "\":[" + ranges + "]";
        first = false;
    }
    return o + "}";
}

struct Kept {
    int64_t stride = 1, from = 0, to = -1;
    std::set<int64_t> exact; // ticks always kept (marks, first mismatches)
    bool keep(int64_t t, bool first_or_last) const {
        return stride <= 1 || first_or_last || (t >= from && t <= to) || t % stride == 0 ||
               exact.count(t) != 0;
    }
};

/// One character's kept rows of one run: {"seg":[[from,count,step],..],"d":[13 columns]}.
/// `only` (may be null): per tick whether to hold the row at all (the second run: where it
/// differs from the first), each range's first and last tick always kept.
std::string character_json(const Rows& rows, const std::vector<char>* only, const Kept& kept,
                           int64_t* count) {
    std::vector<const TrajectoryRow*> k;
    auto in = [&](int64_t t) {
        return t >= 0 && static_cast<size_t>(t) < only->size() && (*only)[static_cast<size_t>(t)];
    };
    for (size_t i = 0; i < rows.size(); ++i) {
        const int64_t t = rows[i]->tick;
        if (only != nullptr && !in(t)) continue;
        const bool edge = i == 0 || i + 1 == rows.size() || k.empty() ||
                          (only != nullptr && (!in(t - 1) || !in(t + 1)));
        if (kept.keep(t, edge)) k.push_back(rows[i]);
    }
    *count += static_cast<int64_t>(k.size());
    std::string seg;
    for (size_t i = 0; i < k.size();) {
        const int64_t start = k[i]->tick;
        size_t n = 1;
        int64_t step = 1;
        if (i + 1 < k.size()) {
            step = k[i + 1]->tick - start;
            n = 2;
            while (i + n < k.size() && k[i + n]->tick - k[i + n - 1]->tick == step)
                ++n;
        }
        seg += (seg.empty() ? "[" : ",[") + std::to_string(start) + "," + std::to_string(n) + "," +
               std::to_string(step) + "]";
        i += n;
    }
    std::string o = "{\"seg\":[" + seg + "],\"d\":[";
    std::vector<int64_t> all(k.size() * kFields), col(k.size());
    for (size_t i = 0; i < k.size(); ++i) {
        const std::vector<Field> fs = state_fields(k[i]->state);
        for (size_t f = 0; f < kFields; ++f)
            all[i * kFields + f] = fs[f].raw;
    }
    for (size_t f = 0; f < kFields; ++f) {
        bool wide = false;
        for (size_t i = 0; i < k.size(); ++i) {
            col[i] = all[i * kFields + f];
            wide = wide || col[i] >= kVarintLimit || col[i] <= -kVarintLimit;
        }
        o += f ? "," : "";
        if (!wide) {
            o += "\"B" + delta_column(col.data(), col.size()) + "\"";
            continue;
        }
        o += "\"D";
        for (size_t i = 0; i < col.size(); ++i)
            o += (i ? "," : "") + std::to_string(col[i]);
        o += "\"";
    }
    return o + "]}";
}

std::string runs_json(const ViewerPage& page, const Prepared& p, const Kept& kept,
                      int64_t* rows_kept) {
    std::string o = "[";
    for (size_t r = 0; r < page.runs.size(); ++r) {
        o += std::string(r ? "," : "") + "{\"label\":" + jstr(page.runs[r].label) + ",\"c\":{";
        bool first = true;
        for (uint32_t id : p.ids) {
            auto it = p.rows[r].find(id);
            if (it == p.rows[r].end()) continue;
            // The second run holds only the rows where it differs from the first or the first has
            // none (elsewhere they are the first run's); "same": its first difference.
            o += std::string(first ? "" : ",") + "\"" + std::to_string(id) + "\":";
            std::string c = character_json(it->second, r == 0 ? nullptr : &p.second_holds.at(id),
                                           kept, rows_kept);
            if (r > 0) c.insert(1, "\"same\":" + std::to_string(p.first_mismatch.at(id)) + ",");
            o += c;
            first = false;
        }
        o += "}}";
    }
    return o + "]";
}

std::string traces_json(const ViewerPage& page, const Prepared& p, int64_t focus_c, bool* any_cut) {
    std::set<uint32_t> keep;
    if (focus_c >= 0) keep.insert(static_cast<uint32_t>(focus_c));
    for (const ViewerMark& m : page.marks) {
        if (m.character >= 0) keep.insert(static_cast<uint32_t>(m.character));
    }
    for (const auto& [id, m] : p.mismatch) {
        for (const ViewerRun& run : page.runs) {
            for (int64_t t = std::max<int64_t>(run.trace_from, 0);
                 t <= run.trace_to && t < static_cast<int64_t>(m.size()); ++t) {
                if (m[static_cast<size_t>(t)]) keep.insert(id);
            }
        }
    }
    std::string o = "[";
    for (size_t r = 0; r < page.runs.size(); ++r) {
        const ViewerRun& run = page.runs[r];
        bool cut = false;
        const std::string text = cut_trace(run.trace, keep, page.max_trace_bytes, &cut);
        *any_cut = *any_cut || cut;
        o += std::string(r ? "," : "") + "{\"from\":" + std::to_string(run.trace_from) +
             ",\"to\":" + std::to_string(run.trace_to) + ",\"cut\":" + (cut ? "true" : "false") +
             ",\"text\":" + jstr(text) + "}";
    }
    return o + "]";
}

} // namespace

std::vector<ViewerMark> viewer_marks(const CheckReport& report, int run) {
    std::vector<ViewerMark> out;
    static const std::regex character(R"(character (\d+))");
    for (const CheckFailure& f : report.failures) {
        ViewerMark m;
        m.tick = f.tick;
        m.kind = f.kind == CheckFailure::Kind::kExpectation ? "expectation" : "invariant";
        m.message = f.message;
        m.run = run;
        std::smatch sm;
        if (std::regex_search(f.message, sm, character)) m.character = std::stoll(sm[1].str());
        out.push_back(std::move(m));
    }
    return out;
}

bool viewer_html(const ViewerPage& page, std::string* html, ViewerSummary* summary,
                 std::string* err) {
    if (page.scenario == nullptr) {
        *err = "no scenario";
        return false;
    }
    if (page.runs.empty() || page.runs.size() > 2) {
        *err = "expected one or two runs, found " + std::to_string(page.runs.size());
        return false;
    }
    const Scenario& sc = *page.scenario;
    Prepared p;
    p.ids = character_ids(sc);
    p.ticks = page.ticks >= 0 && page.ticks < sc.ticks ? page.ticks : sc.ticks;
    p.rows.resize(page.runs.size());
    int64_t rows_total = 0;
    for (size_t r = 0; r < page.runs.size(); ++r) {
        for (const TrajectoryRow& row : page.runs[r].rows) {
            p.rows[r][row.state.id].push_back(&row);
            p.ticks = std::max(p.ticks, row.tick + 1);
        }
        rows_total += static_cast<int64_t>(page.runs[r].rows.size());
    }
    find_mismatches(page, &p);

    ViewerSummary s;
    s.rows_total = rows_total;
    s.focus_tick = page.focus_tick;
    s.focus_character = page.focus_character;
    if (s.focus_tick < 0) {
        for (uint32_t id : p.ids) {
            auto it = p.first_mismatch.find(id);
            if (it != p.first_mismatch.end() && it->second < p.ticks &&
                (s.focus_tick < 0 || it->second < s.focus_tick)) {
                s.focus_tick = it->second;
                s.focus_character = id;
            }
        }
    }
    if (s.focus_tick < 0) {
        for (const ViewerMark& m : page.marks) {
            if (m.tick >= 0 && (s.focus_tick < 0 || m.tick < s.focus_tick)) {
                s.focus_tick = m.tick;
                s.focus_character = m.character;
            }
        }
    }
    if (s.focus_tick < 0) s.focus_tick = 0;
    if (s.focus_character < 0 && !p.ids.empty()) s.focus_character = p.ids.front();

    Kept kept;
    for (const ViewerMark& m : page.marks)
        kept.exact.insert(m.tick);
    for (const auto& [id, t] : p.first_mismatch)
        kept.exact.insert(t);
    std::string runs;
    int64_t rows_kept = 0;
    for (int attempt = 0; attempt < 12; ++attempt) {
        rows_kept = 0;
        runs = runs_json(page, p, kept, &rows_kept);
        const auto bytes = static_cast<int64_t>(runs.size());
        if (bytes <= page.max_bytes || kept.stride > p.ticks) break;
        // Rows every K-th tick outside the window; K from the size measured, with room to spare.
        const int64_t window = std::max<int64_t>(0, page.window >> (attempt / 3));
        kept.from = s.focus_tick - window;
        kept.to = s.focus_tick + window;
        const double ratio = static_cast<double>(bytes) / static_cast<double>(page.max_bytes);
        kept.stride = std::max<int64_t>(
            kept.stride * 2,
            static_cast<int64_t>(static_cast<double>(kept.stride) * ratio * 1.25) + 1);
    }
    s.stride = kept.stride;
    s.window_from = kept.stride > 1 ? std::max<int64_t>(0, kept.from) : 0;
    s.window_to = kept.stride > 1 ? std::min(kept.to, p.ticks - 1) : p.ticks - 1;
    s.rows_kept = rows_kept;

    std::string marks = "[";
    for (size_t i = 0; i < page.marks.size(); ++i) {
        const ViewerMark& m = page.marks[i];
        marks += std::string(i ? "," : "") + "[" + std::to_string(m.tick) + "," + jstr(m.kind) +
                 "," + std::to_string(m.character) + "," + jstr(m.message) + "," +
                 std::to_string(m.run) + "]";
    }
    marks += "]";
    std::string fields = "[";
    const std::vector<Field> names = state_fields(kcc::CharacterState{});
    for (size_t f = 0; f < kFields; ++f)
        fields += std::string(f ? "," : "") + jstr(names[f].name);
    fields += "]";

    std::string data =
        "{\"v\":1,\"title\":" + jstr(page.title) + ",\"scenario\":{\"name\":" + jstr(sc.name) +
        ",\"path\":" + jstr(sc.path) + ",\"ticks\":" + std::to_string(p.ticks) +
        ",\"rate\":" + std::to_string(sc.tick_rate_hz) + "},\"fields\":" + fields +
        ",\"kinds\":" + jstr(kFieldKinds) + ",\"chars\":" + characters_json(sc) +
        ",\"level\":" + level_json(sc) + ",\"runs\":" + runs + ",\"mismatch\":" + mismatch_json(p) +
        ",\"marks\":" + marks + ",\"focus\":[" + std::to_string(s.focus_tick) + "," +
        std::to_string(s.focus_character) + "],\"kept\":{\"stride\":" + std::to_string(s.stride) +
        ",\"from\":" + std::to_string(s.window_from) + ",\"to\":" + std::to_string(s.window_to) +
        ",\"rows\":" + std::to_string(s.rows_kept) + ",\"total\":" + std::to_string(s.rows_total) +
        "}";
    data += ",\"traces\":" + traces_json(page, p, s.focus_character, &s.trace_cut);
    data += ",\"report\":" + jstr(page.report) + "}";

    *html = viewer_page_head() + "<script id=\"fxkcc-data\" type=\"application/json\">" + data +
            "</script>\n" + viewer_page_tail();
    s.bytes = static_cast<int64_t>(html->size());
    if (summary != nullptr) *summary = s;
    return true;
}

std::string page_rows_refusal(const Scenario& sc, int64_t ticks) {
    const int64_t run = ticks >= 0 && ticks < sc.ticks ? ticks : sc.ticks;
    const auto characters = static_cast<int64_t>(character_ids(sc).size());
    if (run * characters <= kMaxPageRows) return {};
    return std::to_string(run) + " ticks x " + std::to_string(characters) +
           " characters is more than the " + std::to_string(kMaxPageRows) +
           " rows a page is made from";
}

std::string viewer_summary_line(const std::string& path, const ViewerSummary& s) {
    std::string line =
        "html: wrote " + path + " (" + std::to_string((s.bytes + 1023) / 1024) + " KB; ";
    if (s.stride <= 1) {
        line += "every row";
    } else {
        line += "rows every " + std::to_string(s.stride) + " ticks outside ticks " +
                std::to_string(s.window_from) + ".." + std::to_string(s.window_to) + ", " +
                std::to_string(s.rows_kept) + " of " + std::to_string(s.rows_total) + " rows";
    }
    if (s.trace_cut) line += "; traces cut";
    return line + ")";
}

} // namespace fx::harness
