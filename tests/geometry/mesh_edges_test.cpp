// Inactive (internal) mesh edges and vertices: TriangleMesh::build marks edges between coplanar
// or nearly coplanar triangles (and vertices inside such patches) inactive; casts and overlaps
// that end on an inactive feature report a contact with the triangle's face (face feature,
// face normal), never the edge normal. A real ridge, a boundary edge, a fold or a non-manifold
// edge keeps its edge normal and feature.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "geo/queries.h"
#include "geo/scene.h"
#include "geo_test_util.h"

using namespace fx;
using namespace fx::geo;
using namespace geotest;

namespace {

const Vec3 kUp = Vec3::unit_y();
constexpr long double kPi = 3.14159265358979323846L;

TriangleMesh build(const std::vector<Vec3>& v, const std::vector<uint32_t>& idx) {
    TriangleMesh m;
    std::string err;
    REQUIRE(TriangleMesh::build(v, idx, &m, &err));
    return m;
}

/// Two triangles sharing the edge (0,0,-2)-(0,0,2) on the z axis, apexes at x = -2 (triangle 0)
/// and x = +2 (triangle 1), each face tilted by `deg` degrees from the horizontal (positive: a
/// ridge along the z axis, negative: a valley, 0: one flat diamond). Winding: normals up.
TriangleMesh ridge(long double deg) {
    const long double h = 2.0L * std::tan(deg * kPi / 180.0L);
    const std::vector<Vec3> v = {V(0, 0, -2), V(-2, -h, 0), V(0, 0, 2), V(2, -h, 0)};
    return build(v, {0, 1, 2, 0, 2, 3});
}

/// A w x w grid of 1 m cells at y = 0 with x, z in [0, w], two triangles per cell (normals up).
std::vector<Vec3> grid_vertices(uint32_t w) {
    std::vector<Vec3> v;
    for (uint32_t z = 0; z <= w; ++z)
        for (uint32_t x = 0; x <= w; ++x)
            v.push_back(V(x, 0, z));
    return v;
}
std::vector<uint32_t> grid_indices(uint32_t w) {
    std::vector<uint32_t> idx;
    for (uint32_t z = 0; z < w; ++z)
        for (uint32_t x = 0; x < w; ++x) {
            const uint32_t i = z * (w + 1) + x;
            idx.insert(idx.end(), {i, i + w + 1, i + 1, i + 1, i + w + 1, i + w + 2});
        }
    return idx;
}

int popcount3(uint8_t bits) {
    return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1);
}
int inactive_edges(const MeshTriangle& t) {
    return popcount3(t.inactive);
}
int inactive_vertices(const MeshTriangle& t) {
    return popcount3(static_cast<uint8_t>(t.inactive >> 3));
}

} // namespace

