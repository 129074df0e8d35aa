// Random reference tests: every capsule query against every shape kind, compared with the
// long double reference of reference.h on many random cases per pair, including the hard
// configurations: grazing motion along a face, motion parallel to an edge, starting exactly
// touching, zero-length motion, aiming at a box corner, 10 km triangles, positions 100 km
// from the origin, 1 mm thin boxes. Accuracy figures are printed when FX_GEO_REPORT is set
// (they are the ones written in docs/geometry.md).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "geo/queries.h"
#include "geo/scene.h"
#include "geo_test_util.h"
#include "reference.h"
#include "test_support.h"

using namespace fx;
using namespace fx::geo;
using namespace geotest;

namespace {

// Accuracy bounds asserted here (documented in docs/geometry.md and geo/queries.h).
const long double kPenetrationBound = L(kCastMaxPenetration); // 1.5e-8 m
const long double kStopGapBound = L(kContactTolerance) + 1e-8L;
// Normals: the direction between closest points carries ~2 raw units (5e-10 m) of error, so
// its angle error scales with 1 / core distance; bound: max(1e-6 rad, 1e-8 m / core distance).
long double normal_bound(long double core_dist) {
    return std::max(1e-6L, 1e-8L / core_dist);
}
const long double kDepthBound = 1e-8L; // m, shallow penetration depth vs reference
const long double kDecide = 1e-8L; // m: cases closer than this to touching may go either way

struct Stats {
    long double worst_normal_far = 0, worst_pen = 0, worst_gap = 0, worst_normal = 0, worst_dt = 0,
                worst_depth = 0, worst_miss = 1e9;
    long long cases = 0, hits = 0, starts = 0, capped = 0, deep = 0;
    void print(const char* name) const {
        if (std::getenv("FX_GEO_REPORT") == nullptr) return;
        std::printf(
            "%-22s cases %lld hits %lld starts %lld deep %lld | max penetration %.3Le m, max stop gap %.3Le m, "
            "max normal err %.3Le rad, max |dt| (slope<=-0.1) %.3Le m, max depth err %.3Le m, closest miss %.3Le m, "
            "far stops %lld, max normal err (core dist >= 1 mm) %.3Le rad\n",
            name, cases, hits, starts, deep, -worst_pen, worst_gap, worst_normal, worst_dt,
            worst_depth, worst_miss, capped, worst_normal_far);
    }
};

enum class Kind { kSphere, kCapsule, kBox, kPlane, kTri };

struct World {
    Sphere sp{};
    Capsule cp{};
    Box bx{};
    Plane pl{};
    Triangle tr{};
    ref::Shape rs; // local frame (relative to O)
};

LV rand_unit(fxtest::Rng& rng) {
    for (;;) {
        const LV v{rng.range(-1000000, 1000000) / 1e6L, rng.range(-1000000, 1000000) / 1e6L,
                   rng.range(-1000000, 1000000) / 1e6L};
        const long double n = lenl(v);
        if (n > 0.1L && n <= 1) return v * (1 / n);
    }
}
long double uni(fxtest::Rng& rng, long double lo, long double hi) {
    return lo + (hi - lo) * (static_cast<long double>(rng.next() >> 11) / 9007199254740992.0L);
}
LV perp(LV n, fxtest::Rng& rng) {
    return unitl(crossl(n, rand_unit(rng)));
}

Vec3 FV(LV O, LV v) {
    return V(O.x + v.x, O.y + v.y, O.z + v.z);
}
LV LL(LV O, const Vec3& v) {
    return L(v) - O;
} // fixed world -> local long double (exact)

World make_world(Kind kind, fxtest::Rng& rng, LV O) {
    World w;
    ref::Shape& r = w.rs;
    switch (kind) {
    case Kind::kSphere:
        w.sp = {FV(O, {uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)}), S(uni(rng, 0.05L, 5))};
        r.kind = ref::Shape::kSphere, r.c = LL(O, w.sp.center), r.radius = L(w.sp.radius);
        break;
    case Kind::kCapsule: {
        const LV a{uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)};
        const LV b = a + rand_unit(rng) * (rng.range(0, 4) == 0 ? 0 : uni(rng, 0, 5));
        w.cp = {FV(O, a), FV(O, b), S(uni(rng, 0.05L, 2))};
        r.kind = ref::Shape::kCapsule, r.a = LL(O, w.cp.a), r.b = LL(O, w.cp.b),
        r.radius = L(w.cp.radius);
        break;
    }
    case Kind::kBox: {
        LV h{uni(rng, 0.1L, 5), uni(rng, 0.1L, 5), uni(rng, 0.1L, 5)};
        if (rng.range(0, 4) == 0) (rng.range(0, 1) ? h.y : h.x) = 0.0005L; // 1 mm thin box
        const int rot = static_cast<int>(rng.range(0, 2));
        Scalar yaw, pitch, roll;
        if (rot == 1) yaw = Scalar::from_int(rng.range(0, 359));
        if (rot == 2) {
            yaw = Scalar::from_raw(rng.range(0, int64_t{360} << 32));
            pitch = Scalar::from_raw(rng.range(0, int64_t{360} << 32));
            roll = Scalar::from_raw(rng.range(0, int64_t{360} << 32));
        }
        w.bx = Box::from_yaw_pitch_roll_degrees(
            FV(O, {uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)}), V(h.x, h.y, h.z), yaw,
            pitch, roll);
        r.kind = ref::Shape::kBox;
        r.box.c = LL(O, w.bx.center);
        r.box.h = L(w.bx.half_extents);
        for (int i = 0; i < 3; ++i)
            r.box.axis[i] = L(w.bx.rotation.column(i));
        break;
    }
    case Kind::kPlane: {
        LV n = rand_unit(rng);
        if (rng.range(0, 1) == 0) n = unitl(LV{n.x * 0.2L, 1, n.z * 0.2L});
        const Vec3 nf = normalize(V(n.x, n.y, n.z));
        const long double off_local = uni(rng, -2, 2);
        // offset in world: dot(n, O) + local offset, rounded; the reference uses the same value
        w.pl = {nf, S(dotl(L(nf), O) + off_local)};
        r.kind = ref::Shape::kPlane, r.n = L(nf), r.offset = L(w.pl.offset) - dotl(L(nf), O);
        break;
    }
    case Kind::kTri: {
        const long double size = rng.range(0, 4) == 0 ? 10000 : uni(rng, 0.5L, 10);
        for (;;) {
            LV v[3];
            for (auto& x : v)
                x = LV{uni(rng, -0.5L, 0.5L), uni(rng, -0.5L, 0.5L), uni(rng, -0.5L, 0.5L)} * size;
            if (rng.range(0, 1) == 0) // mostly flat-ish floors and walls
                for (auto& x : v)
                    x.y *= 0.1L;
            w.tr = {{FV(O, v[0]), FV(O, v[1]), FV(O, v[2])}};
            for (int i = 0; i < 3; ++i)
                r.tri.v[i] = LL(O, w.tr.v[i]);
            const long double area = lenl(crossl(r.tri.v[1] - r.tri.v[0], r.tri.v[2] - r.tri.v[0]));
            if (area > 0.05L * size * size) break;
        }
        r.kind = ref::Shape::kTri;
        break;
    }
    }
    return w;
}

