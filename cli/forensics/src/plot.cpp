// fxkcc plot: the SVG of a scenario's level and trajectories (forensics/plot.h, docs/plot.md).
#include "forensics/plot.h"

#include "plot_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "fx/mat3.h"
#include "records/atomic_file.h"
#include "records/text.h"
#include "run/runner.h"
#include "run/suite.h"

namespace fs = std::filesystem;

namespace fx::harness {
namespace {

using namespace plot_detail;

std::string xml(const std::string& s) {
    return text::xml_escape(s);
}

std::string join_ids(const std::vector<uint32_t>& ids) {
    std::string s;
    for (uint32_t id : ids)
        s += (s.empty() ? "" : " ") + std::to_string(id);
    return s.empty() ? "none" : s;
}

// ---- colours and layout ----------------------------------------------------------------------

constexpr const char* kSourceColour[2] = {"#1f77b4", "#ff7f0e"}; // A blue, B orange
constexpr double kSourceWidth[2] = {3.0, 1.5}; // A under B: both visible
/// One source: a colour per character (no orange, no red: those mean B and the divergence).
constexpr const char* kCharacterColour[8] = {"#1f77b4", "#2ca02c", "#9467bd", "#17becf",
                                             "#8c564b", "#e377c2", "#bcbd22", "#7f7f7f"};
constexpr const char* kDivergenceColour = "#d62728";
constexpr const char* kLevelFill = "#9e9e9e";
constexpr const char* kLevelStroke = "#616161";
constexpr const char* kPlatformFill = "#a1887f";
constexpr const char* kPlatformStroke = "#5d4037";

constexpr double kWidth = 1200;
constexpr double kFrameTop = 92;
constexpr double kFrameW = 568;
constexpr double kFrameH = 560;
constexpr double kFrameLeft[2] = {16, 616}; // top view, side view

// ---- a view ----------------------------------------------------------------------------------

// ---- level -----------------------------------------------------------------------------------

std::string level(const Scenario& sc, const View& v) {
    std::string o = std::string("<g class=\"level\" fill=\"") + kLevelFill +
                    "\" fill-opacity=\"0.25\" stroke=\"" + kLevelStroke +
                    "\" stroke-width=\"1\">\n";
    for (const BoxDef& b : sc.boxes) {
        o += box_polygon(box_corners(b.center, b.half_extents, b.rotation.to_mat3()), v,
                         " class=\"box\" data-id=\"" + std::to_string(b.id) + "\"");
    }
    for (const SphereDef& s : sc.spheres) {
        const P2 c = v.uv(D3(s.center));
        const double r = D(s.radius);
        if (!visible(v, c.u - r, c.u + r, c.v - r, c.v + r)) continue;
        const P2 p = v.page(c);
        o += "<circle class=\"sphere\" data-id=\"" + std::to_string(s.id) + "\" cx=\"" + num(p.u) +
             "\" cy=\"" + num(p.v) + "\" r=\"" + num(r * v.s) + "\"/>\n";
    }
    for (const CapsuleDef& c : sc.capsules) {
        const P2 a = v.uv(D3(c.a)), b = v.uv(D3(c.b));
        const double r = D(c.radius);
        if (!visible(v, std::min(a.u, b.u) - r, std::max(a.u, b.u) + r, std::min(a.v, b.v) - r,
                     std::max(a.v, b.v) + r)) {
            continue;
        }
        o += "<path class=\"capsule-shape\" data-id=\"" + std::to_string(c.id) + "\" d=\"" +
             stadium_path(a, b, r, v) + "\"/>\n";
    }
    for (const MeshDef& m : sc.meshes) {
        o += "<g class=\"mesh\" data-id=\"" + std::to_string(m.id) +
             "\" fill=\"none\" stroke-width=\"0.75\">\n";
        for (size_t i = 0; i + 2 < m.indices.size(); i += 3) {
            std::vector<P2> tri;
            for (size_t k = 0; k < 3; ++k)
                tri.push_back(v.uv(D3(m.vertices[m.indices[i + k]])));
            const std::vector<P2> clipped = clip_polygon(tri, v);
            if (clipped.size() < 2) continue;
            o += "<polygon points=\"" + points_attr(clipped, v) + "\"/>\n";
        }
        o += "</g>\n";
    }
    // A plane is drawn as its section through the middle of the trajectories' depth range; a
    // plane facing the viewer (a floor from above) covers the whole view and is not drawn.
    for (const PlaneDef& pl : sc.planes) {
        const P3 n = D3(pl.normal);
        const P2 n2 = v.uv(n);
        const double len2 = n2.u * n2.u + n2.v * n2.v;
        if (len2 < 1e-12) continue;
        const double d = D(pl.offset) - v.depth(n) * v.depth_mid;
        const P2 c{(v.ulo + v.uhi) / 2, (v.vlo + v.vhi) / 2};
        const double k = (d - (n2.u * c.u + n2.v * c.v)) / len2;
        const P2 p0{c.u + k * n2.u, c.v + k * n2.v};
        const double L = (v.uhi - v.ulo) + (v.vhi - v.vlo);
        const double inv = 1 / std::sqrt(len2);
        P2 a{p0.u - n2.v * inv * L, p0.v + n2.u * inv * L},
            b{p0.u + n2.v * inv * L, p0.v - n2.u * inv * L};
        if (!clip_segment(&a, &b, v)) continue;
        const P2 pa = v.page(a), pb = v.page(b);
        o += "<line class=\"plane\" data-id=\"" + std::to_string(pl.id) +
             "\" stroke-dasharray=\"8 4\" x1=\"" + num(pa.u) + "\" y1=\"" + num(pa.v) + "\" x2=\"" +
             num(pb.u) + "\" y2=\"" + num(pb.v) + "\"/>\n";
    }
    o += "</g>\n";
    // Platforms at their tick-0 pose, their waypoint path (looping back to the first) dashed.
    o += std::string("<g class=\"platforms\" fill=\"") + kPlatformFill +
         "\" fill-opacity=\"0.35\" stroke=\"" + kPlatformStroke + "\" stroke-width=\"1\">\n";
    for (const PlatformDef& p : sc.platforms) {
        if (p.waypoints.empty()) continue;
        o += "<g class=\"platform\" data-id=\"" + std::to_string(p.id) + "\">\n";
        o += box_polygon(
            box_corners(p.waypoints.front().center, p.half_extents, p.rotation.to_mat3()), v, "");
        std::string path;
        for (size_t i = 0; i < p.waypoints.size(); ++i) {
            P2 a = v.uv(D3(p.waypoints[i].center)),
               b = v.uv(D3(p.waypoints[(i + 1) % p.waypoints.size()].center));
            if (!clip_segment(&a, &b, v)) continue;
            path += (path.empty() ? "M" : " M") + v.pt(a) + " L" + v.pt(b);
        }
        if (!path.empty())
            o += "<path class=\"waypoints\" fill=\"none\" stroke-dasharray=\"4 4\" d=\"" + path +
                 "\"/>\n";
        o += "</g>\n";
    }
    return o + "</g>\n";
}

// ---- characters ------------------------------------------------------------------------------

struct Body {
    double radius = 0.4, height = 1.8;
};

/// The first row at (tick, character) or null; rows are sorted by (tick, character).
const TrajectoryRow* find_row(const std::vector<TrajectoryRow>& rows, int64_t tick, uint32_t id) {
    auto it = std::lower_bound(rows.begin(), rows.end(), std::make_pair(tick, id),
                               [](const TrajectoryRow& r, const std::pair<int64_t, uint32_t>& k) {
                                   return r.tick < k.first ||
                                          (r.tick == k.first && r.state.id < k.second);
                               });
    if (it == rows.end() || it->tick != tick || it->state.id != id) return nullptr;
    return &*it;
}

std::string capsule(const View& v, const P3& feet, const Body& b, const std::string& colour,
                    bool dashed, const std::string& attrs, int64_t tick) {
    std::string o = "<g class=\"capsule\"" + attrs + " fill=\"none\" stroke=\"" + colour +
                    "\" stroke-width=\"1.5\"" + (dashed ? " stroke-dasharray=\"3 2\"" : "") + ">\n";
    P2 label;
    if (v.top) {
        const P2 c = v.page(v.uv(feet));
        const double R = b.radius * v.s;
        o += "<circle cx=\"" + num(c.u) + "\" cy=\"" + num(c.v) + "\" r=\"" + num(R) + "\"/>\n";
        label = {c.u + R + 2, c.v - R};
    } else {
        const P3 lo{feet.x, feet.y + b.radius, feet.z},
            hi{feet.x, feet.y + b.height - b.radius, feet.z};
        o += "<path d=\"" + stadium_path(v.uv(lo), v.uv(hi), b.radius, v) + "\"/>\n";
        const P2 top = v.page(v.uv({feet.x, feet.y + b.height, feet.z}));
        label = {top.u + b.radius * v.s + 2, top.v + 8};
    }
    o += "<text stroke=\"none\" fill=\"" + colour +
         "\" font-family=\"sans-serif\" font-size=\"11\" x=\"" + num(label.u) + "\" y=\"" +
         num(label.v) + "\">t" + std::to_string(tick) + "</text>\n";
    return o + "</g>\n";
}

std::string divergence_label(const CsvDivergence& d, size_t rows) {
    if (!d.diverged)
        return "no divergence: the two trajectories are identical (" + std::to_string(rows) +
               " rows)";
    std::string s = "first divergence: tick " + std::to_string(d.tick) + ", character " +
                    std::to_string(d.character);
    if (!d.fields.empty()) {
        s += ", fields ";
        for (size_t i = 0; i < d.fields.size(); ++i)
            s += (i ? ", " : "") + d.fields[i].field;
    }
    if (!d.reason.empty()) s += ": " + d.reason;
    return s;
}

} // namespace

bool RowCollector::on_tick(int64_t tick, std::span<const kcc::CharacterState> chars,
                           std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3> render,
                           std::string*) {
    for (size_t i = 0; i < chars.size(); ++i) {
        TrajectoryRow r;
        r.tick = tick;
        r.state = chars[i];
        if (!render.empty()) {
            r.has_render = true;
            r.render = render[i];
        }
        rows_->push_back(r);
    }
    return true;
}

bool collect_trajectory(const Scenario& sc, std::vector<TrajectoryRow>* rows, std::string* err) {
    rows->clear();
    if (sc.ticks * static_cast<int64_t>(sc.characters.size()) > kMaxPlotRows) {
        *err = "the run has " + std::to_string(sc.ticks) + " ticks x " +
               std::to_string(sc.characters.size()) + " characters = " +
               std::to_string(sc.ticks * static_cast<int64_t>(sc.characters.size())) +
               " rows; plot draws at most " + std::to_string(kMaxPlotRows);
        return false;
    }
    rows->reserve(static_cast<size_t>(sc.ticks) * sc.characters.size());
    RowCollector sink(rows);
    return run_scenario(sc, sink, RunOptions{}, err);
}

std::string trajectory_mismatch(const Scenario& sc, const std::vector<TrajectoryRow>& rows,
                                bool with_render, const std::string& display) {
    const std::vector<uint32_t> want = character_ids(sc);
    std::vector<uint32_t> have;
    std::set<uint32_t> seen;
    for (const TrajectoryRow& r : rows)
        seen.insert(r.state.id);
    have.assign(seen.begin(), seen.end());
    if (!rows.empty() && have != want) {
        return display + ": its characters (" + join_ids(have) + ") are not those of scenario '" +
               sc.name + "' (" + join_ids(want) + "): a trajectory of another scenario?";
    }
    if (!rows.empty() && rows.back().tick >= sc.ticks) {
        return display + ": tick " + std::to_string(rows.back().tick) + " is beyond the " +
               std::to_string(sc.ticks) + " ticks of scenario '" + sc.name +
               "': a trajectory of another scenario?";
    }
    if (with_render != !sc.frames.empty()) {
        return display +
               (with_render
                    ? ": has render columns but scenario '" + sc.name + "' has no frame clock"
                    : ": has no render columns but scenario '" + sc.name + "' has a frame clock") +
               ": a trajectory of another scenario?";
    }
    return "";
}

bool plot_svg(const Scenario& sc, const std::vector<PlotSource>& sources,
              const PlotOptions& options, std::string* svg, PlotSummary* summary,
              std::string* err) {
    if (sources.empty() || sources.size() > 2) {
        *err = "expected one or two trajectories, found " + std::to_string(sources.size());
        return false;
    }
    // Which characters are drawn.
    std::vector<uint32_t> ids;
    std::map<uint32_t, Body> bodies;
    std::map<uint32_t, P3> spawns;
    for (const CharacterDef& c : sc.characters) {
        if (options.character >= 0 && c.id != static_cast<uint64_t>(options.character)) continue;
        if (!ids.empty() && ids.back() == c.id)
            continue; // a rejoin: drawn as one body (its first entry's)
        ids.push_back(c.id);
        bodies[c.id] = {D(c.settings.radius), D(c.settings.height)};
        spawns[c.id] = D3(c.spawn);
    }
    if (ids.empty()) {
        const std::vector<uint32_t> all = character_ids(sc);
        *err = "--character " + std::to_string(options.character) +
               ": not a character of scenario '" + sc.name + "' (characters: " + join_ids(all) +
               ")";
        return false;
    }
    auto drawn = [&](uint32_t id) { return bodies.count(id) != 0; };
    std::vector<std::vector<TrajectoryRow>> rows(sources.size());
    for (size_t s = 0; s < sources.size(); ++s) {
        for (const TrajectoryRow& r : sources[s].rows) {
            if (drawn(r.state.id)) rows[s].push_back(r);
        }
    }
    std::vector<int64_t> ticks = options.capsule_ticks;
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
    for (int64_t t : ticks) {
        if (t < 0 || t >= sc.ticks) {
            *err = "--ticks: tick " + std::to_string(t) + " is outside the run (ticks 0 to " +
                   std::to_string(sc.ticks - 1) + ")";
            return false;
        }
        bool found = false;
        for (const auto& rs : rows) {
            for (uint32_t id : ids)
                found = found || find_row(rs, t, id) != nullptr;
        }
        if (!found) {
            *err = "--ticks: no trajectory has a row at tick " + std::to_string(t) +
                   (sc.golden_every > 1
                        ? " (the scenario records every " + std::to_string(sc.golden_every) +
                              "th tick in its goldens)"
                        : "");
            return false;
        }
    }

    PlotSummary sum;
    sum.compared = sources.size() == 2;
    if (sum.compared) {
        sum.divergence = first_divergence(rows[0], rows[1]);
        sum.divergence_label = divergence_label(sum.divergence, rows[0].size());
    }

    // The trajectories' bounding box (capsules included, spawns too), plus the margin.
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300, z0 = 1e300, z1 = -1e300;
    auto grow = [&](const P3& p, const Body& b) {
        x0 = std::min(x0, p.x - b.radius);
        x1 = std::max(x1, p.x + b.radius);
        z0 = std::min(z0, p.z - b.radius);
        z1 = std::max(z1, p.z + b.radius);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y + b.height);
    };
    for (uint32_t id : ids)
        grow(spawns[id], bodies[id]);
    for (const auto& rs : rows) {
        for (const TrajectoryRow& r : rs)
            grow(D3(r.state.position), bodies[r.state.id]);
    }
    const double m = options.margin_m;
    sum.side_axis = (x1 - x0) >= (z1 - z0) ? 'x' : 'z';

