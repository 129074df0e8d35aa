// The shortcut of the segment-box routine (an upright segment against an unrotated box, the
// common case of every tick) must give exactly the general routine's result: the same distance,
// points, feature and face normal, bit for bit. Random boxes and segments, with coordinates
// drawn so that segment ends and the box's faces coincide often (the boundary cases).
#include <catch2/catch.hpp>

#include "../../geometry/src/obstacle_cores.h"
#include "test_support.h"

using namespace fx;
using namespace fx::geo;
using namespace fx::geo::detail;

namespace {

/// A raw value: often a whole or half metre (so ends land exactly on faces), else anything in
/// +-span metres.
Scalar coord(fxtest::Rng& rng, int64_t span_m) {
    const int64_t one = Scalar::kOneRaw;
    switch (rng.next() % 4) {
    case 0: return Scalar::from_raw(rng.range(-2 * span_m, 2 * span_m) * (one / 2));
    case 1: return Scalar::from_raw(rng.range(-span_m * one, span_m * one));
    case 2: return Scalar::from_raw(rng.range(-64, 64)); // near zero, a few raw units
    default: return Scalar::from_raw(rng.range(-2 * span_m, 2 * span_m) * (one / 2) + rng.range(-3, 3));
    }
}

void require_same(const Closest& fast, const Closest& general) {
    REQUIRE(fast.dist == general.dist);
    REQUIRE(fast.on_seg == general.on_seg);
    REQUIRE(fast.on_core == general.on_core);
    REQUIRE(fast.feature == general.feature);
    REQUIRE(fast.has_face_normal == general.has_face_normal);
    if (fast.has_face_normal) REQUIRE(fast.face_normal == general.face_normal);
}

} // namespace

TEST_CASE("closest: the upright-segment shortcut gives the general routine's bits", "[closest][box]") {
    fxtest::Rng rng(0x5eed);
    long compared = 0, faces = 0, edges = 0, inside = 0, yawed = 0;
    for (int i = 0; i < 200000; ++i) {
        Box shape;
        shape.center = {coord(rng, 4), coord(rng, 4), coord(rng, 4)};
        const int64_t hmax = 3 * Scalar::kOneRaw;
        shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, hmax)), Scalar::from_raw(rng.range(1 << 16, hmax)),
                              Scalar::from_raw(rng.range(1 << 16, hmax))};
        if (rng.next() % 3 == 0) shape.half_extents = {Scalar::one(), Scalar::from_raw(Scalar::kOneRaw / 2), Scalar::one()};
        // A third of the boxes turn about y (the shortcut works in their frame).
        if (rng.next() % 3 == 0) shape.rotation = Mat3::rotation_y(Scalar::from_raw(rng.range(-180 * Scalar::kOneRaw, 180 * Scalar::kOneRaw)));
        const BoxCore box = make_core(shape, Vec3{});
        REQUIRE(box.yaw_only);
        yawed += !box.aligned;
        const Vec3 a{coord(rng, 6), coord(rng, 6), coord(rng, 6)};
        Vec3 b = a;
        b.y = coord(rng, 6);
        if (b.y == a.y) b.y = a.y + Scalar::from_raw(1);
        const Closest fast = closest(a, b, box);
        const Closest general = closest_box_general(a, b, box);
        require_same(fast, general);
        ++compared;
        faces += fast.feature.kind == FeatureKind::kFace;
        edges += fast.feature.kind == FeatureKind::kEdge;
        inside += fast.dist.raw() == 0;
    }
    // The draw reaches every kind of closest feature (or the test would prove little).
    CHECK(compared == 200000);
    CHECK(faces > 10000);
    CHECK(edges > 10000);
    CHECK(inside > 5000);
    CHECK(yawed > 50000);
}

TEST_CASE("closest: the shortcut is not taken for a tilted box or a slanted segment", "[closest][box]") {
    // Same inputs through closest() and the general routine; only the dispatch differs, so the
    // results agree whichever path runs. This pins the dispatch conditions' other side.
    Box tilted{Vec3{Scalar::from_int(1), Scalar{}, Scalar{}}, Vec3{Scalar::one(), Scalar::one(), Scalar::one()},
               Mat3::rotation_x(Scalar::from_int(30))};
    BoxCore box = make_core(tilted, Vec3{});
    REQUIRE_FALSE(box.yaw_only);
    const Vec3 a{Scalar::from_int(3), Scalar::from_int(2), Scalar{}};
    const Vec3 b{Scalar::from_int(3), Scalar::from_int(-2), Scalar{}};
    require_same(closest(a, b, box), closest_box_general(a, b, box));
    box = make_core(Box{tilted.center, tilted.half_extents, Mat3::identity()}, Vec3{});
    REQUIRE(box.aligned);
    const Vec3 slanted{Scalar::from_int(2), Scalar::from_int(-2), Scalar::one()};
    require_same(closest(a, slanted, box), closest_box_general(a, slanted, box));
}

TEST_CASE("closest: a straight drop onto a box's top face gives closest()'s bits", "[closest][box]") {
    fxtest::Rng rng(0xd209);
    long on_face = 0;
    for (int i = 0; i < 200000; ++i) {
        Box shape;
        shape.center = {coord(rng, 4), coord(rng, 2), coord(rng, 4)};
        shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, 3 * Scalar::kOneRaw)),
                              Scalar::from_raw(rng.range(1 << 16, Scalar::kOneRaw)),
                              Scalar::from_raw(rng.range(1 << 16, 3 * Scalar::kOneRaw))};
        if (rng.next() % 8 == 0) shape.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(1, 89)));
        const BoxCore box = make_core(shape, Vec3{});
        const Scalar top = box.c.y + box.h.y;
        // Feet from just below to well above the top, mostly above the face; a drop of up to
        // twice the height above it (sometimes through the face), sometimes a slanted segment.
        Vec3 a{coord(rng, 5), top + Scalar::from_raw(rng.range(-Scalar::kOneRaw / 8, Scalar::kOneRaw)), coord(rng, 5)};
        if (rng.next() % 2 == 0) a.x = box.c.x + Scalar::from_raw(rng.range(-box.h.x.raw(), box.h.x.raw()));
        if (rng.next() % 2 == 0) a.z = box.c.z + Scalar::from_raw(rng.range(-box.h.z.raw(), box.h.z.raw()));
        Vec3 b = a + Vec3{Scalar{}, Scalar::from_raw(rng.range(0, 2 * Scalar::kOneRaw)), Scalar{}};
        if (rng.next() % 8 == 0) b.x += Scalar::from_raw(rng.range(-1000, 1000));
        const Scalar above = a.y - top;
        Vec3 off{Scalar{}, -Scalar::from_raw(rng.range(0, 2 * std::max<int64_t>(above.raw(), 1 << 20))), Scalar{}};
        if (rng.next() % 8 == 0) off.x = Scalar::from_raw(rng.range(-5, 5));
        if (rng.next() % 8 == 0) off.y = -off.y;
        // From the closest points at an earlier offset (0 or a random one on the same line).
        const Vec3 prev{Scalar{}, rng.next() % 2 == 0 ? Scalar{} : -Scalar::from_raw(rng.range(0, above.raw() > 0 ? above.raw() : 1)), Scalar{}};
        const Closest first = closest(a + prev, b + prev, box);
        Closest moved = first;
        closest_moved(&moved, a, b, off, box);
        const Closest fresh = closest(a + off, b + off, box);
        require_same(moved, fresh);
        on_face += first.feature == Feature{0, FeatureKind::kFace, 3} && fresh.feature == first.feature;
    }
    CHECK(on_face > 20000); // the written-down case is well exercised
}