/// A point on the obstacle's surface and an outward direction there (local frame).
/// feature: 0 any, 1 an edge (dir_along set to the edge), 2 a corner/vertex.
void surface_point(Kind kind, const ref::Shape& s, fxtest::Rng& rng, int feature, LV* p, LV* n,
                   LV* along) {
    *along = LV{};
    switch (kind) {
    case Kind::kSphere:
        *n = rand_unit(rng), *p = s.c + *n * s.radius;
        break;
    case Kind::kCapsule: {
        const LV ax = s.b - s.a;
        const long double t = uni(rng, 0, 1);
        *n = lenl(ax) > 0 ? perp(unitl(ax), rng) : rand_unit(rng);
        if (feature == 2 || lenl(ax) == 0) {
            *n = rand_unit(rng);
            *p = (dotl(*n, ax) > 0 ? s.b : s.a) + *n * s.radius;
        } else {
            *p = ref::at(s.a, s.b, t) + *n * s.radius;
            *along = unitl(ax);
        }
        break;
    }
    case Kind::kBox: {
        long double l[3] = {uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)};
        const long double h[3] = {s.box.h.x, s.box.h.y, s.box.h.z};
        const int face = static_cast<int>(rng.range(0, 2));
        const int sg[3] = {rng.range(0, 1) ? 1 : -1, rng.range(0, 1) ? 1 : -1,
                           rng.range(0, 1) ? 1 : -1};
        long double nl[3] = {0, 0, 0};
        const int nfix = feature == 2 ? 3 : (feature == 1 ? 2 : 1);
        for (int k = 0; k < nfix; ++k) {
            const int ax = (face + k) % 3;
            l[ax] = sg[ax];
            nl[ax] = sg[ax] * uni(rng, 0.2L, 1);
        }
        const LV pl{l[0] * h[0], l[1] * h[1], l[2] * h[2]};
        *p = ref::to_world(s.box, pl);
        *n = unitl(s.box.axis[0] * nl[0] + s.box.axis[1] * nl[1] + s.box.axis[2] * nl[2]);
        if (feature == 1) *along = s.box.axis[(face + 2) % 3];
        break;
    }
    case Kind::kPlane: {
        const LV t1 = perp(s.n, rng);
        *p = s.n * s.offset + t1 * uni(rng, -3, 3);
        *n = s.n;
        break;
    }
    case Kind::kTri: {
        const LV tn = ref::tri_normal(s.tri);
        long double u = uni(rng, 0, 1), v = uni(rng, 0, 1);
        if (u + v > 1) u = 1 - u, v = 1 - v;
        const int e = static_cast<int>(rng.range(0, 2));
        const LV& A = s.tri.v[e];
        const LV& B = s.tri.v[(e + 1) % 3];
        if (feature == 2) {
            *p = A;
        } else if (feature == 1) {
            *p = ref::at(A, B, uni(rng, 0, 1));
            *along = unitl(B - A);
        } else {
            *p = s.tri.v[0] + (s.tri.v[1] - s.tri.v[0]) * u + (s.tri.v[2] - s.tri.v[0]) * v;
        }
        *n = rng.range(0, 1) ? tn : -tn;
        if (feature != 0) {
            // outward across the edge: away from the triangle's centroid, within the plane
            const LV cen = (s.tri.v[0] + s.tri.v[1] + s.tri.v[2]) * (1.0L / 3);
            LV out = *p - cen;
            out = unitl(out - tn * dotl(out, tn));
            *n = unitl(*n * uni(rng, 0, 1) + out * uni(rng, 0.1L, 1));
        }
        break;
    }
    }
}

