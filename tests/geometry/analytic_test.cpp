// Analytic unit tests: hand-computed answers for every query and shape pair, the hard
// configurations named in the issue, mesh validation messages, scene ordering.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include "geo/queries.h"
#include "geo/scene.h"
#include "geo_test_util.h"
#include "test_support.h"

using namespace fx;
using namespace fx::geo;
using namespace geotest;

namespace {

const Vec3 kRight{Scalar::one(), Scalar{}, Scalar{}};
constexpr long double kTol = 1e-6L; // kContactTolerance and rounding

Box axis_box(const Vec3& c, const Vec3& h) {
    return Box{c, h, Mat3::identity()};
}

} // namespace

TEST_CASE("separation: hand-computed distances for every shape", "[geometry][analytic]") {
    const Capsule c = character(V(0, 0, 0)); // segment (0,0.4,0)-(0,1.4,0), r 0.4
    CHECK(L(separation(c, Sphere{V(2, 1, 0), S(0.5L)})) == Approx(1.1L).margin(1e-9));
    CHECK(L(separation(c, Sphere{V(0, 3, 0), S(0.5L)})) == Approx(0.7L).margin(1e-9));
    CHECK(L(separation(c, Capsule{V(3, 0, -5), V(3, 0, 5), S(0.1L)})) ==
          Approx(std::sqrt(9.16L) - 0.5L).margin(1e-9));
    CHECK(L(separation(c, axis_box(V(0, -1, 0), V(5, 1, 5)))) == Approx(0.0L).margin(1e-9));
    CHECK(L(separation(c, axis_box(V(2, 3, 2), V(1, 1, 1)))) ==
          Approx(std::sqrt(2.36L) - 0.4L).margin(1e-9)); // corner (1,2,1) to the top (0,1.4,0)
    CHECK(L(separation(c, Plane{Vec3::unit_y(), S(-0.25L)})) == Approx(0.25L).margin(1e-9));
    CHECK(L(separation(c, Plane{Vec3::unit_y(), S(0.25L)})) == Approx(-0.25L).margin(1e-9));
    const Triangle t{{V(1, 0, -1), V(1, 0, 1), V(1, 3, 0)}};
    CHECK(L(separation(c, t)) == Approx(0.6L).margin(1e-9));
}

TEST_CASE("overlap: depth and direction of shallow and deep penetration", "[geometry][analytic]") {
    const Capsule c = character(V(0, 0, 0));
    Contact ct;
    SECTION("sphere beside the capsule") {
        REQUIRE(overlap(c, Sphere{V(0.8L, 1, 0), S(0.5L)}, Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.1L).margin(1e-9));
        CHECK(L(ct.normal.x) == Approx(-1).margin(1e-9));
        CHECK(L(ct.point.x) == Approx(0.3L).margin(1e-9));
    }
    SECTION("no overlap when apart, and margin reports near shapes") {
        CHECK_FALSE(overlap(c, Sphere{V(2, 1, 0), S(0.5L)}, Scalar{}, &ct));
        REQUIRE(overlap(c, Sphere{V(2, 1, 0), S(0.5L)}, S(1.5L), &ct));
        CHECK(L(ct.depth) == Approx(-1.1L).margin(1e-9));
    }
    SECTION("exact touching is not an overlap") {
        CHECK_FALSE(overlap(c, Sphere{V(0.9L, 1, 0), S(0.5L)}, Scalar{}, &ct));
    }
    SECTION("standing in the floor box by 5 cm") {
        REQUIRE(overlap(c, axis_box(V(0, -1, 0), V(5, 1.05L, 5)), Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.05L).margin(1e-9));
        CHECK(L(ct.normal.y) == Approx(1).margin(1e-9));
        CHECK(ct.feature.kind == FeatureKind::kFace);
        CHECK(ct.feature.index == 3); // +y
    }
    SECTION("segment deep inside a box: SAT picks the nearest face") {
        const Box b = axis_box(V(0.3L, 1, 0), V(0.5L, 2, 3)); // x in [-0.2, 0.8]
        REQUIRE(overlap(c, b, Scalar{}, &ct));
        CHECK(L(ct.normal.x) == Approx(-1).margin(1e-9));
        CHECK(L(ct.depth) == Approx(0.6L).margin(1e-9)); // 0.2 to the -x face, plus the radius
    }
    SECTION("segment through a sphere's centre: a deterministic perpendicular push") {
        REQUIRE(overlap(c, Sphere{V(0, 1, 0), S(0.3L)}, Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.7L).margin(1e-6));
        CHECK(std::fabs(L(ct.normal.y)) < 1e-9L);
    }
    SECTION("crossing capsules push along the common perpendicular") {
        REQUIRE(overlap(c, Capsule{V(-2, 1, 0), V(2, 1, 0), S(0.2L)}, Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.6L).margin(1e-6));
        CHECK(std::fabs(L(ct.normal.z)) == Approx(1).margin(1e-9));
    }
    SECTION("plane") {
        REQUIRE(overlap(c, Plane{Vec3::unit_y(), S(0.1L)}, Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.1L).margin(1e-9));
        CHECK(ct.normal == Vec3::unit_y());
    }
    SECTION("triangle crossing the segment") {
        const Triangle t{{V(-1, 1, -1), V(1, 1, -1), V(0, 1, 1)}}; // horizontal at y = 1
        REQUIRE(overlap(c, t, Scalar{}, &ct));
        CHECK(L(ct.depth) == Approx(0.8L).margin(1e-6)); // 0.4 down to the bottom end + r
        CHECK(std::fabs(L(ct.normal.y)) == Approx(1).margin(1e-9));
    }
}

