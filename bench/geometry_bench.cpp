// Micro-benchmarks of the geometry layer: ns per capsule cast and per overlap query for each
// shape pair, and per scene query in a level of 25 boxes (the figures in docs/geometry.md).
// Queries cycle through 256 prepared inputs (a mix of hits and misses near the shape), so
// the numbers are averages over realistic cases, not one cached path.
//   build/bench/fx_bench "[.bench][geometry]"
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "geo/queries.h"
#include "geo/scene.h"

using namespace fx;
using namespace fx::geo;

namespace {

constexpr std::size_t kN = 256;

struct Lcg {
    uint64_t s;
    int64_t range(int64_t lo, int64_t hi) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return lo + static_cast<int64_t>((s >> 20) % static_cast<uint64_t>(hi - lo + 1));
    }
    /// Millimetres in [lo, hi] metres.
    Scalar mm(int64_t lo, int64_t hi) { return Scalar::ratio(range(lo * 1000, hi * 1000), 1000); }
};

struct Q {
    Capsule cap;
    Vec3 dir;
};

/// Character capsules within ~3 m of the origin moving about 0.5 m in a random direction,
/// with a bias toward the origin so that about half of the casts hit.
std::array<Q, kN> make_queries(uint64_t seed) {
    Lcg g{seed};
    std::array<Q, kN> q{};
    for (auto& x : q) {
        const Vec3 feet{g.mm(-3, 3), g.mm(-1, 2), g.mm(-3, 3)};
        x.cap = Capsule::upright(feet, Scalar::ratio(4, 10), Scalar::ratio(18, 10));
        const Vec3 jitter{g.mm(-1, 1), g.mm(-1, 1), g.mm(-1, 1)};
        x.dir = normalize(-feet + jitter);
        if (x.dir.is_zero()) x.dir = Vec3::unit_x();
    }
    return q;
}

const Scalar kMove =
    Scalar::ratio(3, 1); // cast distance: 3 m reaches the shapes about half the time

template <class Shape> void bench_pair(const char* name, const Shape& shape) {
    const auto qs = make_queries(42);
    std::size_t i = 0;
    BENCHMARK(std::string("cast capsule vs ") + name) {
        const Q& q = qs[i++ % kN];
        Hit h;
        return cast(q.cap, q.dir, kMove, shape, &h) ? h.distance.raw() : 0;
    };
    BENCHMARK(std::string("overlap capsule vs ") + name) {
        const Q& q = qs[i++ % kN];
        Contact c;
        return overlap(q.cap, shape, Scalar{}, &c) ? c.depth.raw() : 0;
    };
}

} // namespace

TEST_CASE("geometry: cast and overlap per shape pair", "[.bench][geometry]") {
    const Vec3 c{Scalar{}, Scalar::one(), Scalar{}};
    bench_pair("sphere", Sphere{c, Scalar::ratio(3, 2)});
    bench_pair("capsule",
               Capsule{Vec3{-Scalar::one(), Scalar{}, Scalar{}},
                       Vec3{Scalar::one(), Scalar::one(), Scalar{}}, Scalar::ratio(1, 2)});
    bench_pair("box", Box::from_yaw_pitch_roll_degrees(
                          c, Vec3{Scalar::one(), Scalar::one(), Scalar::ratio(3, 2)},
                          Scalar::from_int(30), Scalar::from_int(10), Scalar{}));
    bench_pair("plane", Plane{Vec3::unit_y(), Scalar{}});
    bench_pair("triangle", Triangle{{Vec3{-Scalar::from_int(2), Scalar{}, -Scalar::from_int(2)},
                                     Vec3{Scalar{}, Scalar::one(), Scalar::from_int(2)},
                                     Vec3{Scalar::from_int(2), Scalar{}, -Scalar::from_int(2)}}});
}

TEST_CASE("geometry: scene queries in a level of 25 boxes", "[.bench][geometry]") {
    // 25 boxes (rooms, crates, ramps) over a 40 x 40 m area, plus the ground plane.
    StaticScene scene;
    scene.add_plane(1, Plane{Vec3::unit_y(), Scalar{}});
    Lcg g{7};
    for (uint32_t k = 0; k < 25; ++k) {
        const Vec3 centre{g.mm(-20, 20), g.mm(0, 2), g.mm(-20, 20)};
        const Vec3 half{g.mm(1, 4), g.mm(1, 2), g.mm(1, 4)};
        scene.add_box(10 + k, Box::from_yaw_pitch_roll_degrees(
                                  centre, half, Scalar::from_int(g.range(0, 89)),
                                  Scalar::from_int(g.range(0, 1) * 10), Scalar{}));
    }
    std::string err;
    REQUIRE(scene.build(&err));
    // Characters walking anywhere in the level: 0.2 m per tick (10 m/s at 50 Hz) plus skin.
    Lcg h{9};
    std::array<Q, kN> qs{};
    for (auto& q : qs) {
        const Vec3 feet{h.mm(-22, 22), h.mm(0, 3), h.mm(-22, 22)};
        q.cap = Capsule::upright(feet, Scalar::ratio(4, 10), Scalar::ratio(18, 10));
        q.dir = normalize(Vec3{h.mm(-1, 1), h.mm(-1, 0), h.mm(-1, 1)});
        if (q.dir.is_zero()) q.dir = Vec3::unit_x();
    }
    const Scalar step = Scalar::ratio(215, 1000);
    std::size_t i = 0;
    BENCHMARK("scene cast (closest hit)") {
        const Q& q = qs[i++ % kN];
        Hit hit;
        return scene.cast(q.cap, q.dir, step, &hit) ? hit.distance.raw() : 0;
    };
    BENCHMARK("scene cast_all (8 hits)") {
        const Q& q = qs[i++ % kN];
        std::array<Hit, 8> hits;
        return scene.cast_all(q.cap, q.dir, step, hits);
    };
    BENCHMARK("scene ground probe (cast down 0.15 m, 8 hits)") {
        const Q& q = qs[i++ % kN];
        std::array<Hit, 8> hits;
        return scene.cast_all(q.cap, Vec3{Scalar{}, -Scalar::one(), Scalar{}},
                              Scalar::ratio(17, 100), hits);
    };
    BENCHMARK("scene overlap") {
        const Q& q = qs[i++ % kN];
        std::array<Contact, 8> cts;
        return scene.overlap(q.cap, Scalar{}, cts);
    };
    BENCHMARK("scene broadphase query_bounds (swept capsule)") {
        const Q& q = qs[i++ % kN];
        std::array<ShapeId, 32> ids;
        const Aabb b = q.cap.bounds();
        return scene.query_bounds(b.merged({b.lo + q.dir * step, b.hi + q.dir * step}), ids);
    };
}