    View views[2];
    views[0].top = true;
    views[0].id = "top";
    views[1].top = false;
    views[1].id = "side";
    views[1].side_axis = sum.side_axis == 'x' ? 0 : 2;
    for (int i = 0; i < 2; ++i) {
        views[i].fx = kFrameLeft[i];
        views[i].fy = kFrameTop;
        views[i].fw = kFrameW;
        views[i].fh = kFrameH;
    }
    fit(&views[0], x0 - m, x1 + m, z0 - m, z1 + m);
    views[0].depth_mid = (y0 + y1) / 2;
    if (views[1].side_axis == 0) {
        fit(&views[1], x0 - m, x1 + m, y0 - m, y1 + m);
        views[1].depth_mid = (z0 + z1) / 2;
    } else {
        fit(&views[1], z0 - m, z1 + m, y0 - m, y1 + m);
        views[1].depth_mid = (x0 + x1) / 2;
    }

    // Colours: per source when comparing, else per character.
    std::map<uint32_t, size_t> index_of;
    for (size_t i = 0; i < ids.size(); ++i)
        index_of[ids[i]] = i;
    auto colour = [&](size_t source, uint32_t id) -> std::string {
        if (sum.compared) return kSourceColour[source];
        return kCharacterColour[index_of[id] % 8];
    };
    const char* source_name[2] = {"A", "B"};