TEST_CASE("cast: head-on hits against every shape", "[geometry][analytic]") {
    const Capsule c = character(V(0, 0, 0));
    Hit h;
    SECTION("box") {
        REQUIRE(cast(c, kRight, S(10), axis_box(V(3, 1, 0), V(1, 2, 2)), &h));
        CHECK_FALSE(h.start_overlap);
        CHECK(L(h.distance) == Approx(1.6L).margin(kTol));
        CHECK(L(h.distance) <= 1.6L);
        CHECK(L(h.normal.x) == Approx(-1).margin(1e-9));
        CHECK(L(h.point.x) == Approx(2).margin(1e-9));
        CHECK(h.feature.kind == FeatureKind::kFace);
    }
    SECTION("sphere") {
        REQUIRE(cast(c, kRight, S(10), Sphere{V(3, 1, 0), S(0.5L)}, &h));
        CHECK(L(h.distance) == Approx(2.1L).margin(kTol));
        CHECK(L(h.normal.x) == Approx(-1).margin(1e-6));
    }
    SECTION("capsule") {
        REQUIRE(cast(c, kRight, S(10), Capsule{V(3, 0, -2), V(3, 0, 2), S(0.5L)}, &h));
        // segments: (d, 0.4..1.4, 0) vs (3, 0, z): first touch at bottom point (d,0.4,0):
        // distance sqrt((3-d)^2 + 0.16) = 0.9 -> 3 - d = sqrt(0.81 - 0.16)
        CHECK(L(h.distance) == Approx(3.0L - std::sqrt(0.65L)).margin(kTol));
    }
    SECTION("plane from above") {
        REQUIRE(cast(c, kDown, S(5), Plane{Vec3::unit_y(), S(-2)}, &h));
        CHECK(L(h.distance) == Approx(2).margin(kTol));
        CHECK(h.normal == Vec3::unit_y());
    }
    SECTION("triangle face") {
        const Triangle t{{V(2, -1, -1), V(2, -1, 1), V(2, 3, 0)}};
        REQUIRE(cast(c, kRight, S(5), t, &h));
        CHECK(L(h.distance) == Approx(1.6L).margin(kTol));
        CHECK(L(h.normal.x) == Approx(-1).margin(1e-9));
    }
    SECTION("miss, moving away and out of range") {
        CHECK_FALSE(cast(c, kRight, S(10), axis_box(V(3, 5, 0), V(1, 1, 1)), &h));
        CHECK_FALSE(cast(c, -kRight, S(10), axis_box(V(3, 1, 0), V(1, 1, 1)), &h));
        CHECK_FALSE(cast(c, kRight, S(1), axis_box(V(3, 1, 0), V(1, 1, 1)), &h));
    }
}

