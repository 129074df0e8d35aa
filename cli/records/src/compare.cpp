#include "records/compare.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "fx/decimal.h"
#include "fx/trig.h"

namespace fx::harness {

namespace {

std::string value_text(int64_t raw, bool is_scalar) {
    if (is_scalar) {
        const Scalar s = Scalar::from_raw(raw);
        return to_string_shortest(s) + " (raw " + to_string_raw_hex(s) + ")";
    }
    if (raw == static_cast<int64_t>(kcc::kNoId)) return "none";
    return std::to_string(raw);
}

/// actual - expected, exact over the whole int64 range (the magnitude fits in uint64).
std::string delta_text(int64_t expected, int64_t actual) {
    const auto e = static_cast<uint64_t>(expected);
    const auto a = static_cast<uint64_t>(actual);
    return actual >= expected ? "+" + std::to_string(a - e) : "-" + std::to_string(e - a);
}

/// The delta in the field's unit: " = +0.1 m" (positions), " m/s" (velocities), " deg" (facing,
/// which is held in radians), "" for unitless fields (the ground normal) or a delta too large
/// for a Scalar.
std::string unit_delta_text(const std::string& field, int64_t expected, int64_t actual) {
    const auto e = static_cast<uint64_t>(expected);
    const auto a = static_cast<uint64_t>(actual);
    const uint64_t mag = actual >= expected ? a - e : e - a;
    if (mag > static_cast<uint64_t>(INT64_MAX)) return "";
    const Scalar d = Scalar::from_raw(actual >= expected ? static_cast<int64_t>(mag)
                                                         : -static_cast<int64_t>(mag));
    const std::string_view f(field);
    const std::string_view base = f.starts_with("previous_") ? f.substr(9) : f;
    std::string unit;
    Scalar v = d;
    if (base == "x" || base == "y" || base == "z") {
        unit = "m";
    } else if (base == "vx" || base == "vy" || base == "vz") {
        unit = "m/s";
    } else if (base == "facing") {
        if (mag > (uint64_t{1} << 40)) return ""; // beyond any two angles' difference
        v = mul_div(d, Scalar::from_int(180), kPi);
        unit = "deg";
    } else {
        return "";
    }
    const std::string text = to_string_shortest(v);
    return " = " + (text.front() == '-' ? text : "+" + text) + " " + unit;
}

} // namespace

HashDivergence first_divergence(const HashFile& expected, const HashFile& actual) {
    HashDivergence d;
    const auto& ee = expected.header.entities;
    const auto& ae = actual.header.entities;
    if (ee != ae) {
        // Both lists are in entity order, so set_symmetric_difference applies.
        d.diverged = true;
        d.tick = 0;
        std::set_symmetric_difference(ee.begin(), ee.end(), ae.begin(), ae.end(),
                                      std::back_inserter(d.entities));
        d.reason = "entities differ: " + entity_labels(ee) + " vs " + entity_labels(ae);
        return d;
    }
    if (expected.header.every != actual.header.every) {
        d.diverged = true;
        d.tick = 0;
        d.reason = "recording strides differ: every " + std::to_string(expected.header.every) +
                   " vs every " + std::to_string(actual.header.every);
        return d;
    }
    const size_t common = std::min(expected.ticks.size(), actual.ticks.size());
    for (size_t t = 0; t < common; ++t) {
        const TickHashes& e = expected.ticks[t];
        const TickHashes& a = actual.ticks[t];
        if (e.tick == a.tick && e.world == a.world && e.entities == a.entities) continue;
        d.diverged = true;
        d.tick = std::min(e.tick, a.tick);
        const size_t n = std::min({e.entities.size(), a.entities.size(), ee.size()});
        for (size_t i = 0; i < n; ++i) {
            if (e.entities[i] != a.entities[i]) d.entities.push_back(ee[i]);
        }
        if (e.entities.size() != a.entities.size()) {
            d.reason = "entity hash counts differ: " + std::to_string(e.entities.size()) + " vs " +
                       std::to_string(a.entities.size());
        } else if (d.entities.empty()) {
            d.reason = "world hash differs but no entity hash does";
        }
        return d;
    }
    if (expected.ticks.size() != actual.ticks.size()) {
        d.diverged = true;
        d.tick = common == 0 ? 0 : expected.ticks[common - 1].tick + 1;
        d.reason = "tick counts differ: " + std::to_string(expected.ticks.size()) + " vs " +
                   std::to_string(actual.ticks.size());
    }
    return d;
}

std::string incomparable_reason(const HashFileHeader& expected, const HashFileHeader& actual) {
    if (expected.digest != actual.digest) {
        return "stale: scenario digest differs: " + expected.digest + " vs " + actual.digest;
    }
    if (expected.engine != actual.engine) {
        return "engine differs: " + expected.engine + " vs " + actual.engine;
    }
    if (expected.behaviour != actual.behaviour) {
        return "behaviour version differs: " + std::to_string(expected.behaviour) + " vs " +
               std::to_string(actual.behaviour);
    }
    return {};
}

std::string format_divergent_tick(int64_t tick, int64_t every) {
    if (every > 1) {
        return "first divergent recorded tick " + std::to_string(tick) + " (ticks recorded every " +
               std::to_string(every) + ": it diverged after tick " + std::to_string(tick - every) +
               ")";
    }
    if (tick <= 0) return "first divergent tick " + std::to_string(tick) + " (no tick before it)";
    return "first divergent tick " + std::to_string(tick) + " (last matching tick " +
           std::to_string(tick - 1) + ")";
}

std::string format_hash_divergence(const HashDivergence& d, const HashFile& expected,
                                   const HashFile& actual) {
    if (!d.diverged) return {};
    std::string s = format_divergent_tick(d.tick, expected.header.every) + "\n";
    if (!d.reason.empty()) s += "  " + d.reason + "\n";
    auto at = [&](const HashFile& f) -> const TickHashes* {
        const auto it =
            std::lower_bound(f.ticks.begin(), f.ticks.end(), d.tick,
                             [](const TickHashes& th, int64_t v) { return th.tick < v; });
        return it != f.ticks.end() && it->tick == d.tick ? &*it : nullptr;
    };
    const TickHashes* ep = at(expected);
    const TickHashes* ap = at(actual);
    if (ep == nullptr || ap == nullptr) return s;
    const TickHashes& e = *ep;
    const TickHashes& a = *ap;
    s += "  world: expected " + hex16(e.world) + " actual " + hex16(a.world) + "\n";
    const auto& ents = expected.header.entities;
    for (const EntityRef& ref : d.entities) {
        const auto it = std::lower_bound(ents.begin(), ents.end(), ref);
        if (it == ents.end() || *it != ref) continue;
        const auto i = static_cast<size_t>(it - ents.begin());
        if (i >= e.entities.size() || i >= a.entities.size()) continue;
        s += "  " + ref.label() + ": expected " + entity_cell(e.entities[i]) + " actual " +
             entity_cell(a.entities[i]) + "\n";
    }
    return s;
}

std::vector<FieldDiff> diff_states(const kcc::CharacterState& expected,
                                   const kcc::CharacterState& actual) {
    const std::vector<Field> e = state_fields(expected);
    const std::vector<Field> a = state_fields(actual);
    std::vector<FieldDiff> out;
    for (size_t i = 0; i < e.size(); ++i) {
        if (e[i].raw != a[i].raw) out.push_back({e[i].name, e[i].raw, a[i].raw, e[i].is_scalar});
    }
    return out;
}

std::string format_field_diffs(EntityRef entity, const std::vector<FieldDiff>& diffs) {
    std::string s;
    const std::string label = entity.label();
    for (const FieldDiff& f : diffs) {
        s += "  " + label + ": " + f.field + " expected " +
             value_text(f.expected_raw, f.is_scalar) + " actual " +
             value_text(f.actual_raw, f.is_scalar);
        if (f.is_scalar) {
            s += " delta " + delta_text(f.expected_raw, f.actual_raw) + " ulp" +
                 unit_delta_text(f.field, f.expected_raw, f.actual_raw);
        }
        s += '\n';
    }
    return s;
}

CsvDivergence first_divergence(const std::vector<TrajectoryRow>& expected,
                               const std::vector<TrajectoryRow>& actual) {
    CsvDivergence d;
    const size_t common = std::min(expected.size(), actual.size());
    for (size_t i = 0; i < common; ++i) {
        const TrajectoryRow& e = expected[i];
        const TrajectoryRow& a = actual[i];
        if (e.tick != a.tick || e.state.id != a.state.id) {
            d.diverged = true;
            const bool e_first = e.tick < a.tick || (e.tick == a.tick && e.state.id < a.state.id);
            d.tick = e_first ? e.tick : a.tick;
            d.character = e_first ? e.state.id : a.state.id;
            d.reason = "rows differ: expected tick " + std::to_string(e.tick) + " character " +
                       std::to_string(e.state.id) + ", found tick " + std::to_string(a.tick) +
                       " character " + std::to_string(a.state.id);
            return d;
        }
        std::vector<FieldDiff> fields = diff_states(e.state, a.state);
        if (e.has_render && a.has_render) {
            const char* names[] = {"render_x", "render_y", "render_z"};
            const Scalar ev[] = {e.render.x, e.render.y, e.render.z};
            const Scalar av[] = {a.render.x, a.render.y, a.render.z};
            for (int k = 0; k < 3; ++k) {
                if (ev[k] != av[k]) fields.push_back({names[k], ev[k].raw(), av[k].raw(), true});
            }
        } else if (e.has_render != a.has_render) {
            d.reason = e.has_render ? "render position in expected only"
                                    : "render position in actual only";
        }
        if (fields.empty() && d.reason.empty()) continue;
        d.diverged = true;
        d.tick = e.tick;
        d.character = e.state.id;
        d.fields = std::move(fields);
        return d;
    }
    if (expected.size() != actual.size()) {
        const TrajectoryRow& next = expected.size() > common ? expected[common] : actual[common];
        d.diverged = true;
        d.tick = next.tick;
        d.character = next.state.id;
        d.reason = "row counts differ: " + std::to_string(expected.size()) + " vs " +
                   std::to_string(actual.size());
    }
    return d;
}

std::string format_csv_divergence(const CsvDivergence& d) {
    if (!d.diverged) return {};
    std::string s = format_divergent_tick(d.tick) + "\n";
    if (!d.reason.empty()) s += "  c" + std::to_string(d.character) + ": " + d.reason + "\n";
    s += format_field_diffs({EntityKind::kCharacter, d.character}, d.fields);
    return s;
}

} // namespace fx::harness
