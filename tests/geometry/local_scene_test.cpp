// LocalScene (the shapes near one place, gathered once for a character's tick) must answer
// every query exactly as the whole scene does: inside its region from the gathered shapes, and
// outside it (or when more shapes than it holds are near) by walking the whole scene.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "geo/scene.h"
#include "geo_test_util.h"
#include "test_support.h"

using namespace fx;
using namespace fx::geo;
using namespace geotest;

namespace {

bool same_contact(const Contact& a, const Contact& b) {
    return a.shape == b.shape && a.feature == b.feature && a.normal == b.normal &&
           a.depth == b.depth && a.point == b.point;
}

/// A cluttered 20 m level: a floor, a plane, 60 small boxes (some rotated), spheres, capsules,
/// a mesh, and two kinematic boxes.
StaticScene clutter(fxtest::Rng& rng) {
    StaticScene s;
    s.add_box(1, Box{V(0, -0.5L, 0), V(20, 0.5L, 20), Mat3::identity()});
    s.add_plane(2, Plane{V(0, 1, 0), S(-3)});
    for (ShapeId id = 10; id < 70; ++id) {
        const Vec3 c = V(static_cast<long double>(rng.range(-80, 80)) / 8,
                         static_cast<long double>(rng.range(0, 16)) / 8,
                         static_cast<long double>(rng.range(-80, 80)) / 8);
        const Vec3 h = V(static_cast<long double>(rng.range(1, 8)) / 8,
                         static_cast<long double>(rng.range(1, 8)) / 8,
                         static_cast<long double>(rng.range(1, 8)) / 8);
        const Mat3 rot =
            id % 3 == 0 ? Mat3::rotation_y(Scalar::from_int(rng.range(0, 89))) : Mat3::identity();
        s.add_box(id, Box{c, h, rot});
    }
    s.add_sphere(80, Sphere{V(2, 0.5L, 2), S(0.5L)});
    s.add_capsule(81, Capsule{V(-2, 0.3L, 1), V(-1, 0.3L, 3), S(0.3L)});
    TriangleMesh m;
    std::string err;
    REQUIRE(TriangleMesh::build({V(3, 0.2L, -3), V(6, 0.2L, -3), V(3, 0.8L, 0), V(6, 0.8L, 0)},
                                {0, 2, 1, 1, 2, 3}, &m, &err));
    s.add_mesh(82, std::move(m));
    s.add_box(90, Box{V(0, 0.25L, 5), V(1, 0.25L, 1), Mat3::identity()}, Motion::kKinematic);
    s.add_box(91, Box{V(5, 0.25L, 0), V(1, 0.25L, 1), Mat3::identity()}, Motion::kKinematic);
    std::string error;
    REQUIRE(s.build(&error));
    REQUIRE(s.move_box(90, Box{V(0.5L, 0.25L, 5), V(1, 0.25L, 1), Mat3::identity()}));
    s.refit();
    return s;
}

} // namespace

TEST_CASE("local scene: every query gives the whole scene's answer, inside and outside the region",
          "[scene][local]") {
    // (cast_any, the any-hit query, is checked here too.)
    fxtest::Rng rng(77);
    const StaticScene scene = clutter(rng);
    long answered_locally = 0, walked = 0, hits = 0;
    for (int i = 0; i < 4000; ++i) {
        const Vec3 feet = V(static_cast<long double>(rng.range(-800, 800)) / 100,
                            static_cast<long double>(rng.range(0, 150)) / 100,
                            static_cast<long double>(rng.range(-800, 800)) / 100);
        const Capsule c = Capsule::upright(feet, S(0.4L), S(1.8L));
        const Scalar reach = Scalar::from_raw(rng.range(0, 2 * Scalar::kOneRaw));
        const LocalScene local(scene, c.bounds().expanded(reach));
        // A cast in a random direction, sometimes further than the region reaches.
        const Vec3 dir = V(static_cast<long double>(rng.range(-100, 100)) / 100,
                           static_cast<long double>(rng.range(-100, 100)) / 100,
                           static_cast<long double>(rng.range(-100, 100)) / 100);
        if (dir.is_zero()) continue;
        const Scalar dist = Scalar::from_raw(rng.range(0, 3 * Scalar::kOneRaw));
        Hit a[8], b[8];
        const size_t na = scene.cast_all(c, dir, dist, a);
        const size_t nb = local.cast_all(c, dir, dist, b);
        REQUIRE(na == nb);
        // cast_any answers whether anything is hit, from both.
        REQUIRE(scene.cast_any(c, dir, dist) == (na > 0));
        REQUIRE(local.cast_any(c, dir, dist) == (na > 0));
        for (size_t k = 0; k < std::min<size_t>(na, 8); ++k)
            REQUIRE(same_hit(a[k], b[k]));
        Contact ca[8], cb[8];
        const size_t oa = scene.overlap(c, S(0.05L), ca);
        const size_t ob = local.overlap(c, S(0.05L), cb);
        REQUIRE(oa == ob);
        for (size_t k = 0; k < std::min<size_t>(oa, 8); ++k)
            REQUIRE(same_contact(ca[k], cb[k]));
        hits += na > 0;
        const Aabb swept = c.bounds().merged(
            Aabb{c.bounds().lo + normalize(dir) * dist, c.bounds().hi + normalize(dir) * dist});
        (local.covers(swept) ? answered_locally : walked) += 1;
    }
    // Both paths are exercised, and the queries find things.
    CHECK(answered_locally > 500);
    CHECK(walked > 500);
    CHECK(hits > 1000);
}