TEST_CASE("cast: starting in contact is reported as such", "[geometry][analytic]") {
    const Capsule c = character(V(0, 0, 0));
    Hit h;
    SECTION("exactly touching the floor, moving along it") {
        REQUIRE(cast(c, kRight, S(5), axis_box(V(0, -1, 0), V(5, 1, 5)), &h));
        CHECK(h.start_overlap);
        CHECK(h.distance == Scalar{});
        CHECK(h.depth == Scalar{});
        CHECK(L(h.normal.y) == Approx(1).margin(1e-9));
    }
    SECTION("penetrating a wall") {
        REQUIRE(cast(c, kRight, S(5), axis_box(V(1.3L, 1, 0), V(1, 2, 2)), &h));
        CHECK(h.start_overlap);
        CHECK(L(h.depth) == Approx(0.1L).margin(1e-9));
        CHECK(L(h.normal.x) == Approx(-1).margin(1e-9));
    }
    SECTION("zero-length motion: only the start state") {
        CHECK_FALSE(cast(c, kRight, Scalar{}, axis_box(V(1.5L, 1, 0), V(1, 2, 2)), &h));
        REQUIRE(cast(c, kRight, Scalar{}, axis_box(V(1.3L, 1, 0), V(1, 2, 2)), &h));
        CHECK(h.start_overlap);
        CHECK_FALSE(cast(c, Vec3{}, S(5), axis_box(V(1.5L, 1, 0), V(1, 2, 2)), &h));
    }
}

TEST_CASE("cast: hard configurations", "[geometry][analytic]") {
    Hit h;
    SECTION("grazing along a face: sliding 1 um above a floor never hits it") {
        const Capsule c = character(V(0, 1e-6L + 2e-6L, 0));
        CHECK_FALSE(cast(c, kRight, S(20), axis_box(V(0, -1, 0), V(50, 1, 50)), &h));
    }
    SECTION("motion parallel to an edge, passing it at 1 mm") {
        // Box edge along z at x = 1, y = 0.5 (top-left edge). Capsule bottom sphere passes.
        const Box b = axis_box(V(2, 0, 0), V(1, 0.5L, 5));
        const Capsule c{V(0.599L - 0.4L, 0.9L, -8), V(0.599L - 0.4L, 2.0L, -8), S(0.4L)};
        CHECK_FALSE(cast(c, Vec3::unit_z(), S(16), b, &h));
    }
    SECTION("capsule at a box corner, moving diagonally into it") {
        const Box b = axis_box(V(0, 0, 0), V(1, 1, 1));
        const Capsule c{V(2, 2, 2), V(2, 3, 2), S(0.25L)};
        const Vec3 d = normalize(V(-1, -1, -1));
        REQUIRE(cast(c, d, S(5), b, &h));
        const long double expect = (std::sqrt(3.0L) - 0.25L);
        CHECK(L(h.distance) == Approx(expect).margin(1e-5));
        CHECK(L(h.distance) <= expect);
        CHECK(h.feature.kind == FeatureKind::kVertex);
        CHECK(h.feature.index == 7);
        CHECK(L(h.normal.x) == Approx(1 / std::sqrt(3.0L)).margin(1e-5));
    }
    SECTION("thin box (1 mm) is not tunnelled through") {
        const Box b = axis_box(V(1, 1, 0), V(0.0005L, 2, 2));
        const Capsule c = character(V(0, 0, 0));
        REQUIRE(cast(c, kRight, S(5), b, &h));
        CHECK(L(h.distance) == Approx(1 - 0.0005L - 0.4L).margin(kTol));
    }
    SECTION("100 km from the origin") {
        const long double X = 100000.0L;
        const Capsule c = character(V(X, 0, -X));
        REQUIRE(cast(c, kRight, S(10), axis_box(V(X + 3, 1, -X), V(1, 2, 2)), &h));
        CHECK(L(h.distance) == Approx(1.6L).margin(kTol));
        REQUIRE(cast(c, kDown, S(10), Plane{Vec3::unit_y(), S(-1)}, &h));
        CHECK(L(h.distance) == Approx(1).margin(kTol));
    }
    SECTION("huge (10 km) triangle, hit near its middle") {
        const Triangle t{{V(-5000, 0, -5000), V(0, 0, 5000), V(5000, 0, -5000)}};
        const Capsule c = character(V(123.456L, 2, 7.89L));
        REQUIRE(cast(c, kDown, S(10), t, &h));
        CHECK(L(h.distance) == Approx(2).margin(kTol));
        CHECK(L(h.normal.y) == Approx(1).margin(1e-9));
        CHECK(std::fabs(L(h.point.y)) < 1e-8L);
    }
}