struct Query {
    Capsule cap; // fixed, world
    Vec3 dir; // fixed (not necessarily unit)
    Scalar dist;
    LV a, b; // local long double of the fixed capsule
    long double r = 0;
};

Query make_query(Kind kind, const World& w, fxtest::Rng& rng, LV O) {
    const int mode = static_cast<int>(rng.range(0, 99));
    const int feature = mode < 70 ? 0 : (mode < 85 ? 1 : 2);
    LV p, n, along;
    surface_point(kind, w.rs, rng, feature, &p, &n, &along);
    const long double r = rng.range(0, 1) ? 0.4L : uni(rng, 0.05L, 1);
    const long double len = rng.range(0, 5) == 0 ? 0 : (rng.range(0, 1) ? 1.0L : uni(rng, 0, 2));
    LV u = rng.range(0, 1) ? LV{0, 1, 0} : rand_unit(rng);
    if (dotl(u, n) < 0) u = -u;
    const int style = static_cast<int>(rng.range(0, 9));
    long double gap = uni(rng, 0, 3);
    LV dir = n * -1;
    long double D = uni(rng, 0, 5);
    static const long double kTiny[] = {0,     1e-9L, -1e-9L, 1e-7L, -1e-7L,
                                        1e-6L, 2e-6L, -1e-6L, 1e-4L, 1e-3L};
    if (style <= 3) { // aimed, at angles up to ~85 degrees off the normal
        const long double k = std::tan(uni(rng, 0, 1.48L));
        dir = unitl(n * -1 + perp(n, rng) * k);
        D = gap * uni(rng, 0.5L, 3) / std::max(0.05L, -dotl(dir, n)) + uni(rng, 0, 1);
    } else if (style <= 5) { // grazing: tangent motion at a tiny gap, or along the edge
        gap = kTiny[rng.range(0, 9)];
        dir = (feature == 1 && lenl(along) > 0) ? along * (rng.range(0, 1) ? 1 : -1) : perp(n, rng);
        D = uni(rng, 0, 6);
    } else if (style == 6) { // exactly touching at the start
        gap = 0;
        dir = rand_unit(rng);
    } else if (style == 7) { // zero-length motion
        gap = kTiny[rng.range(0, 9)];
        D = 0;
    } else { // anywhere nearby, any motion
        dir = rand_unit(rng);
        gap = uni(rng, -0.5L, 3);
    }
    const LV a = p + n * (r + gap);
    const LV b = a + u * len;
    Query q;
    q.cap = {FV(O, a), FV(O, b), S(r)};
    q.dir = V(dir.x, dir.y, dir.z);
    if (q.dir.is_zero()) q.dir = Vec3::unit_x();
    q.dist = S(D);
    q.a = LL(O, q.cap.a);
    q.b = LL(O, q.cap.b);
    q.r = L(q.cap.radius);
    return q;
}