TEST_CASE("mesh edges: coplanar seams and flat interior vertices are inactive, boundaries active",
          "[geometry][mesh][edges]") {
    // The diamond: the shared edge is edge 2 of triangle 0 (v2 -> v0) and edge 0 of triangle 1.
    const TriangleMesh d = ridge(0);
    REQUIRE(d.triangles().size() == 2);
    CHECK(d.triangles()[0].inactive == (1u << 2));
    CHECK(d.triangles()[1].inactive == (1u << 0));

    // A 4 x 4 grid: the 9 interior vertices are inactive (in each of the 6 triangles around
    // them), the 16 boundary vertices and the 16 boundary edges are active, the other edges
    // (4 * 3 * 2 grid lines + 16 diagonals = 40, each counted in 2 triangles) inactive.
    const TriangleMesh g = build(grid_vertices(4), grid_indices(4));
    int edges = 0, corners = 0;
    for (const MeshTriangle& t : g.triangles()) {
        edges += inactive_edges(t);
        corners += inactive_vertices(t);
    }
    CHECK(edges == 2 * 40);
    CHECK(corners == 9 * 6);
    // Triangle 0 of cell (0, 0), vertices (0,0,0), (0,0,1), (1,0,0): two of its edges lie on
    // the boundary; only the cell's diagonal is inside.
    const MeshTriangle& t0 = g.triangles()[0];
    CHECK_FALSE(t0.edge_inactive(0)); // (0,0) -> (0,1): boundary x = 0
    CHECK(t0.edge_inactive(1)); // (0,1) -> (1,0): the cell's diagonal
    CHECK_FALSE(t0.edge_inactive(2)); // (1,0) -> (0,0): boundary z = 0
    CHECK(t0.inactive < 8); // all three of its vertices lie on the boundary

    // A lone triangle, a fold (the same triangle twice) and a non-manifold edge stay active.
    const std::vector<Vec3> v = {V(0, 0, 0), V(0, 0, 1), V(1, 0, 0), V(-1, 0, 0), V(0, 1, 0)};
    CHECK(build(v, {0, 1, 2}).triangles()[0].inactive == 0);
    // Named meshes: a range-for over build(...).triangles() would iterate the triangles of a
    // temporary destroyed before the loop body (AddressSanitizer: heap-use-after-free).
    const TriangleMesh fold = build(v, {0, 1, 2, 0, 2, 1});
    for (const MeshTriangle& t : fold.triangles())
        CHECK(t.inactive == 0);
    const TriangleMesh non_manifold = build(v, {0, 1, 2, 1, 0, 3, 0, 1, 4});
    for (const MeshTriangle& t : non_manifold.triangles())
        CHECK(t.inactive == 0);
}

TEST_CASE("mesh edges: the angle threshold (about 5 degrees) holds for ridges and valleys alike",
          "[geometry][mesh][edges]") {
    // Faces tilted by +-a degrees meet at 2a degrees. kInactiveEdgeCos = 1 - 2^-8 is 5.07 deg.
    CHECK(ridge(2.4L).triangles()[0].edge_inactive(2)); // 4.8 deg ridge: one surface
    CHECK(ridge(-2.4L).triangles()[0].edge_inactive(2)); // 4.8 deg valley
    CHECK_FALSE(ridge(2.6L).triangles()[0].edge_inactive(2)); // 5.2 deg: a real edge
    CHECK_FALSE(ridge(-2.6L).triangles()[0].edge_inactive(2));
    CHECK_FALSE(ridge(15).triangles()[0].edge_inactive(2)); // the 30 deg ridge
    CHECK_FALSE(ridge(15).triangles()[1].edge_inactive(0));
    CHECK_FALSE(ridge(-15).triangles()[1].edge_inactive(0)); // a 30 deg valley (a ridge from below)
}

TEST_CASE("mesh edges: activity does not depend on triangle order, split vertices or winding",
          "[geometry][mesh][edges]") {
    const std::vector<Vec3> v = grid_vertices(3);
    const std::vector<uint32_t> idx = grid_indices(3);
    const TriangleMesh ref = build(v, idx);
    const size_t n = idx.size() / 3;

    // Every triangle with its own copies of its vertices (as exporters write seams): welded by
    // exact position, so the same edges are shared.
    std::vector<Vec3> split;
    std::vector<uint32_t> split_idx;
    for (uint32_t i : idx) {
        split_idx.push_back(static_cast<uint32_t>(split.size()));
        split.push_back(v[i]);
    }
    const TriangleMesh s = build(split, split_idx);
    for (size_t t = 0; t < n; ++t)
        CHECK(s.triangles()[t].inactive == ref.triangles()[t].inactive);

    // Triangles in reverse order, every other one wound the other way (both sides collide).
    std::vector<uint32_t> rev;
    for (size_t t = n; t-- > 0;) {
        const uint32_t a = idx[3 * t], b = idx[3 * t + 1], c = idx[3 * t + 2];
        if (t % 2 == 0)
            rev.insert(rev.end(), {a, b, c});
        else
            rev.insert(rev.end(), {a, c, b});
    }
    const TriangleMesh r = build(v, rev);
    for (size_t t = 0; t < n; ++t) {
        CHECK(inactive_edges(r.triangles()[n - 1 - t]) == inactive_edges(ref.triangles()[t]));
        CHECK(inactive_vertices(r.triangles()[n - 1 - t]) == inactive_vertices(ref.triangles()[t]));
    }
    // And the same ground answers: every probe hit on the flat grid is straight up.
    for (const TriangleMesh* m : {&ref, &s, &r}) {
        std::array<Hit, 8> hits;
        const size_t k = cast_all(character(V(1.07L, 0.015L, 1.11L)), kDown, S(0.15L), *m, hits);
        REQUIRE(k >= 3);
        for (size_t i = 0; i < std::min<size_t>(k, hits.size()); ++i)
            CHECK(hits[i].normal == kUp);
    }
}