TEST_CASE("ray casts", "[geometry][analytic]") {
    Hit h;
    REQUIRE(ray_cast(V(0, 0, 0), kRight, S(10), axis_box(V(3, 0, 0), V(1, 1, 1)), &h));
    CHECK(L(h.distance) == Approx(2).margin(kTol));
    CHECK(L(h.normal.x) == Approx(-1).margin(1e-9));
    REQUIRE(ray_cast(V(0, 0, 0), kRight, S(10), Sphere{V(3, 0, 0), S(1)}, &h));
    CHECK(L(h.distance) == Approx(2).margin(kTol));
    CHECK(L(h.normal.x) == Approx(-1).margin(1e-6));
    REQUIRE(ray_cast(V(0, 5, 0), kDown, S(10), Plane{Vec3::unit_y(), Scalar{}}, &h));
    CHECK(L(h.distance) == Approx(5).margin(kTol));
    REQUIRE(ray_cast(V(0.2L, 5, 0.1L), kDown, S(10),
                     Triangle{{V(-1, 0, -1), V(0, 0, 1), V(1, 0, -1)}}, &h));
    CHECK(L(h.distance) == Approx(5).margin(kTol));
    CHECK(L(h.normal.y) == Approx(1).margin(1e-9));
    REQUIRE(ray_cast(V(0, 0, 0), kRight, S(10), Capsule{V(3, -1, 0), V(3, 1, 0), S(0.5L)}, &h));
    CHECK(L(h.distance) == Approx(2.5L).margin(kTol));
    CHECK_FALSE(ray_cast(V(0, 0, 0), -kRight, S(10), axis_box(V(3, 0, 0), V(1, 1, 1)), &h));
    REQUIRE(ray_cast(V(3, 0, 0), kRight, S(10), axis_box(V(3, 0, 0), V(1, 1, 1)), &h));
    CHECK(h.start_overlap);
}

TEST_CASE("mesh: degenerate triangles are rejected with their index", "[geometry][analytic]") {
    std::vector<Vec3> v = {V(0, 0, 0), V(1, 0, 0), V(0, 0, 1), V(2, 0, 0)};
    TriangleMesh m;
    std::string err;
    CHECK(TriangleMesh::build(v, {0, 1, 2, 0, 2, 1}, &m, &err));
    CHECK_FALSE(TriangleMesh::build(v, {0, 1, 2, 1, 1, 2}, &m, &err));
    CHECK(err == "triangle 1: degenerate (repeated vertex: indices 1, 1, 2)");
    CHECK_FALSE(TriangleMesh::build(v, {0, 2, 1, 0, 1, 2, 0, 1, 3}, &m, &err));
    CHECK(err == "triangle 2: degenerate (zero area: indices 0, 1, 3)");
    CHECK_FALSE(TriangleMesh::build(v, {0, 1, 9}, &m, &err));
    CHECK(err == "triangle 0: index 9 out of range (4 vertices)");
    CHECK_FALSE(TriangleMesh::build(v, {0, 1}, &m, &err));
    CHECK(err == "index count 2 is not a multiple of 3");
    std::vector<Vec3> w = {V(0, 0, 0), V(1, 0, 0), V(0, 0, 1), V(0, 0, 0)};
    CHECK_FALSE(TriangleMesh::build(w, {0, 1, 3}, &m, &err));
    CHECK(err == "triangle 0: degenerate (repeated vertex: indices 0, 1, 3)");
}

