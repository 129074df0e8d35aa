// fxkcc plot: the SVG has both views, one polyline per character per trajectory with one point
// per row, the first divergence marked at its tick, capsules at the chosen ticks, the level
// clipped to the trajectories, and the same bytes for the same inputs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "forensics/plot.h"
#include "harness_test_util.h"
#include "test_support.h"

using namespace fx;
using namespace fx::harness;
using fxtest::I;

namespace {

/// A floor plane, a huge floor box, a wall, a rotated box, a sphere, a capsule, a mesh and a
/// platform; characters 1 and 2 walking for 12 ticks.
Scenario level_scenario() {
    Scenario sc;
    sc.name = "plot-test";
    sc.ticks = 12;
    sc.planes.push_back({1, Vec3::unit_y(), Scalar{}});
    sc.boxes.push_back(
        {2, {I(0), fxtest::r(-1, 2), I(0)}, {I(100000), fxtest::r(1, 2), I(100000)}, {}});
    sc.boxes.push_back({3, {I(3), I(1), I(0)}, {fxtest::r(1, 2), I(1), I(2)}, {}});
    sc.boxes.push_back({4,
                        {I(-3), fxtest::r(1, 2), I(2)},
                        {fxtest::r(1, 2), fxtest::r(1, 2), fxtest::r(1, 2)},
                        {I(45), {}, {}, false, {}}});
    sc.spheres.push_back({5, {I(0), I(1), I(4)}, fxtest::r(1, 2)});
    sc.capsules.push_back({6, {I(2), I(0), I(-3)}, {I(2), I(2), I(-3)}, fxtest::r(3, 10)});
    MeshDef mesh;
    mesh.id = 7;
    mesh.vertices = {{I(-2), fxtest::r(1, 100), I(-2)},
                     {I(-1), fxtest::r(1, 100), I(-2)},
                     {I(-2), fxtest::r(1, 100), I(-1)}};
    mesh.indices = {0, 2, 1};
    sc.meshes.push_back(mesh);
    PlatformDef plat;
    plat.id = 8;
    plat.half_extents = {I(1), fxtest::r(1, 10), I(1)};
    plat.waypoints = {{{I(-4), I(1), I(-4)}, 0}, {{I(-4), I(1), I(-1)}, 100}};
    sc.platforms.push_back(plat);
    for (uint32_t id : {1u, 2u}) {
        CharacterDef c;
        c.id = id;
        c.spawn = {I(id == 1 ? 0 : -1), fxtest::r(15, 1000), I(0)};
        c.input.edit().sticks.push_back(
            {0, 12, id == 1 ? Scalar::one() : Scalar{}, id == 1 ? Scalar{} : Scalar::one()});
        sc.characters.push_back(c);
    }
    return sc;
}

/// Every element `<tag ...>` of the SVG, as its opening tag text.
std::vector<std::string> elements(const std::string& svg, const std::string& tag) {
    std::vector<std::string> out;
    const std::string open = "<" + tag + " ";
    for (size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
        out.push_back(svg.substr(at, svg.find('>', at) - at + 1));
    }
    return out;
}

std::string attr(const std::string& element, const std::string& name) {
    const std::string key = " " + name + "=\"";
    const size_t at = element.find(key);
    if (at == std::string::npos) return "";
    const size_t from = at + key.size();
    return element.substr(from, element.find('"', from) - from);
}

std::vector<std::string> with(const std::vector<std::string>& els, const std::string& name,
                              const std::string& value) {
    std::vector<std::string> out;
    for (const auto& e : els) {
        if (attr(e, name) == value) out.push_back(e);
    }
    return out;
}

size_t point_count(const std::string& points) {
    if (points.empty()) return 0;
    size_t n = 1;
    for (char c : points)
        n += c == ' ';
    return n;
}

/// All coordinates of a points attribute.
std::vector<double> coords(const std::string& points) {
    std::vector<double> out;
    const char* p = points.c_str();
    char* end = nullptr;
    while (*p != '\0') {
        out.push_back(std::strtod(p, &end));
        p = end;
        while (*p == ',' || *p == ' ')
            ++p;
    }
    return out;
}

std::string plot(const Scenario& sc, const std::vector<PlotSource>& sources,
                 const PlotOptions& opts, PlotSummary* summary = nullptr) {
    std::string svg, err;
    REQUIRE(plot_svg(sc, sources, opts, &svg, summary, &err));
    CHECK(err.empty());
    return svg;
}

std::vector<TrajectoryRow> run_rows(const Scenario& sc) {
    std::vector<TrajectoryRow> rows;
    std::string err;
    REQUIRE(collect_trajectory(sc, &rows, &err));
    return rows;
}

} // namespace