TEST_CASE("local scene: a region with more shapes than it holds walks the whole scene",
          "[scene][local]") {
    fxtest::Rng rng(5);
    const StaticScene scene = clutter(rng);
    const Capsule c = Capsule::upright(V(0, 0, 0), S(0.4L), S(1.8L));
    const LocalScene everything(scene, Aabb{V(-30, -30, -30), V(30, 30, 30)});
    CHECK_FALSE(everything.covers(c.bounds()));
    CHECK(everything.count() == LocalScene::kCapacity);
    Hit a[4], b[4];
    const Vec3 down{Scalar{}, -Scalar::one(), Scalar{}};
    const size_t na = scene.cast_all(c, down, S(1), a);
    REQUIRE(everything.cast_all(c, down, S(1), b) == na);
    for (size_t k = 0; k < std::min<size_t>(na, 4); ++k)
        REQUIRE(same_hit(a[k], b[k]));
    const LocalScene whole(scene);
    CHECK_FALSE(whole.covers(c.bounds()));
}

TEST_CASE("bodies handed to a LocalScene are met by every query, as kBodyShape, in any order",
          "[scene][bodies]") {
    StaticScene s;
    s.add_box(1, Box{V(0, -0.5L, 0), V(20, 0.5L, 20), Mat3::identity()});
    std::string error;
    REQUIRE(s.build(&error));
    // Two bodies either side of a line of motion, equally far from it: hit at the same distance.
    const Capsule left{V(3, 0.415L, -0.5L), V(3, 1.415L, -0.5L), S(0.4L)};
    const Capsule right{V(3, 0.415L, 0.5L), V(3, 1.415L, 0.5L), S(0.4L)};
    const Capsule mover{V(0, 0.415L, 0), V(0, 1.415L, 0), S(0.4L)};
    const std::vector<Body> lr{Body::of(left), Body::of(right)},
        rl{Body::of(right), Body::of(left)};
    LocalScene a(s, Aabb{V(-5, -1, -5), V(5, 3, 5)});
    LocalScene b = a;
    a.set_bodies(lr);
    b.set_bodies(rl);
    std::array<Hit, 4> ha, hb;
    const size_t na = a.cast_all(mover, V(1, 0, 0), S(4), ha);
    const size_t nb = b.cast_all(mover, V(1, 0, 0), S(4), hb);
    REQUIRE(na == 2);
    REQUIRE(nb == 2);
    for (size_t k = 0; k < 2; ++k) {
        CHECK(ha[k].shape == kBodyShape);
        CHECK(ha[k].distance == hb[k].distance);
        CHECK(ha[k].point == hb[k].point); // the order is by place, not by the list
        CHECK(ha[k].normal == hb[k].normal);
    }
    CHECK(ha[0].distance == ha[1].distance);
    // Overlap finds a body it touches; the same scene without bodies does not.
    const Capsule beside{V(3, 0.415L, 0.35L), V(3, 1.415L, 0.35L), S(0.4L)};
    std::array<Contact, 4> cs;
    CHECK(a.overlap(beside, S(0), cs) == 1);
    CHECK(cs[0].shape == kBodyShape);
    CHECK(LocalScene(s, Aabb{V(-5, -1, -5), V(5, 3, 5)}).overlap(beside, S(0), cs) == 0);
    // The id is reserved.
    StaticScene bad;
    bad.add_sphere(kBodyShape, Sphere{V(0, 0, 0), S(1)});
    CHECK_FALSE(bad.build(&error));
    CHECK(error.find("reserved") != std::string::npos);
}