namespace {

// A 10 x 10 m floor of 2 triangles per 1 m cell at y = 0, plus a ramp.
TriangleMesh floor_mesh() {
    std::vector<Vec3> v;
    std::vector<uint32_t> idx;
    for (int z = 0; z <= 10; ++z)
        for (int x = 0; x <= 10; ++x)
            v.push_back(V(x - 5, 0, z - 5));
    for (uint32_t z = 0; z < 10; ++z)
        for (uint32_t x = 0; x < 10; ++x) {
            const uint32_t i = z * 11 + x;
            idx.insert(idx.end(), {i, i + 11, i + 1, i + 1, i + 11, i + 12});
        }
    TriangleMesh m;
    std::string err;
    REQUIRE(TriangleMesh::build(v, idx, &m, &err));
    return m;
}

} // namespace

TEST_CASE("mesh: casts and overlaps against a floor", "[geometry][analytic]") {
    const TriangleMesh m = floor_mesh();
    Hit h;
    const Capsule c = character(V(0.3L, 1, 0.6L));
    REQUIRE(cast(c, kDown, S(2), m, &h));
    CHECK(L(h.distance) == Approx(1).margin(kTol));
    CHECK(L(h.normal.y) == Approx(1).margin(1e-9));
    std::array<Hit, 8> hits;
    // Every triangle the capsule would touch on the way down, the one below it first.
    const size_t nh = cast_all(c, kDown, S(2), m, hits);
    REQUIRE(nh >= 2);
    CHECK(hits[0].distance == h.distance);
    for (size_t i = 0; i + 1 < std::min<size_t>(nh, 8); ++i)
        CHECK(hit_less(hits[i], hits[i + 1]));
    // Standing exactly on a vertex shared by 6 triangles, 1 cm in the floor.
    const Capsule s = character(V(1, -0.01L, 1));
    std::array<Contact, 8> cts;
    const size_t n = overlap(s, m, Scalar{}, cts);
    REQUIRE(n == 6);
    for (size_t i = 0; i + 1 < n; ++i)
        CHECK(contact_less(cts[i], cts[i + 1]));
    for (size_t i = 0; i < n; ++i)
        CHECK(L(cts[i].depth) == Approx(0.01L).margin(1e-9));
}

namespace {

struct Level {
    std::vector<std::pair<ShapeId, Box>> boxes;
};

Level random_level(uint64_t seed, int n) {
    fxtest::Rng rng(seed);
    Level lv;
    for (int i = 0; i < n; ++i) {
        const Vec3 c = V(rng.range(-20, 20), rng.range(0, 3), rng.range(-20, 20));
        const Vec3 he = V(0.5L + rng.range(0, 30) / 10.0L, 0.5L + rng.range(0, 10) / 10.0L,
                          0.5L + rng.range(0, 30) / 10.0L);
        lv.boxes.push_back(
            {static_cast<ShapeId>(100 + i * 7),
             Box::from_yaw_pitch_roll_degrees(c, he, S(rng.range(0, 359)), Scalar{}, Scalar{})});
    }
    return lv;
}

StaticScene make_scene(const Level& lv, const std::vector<size_t>& order) {
    StaticScene s;
    s.add_plane(1, Plane{Vec3::unit_y(), Scalar{}});
    for (size_t k : order)
        s.add_box(lv.boxes[k].first, lv.boxes[k].second);
    std::string err;
    REQUIRE(s.build(&err));
    return s;
}

} // namespace

