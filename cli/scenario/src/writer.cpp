#include "scenario/writer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <variant>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "fx/decimal.h"
#include "records/hash_file.h"
#include "scenario/metric_names.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

std::string num(Scalar v) {
    return to_string_shortest(v);
}
std::string vec3(const Vec3& v) {
    return "[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]";
}
bool is_zero(Scalar v) {
    return v.raw() == 0;
}

/// Whether a plane is written `exact: true`: when it was read so, and when normalising its
/// (already unit) normal again would move it (1.7 % of normals, docs/embedding.md), so that
/// what is written loads back to the same plane; the digest's text only in the first case
/// (ScenarioWriteOptions::digest_form).
bool exact_plane(const PlaneDef& p, const ScenarioWriteOptions& o) {
    Vec3 again;
    return p.exact ||
           (!o.digest_form && (!try_normalize(p.normal, &again) || !(again == p.normal)));
}

/// A rotation's value as the scenario gave it: [yaw, pitch, roll], or the matrix's rows.
std::string rotation_value(const RotationDef& r) {
    if (!r.is_matrix) return "[" + num(r.yaw) + ", " + num(r.pitch) + ", " + num(r.roll) + "]";
    return "[" + vec3(r.matrix.row[0]) + ", " + vec3(r.matrix.row[1]) + ", " +
           vec3(r.matrix.row[2]) + "]";
}

/// ns / 10^6 as an exact decimal (the loader rounds ms * 10^6 back to the same ns).
std::string ms_text(int64_t ns) {
    std::string s = std::to_string(ns / 1000000);
    int64_t frac = ns % 1000000;
    if (frac != 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%06lld", static_cast<long long>(frac));
        std::string f = buf;
        while (!f.empty() && f.back() == '0')
            f.pop_back();
        s += "." + f;
    }
    return s;
}

std::string check_yaml(const Check& c) {
    if (c.has_min && c.has_max) {
        if (c.min == c.max) return num(c.min);
        return "[" + num(c.min) + ", " + num(c.max) + "]";
    }
    if (c.has_min) return "{min: " + num(c.min) + "}";
    return "{max: " + num(c.max) + "}";
}

/// "key: value" of every setting of `s` that differs from `base` (kcc::settings_diff).
std::vector<std::string> settings_lines(const kcc::Settings& s, const kcc::Settings& base) {
    std::vector<std::string> out;
    for (const auto& [key, value] : kcc::settings_diff(s, base))
        out.push_back(key + ": " + value);
    return out;
}

void settings_yaml(const kcc::Settings& s, std::string* out) {
    const std::vector<std::string> diff = settings_lines(s, kcc::Settings{});
    if (diff.empty()) return;
    *out += "    settings:\n";
    for (const std::string& kv : diff)
        *out += "      " + kv + "\n";
}

void input_yaml(const InputStream& in, std::string* out) {
    if (in.sticks.empty() && in.jumps.empty() && in.impulses.empty()) return;
    *out += "    input:\n";
    if (!in.sticks.empty()) {
        *out += "      segments:\n";
        int64_t t = 0;
        for (const StickSegment& s : in.sticks) {
            if (s.to <= s.from) continue;
            if (s.from > t) *out += "        - {ticks: " + std::to_string(s.from - t) + "}\n";
            *out += "        - {ticks: " + std::to_string(s.to - s.from);
            if (!is_zero(s.x) || !is_zero(s.y))
                *out += ", stick: [" + num(s.x) + ", " + num(s.y) + "]";
            *out += "}\n";
            t = s.to;
        }
    }
    if (!in.jumps.empty()) {
        *out += "      jumps: [";
        for (size_t i = 0; i < in.jumps.size(); ++i)
            *out += (i ? ", " : "") + std::to_string(in.jumps[i]);
        *out += "]\n";
    }
    if (!in.impulses.empty()) {
        *out += "      impulses:\n";
        for (const ImpulseEvent& e : in.impulses) {
            *out += "        - {tick: " + std::to_string(e.tick) +
                    ", velocity: " + vec3(e.velocity) + "}\n";
        }
    }
}