TEST_CASE("plot: both views, one polyline per character with one point per tick", "[plot]") {
    const Scenario sc = level_scenario();
    const std::vector<TrajectoryRow> rows = run_rows(sc);
    REQUIRE(rows.size() == 24);
    const std::string svg = plot(sc, {{"a.csv", rows}}, {});
    CHECK(
        svg.rfind(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"",
            0) == 0);
    CHECK(svg.find("id=\"top-view\"") != std::string::npos);
    CHECK(svg.find("id=\"side-view\"") != std::string::npos);
    CHECK(svg.find("top view, from above (+y): x to the right, z down the page") !=
          std::string::npos);
    const auto lines = elements(svg, "polyline");
    REQUIRE(lines.size() == 4); // 2 characters x 2 views
    for (const char* view : {"top", "side"}) {
        const auto in_view = with(lines, "data-view", view);
        REQUIRE(in_view.size() == 2);
        CHECK(attr(in_view[0], "data-character") == "1");
        CHECK(attr(in_view[1], "data-character") == "2");
        for (const auto& l : in_view) {
            CHECK(attr(l, "data-source") == "A");
            CHECK(point_count(attr(l, "points")) == 12);
        }
        // One source: a colour per character.
        CHECK(attr(in_view[0], "stroke") != attr(in_view[1], "stroke"));
    }
    CHECK(elements(svg, "g class=\"divergence-marker\"").empty());
    CHECK(svg.find("a.csv") != std::string::npos);
    // Character 1 walks along x: the side view looks along z.
    CHECK(svg.find("side view, from +z: x to the right, y up") != std::string::npos);
}

TEST_CASE("plot: two trajectories, the first divergence marked at its tick and character",
          "[plot]") {
    const Scenario sc = level_scenario();
    const std::vector<TrajectoryRow> a = run_rows(sc);
    std::vector<TrajectoryRow> b = a;
    for (TrajectoryRow& r : b) {
        if (r.state.id == 2 && r.tick >= 7) r.state.position.x += fxtest::r(1, 2);
    }
    PlotSummary summary;
    const std::string svg = plot(sc, {{"a.csv", a}, {"b.csv", b}}, {}, &summary);
    CHECK(summary.compared);
    CHECK(summary.divergence.diverged);
    CHECK(summary.divergence.tick == 7);
    CHECK(summary.divergence_label == "first divergence: tick 7, character 2, fields x");
    CHECK(svg.find(">first divergence: tick 7, character 2, fields x</text>") != std::string::npos);
    const auto markers = elements(svg, "g class=\"divergence-marker\"");
    REQUIRE(markers.size() == 2);
    CHECK(attr(markers[0], "data-view") == "top");
    CHECK(attr(markers[1], "data-view") == "side");
    for (const auto& m : markers) {
        CHECK(attr(m, "data-tick") == "7");
        CHECK(attr(m, "data-character") == "2");
    }
    // The marker's ring sits where A's character 2 was at tick 7: the 8th point of its polyline.
    const size_t marker_at = svg.find("<g class=\"divergence-marker\" data-view=\"top\"");
    const std::string ring = elements(svg.substr(marker_at), "circle")[1]; // after B's small ring
    const auto lines = elements(svg, "polyline");
    REQUIRE(lines.size() == 8); // 2 characters x 2 trajectories x 2 views
    const auto top_a2 =
        with(with(with(lines, "data-view", "top"), "data-source", "A"), "data-character", "2");
    REQUIRE(top_a2.size() == 1);
    const std::vector<double> pts = coords(attr(top_a2[0], "points"));
    REQUIRE(pts.size() == 24);
    CHECK(coords(attr(ring, "cx") + "," + attr(ring, "cy")) ==
          std::vector<double>{pts[14], pts[15]});
    // Both files in the legend, in distinct colours.
    CHECK(svg.find("A: a.csv") != std::string::npos);
    CHECK(svg.find("B: b.csv") != std::string::npos);
    const auto top_b2 =
        with(with(with(lines, "data-view", "top"), "data-source", "B"), "data-character", "2");
    REQUIRE(top_b2.size() == 1);
    CHECK(attr(top_a2[0], "stroke") != attr(top_b2[0], "stroke"));
    CHECK(point_count(attr(top_b2[0], "points")) == 12);

    // Identical trajectories: no marker, and the label says so.
    const std::string same = plot(sc, {{"a.csv", a}, {"c.csv", a}}, {}, &summary);
    CHECK(!summary.divergence.diverged);
    CHECK(elements(same, "g class=\"divergence-marker\"").empty());
    CHECK(same.find("no divergence: the two trajectories are identical (24 rows)") !=
          std::string::npos);
}