    // Legend lines (below the views): the sources (one source: a swatch per character on a line
    // of its own), the divergence, two lines of key.
    const double legend_top = kFrameTop + kFrameH + 44;
    auto legend_y = [&](size_t line) { return legend_top + 20.0 * static_cast<double>(line); };

    std::string o;
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    const size_t legend_lines = (sum.compared ? 3 : 2) + 2;
    const double height = legend_y(legend_lines) + 8;
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
         num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
         "\" data-scenario=\"" + xml(sc.name) + "\">\n";
    o += "<title>fxkcc plot: " + xml(sc.name) + "</title>\n";
    o +=
        "<defs>\n<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 Z\" fill=\"#333333\"/></marker>\n";
    for (const View& v : views) {
        o += "<clipPath id=\"clip-" + v.id + "\"><rect x=\"" + num(v.fx) + "\" y=\"" + num(v.fy) +
             "\" width=\"" + num(v.fw) + "\" height=\"" + num(v.fh) + "\"/></clipPath>\n";
    }
    o += "</defs>\n";
    o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    o +=
        "<text x=\"16\" y=\"26\" font-family=\"sans-serif\" font-size=\"18\" font-weight=\"bold\">fxkcc plot: " +
        xml(sc.name) + "</text>\n";
    o +=
        "<text x=\"16\" y=\"48\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#444444\">" +
        std::to_string(sc.ticks) + " ticks at " + std::to_string(sc.tick_rate_hz) +
        " Hz (tick t: the state after t + 1 steps); one point per recorded tick; views clipped to the "
        "trajectories' bounding box plus " +
        num(m) + " m</text>\n";