std::string same_as_path(const Scenario& sc, const SameAsExpectation& e,
                         const ScenarioWriteOptions& o) {
    if (o.output_dir.empty()) return e.path;
    std::error_code ec;
    fs::path p(e.path);
    if (p.is_relative()) p = fs::path(sc.path).parent_path() / p;
    const fs::path abs = fs::absolute(p, ec).lexically_normal();
    const fs::path dir = fs::absolute(fs::path(o.output_dir), ec).lexically_normal();
    const fs::path rel = abs.lexically_relative(dir);
    return rel.empty() ? abs.generic_string() : rel.generic_string();
}

} // namespace

std::string yaml_quote(const std::string& text) {
    std::string q = "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"':
            q += "\\\"";
            break;
        case '\\':
            q += "\\\\";
            break;
        case '\n':
            q += "\\n";
            break;
        case '\t':
            q += "\\t";
            break;
        case '\r':
            q += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", c);
                q += buf;
            } else {
                q += static_cast<char>(c);
            }
        }
    }
    return q + "\"";
}

std::string scenario_to_yaml(const Scenario& sc, const ScenarioWriteOptions& options) {
    std::string o;
    o += "format: " + std::to_string(kScenarioFormat) + "\n";
    o += "name: " + sc.name + "\n";
    o += "description: " + yaml_quote(sc.description) + "\n";
    if (!sc.deviation.empty()) o += "deviation: " + yaml_quote(sc.deviation) + "\n";
    o += "tick_rate: " + std::to_string(sc.tick_rate_hz) + "\n";
    o += "ticks: " + std::to_string(sc.ticks) + "\n";
    if (sc.golden_every != 1) o += "golden_every: " + std::to_string(sc.golden_every) + "\n";

    if (!sc.boxes.empty() || !sc.planes.empty() || !sc.spheres.empty() || !sc.capsules.empty() ||
        !sc.meshes.empty()) {
        o += "world:\n";
        for (const BoxDef& b : sc.boxes) {
            o += "  - box: {id: " + std::to_string(b.id) + ", center: " + vec3(b.center) +
                 ", half_extents: " + vec3(b.half_extents) +
                 (b.rotation.is_default() ? "" : ", rotation: " + rotation_value(b.rotation)) +
                 "}\n";
        }
        for (const PlaneDef& p : sc.planes) {
            o += "  - plane: {id: " + std::to_string(p.id) + ", normal: " + vec3(p.normal) +
                 ", offset: " + num(p.offset) + (exact_plane(p, options) ? ", exact: true" : "") +
                 "}\n";
        }
        for (const SphereDef& s : sc.spheres) {
            o += "  - sphere: {id: " + std::to_string(s.id) + ", center: " + vec3(s.center) +
                 ", radius: " + num(s.radius) + "}\n";
        }
        for (const CapsuleDef& c : sc.capsules) {
            o += "  - capsule: {id: " + std::to_string(c.id) + ", a: " + vec3(c.a) +
                 ", b: " + vec3(c.b) + ", radius: " + num(c.radius) + "}\n";
        }
        for (const MeshDef& m : sc.meshes) {
            o += "  - mesh:\n      id: " + std::to_string(m.id) + "\n      vertices: [";
            for (size_t i = 0; i < m.vertices.size(); ++i)
                o += (i ? ", " : "") + vec3(m.vertices[i]);
            o += "]\n      triangles: [";
            for (size_t i = 0; i + 2 < m.indices.size(); i += 3) {
                o += (i ? ", [" : "[") + std::to_string(m.indices[i]) + ", " +
                     std::to_string(m.indices[i + 1]) + ", " + std::to_string(m.indices[i + 2]) +
                     "]";
            }
            o += "]\n";
        }
    }
    if (!sc.platforms.empty()) {
        o += "platforms:\n";
        for (const PlatformDef& p : sc.platforms) {
            o += "  - id: " + std::to_string(p.id) + "\n    half_extents: " + vec3(p.half_extents) +
                 "\n";
            if (!p.rotation.is_default()) o += "    rotation: " + rotation_value(p.rotation) + "\n";
            o += "    waypoints:\n";
            for (const kcc::Waypoint& w : p.waypoints) {
                o += "      - {tick: " + std::to_string(w.tick) + ", center: " + vec3(w.center) +
                     "}\n";
            }
        }
    }
    o += "characters:\n";
    for (const CharacterDef& c : sc.characters) {
        o += "  - id: " + std::to_string(c.id) + "\n    spawn: " + vec3(c.spawn) + "\n";
        if (c.join != 0) o += "    join: " + std::to_string(c.join) + "\n";
        if (c.leave != CharacterDef::kNever) o += "    leave: " + std::to_string(c.leave) + "\n";
        settings_yaml(c.settings, &o);
        input_yaml(*c.input, &o);
    }
    if (!sc.events.empty()) {
        o += "events:\n";
        std::vector<kcc::Settings> current; // each entry's settings as the events so far leave them
        for (const CharacterDef& c : sc.characters)
            current.push_back(c.settings);
        for (const EventDef& e : sc.events) {
            o += "  - {tick: " + std::to_string(e.tick) +
                 ", character: " + std::to_string(e.character);
            if (e.kind == EventDef::Kind::kTeleport) {
                o += ", teleport: " + vec3(e.feet) + "}\n";
                continue;
            }
            const size_t k = entry_at(sc, e.character, e.tick);
            const kcc::Settings base = k < current.size() ? current[k] : kcc::Settings{};
            std::string kvs;
            for (const std::string& kv : settings_lines(e.settings, base))
                kvs += (kvs.empty() ? "" : ", ") + kv;
            o += ", settings: {" + kvs + "}}\n";
            if (k < current.size()) current[k] = e.settings;
        }
    }
    if (!sc.frames.empty()) {
        o += "frames:\n";
        for (const FrameSegment& f : sc.frames) {
            o += "  - {ms: " + ms_text(f.ns) + ", count: " + std::to_string(f.count) + "}\n";
        }
    }

    // Expectations in their original order.
    std::vector<std::pair<int, std::string>> items;
    const auto fields = state_field_names();
    for (const StateExpectation& e : sc.expect_states) {
        std::string s = "  - {";
        if (e.from == e.to) {
            s += "tick: " + std::to_string(e.from);
        } else {
            s += "ticks: [" + std::to_string(e.from) + ", " + std::to_string(e.to) + "]";
        }
        if (e.character != kcc::kNoId) s += ", character: " + std::to_string(e.character);
        if (e.grounded >= 0)
            s += std::string(", grounded: ") + (e.grounded == 1 ? "true" : "false");
        if (e.check_platform) {
            s += ", platform: " +
                 (e.platform == kcc::kNoId ? std::string("none") : std::to_string(e.platform));
        }
        for (const auto& [f, c] : e.checks)
            s += ", " + std::string(fields[static_cast<size_t>(f)]) + ": " + check_yaml(c);
        items.emplace_back(e.at.index, s + "}\n");
    }
    const auto metrics = metric_info();
    for (const MetricExpectation& e : sc.expect_metrics) {
        std::string s = "  - {";
        if (e.character != kcc::kNoId) s += "character: " + std::to_string(e.character) + ", ";
        s += "metrics: {";
        for (size_t i = 0; i < e.checks.size(); ++i) {
            s += (i ? ", " : "") +
                 std::string(metrics[static_cast<size_t>(e.checks[i].first)].name) + ": " +
                 check_yaml(e.checks[i].second);
        }
        items.emplace_back(e.at.index, s + "}}\n");
    }
    if (!options.drop_same_as) {
        for (const SameAsExpectation& e : sc.expect_same_as) {
            std::string s = "  - {same_as: " + yaml_quote(same_as_path(sc, e, options));
            if (!e.offset.is_zero()) s += ", offset: " + vec3(e.offset);
            items.emplace_back(e.at.index, s + "}\n");
        }
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!items.empty()) {
        o += "expect:\n";
        for (const auto& [index, text] : items)
            o += text;
    }
    return o;
}

std::string simulated_text(const Scenario& sc) {
    // Everything but what cannot change a run: a field added to Scenario is in the digest unless
    // it is cleared here.
    Scenario sim = sc;
    sim.path.clear();
    sim.name.clear();
    sim.description.clear();
    sim.deviation.clear();
    sim.expect_states.clear();
    sim.expect_metrics.clear();
    sim.expect_same_as.clear();
    sim.inputs.clear();
    sim.digest.clear();
    ScenarioWriteOptions options;
    options.drop_same_as = true;
    options.digest_form = true;
    return scenario_to_yaml(sim, options);
}

std::string simulated_digest(const Scenario& sc) {
    // Version 1 of this digest: bump the line when the text written for the same simulation
    // changes.
    const std::string text = "fxkcc simulated content 1\n" + simulated_text(sc);
    return hex16(XXH3_64bits(text.data(), text.size()));
}

} // namespace fx::harness