TEST_CASE("plot: capsules at the chosen ticks, in both views, labelled", "[plot]") {
    const Scenario sc = level_scenario();
    const std::vector<TrajectoryRow> a = run_rows(sc);
    PlotOptions opts;
    opts.capsule_ticks = {10, 0, 5, 5};
    const std::string svg = plot(sc, {{"a.csv", a}, {"b.csv", a}}, opts);
    const auto caps = elements(svg, "g class=\"capsule\"");
    CHECK(caps.size() == 3 * 2 * 2 * 2); // ticks x characters x sources x views
    for (const char* tick : {"0", "5", "10"}) {
        const auto at = with(caps, "data-tick", tick);
        CHECK(at.size() == 8);
        CHECK(with(with(with(at, "data-view", "top"), "data-source", "A"), "data-character", "1")
                  .size() == 1);
        CHECK(svg.find(std::string(">t") + tick + "</text>") != std::string::npos);
    }
    // Top view: a circle of the character's radius; side view: the capsule's outline.
    const size_t top_cap = svg.find("<g class=\"capsule\" data-view=\"top\"");
    CHECK(svg.compare(svg.find('\n', top_cap) + 1, 8, "<circle ") == 0);
    const size_t side_cap = svg.find("<g class=\"capsule\" data-view=\"side\"");
    CHECK(svg.compare(svg.find('\n', side_cap) + 1, 9, "<path d=\"") == 0);

    opts.capsule_ticks = {12};
    std::string out, err;
    CHECK_FALSE(plot_svg(sc, {{"a.csv", a}}, opts, &out, nullptr, &err));
    CHECK(err == "--ticks: tick 12 is outside the run (ticks 0 to 11)");
    // A tick no trajectory recorded (a golden with golden_every).
    std::vector<TrajectoryRow> sparse;
    for (const auto& r : a) {
        if (r.tick % 5 == 4) sparse.push_back(r);
    }
    opts.capsule_ticks = {4, 9};
    CHECK(plot_svg(sc, {{"s.csv", sparse}}, opts, &out, nullptr, &err));
    opts.capsule_ticks = {3};
    CHECK_FALSE(plot_svg(sc, {{"s.csv", sparse}}, opts, &out, nullptr, &err));
    CHECK(err == "--ticks: no trajectory has a row at tick 3");
}

TEST_CASE("plot: --character draws one character, and an unknown one is refused", "[plot]") {
    const Scenario sc = level_scenario();
    const std::vector<TrajectoryRow> a = run_rows(sc);
    PlotOptions opts;
    opts.character = 2;
    const std::string svg = plot(sc, {{"a.csv", a}}, opts);
    const auto lines = elements(svg, "polyline");
    REQUIRE(lines.size() == 2);
    for (const auto& l : lines)
        CHECK(attr(l, "data-character") == "2");
    opts.character = 9;
    std::string out, err;
    CHECK_FALSE(plot_svg(sc, {{"a.csv", a}}, opts, &out, nullptr, &err));
    CHECK(err == "--character 9: not a character of scenario 'plot-test' (characters: 1 2)");
    CHECK_FALSE(plot_svg(sc, {}, {}, &out, nullptr, &err));
    CHECK(err == "expected one or two trajectories, found 0");
}