TEST_CASE("mesh edges: a capsule cast down onto the seam of two coplanar triangles reports (0,1,0)",
          "[geometry][mesh][edges]") {
    const TriangleMesh d = ridge(0);
    // Feet 0.1 m past the seam over triangle 1, a skin (0.015 m) above: the ground probe.
    const Capsule c = character(V(0.1L, 0.015L, 0));
    std::array<Hit, 8> hits;
    REQUIRE(cast_all(c, kDown, S(0.15L), d, hits) == 2);
    // Triangle 1's face first; then triangle 0, reached at its edge 2 (the seam): the capsule's
    // sphere meets the seam 0.1 m off its axis, later (0.415 - sqrt(0.4^2 - 0.1^2) = 0.0277 m).
    // The old answer there was the edge, with the edge normal (0.25, 0.968, 0), 14.5 degrees
    // off; now a contact with triangle 0's face.
    CHECK(hits[0].feature == Feature{1, FeatureKind::kFace, 0});
    CHECK(L(hits[0].distance) == Approx(0.015L).margin(1e-6L));
    CHECK(hits[1].feature == Feature{0, FeatureKind::kFace, 0});
    CHECK(L(hits[1].distance) == Approx(0.415L - std::sqrt(0.16L - 0.01L)).margin(1e-5L));
    CHECK(hits[0].normal == kUp);
    CHECK(hits[1].normal == kUp);
    CHECK_FALSE(hits[1].start_overlap);
    // The contact point stays on the seam.
    CHECK(L(hits[1].point.x) == Approx(0).margin(1e-9L));
    CHECK(L(hits[1].point.y) == Approx(0).margin(1e-9L));

    // The same through a scene (the controller's probe) and for the closest hit alone.
    StaticScene scene;
    scene.add_mesh(3, d);
    std::string err;
    REQUIRE(scene.build(&err));
    std::array<Hit, 8> sh;
    REQUIRE(scene.cast_all(c, kDown, S(0.15L), sh) == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(sh[i].normal == kUp);
        CHECK(sh[i].shape == 3);
        CHECK(sh[i].distance == hits[i].distance);
    }
    // Exactly over the seam, and over triangle 0 instead: still straight up.
    for (long double x : {0.0L, -0.13L, 0.31L}) {
        const size_t k = cast_all(character(V(x, 0.015L, 0.2L)), kDown, S(0.15L), d, hits);
        REQUIRE(k >= 1);
        for (size_t i = 0; i < k; ++i)
            CHECK(hits[i].normal == kUp);
    }
    // Both sides collide: from below, straight down.
    const Capsule below = character(V(0.1L, -1.815L, 0));
    REQUIRE(cast_all(below, kUp, S(0.15L), d, hits) == 2);
    for (size_t i = 0; i < 2; ++i)
        CHECK(hits[i].normal == -kUp);
}