LV pick_origin(fxtest::Rng& rng) {
    switch (rng.range(0, 2)) {
    case 0:
        return {};
    case 1:
        return {static_cast<long double>(rng.range(-100000, 100000)),
                static_cast<long double>(rng.range(-1000, 1000)),
                static_cast<long double>(rng.range(-100000, 100000))};
    default:
        return {static_cast<long double>(rng.range(-1000, 1000)), 0,
                static_cast<long double>(rng.range(-1000, 1000))};
    }
}

template <class F> auto dispatch(Kind kind, const World& w, F&& f) {
    switch (kind) {
    case Kind::kSphere:
        return f(w.sp);
    case Kind::kCapsule:
        return f(w.cp);
    case Kind::kBox:
        return f(w.bx);
    case Kind::kPlane:
        return f(w.pl);
    case Kind::kTri:
        break;
    }
    return f(w.tr);
}

/// Checks one cast against the reference: never a missed contact, never a penetration, a stop
/// within the contact band, the normal and (for a clear approach) the distance.
void check_cast(Stats& st, const char* name, int i, bool got, const Hit& h, const Query& q,
                const ref::Shape& rs) {
    const LV dir = L(normalize(q.dir));
    const long double D = L(q.dist);
    const ref::Toi T = ref::time_of_impact(q.a, q.b, q.r, dir, D, rs);
    ++st.cases;
    INFO(name << " case " << i);
    INFO("sep0 " << static_cast<double>(T.sep0) << " ref hit " << T.hit << " t "
                 << static_cast<double>(T.t) << " min sep " << static_cast<double>(T.min_sep)
                 << " D " << static_cast<double>(D));
    if (T.sep0 < -kDecide) {
        REQUIRE(got);
        REQUIRE(h.start_overlap);
    }
    if (got && h.start_overlap) {
        ++st.starts;
        REQUIRE(T.sep0 <= kStopGapBound);
        REQUIRE(h.distance == Scalar{});
        return;
    }
    if (T.hit && T.min_sep < -kDecide) REQUIRE(got); // never miss a real contact
    if (!got) {
        if (!T.start) st.worst_miss = std::min(st.worst_miss, T.min_sep);
        return;
    }
    ++st.hits;
    const long double t = L(h.distance);
    REQUIRE(t >= 0);
    REQUIRE(t <= D);
    const ref::Sep s = ref::separation(q.a + dir * t, q.b + dir * t, q.r, rs);
    st.worst_pen = std::min(st.worst_pen, s.sep);
    REQUIRE(s.sep >= -kPenetrationBound);
    if (s.sep > kStopGapBound)
        ++st.capped; // stopped early (iteration cap): conservative
    else
        st.worst_gap = std::max(st.worst_gap, s.sep);
    const long double ang = anglel(L(h.normal), s.normal);
    st.worst_normal = std::max(st.worst_normal, ang);
    CHECK(ang <= normal_bound(s.core_dist));
    if (T.hit && T.slope <= -0.1L) {
        const long double dt = std::fabs(T.t - t);
        st.worst_dt = std::max(st.worst_dt, dt);
        CHECK(dt <= 2e-5L);
    }
}