    const std::string titles[2] = {"top view, from above (+y): x to the right, z down the page (m)",
                                   std::string("side view, from ") +
                                       (sum.side_axis == 'x' ? "+z: x" : "-x: z") +
                                       " to the right, y up (m)"};
    for (int vi = 0; vi < 2; ++vi) {
        const View& v = views[vi];
        o += "<g id=\"" + v.id + "-view\" class=\"view\" data-view=\"" + v.id + "\">\n";
        o += "<text class=\"view-title\" x=\"" + num(v.fx) + "\" y=\"" + num(v.fy - 10) +
             "\" font-family=\"sans-serif\" font-size=\"14\">" + titles[vi] + "</text>\n";
        o += "<rect class=\"background\" x=\"" + num(v.fx) + "\" y=\"" + num(v.fy) + "\" width=\"" +
             num(v.fw) + "\" height=\"" + num(v.fh) + "\" fill=\"#ffffff\"/>\n";
        o += grid(v);
        o += "<g clip-path=\"url(#clip-" + v.id + ")\">\n";
        o += level(sc, v);
        // Trajectories: one polyline per character per source, one point per row.
        o +=
            "<g class=\"trajectories\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n";
        for (size_t s = 0; s < rows.size(); ++s) {
            std::map<uint32_t, std::string> pts;
            for (const TrajectoryRow& r : rows[s]) {
                std::string& p = pts[r.state.id];
                if (!p.empty()) p += ' ';
                p += v.pt(v.uv(D3(r.state.position)));
            }
            for (uint32_t id : ids) {
                auto it = pts.find(id);
                if (it == pts.end()) continue;
                o += "<polyline class=\"trajectory\" data-view=\"" + v.id + "\" data-source=\"" +
                     source_name[s] + "\" data-character=\"" + std::to_string(id) + "\" stroke=\"" +
                     colour(s, id) + "\" stroke-width=\"" +
                     num(sum.compared ? kSourceWidth[s] : 2.0) + "\" points=\"" + it->second +
                     "\"/>\n";
            }
        }
        // Where each character starts (its spawn), named.
        for (uint32_t id : ids) {
            const P2 p = v.page(v.uv(spawns[id]));
            o +=
                "<g class=\"start\" data-character=\"" + std::to_string(id) + "\"><circle cx=\"" +
                num(p.u) + "\" cy=\"" + num(p.v) + "\" r=\"3\" fill=\"#ffffff\" stroke=\"" +
                colour(0, id) + "\" stroke-width=\"1.5\"/><text x=\"" + num(p.u - 6) + "\" y=\"" +
                num(p.v - 6) +
                "\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333333\" stroke=\"none\">c" +
                std::to_string(id) + "</text></g>\n";
        }
        o += "</g>\n";
        // Capsules at the chosen ticks.
        for (int64_t t : ticks) {
            for (size_t s = 0; s < rows.size(); ++s) {
                for (uint32_t id : ids) {
                    const TrajectoryRow* r = find_row(rows[s], t, id);
                    if (r == nullptr) continue;
                    o += capsule(v, D3(r->state.position), bodies[id], colour(s, id), s == 1,
                                 " data-view=\"" + v.id + "\" data-source=\"" + source_name[s] +
                                     "\" data-character=\"" + std::to_string(id) +
                                     "\" data-tick=\"" + std::to_string(t) + "\"",
                                 t);
                }
            }
        }
        // The first divergence: a ring where A was, a smaller one where B was, joined.
        if (sum.compared && sum.divergence.diverged) {
            const TrajectoryRow* a =
                find_row(rows[0], sum.divergence.tick, sum.divergence.character);
            const TrajectoryRow* b =
                find_row(rows[1], sum.divergence.tick, sum.divergence.character);
            if (a != nullptr || b != nullptr) {
                const P2 pa = v.page(v.uv(D3((a != nullptr ? a : b)->state.position)));
                o += std::string("<g class=\"divergence-marker\" data-view=\"") + v.id +
                     "\" data-tick=\"" + std::to_string(sum.divergence.tick) +
                     "\" data-character=\"" + std::to_string(sum.divergence.character) +
                     "\" fill=\"none\" stroke=\"" + kDivergenceColour + "\" stroke-width=\"3\">\n";
                if (a != nullptr && b != nullptr) {
                    const P2 pb = v.page(v.uv(D3(b->state.position)));
                    o += "<line x1=\"" + num(pa.u) + "\" y1=\"" + num(pa.v) + "\" x2=\"" +
                         num(pb.u) + "\" y2=\"" + num(pb.v) + "\" stroke-width=\"1.5\"/>\n";
                    o += "<circle cx=\"" + num(pb.u) + "\" cy=\"" + num(pb.v) +
                         "\" r=\"5\" stroke-width=\"2\"/>\n";
                }
                o += "<circle cx=\"" + num(pa.u) + "\" cy=\"" + num(pa.v) + "\" r=\"10\"/>\n";
                o += "<text x=\"" + num(pa.u + 14) + "\" y=\"" + num(pa.v - 12) +
                     "\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\" fill=\"" +
                     kDivergenceColour +
                     "\" font-family=\"sans-serif\" font-size=\"12\" font-weight=\"bold\">tick " +
                     std::to_string(sum.divergence.tick) + "</text>\n";
                o += "</g>\n";
            }
        }
        o += "</g>\n"; // clip
        o += axis_arrows(v);
        o += "<rect class=\"frame\" data-view=\"" + v.id + "\" x=\"" + num(v.fx) + "\" y=\"" +
             num(v.fy) + "\" width=\"" + num(v.fw) + "\" height=\"" + num(v.fh) +
             "\" fill=\"none\" stroke=\"#888888\"/>\n";
        o += "</g>\n";
    }