TEST_CASE("a cast looks past another body it starts inside of unless it moves into it",
          "[scene][bodies]") {
    StaticScene s;
    s.add_box(1, Box{V(0, -0.5L, 0), V(20, 0.5L, 20), Mat3::identity()});
    std::string error;
    REQUIRE(s.build(&error));
    // The mover overlaps the other body by 0.3 m; the other lies toward +x.
    const Capsule mover{V(0, 0.415L, 0), V(0, 1.415L, 0), S(0.4L)};
    const Capsule other{V(0.5L, 0.415L, 0), V(0.5L, 1.415L, 0), S(0.4L)};
    const std::vector<Body> bodies{Body::of(other)};
    LocalScene scene(s, Aabb{V(-5, -1, -5), V(5, 3, 5)});
    scene.set_bodies(bodies);
    std::array<Hit, 4> hits;
    // Into it: met at the start.
    REQUIRE(scene.cast_all(mover, V(1, 0, 0), S(1), hits) == 1);
    CHECK(hits[0].shape == kBodyShape);
    CHECK(hits[0].start_overlap);
    // Away from it, along it (straight down, as the probe casts: onto the floor) : not met, so it
    // takes no place in a list of hits before the floor.
    CHECK(scene.cast_all(mover, V(-1, 0, 0), S(1), hits) == 0);
    CHECK(scene.cast_all(mover, V(0, 0, 1), S(1), hits) == 0);
    REQUIRE(scene.cast_all(mover, V(0, -1, 0), S(1), hits) == 1);
    CHECK(hits[0].shape == 1);
    // cast_bodies (the probe's memo path) answers the same.
    std::array<Hit, 4> list;
    size_t count = 0;
    CHECK(scene.cast_bodies(mover, V(0, -1, 0), S(1), list, &count) == 0);
    CHECK(scene.cast_bodies(mover, V(1, 0, 0), S(1), list, &count) == 1);
    // A body the mover stands on (below it, touching): still met by the cast down.
    const Capsule below{V(0, 0.415L - 1.8L, 0), V(0, 1.415L - 1.8L, 0), S(0.4L)};
    const std::vector<Body> under{Body::of(below)};
    scene.set_bodies(under);
    REQUIRE(scene.cast_all(mover, V(0, -1, 0), S(1), hits) >= 1);
    CHECK(hits[0].shape == kBodyShape);
}

TEST_CASE("LocalScene: remembered directions are normalize()'s, whatever the order they come in",
          "[scene][local]") {
    // unit() keeps the last few directions it normalised; a stream of a few recurring and many
    // new vectors (more than it keeps, so entries are replaced), straight up and down among
    // them, must give normalize()'s bits.
    fxtest::Rng rng(0x0417);
    StaticScene s;
    s.add_box(1, Box{V(0, -0.5L, 0), V(20, 0.5L, 20), Mat3::identity()});
    std::string error;
    REQUIRE(s.build(&error));
    const LocalScene local(s, Aabb{V(-1, -1, -1), V(1, 1, 1)});
    std::vector<Vec3> recurring;
    for (int k = 0; k < 6; ++k)
        recurring.push_back(
            Vec3{Scalar::from_raw(rng.range(-(int64_t{1} << 33), int64_t{1} << 33)), Scalar{},
                 Scalar::from_raw(rng.range(-(int64_t{1} << 33), int64_t{1} << 33))});
    long repeats = 0;
    for (int i = 0; i < 20000; ++i) {
        Vec3 v;
        if (rng.next() % 3 != 0) {
            v = recurring[static_cast<size_t>(rng.next() % recurring.size())];
            ++repeats;
        } else if (rng.next() % 4 == 0) { // vertical, some shorter than normalize() takes
            const int64_t span = rng.next() % 2 == 0 ? int64_t{1} << 34 : int64_t{1} << 10;
            v = Vec3{Scalar{}, Scalar::from_raw(rng.range(-span, span)), Scalar{}};
        } else {
            v = Vec3{Scalar::from_raw(rng.range(-(int64_t{1} << 34), int64_t{1} << 34)),
                     Scalar::from_raw(rng.range(-(int64_t{1} << 20), int64_t{1} << 20)),
                     Scalar::from_raw(rng.range(-(int64_t{1} << 34), int64_t{1} << 34))};
        }
        REQUIRE(local.unit(v) == normalize(v));
    }
    CHECK(repeats > 10000);
}
