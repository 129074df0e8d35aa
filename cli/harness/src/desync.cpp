#include "harness/desync.h"

#include <algorithm>

#include "fx/decimal.h"

namespace fx::harness {

std::vector<std::string> fault_fields() {
    std::vector<std::string> out;
    for (const Field& f : state_fields(kcc::CharacterState{})) {
        if (f.is_scalar) out.push_back(f.name);
    }
    return out;
}

namespace {

Scalar* field_ref(kcc::CharacterState* s, const std::string& name) {
    if (name == "x") return &s->position.x;
    if (name == "y") return &s->position.y;
    if (name == "z") return &s->position.z;
    if (name == "vx") return &s->velocity.x;
    if (name == "vy") return &s->velocity.y;
    if (name == "vz") return &s->velocity.z;
    if (name == "facing") return &s->facing;
    if (name == "normal_x") return &s->ground_normal.x;
    if (name == "normal_y") return &s->ground_normal.y;
    if (name == "normal_z") return &s->ground_normal.z;
    if (name == "previous_x") return &s->previous_position.x;
    if (name == "previous_y") return &s->previous_position.y;
    if (name == "previous_z") return &s->previous_position.z;
    if (name == "previous_facing") return &s->previous_facing;
    return nullptr;
}

bool parse_u64(std::string_view t, uint64_t* out) {
    if (t.empty() || t.size() > 18) return false;
    uint64_t v = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    *out = v;
    return true;
}

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

bool parse_fault(std::string_view text, Fault* out, std::string* error) {
    const std::string what = "expected TICK:CHARACTER:FIELD:BITS (e.g. 57:1:vx:3), found '" + std::string(text) + "'";
    std::vector<std::string_view> parts;
    size_t pos = 0;
    for (;;) {
        const size_t c = text.find(':', pos);
        parts.push_back(text.substr(pos, c == std::string_view::npos ? std::string_view::npos : c - pos));
        if (c == std::string_view::npos) break;
        pos = c + 1;
    }
    uint64_t tick = 0, ch = 0, bits = 0;
    if (parts.size() != 4 || !parse_u64(parts[0], &tick) || !parse_u64(parts[1], &ch) || !parse_u64(parts[3], &bits)) {
        *error = what;
        return false;
    }
    const std::vector<std::string> fields = fault_fields();
    if (std::find(fields.begin(), fields.end(), std::string(parts[2])) == fields.end()) {
        std::string list;
        for (const std::string& f : fields) list += (list.empty() ? "" : ", ") + f;
        *error = "unknown fault field '" + std::string(parts[2]) + "', expected one of: " + list;
        return false;
    }
    if (bits < 1 || bits > 64) {
        *error = "expected 1 to 64 bits to flip, found " + std::to_string(bits);
        return false;
    }
    if (ch > 0xFFFFFFFEu) {
        *error = what;
        return false;
    }
    out->tick = static_cast<int64_t>(tick);
    out->character = static_cast<uint32_t>(ch);
    out->field = std::string(parts[2]);
    out->bits = static_cast<int>(bits);
    return true;
}

bool apply_fault(const Fault& fault, kcc::CharacterState* state, std::string* error) {
    Scalar* f = field_ref(state, fault.field);
    if (f == nullptr) {
        *error = "unknown fault field '" + fault.field + "'";
        return false;
    }
    const uint64_t mask = fault.bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << fault.bits) - 1);
    *f = Scalar::from_raw(static_cast<int64_t>(static_cast<uint64_t>(f->raw()) ^ mask));
    return true;
}

TraceDifference first_trace_difference(std::string_view a, std::string_view b, size_t context_lines) {
    TraceDifference d;
    const std::vector<std::string_view> la = split_lines(a), lb = split_lines(b);
    const size_t n = std::max(la.size(), lb.size());
    for (size_t i = 0; i < n; ++i) {
        const std::string_view x = i < la.size() ? la[i] : std::string_view{};
        const std::string_view y = i < lb.size() ? lb[i] : std::string_view{};
        if (i < la.size() && i < lb.size() && x == y) continue;
        d.differs = true;
        d.line = i + 1;
        for (size_t k = i > context_lines ? i - context_lines : 0; k < i; ++k) d.context.emplace_back(la[k]);
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
        const auto it = std::find_if(b.begin(), b.end(), [&](const kcc::CharacterState& s) { return s.id == sa.id; });
        if (it == b.end()) continue;
        std::vector<FieldDiff> fields = diff_states(sa, *it);
        if (!fields.empty()) report->characters.push_back({sa.id, std::move(fields)});
    }
}

std::string format_desync(const DesyncReport& r, const std::string& name_a, const std::string& name_b) {
    if (!r.diverged) return "no desync: every tick's hashes agree\n";
    std::string s;
    if (r.every > 1) {
        s += "first divergent recorded tick " + std::to_string(r.tick) + " (ticks recorded every " +
             std::to_string(r.every) + "; last matching recorded tick " + std::to_string(r.tick - r.every) + ")\n";
    } else {
        s += "last matching tick " + (r.tick > 0 ? std::to_string(r.tick - 1) : std::string("none")) +
             ", first divergent tick " + std::to_string(r.tick) + "\n";
    }
    if (!r.reason.empty()) s += "  " + r.reason + "\n";
    s += "entities: " + entity_labels(r.entities) + "\n";
    s += "a = " + name_a + "\nb = " + name_b + "\n";
    for (const DesyncReport::Character& c : r.characters) {
        s += "character " + std::to_string(c.id) + ", fields that differ at tick " + std::to_string(r.tick) +
             " (a expected, b actual):\n";
        s += format_field_diffs({EntityKind::kCharacter, c.id}, c.fields);
    }
    if (r.trace_from >= 0) {
        s += "solver traces, ticks " + std::to_string(r.trace_from) + ".." + std::to_string(r.trace_to) + ": ";
        if (!r.trace.differs) {
            s += "identical (the differing field does not feed the solve there)\n";
        } else {
            s += "first difference at trace line " + std::to_string(r.trace.line) + "\n";
            for (const std::string& c : r.trace.context) s += "    " + c + "\n";
            s += "  a " + (r.trace.a.empty() ? std::string("(trace ended)") : r.trace.a) + "\n";
            s += "  b " + (r.trace.b.empty() ? std::string("(trace ended)") : r.trace.b) + "\n";
        }
    }
    return s;
}

} // namespace fx::harness