void run_casts(Kind kind, const char* name, uint64_t seed, int n) {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    fxtest::Rng rng(seed);
    Stats st;
    for (int i = 0; i < n; ++i) {
        const LV O = pick_origin(rng);
        const World w = make_world(kind, rng, O);
        const Query q = make_query(kind, w, rng, O);
        Hit h;
        const bool got = dispatch(
            kind, w, [&](const auto& shape) { return cast(q.cap, q.dir, q.dist, shape, &h); });
        check_cast(st, name, i, got, h, q, w.rs);
    }
    st.print(name);
    CHECK(st.capped * 1000 <= st.hits + 1000); // at most ~0.1% of hits stop early
}

/// Casts against another character (LocalScene::set_bodies): both capsules upright, as every
/// character's is, which the scene answers in closed form (narrow.cpp, cast_upright). The
/// same cases as capsule vs capsule with both segments made vertical; the scene holds nothing
/// else. A closed form never stops early: every hit ends within the contact band. A start in
/// contact also reports the reference's normal and depth.
void run_body_casts(const char* name, uint64_t seed, int n) {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    fxtest::Rng rng(seed);
    Stats st;
    StaticScene empty;
    std::string error;
    REQUIRE(empty.build(&error));
    for (int i = 0; i < n; ++i) {
        const LV O = pick_origin(rng);
        World w = make_world(Kind::kCapsule, rng, O);
        // Upright body: keep its first point and its length, straight up or down.
        const LV ax = w.rs.b - w.rs.a;
        const long double len = lenl(ax) * (ax.y < 0 ? -1 : 1);
        w.cp.b = FV(O, w.rs.a + LV{0, len, 0});
        w.cp.b.x = w.cp.a.x;
        w.cp.b.z = w.cp.a.z;
        w.rs.b = LL(O, w.cp.b);
        Query q = make_query(Kind::kCapsule, w, rng, O);
        q.cap.b.x = q.cap.a.x;
        q.cap.b.z = q.cap.a.z;
        q.a = LL(O, q.cap.a), q.b = LL(O, q.cap.b);
        LocalScene local(empty);
        const Body bodies[1] = {Body::of(w.cp)};
        local.set_bodies(bodies);
        Hit h;
        const bool got = local.cast(q.cap, q.dir, q.dist, &h);
        if (got) REQUIRE(h.shape == kBodyShape);
        if (!got) {
            // Another body the mover starts inside of (or touching) is looked past when the
            // motion goes along or away from it (scene.cpp, passes_body): then the reference's
            // normal where they stand points along or away from the motion, beyond rounding.
            const ref::Sep s0 = ref::separation(q.a, q.b, q.r, w.rs);
            if (s0.sep < kDecide) {
                ++st.starts;
                if (s0.core_dist > L(kDeepDistance) + 1e-6L)
                    CHECK(dotl(L(normalize(q.dir)), s0.normal) >= -normal_bound(s0.core_dist));
                continue;
            }
        }
        check_cast(st, name, i, got, h, q, w.rs);
        if (got && h.start_overlap) {
            // The contact where they stand: the reference's normal and depth.
            const ref::Sep s0 = ref::separation(q.a, q.b, q.r, w.rs);
            if (s0.core_dist > L(kDeepDistance) + 1e-6L) {
                const long double ang = anglel(L(h.normal), s0.normal);
                st.worst_normal = std::max(st.worst_normal, ang);
                CHECK(ang <= normal_bound(s0.core_dist));
                const long double e = std::fabs(L(h.depth) - std::max(-s0.sep, 0.0L));
                st.worst_depth = std::max(st.worst_depth, e);
                CHECK(e <= kDepthBound);
            }
        }
    }
    st.print(name);
    CHECK(st.capped == 0);
}