TEST_CASE("scene: results never depend on insertion order", "[geometry][scene]") {
    const Level lv = random_level(7, 25);
    std::vector<size_t> order(lv.boxes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const StaticScene a = make_scene(lv, order);
    std::reverse(order.begin(), order.end());
    const StaticScene b = make_scene(lv, order);
    fxtest::Rng rng(99);
    std::swap(order[3], order[17]);
    std::swap(order[0], order[24]);
    const StaticScene c = make_scene(lv, order);
    for (int q = 0; q < 2000; ++q) {
        const Capsule cap =
            character(V(rng.range(-25000, 25000) / 1000.0L, rng.range(0, 3000) / 1000.0L,
                        rng.range(-25000, 25000) / 1000.0L));
        const Vec3 dir = V(rng.range(-1000, 1000), rng.range(-1000, 1000), rng.range(-1000, 1000));
        std::array<Hit, 8> ha, hb, hc;
        const size_t na = a.cast_all(cap, dir, S(10), ha);
        REQUIRE(b.cast_all(cap, dir, S(10), hb) == na);
        REQUIRE(c.cast_all(cap, dir, S(10), hc) == na);
        for (size_t i = 0; i < std::min<size_t>(na, 8); ++i) {
            CHECK(same_hit(ha[i], hb[i]));
            CHECK(same_hit(ha[i], hc[i]));
            if (i > 0) CHECK(hit_less(ha[i - 1], ha[i]));
        }
        std::array<Contact, 8> ca, cb;
        const size_t oa = a.overlap(cap, Scalar{}, ca);
        REQUIRE(b.overlap(cap, Scalar{}, cb) == oa);
        for (size_t i = 0; i < std::min<size_t>(oa, 8); ++i) {
            CHECK(ca[i].shape == cb[i].shape);
            CHECK(ca[i].depth == cb[i].depth);
            CHECK(ca[i].normal == cb[i].normal);
        }
    }
}

TEST_CASE("scene: broadphase agrees with brute force, kinematic shapes move", "[geometry][scene]") {
    const Level lv = random_level(3, 25);
    std::vector<size_t> order(lv.boxes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const StaticScene s = make_scene(lv, order);
    fxtest::Rng rng(5);
    for (int q = 0; q < 500; ++q) {
        const Vec3 lo = V(rng.range(-25, 20), rng.range(-1, 3), rng.range(-25, 20));
        const Aabb box{lo, lo + V(rng.range(0, 8), rng.range(0, 3), rng.range(0, 8))};
        std::array<ShapeId, 32> ids;
        const size_t n = s.query_bounds(box, ids);
        std::vector<ShapeId> expect = {1};
        for (const auto& [id, b] : lv.boxes)
            if (b.bounds().overlaps(box)) expect.push_back(id);
        std::sort(expect.begin(), expect.end());
        REQUIRE(n == expect.size());
        for (size_t i = 0; i < n; ++i)
            CHECK(ids[i] == expect[i]);
    }

    StaticScene k;
    k.add_box(5, axis_box(V(0, -1, 0), V(10, 1, 10)));
    k.add_box(9, axis_box(V(3, 1, 0), V(0.5L, 1, 1)), Motion::kKinematic);
    std::string err;
    REQUIRE(k.build(&err));
    Hit h;
    const Capsule c = character(V(0, 0.01L, 0));
    REQUIRE(k.cast(c, kRight, S(10), &h));
    CHECK(h.shape == 9);
    CHECK(L(h.distance) == Approx(2.1L).margin(kTol));
    REQUIRE(k.move_box(9, axis_box(V(6, 1, 0), V(0.5L, 1, 1))));
    CHECK_FALSE(k.move_box(5, axis_box(V(6, 1, 0), V(0.5L, 1, 1)))); // static
    k.refit();
    REQUIRE(k.cast(c, kRight, S(10), &h));
    CHECK(h.shape == 9);
    CHECK(L(h.distance) == Approx(5.1L).margin(kTol));
    std::array<Hit, 8> hits;
    REQUIRE(k.cast_all(c, kDown, S(1), hits) == 1);
    CHECK(hits[0].shape == 5);
    CHECK(L(hits[0].distance) == Approx(0.01L).margin(kTol));
    CHECK(hits[0].start_overlap == false);
}

TEST_CASE("scene: build errors name the shape", "[geometry][scene]") {
    StaticScene s;
    s.add_sphere(4, Sphere{V(0, 0, 0), S(1)});
    s.add_sphere(4, Sphere{V(0, 0, 0), S(1)});
    std::string err;
    CHECK_FALSE(s.build(&err));
    CHECK(err == "shape 4: duplicate id");
    StaticScene p;
    p.add_plane(2, Plane{V(0, 2, 0), Scalar{}});
    CHECK_FALSE(p.build(&err));
    CHECK(err == "shape 2: plane normal is not unit length");
}