TEST_CASE("mesh edges: probe hits near an interior vertex of a flat grid are all (0,1,0)",
          "[geometry][mesh][edges]") {
    const TriangleMesh g = build(grid_vertices(4), grid_indices(4));
    std::array<Hit, 8> hits;
    // Feet 5 cm and 8 cm off the interior vertex (2, 0, 2): the 6 triangles around it, touched
    // at one face, at seams (x = 2, z = 2, the diagonal x + z = 4) and at the vertex itself.
    const size_t k = cast_all(character(V(2.05L, 0.015L, 2.08L)), kDown, S(0.15L), g, hits);
    REQUIRE(k == 6);
    const Vec3 corner = V(2, 0, 2);
    int at_vertex = 0, on_seam = 0;
    for (size_t i = 0; i < k; ++i) {
        CHECK(hits[i].normal == kUp);
        CHECK(hits[i].feature.kind == FeatureKind::kFace);
        const long double px = L(hits[i].point.x), pz = L(hits[i].point.z);
        if (hits[i].point == corner)
            ++at_vertex;
        else if (std::fabs(px - 2) < 1e-9L || std::fabs(pz - 2) < 1e-9L ||
                 std::fabs(px + pz - 4) < 1e-9L)
            ++on_seam;
    }
    CHECK(at_vertex >= 1);
    CHECK(on_seam >= 1);
    // Off the mesh's boundary edge (x = 4) the edge is real: reported as the edge, its normal
    // from the edge to the capsule, 14.5 degrees from the vertical, as before.
    REQUIRE(cast_all(character(V(4.1L, 0.015L, 1.5L)), kDown, S(0.15L), g, hits) >= 1);
    CHECK(hits[0].feature.kind == FeatureKind::kEdge);
    CHECK(L(hits[0].normal.x) == Approx(0.25L).margin(1e-6L));
    CHECK(L(hits[0].normal.y) == Approx(std::sqrt(1 - 0.0625L)).margin(1e-6L));
}

TEST_CASE("mesh edges: a capsule resting across a seam overlaps with face normals",
          "[geometry][mesh][edges]") {
    const TriangleMesh d = ridge(0);
    StaticScene scene;
    scene.add_mesh(5, d);
    std::string err;
    REQUIRE(scene.build(&err));
    // Sunk 1 cm, 2 cm, 20 cm and a full radius into the floor, 5 cm past the seam: triangle 0's
    // edge is inside the capsule (the old contact: its edge normal, 7 to 90 degrees off).
    for (long double sink : {0.01L, 0.02L, 0.2L, 0.4L}) {
        const Capsule c = character(V(0.05L, -sink, 0.3L));
        std::array<Contact, 8> cts;
        REQUIRE(overlap(c, d, Scalar{}, cts) == 2);
        CHECK(cts[0].feature == Feature{0, FeatureKind::kFace, 0}); // touched at its edge 2
        CHECK(cts[1].feature == Feature{1, FeatureKind::kFace, 0});
        CHECK(L(cts[0].point.x) == Approx(0).margin(1e-9L)); // on the seam
        Vec3 push;
        for (size_t i = 0; i < 2; ++i) {
            CHECK(cts[i].normal == kUp);
            // The depth is the push out of the plane: the same for both triangles.
            CHECK(L(cts[i].depth) == Approx(sink).margin(1e-9L));
            const Scalar remaining = cts[i].depth - dot(push, cts[i].normal);
            if (remaining.raw() > 0) push += cts[i].normal * remaining;
        }
        // The controller's depenetration (each contact adds what is not yet covered): straight up.
        CHECK(push.x.raw() == 0);
        CHECK(push.z.raw() == 0);
        CHECK(L(push.y) == Approx(sink).margin(1e-9L));
        // Pushed by it, the capsule no longer overlaps.
        std::array<Contact, 8> after;
        CHECK(overlap(c.translated(push + V(0, 1e-8L, 0)), d, Scalar{}, after) == 0);
        // The scene says the same.
        std::array<Contact, 8> sc;
        REQUIRE(scene.overlap(c, Scalar{}, sc) == 2);
        for (size_t i = 0; i < 2; ++i) {
            CHECK(sc[i].shape == 5);
            CHECK(sc[i].normal == cts[i].normal);
            CHECK(sc[i].depth == cts[i].depth);
        }
        // A cast starting there reports the same start overlap.
        std::array<Hit, 8> hits;
        REQUIRE(cast_all(c, kDown, S(0.1L), d, hits) == 2);
        for (size_t i = 0; i < 2; ++i) {
            CHECK(hits[i].start_overlap);
            CHECK(hits[i].normal == kUp);
        }
    }
}