void run_overlaps(Kind kind, const char* name, uint64_t seed, int n) {
    FX_NEEDS_LONG_DOUBLE_REFERENCE();
    fxtest::Rng rng(seed);
    Stats st;
    const long double deep = L(kDeepDistance);
    for (int i = 0; i < n; ++i) {
        const LV O = pick_origin(rng);
        const World w = make_world(kind, rng, O);
        Query q = make_query(kind, w, rng, O);
        // push the capsule into the shape by a random amount along its motion: shallow and deep
        const long double push = rng.range(0, 1) ? uni(rng, 0, 0.3L) : uni(rng, 0, 3);
        const Vec3 off = normalize(q.dir) * S(push);
        q.cap = q.cap.translated(off);
        q.a = LL(O, q.cap.a), q.b = LL(O, q.cap.b);
        Contact ct;
        const bool got = dispatch(
            kind, w, [&](const auto& shape) { return overlap(q.cap, shape, Scalar{}, &ct); });
        const ref::Sep s = ref::separation(q.a, q.b, q.r, w.rs);
        ++st.cases;
        INFO(name << " case " << i << " ref sep " << static_cast<double>(s.sep));
        if (s.sep < -kDecide) REQUIRE(got);
        if (s.sep > kDecide) REQUIRE_FALSE(got);
        if (!got) continue;
        ++st.hits;
        const long double depth = L(ct.depth);
        REQUIRE(depth >= -s.sep - kDecide); // never less than the least translation needed
        if (s.core_dist > deep + 1e-6L || kind == Kind::kPlane) {
            const long double e = std::fabs(depth + s.sep);
            st.worst_depth = std::max(st.worst_depth, e);
            CHECK(e <= kDepthBound);
            const long double ang = anglel(L(ct.normal), s.normal);
            st.worst_normal = std::max(st.worst_normal, ang);
            CHECK(ang <= normal_bound(s.core_dist));
            if (s.core_dist >= 1e-3L) st.worst_normal_far = std::max(st.worst_normal_far, ang);
        } else {
            ++st.deep;
        }
        // the minimum translation separates them
        const LV moved = L(ct.normal) * depth;
        const ref::Sep after = ref::separation(q.a + moved, q.b + moved, q.r, w.rs);
        st.worst_pen = std::min(st.worst_pen, after.sep);
        CHECK(after.sep >= -kDecide);
    }
    st.print(name);
}

int scaled(int n) {
    return static_cast<int>(fxtest::scaled(n));
}

} // namespace

// Counts: hundreds of thousands of cases per pair over casts and overlaps, sized to keep the
// whole geometry suite under a minute in Release on two cores. FX_TEST_SCALE multiplies them.
constexpr int kCasts = 60000;
constexpr int kOverlaps = 150000;

TEST_CASE("reference: capsule vs sphere casts", "[geometry][reference]") {
    run_casts(Kind::kSphere, "cast sphere", 11, scaled(kCasts));
}
TEST_CASE("reference: capsule vs capsule casts", "[geometry][reference]") {
    run_casts(Kind::kCapsule, "cast capsule", 12, scaled(kCasts));
}
TEST_CASE("reference: upright capsule vs another character (closed form) casts",
          "[geometry][reference][bodies]") {
    run_body_casts("cast body", 16, scaled(kCasts));
}
TEST_CASE("reference: capsule vs box casts", "[geometry][reference]") {
    run_casts(Kind::kBox, "cast box", 13, scaled(kCasts));
}
TEST_CASE("reference: capsule vs plane casts", "[geometry][reference]") {
    run_casts(Kind::kPlane, "cast plane", 14, scaled(kCasts));
}
TEST_CASE("reference: capsule vs triangle casts", "[geometry][reference]") {
    run_casts(Kind::kTri, "cast triangle", 15, scaled(kCasts));
}
TEST_CASE("reference: capsule vs sphere overlaps", "[geometry][reference]") {
    run_overlaps(Kind::kSphere, "overlap sphere", 21, scaled(kOverlaps));
}
TEST_CASE("reference: capsule vs capsule overlaps", "[geometry][reference]") {
    run_overlaps(Kind::kCapsule, "overlap capsule", 22, scaled(kOverlaps));
}
TEST_CASE("reference: capsule vs box overlaps", "[geometry][reference]") {
    run_overlaps(Kind::kBox, "overlap box", 23, scaled(kOverlaps));
}
TEST_CASE("reference: capsule vs plane overlaps", "[geometry][reference]") {
    run_overlaps(Kind::kPlane, "overlap plane", 24, scaled(kOverlaps));
}
TEST_CASE("reference: capsule vs triangle overlaps", "[geometry][reference]") {
    run_overlaps(Kind::kTri, "overlap triangle", 25, scaled(kOverlaps));
}