    // Legend.
    o += "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"13\">\n";
    size_t line = 0;
    for (size_t s = 0; s < sources.size(); ++s, ++line) {
        const double y = legend_y(line);
        double x = 16;
        std::string text = std::string(source_name[s]) + ": " + xml(sources[s].label);
        if (sum.compared) {
            o += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) + "\" width=\"24\" height=\"" +
                 num(s == 0 ? 6 : 3) + "\" fill=\"" + kSourceColour[s] + "\"/>\n";
            text += s == 0 ? " (thick line, capsules solid)" : " (thin line, capsules dashed)";
            o += "<text class=\"legend-source\" x=\"" + num(x + 32) + "\" y=\"" + num(y) + "\">" +
                 text + "</text>\n";
            continue;
        }
        o += "<text class=\"legend-source\" x=\"" + num(x) + "\" y=\"" + num(y) + "\">" + text +
             "</text>\n";
        // One source: a swatch per character on the next line.
        ++line;
        const double y2 = legend_y(line);
        for (size_t i = 0; i < ids.size() && i < 14; ++i) {
            o += "<rect x=\"" + num(x) + "\" y=\"" + num(y2 - 9) +
                 "\" width=\"18\" height=\"5\" fill=\"" + kCharacterColour[i % 8] +
                 "\"/><text x=\"" + num(x + 22) + "\" y=\"" + num(y2) + "\">c" +
                 std::to_string(ids[i]) + "</text>\n";
            x += 72;
        }
        if (ids.size() > 14) {
            o += "<text x=\"" + num(x) + "\" y=\"" + num(y2) + "\">+" +
                 std::to_string(ids.size() - 14) + " more (colours repeat)</text>\n";
        }
    }
    if (sum.compared) {
        o += std::string("<text class=\"divergence\" x=\"16\" y=\"") + num(legend_y(line)) +
             "\" fill=\"" + (sum.divergence.diverged ? kDivergenceColour : "#2e7d32") +
             "\" font-weight=\"bold\">" + xml(sum.divergence_label) + "</text>\n";
        ++line;
    }
    o +=
        std::string("<text x=\"16\" y=\"") + num(legend_y(line)) +
        "\" fill=\"#555555\" font-size=\"12\">grey: level (boxes, ramps and stairs as outlines in the view; spheres; "
        "capsules; mesh triangles; planes dashed, as their section through the trajectories)</text>\n";
    o +=
        std::string("<text x=\"16\" y=\"") + num(legend_y(line + 1)) +
        "\" fill=\"#555555\" font-size=\"12\">brown: moving platforms at tick 0, their waypoint path dashed; "
        "tN: a character's capsule at tick N; c1: where character 1 spawns</text>\n";
    o += "</g>\n</svg>\n";
    *svg = std::move(o);
    if (summary != nullptr) *summary = std::move(sum);
    return true;
}

} // namespace fx::harness