TEST_CASE("mesh edges: an edge between triangles at a real 30 degree ridge stays active",
          "[geometry][mesh][edges]") {
    const TriangleMesh m = ridge(15);
    const Vec3 n0 = m.triangles()[0].normal, n1 = m.triangles()[1].normal;
    CHECK(L(n0.x) == Approx(-std::sin(15 * kPi / 180)).margin(1e-9L));
    CHECK(L(n1.x) == Approx(std::sin(15 * kPi / 180)).margin(1e-9L));
    // Feet 5 cm past the ridge line, 0.2 m up: the capsule's sphere (centre 0.6 m up) meets
    // the ridge itself, 7.2 degrees off its axis (inside both faces' 15 degrees); both
    // triangles report the edge normal, from the ridge toward the sphere's centre.
    std::array<Hit, 8> hits;
    REQUIRE(cast_all(character(V(0.05L, 0.2L, 0)), kDown, S(0.5L), m, hits) == 2);
    const long double ex = 0.05L / 0.4L, ey = std::sqrt(1 - ex * ex);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(hits[i].feature.kind == FeatureKind::kEdge);
        CHECK(L(hits[i].normal.x) == Approx(ex).margin(1e-6L));
        CHECK(L(hits[i].normal.y) == Approx(ey).margin(1e-6L));
        CHECK(hits[i].normal != n0);
        CHECK(hits[i].normal != n1);
        CHECK(L(hits[i].distance) == Approx(0.6L - 0.4L * ey).margin(1e-5L));
    }
    // Resting on it, 1 cm into it (sphere centre 0.39 m from the ridge): the contacts keep the
    // edge direction too.
    const long double yc = std::sqrt(0.39L * 0.39L - 0.05L * 0.05L);
    std::array<Contact, 8> cts;
    REQUIRE(overlap(character(V(0.05L, yc - 0.4L, 0)), m, Scalar{}, cts) == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(cts[i].feature.kind == FeatureKind::kEdge);
        CHECK(L(cts[i].normal.x) == Approx(0.05L / 0.39L).margin(1e-6L));
        CHECK(L(cts[i].normal.y) == Approx(yc / 0.39L).margin(1e-6L));
        CHECK(L(cts[i].depth) == Approx(0.01L).margin(1e-9L));
    }
}

TEST_CASE("mesh edges: a one-triangle mesh answers exactly as the lone triangle",
          "[geometry][mesh][edges]") {
    const std::vector<Vec3> v = {V(0, 0, -2), V(-2, 0.3L, 0), V(0, 0.1L, 2)};
    const TriangleMesh m = build(v, {0, 1, 2});
    const Triangle t{{v[0], v[1], v[2]}};
    for (long double x : {-3.0L, -1.0L, 0.2L, 0.7L}) {
        const Capsule c = character(V(x, 0.5L, 0.4L));
        Hit a, b;
        const bool ha = cast(c, kDown, S(2), m, &a), hb = cast(c, kDown, S(2), t, &b);
        REQUIRE(ha == hb);
        if (!ha) continue;
        CHECK(a.distance == b.distance);
        CHECK(a.normal == b.normal);
        CHECK(a.point == b.point);
        CHECK(a.feature == b.feature);
    }
}