TEST_CASE("plot: the level, clipped to the trajectories plus the margin", "[plot]") {
    const Scenario sc = level_scenario();
    const std::string svg = plot(sc, {{"a.csv", run_rows(sc)}}, {});
    const auto polys = elements(svg, "polygon");
    // Every box in both views, as the convex hull of its corners.
    const auto boxes = with(polys, "class", "box");
    CHECK(with(boxes, "data-id", "2").size() == 2);
    CHECK(with(boxes, "data-id", "3").size() == 2);
    const auto rotated = with(boxes, "data-id", "4");
    REQUIRE(rotated.size() == 2);
    CHECK(point_count(attr(rotated[0], "points")) == 4); // a square turned 45 degrees, from above
    // The huge floor (200 km wide) is clipped to the frame (plus 10 px), not drawn to scale.
    for (const auto& floor : with(boxes, "data-id", "2")) {
        const std::vector<double> c = coords(attr(floor, "points"));
        for (size_t i = 0; i < c.size(); i += 2) {
            CHECK(c[i] >= 16 - 11);
            CHECK(c[i] <= 1184 + 11);
            CHECK(c[i + 1] >= 92 - 11);
            CHECK(c[i + 1] <= 92 + 560 + 11);
        }
    }
    CHECK(elements(svg, "circle class=\"sphere\"").size() == 2);
    CHECK(elements(svg, "path class=\"capsule-shape\"").size() == 2);
    CHECK(elements(svg, "g class=\"mesh\"").size() == 2);
    // The floor plane: a line across the side view; from above it covers everything: skipped.
    const auto planes = elements(svg, "line class=\"plane\"");
    REQUIRE(planes.size() == 1);
    CHECK(attr(planes[0], "y1") == attr(planes[0], "y2"));
    CHECK(svg.find("<line class=\"plane\"") > svg.find("id=\"side-view\""));
    // The platform at its tick-0 pose, with its waypoint path dashed.
    CHECK(elements(svg, "g class=\"platform\"").size() == 2);
    CHECK(elements(svg, "path class=\"waypoints\"").size() == 2);
    CHECK(svg.find("bounding box plus 3 m") != std::string::npos);
}

TEST_CASE("plot: the same inputs give the same bytes", "[plot]") {
    const Scenario sc = level_scenario();
    const std::vector<TrajectoryRow> a = run_rows(sc);
    PlotOptions opts;
    opts.capsule_ticks = {3, 8};
    const std::string one = plot(sc, {{"a.csv", a}, {"b.csv", run_rows(sc)}}, opts);
    const std::string two = plot(sc, {{"a.csv", a}, {"b.csv", a}}, opts);
    CHECK(one == two);
    CHECK(one.find("-0,") == std::string::npos);
    CHECK(one.find("nan") == std::string::npos);
}

TEST_CASE("plot: a trajectory of another scenario is refused", "[plot]") {
    const Scenario sc = level_scenario();
    std::vector<TrajectoryRow> rows = run_rows(sc);
    CHECK(trajectory_mismatch(sc, rows, false, "a.csv").empty());
    CHECK(
        trajectory_mismatch(sc, rows, true, "a.csv") ==
        "a.csv: has render columns but scenario 'plot-test' has no frame clock: a trajectory of another scenario?");
    std::vector<TrajectoryRow> one;
    for (const auto& r : rows) {
        if (r.state.id == 1) one.push_back(r);
    }
    CHECK(
        trajectory_mismatch(sc, one, false, "a.csv") ==
        "a.csv: its characters (1) are not those of scenario 'plot-test' (1 2): a trajectory of another scenario?");
    rows.back().tick = 40;
    CHECK(
        trajectory_mismatch(sc, rows, false, "a.csv") ==
        "a.csv: tick 40 is beyond the 12 ticks of scenario 'plot-test': a trajectory of another scenario?");
}
