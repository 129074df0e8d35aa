// The shortcut of the segment-box routine (an upright segment against an unrotated box, the
// common case of every tick) must give exactly the general routine's result: the same distance,
// points, feature and face normal, bit for bit. Random boxes and segments, with coordinates
// drawn so that segment ends and the box's faces coincide often (the boundary cases).
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>

#include "../../geometry/src/narrow.h"
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
    case 0:
        return Scalar::from_raw(rng.range(-2 * span_m, 2 * span_m) * (one / 2));
    case 1:
        return Scalar::from_raw(rng.range(-span_m * one, span_m * one));
    case 2:
        return Scalar::from_raw(rng.range(-64, 64)); // near zero, a few raw units
    default:
        return Scalar::from_raw(rng.range(-2 * span_m, 2 * span_m) * (one / 2) + rng.range(-3, 3));
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

/// A box for the face-shortcut tests: anywhere near the origin, 2^-16 to 3 m half extents,
/// tilted about x or z, turned about y and tilted, turned about y only, or not rotated.
Box face_test_box(fxtest::Rng& rng) {
    const int64_t one = Scalar::kOneRaw;
    Box shape;
    shape.center = {coord(rng, 4), coord(rng, 4), coord(rng, 4)};
    shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, 3 * one)),
                          Scalar::from_raw(rng.range(1 << 16, 3 * one)),
                          Scalar::from_raw(rng.range(1 << 16, 3 * one))};
    switch (rng.next() % 5) {
    case 0:
        shape.rotation = Mat3::rotation_x(Scalar::from_int(rng.range(-60, 60)));
        break;
    case 1:
        shape.rotation = Mat3::rotation_z(Scalar::from_raw(rng.range(-60 * one, 60 * one)));
        break;
    case 2:
        shape.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(-180, 180))) *
                         Mat3::rotation_x(Scalar::from_int(rng.range(-40, 40)));
        break;
    case 3:
        shape.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(-180, 180)));
        break;
    default:
        break;
    }
    return shape;
}

} // namespace

TEST_CASE("closest: the upright-segment shortcut gives the general routine's bits",
          "[closest][box]") {
    fxtest::Rng rng(0x5eed);
    long compared = 0, faces = 0, edges = 0, inside = 0, yawed = 0;
    for (int i = 0; i < 200000; ++i) {
        Box shape;
        shape.center = {coord(rng, 4), coord(rng, 4), coord(rng, 4)};
        const int64_t hmax = 3 * Scalar::kOneRaw;
        shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, hmax)),
                              Scalar::from_raw(rng.range(1 << 16, hmax)),
                              Scalar::from_raw(rng.range(1 << 16, hmax))};
        if (rng.next() % 3 == 0)
            shape.half_extents = {Scalar::one(), Scalar::from_raw(Scalar::kOneRaw / 2),
                                  Scalar::one()};
        // A third of the boxes turn about y (the shortcut works in their frame).
        if (rng.next() % 3 == 0)
            shape.rotation = Mat3::rotation_y(
                Scalar::from_raw(rng.range(-180 * Scalar::kOneRaw, 180 * Scalar::kOneRaw)));
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

TEST_CASE("closest: the shortcut is not taken for a tilted box or a slanted segment",
          "[closest][box]") {
    // Same inputs through closest() and the general routine; only the dispatch differs, so the
    // results agree whichever path runs. This pins the dispatch conditions' other side.
    Box tilted{Vec3{Scalar::from_int(1), Scalar{}, Scalar{}},
               Vec3{Scalar::one(), Scalar::one(), Scalar::one()},
               Mat3::rotation_x(Scalar::from_int(30))};
    BoxCore box = make_core(tilted, Vec3{});
    REQUIRE_FALSE(box.yaw_only);
    const Vec3 a{Scalar::from_int(3), Scalar::from_int(2), Scalar{}};
    const Vec3 b{Scalar::from_int(3), Scalar::from_int(-2), Scalar{}};
    require_same(closest(a, b, box), closest_box_general(a, b, box));
    const Box unturned{tilted.center, tilted.half_extents, Mat3::identity()};
    box = make_core(unturned, Vec3{});
    REQUIRE(box.aligned);
    const Vec3 slanted{Scalar::from_int(2), Scalar::from_int(-2), Scalar::one()};
    require_same(closest(a, slanted, box), closest_box_general(a, slanted, box));
}

TEST_CASE("closest: a segment within one face's slab gives the general routine's bits",
          "[closest][box]") {
    // closest() answers a segment whose ends both lie beyond one face's plane and within its
    // extent (in the box's frame) without the piecewise search: a tilted ramp's face under a body,
    // a wedge's side beside it. Any rotation, any segment; ends drawn in the box's frame on the
    // slab's borders (a plane crossed by a hair, an end on the face's edge lines, a segment
    // parallel to the face, a tiny drop toward it), then placed in the world.
    fxtest::Rng rng(0x51ab);
    const int64_t one = Scalar::kOneRaw;
    const int64_t cases = fxtest::scaled(200000);
    long in_slab = 0, moving_toward = 0, on_edge_lines = 0;
    for (int64_t i = 0; i < cases; ++i) {
        const Box shape = face_test_box(rng);
        const BoxCore box = make_core(shape, Vec3{});
        const Scalar h[3] = {box.h.x, box.h.y, box.h.z};
        const int axis = static_cast<int>(rng.next() % 3);
        const int side = rng.next() % 2 == 0 ? 1 : -1;
        Scalar ends[2][3];
        for (auto& e : ends) {
            for (int k = 0; k < 3; ++k) {
                if (k == axis) {
                    const int64_t beyond =
                        rng.next() % 4 == 0 ? rng.range(-2, 2) : rng.range(0, one);
                    e[k] = Scalar::from_raw(side * (h[k].raw() + beyond));
                } else {
                    switch (rng.next() % 4) {
                    case 0:
                        e[k] = rng.next() % 2 == 0 ? h[k] : -h[k];
                        break; // on an edge line
                    case 1:
                        e[k] = Scalar::from_raw((rng.next() % 2 == 0 ? 1 : -1) *
                                                (h[k].raw() + rng.range(-2, 2)));
                        break;
                    default:
                        e[k] = Scalar::from_raw(rng.range(-h[k].raw(), h[k].raw()));
                        break;
                    }
                }
            }
        }
        if (rng.next() % 4 == 0) ends[1][axis] = ends[0][axis]; // parallel to the face
        if (rng.next() % 8 == 0)
            ends[1][axis] =
                ends[0][axis] - Scalar::from_raw(side * rng.range(0, 64)); // a hair toward it
        const Vec3 A{ends[0][0], ends[0][1], ends[0][2]}, B{ends[1][0], ends[1][1], ends[1][2]};
        Vec3 a = box.c + box.rotate(A), b = box.c + box.rotate(B);
        if (rng.next() % 16 == 0)
            b = a + Vec3{Scalar{}, Scalar::from_raw(rng.range(1, 2 * one)), Scalar{}}; // upright
        const Closest fast = closest(a, b, box);
        const Closest general = closest_box_general(a, b, box);
        require_same(fast, general);
        // Whether the draw really is in a face's slab, in the box's frame as closest() sees it.
        const Vec3 la = box.to_box(a), lb = box.to_box(b);
        const Scalar pa[3] = {la.x, la.y, la.z}, pb[3] = {lb.x, lb.y, lb.z};
        int beyond_axes = 0;
        bool slab = true, edge_line = false;
        for (int k = 0; k < 3; ++k) {
            const bool oa = pa[k] < -h[k] || pa[k] > h[k], ob = pb[k] < -h[k] || pb[k] > h[k];
            if (!oa && !ob) {
                edge_line = edge_line || abs(pa[k]) == h[k] || abs(pb[k]) == h[k];
                continue;
            }
            slab = slab && oa && ob && (pa[k] > h[k]) == (pb[k] > h[k]);
            ++beyond_axes;
        }
        slab = slab && beyond_axes == 1;
        in_slab += slab;
        on_edge_lines += slab && edge_line;
        moving_toward += slab && general.on_seg != a;
    }
    INFO("in a face's slab " << in_slab << ", of them with an end on an edge line " << on_edge_lines
                             << ", closest at the far end or between " << moving_toward);
    CHECK(in_slab > fxtest::scaled(60000));
    CHECK(on_edge_lines > fxtest::scaled(2000));
    CHECK(moving_toward > fxtest::scaled(10000));
}

TEST_CASE("closest: a segment receding from a face gives the general routine's bits",
          "[closest][box]") {
    // closest() answers a segment whose first end lies beyond one face's plane and inside the
    // face's extent along the other axes by kContactTolerance, and that does not come nearer the
    // plane, without the piecewise search, wherever its other end lies (an upright body above a
    // tilted ramp, its upper end beyond the ramp's top). Ends drawn on the borders of that case:
    // the first end a few raw units either side of the inset and of the plane, the segment
    // parallel to the plane or a hair toward it, segments near the 256 m limit along an axis.
    fxtest::Rng rng(0x7ece);
    const int64_t one = Scalar::kOneRaw;
    const int64_t cases = fxtest::scaled(200000);
    const int64_t inset = kContactTolerance.raw();
    long receding = 0, far_end_outside = 0, near_inset = 0;
    for (int64_t i = 0; i < cases; ++i) {
        const Box shape = face_test_box(rng);
        const BoxCore box = make_core(shape, Vec3{});
        const Scalar h[3] = {box.h.x, box.h.y, box.h.z};
        const int axis = static_cast<int>(rng.next() % 3);
        const int side = rng.next() % 2 == 0 ? 1 : -1;
        Scalar A[3], D[3];
        for (int k = 0; k < 3; ++k) {
            if (k == axis) {
                const int64_t beyond = rng.next() % 4 == 0 ? rng.range(-2, 2) : rng.range(0, one);
                A[k] = Scalar::from_raw(side * (h[k].raw() + beyond));
                switch (rng.next() % 6) {
                case 0:
                    D[k] = Scalar{};
                    break; // parallel
                case 1:
                    D[k] = Scalar::from_raw(-side * rng.range(1, 64));
                    break; // a hair toward
                default:
                    D[k] = Scalar::from_raw(side * rng.range(0, 2 * one));
                    break; // away
                }
            } else {
                const int64_t sgn = rng.next() % 2 == 0 ? 1 : -1;
                switch (rng.next() % 4) {
                case 0:
                    A[k] = Scalar::from_raw(sgn * (h[k].raw() - inset + rng.range(-3, 3)));
                    break; // at the inset
                case 1:
                    A[k] = Scalar::from_raw(sgn * (h[k].raw() + rng.range(-3, 3)));
                    break; // at the edge
                default:
                    A[k] = Scalar::from_raw(rng.range(-h[k].raw(), h[k].raw()));
                    break;
                }
                switch (rng.next() % 8) {
                case 0:
                    D[k] = Scalar::from_raw(sgn * (256 * one + rng.range(-2, 2)));
                    break; // at the limit
                case 1:
                    D[k] = Scalar::from_raw(rng.range(-64, 64));
                    break;
                default:
                    D[k] = Scalar::from_raw(rng.range(-3 * one, 3 * one));
                    break;
                }
            }
        }
        if (rng.next() % 4 == 0) {
            // The case the inset guards: the first end a few raw units inside an edge line, a long
            // segment out across it, parallel to the face or nearly (the general routine's first
            // piece a sliver). The shortcut declines it; the answer must be the same either way.
            const int other = (axis + 1 + static_cast<int>(rng.next() % 2)) % 3;
            const int64_t sgn = rng.next() % 2 == 0 ? 1 : -1;
            A[axis] = Scalar::from_raw(side * (h[axis].raw() + rng.range(1, 64)));
            D[axis] = Scalar::from_raw(side * rng.range(0, 2));
            A[other] = Scalar::from_raw(sgn * (h[other].raw() - rng.range(0, 3)));
            D[other] = Scalar::from_raw(sgn * rng.range(2 * one, 256 * one));
        }
        const Vec3 Al{A[0], A[1], A[2]}, Dl{D[0], D[1], D[2]};
        const Vec3 a = box.c + box.rotate(Al), b = box.c + box.rotate(Al + Dl);
        const Closest fast = closest(a, b, box);
        const Closest general = closest_box_general(a, b, box);
        require_same(fast, general);
        // Whether the draw is the receding case, in the box's frame as closest() sees it.
        const Vec3 la = box.to_box(a), lb = box.to_box(b);
        const Scalar pa[3] = {la.x, la.y, la.z}, pb[3] = {lb.x, lb.y, lb.z};
        int beyond = 0;
        bool ok = true, outside = false, at_inset = false;
        for (int k = 0; k < 3; ++k) {
            const Scalar d = pb[k] - pa[k];
            ok = ok && abs(d) <= Scalar::from_int(256);
            const bool oa = pa[k] < -h[k] || pa[k] > h[k];
            outside = outside || pb[k] < -h[k] || pb[k] > h[k];
            if (!oa) {
                ok = ok && abs(pa[k]) < h[k] - kContactTolerance;
                at_inset =
                    at_inset || wide::uabs((h[k] - kContactTolerance - abs(pa[k])).raw()) <= 8;
                continue;
            }
            ++beyond;
            ok = ok && (pa[k] > h[k] ? d.raw() >= 0 : d.raw() <= 0);
        }
        ok = ok && beyond == 1;
        receding += ok;
        far_end_outside += ok && outside;
        near_inset += at_inset;
    }
    INFO("receding " << receding << ", of them with the far end beyond another bound "
                     << far_end_outside << ", first end within 8 raw units of the inset "
                     << near_inset);
    CHECK(receding > fxtest::scaled(30000));
    CHECK(far_end_outside > fxtest::scaled(20000));
    CHECK(near_inset > fxtest::scaled(5000));
}

TEST_CASE("closest: a straight drop onto a box's top face gives closest()'s bits",
          "[closest][box]") {
    fxtest::Rng rng(0xd209);
    long on_face = 0;
    for (int i = 0; i < 200000; ++i) {
        Box shape;
        shape.center = {coord(rng, 4), coord(rng, 2), coord(rng, 4)};
        shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, 3 * Scalar::kOneRaw)),
                              Scalar::from_raw(rng.range(1 << 16, Scalar::kOneRaw)),
                              Scalar::from_raw(rng.range(1 << 16, 3 * Scalar::kOneRaw))};
        if (rng.next() % 8 == 0)
            shape.rotation = Mat3::rotation_y(Scalar::from_int(rng.range(1, 89)));
        const BoxCore box = make_core(shape, Vec3{});
        const Scalar top = box.c.y + box.h.y;
        // Feet from just below to well above the top, mostly above the face; a drop of up to
        // twice the height above it (sometimes through the face), sometimes a slanted segment.
        Vec3 a{coord(rng, 5),
               top + Scalar::from_raw(rng.range(-Scalar::kOneRaw / 8, Scalar::kOneRaw)),
               coord(rng, 5)};
        if (rng.next() % 2 == 0)
            a.x = box.c.x + Scalar::from_raw(rng.range(-box.h.x.raw(), box.h.x.raw()));
        if (rng.next() % 2 == 0)
            a.z = box.c.z + Scalar::from_raw(rng.range(-box.h.z.raw(), box.h.z.raw()));
        Vec3 b = a + Vec3{Scalar{}, Scalar::from_raw(rng.range(0, 2 * Scalar::kOneRaw)), Scalar{}};
        if (rng.next() % 8 == 0) b.x += Scalar::from_raw(rng.range(-1000, 1000));
        const Scalar above = a.y - top;
        Vec3 off{Scalar{},
                 -Scalar::from_raw(rng.range(0, 2 * std::max<int64_t>(above.raw(), 1 << 20))),
                 Scalar{}};
        if (rng.next() % 8 == 0) off.x = Scalar::from_raw(rng.range(-5, 5));
        if (rng.next() % 8 == 0) off.y = -off.y;
        // From the closest points at an earlier offset (0 or a random one on the same line).
        const Vec3 prev{Scalar{},
                        rng.next() % 2 == 0
                            ? Scalar{}
                            : -Scalar::from_raw(rng.range(0, above.raw() > 0 ? above.raw() : 1)),
                        Scalar{}};
        const Closest first = closest(a + prev, b + prev, box);
        Closest moved = first;
        closest_moved(&moved, a, b, off, box);
        const Closest fresh = closest(a + off, b + off, box);
        require_same(moved, fresh);
        on_face +=
            first.feature == Feature{0, FeatureKind::kFace, 3} && fresh.feature == first.feature;
    }
    CHECK(on_face > 20000); // the written-down case is well exercised
}

namespace {

void require_same_hit(bool fast_hit, const Hit& fast, bool general_hit, const Hit& general) {
    REQUIRE(fast_hit == general_hit);
    if (!fast_hit) return;
    REQUIRE(fast.distance == general.distance);
    REQUIRE(fast.normal == general.normal);
    REQUIRE(fast.point == general.point);
    REQUIRE(fast.feature == general.feature);
    REQUIRE(fast.start_overlap == general.start_overlap);
    REQUIRE(fast.depth == general.depth);
}

} // namespace

TEST_CASE(
    "cast and overlap: the upright-capsule shortcuts against boxes give the general paths' bits",
    "[narrow][box]") {
    // cast_core and overlap_core decide some upright capsules against boxes turned about y without
    // the closest-point routine (narrow.cpp: level motions over a top face or toward a side face or
    // starting in contact with one, vertical motions beside a side, drops onto a top face, any
    // motion above an unrotated box's top, overlaps ruled out by one axis's gap). Every answer must
    // be the general path's, bit for bit, with ends and axes often exactly on the faces' planes and
    // gaps near the radius, the contact tolerance and the cast's reach.
    fxtest::Rng rng(0xca57);
    // FX_TEST_SCALE: the emulated legs run a share (the goldens prove the bits there).
    const int64_t cases = fxtest::scaled(300000);
    const auto at_least = [](int64_t n) { return fxtest::scaled(n); };
    long casts = 0, drops_hit = 0, side_hits = 0, side_contacts = 0, level_misses = 0,
         vertical_misses = 0, overlaps_ruled_out = 0, contacts = 0;
    long above_edge_hits = 0, above_slanted_hits = 0;
    const int64_t one = Scalar::kOneRaw;
    for (int64_t i = 0; i < cases; ++i) {
        Box shape;
        shape.center = {coord(rng, 3), coord(rng, 2), coord(rng, 3)};
        shape.half_extents = {Scalar::from_raw(rng.range(1 << 16, 3 * one)),
                              Scalar::from_raw(rng.range(1 << 16, 2 * one)),
                              Scalar::from_raw(rng.range(1 << 16, 3 * one))};
        switch (rng.next() % 4) {
        case 0:
            shape.rotation = Mat3::rotation_y(Scalar::from_raw(rng.range(-180 * one, 180 * one)));
            break;
        case 1:
            shape.rotation = Mat3::rotation_x(Scalar::from_int(rng.range(1, 40)));
            break; // not yaw: general
        default:
            break;
        }
        const BoxCore box = make_core(shape, Vec3{});
        const Scalar r = Scalar::from_raw(rng.range(0, one / 2));
        // The segment's lower end: anywhere, or placed a chosen gap (near r, r + tolerance, ...)
        // beyond a face, or on a face's plane, so that every boundary of the shortcuts is met.
        Vec3 a{coord(rng, 5), coord(rng, 4), coord(rng, 5)};
        const Scalar near_r =
            r + Scalar::from_raw(rng.range(-3, 3) *
                                 (rng.next() % 2 == 0 ? 1 : kContactTolerance.raw()));
        bool toward_side = false, above_case = false;
        switch (rng.next() % 8) {
        case 7: { // beside a side face, within its height and width: some way off, touching, inside
            const int64_t inside = std::min<int64_t>(r.raw(), one / 4);
            Scalar gap;
            switch (rng.next() % 4) {
            case 0:
                gap = near_r;
                break;
            case 1:
                gap = r - Scalar::from_raw(rng.range(0, inside));
                break;
            case 2:
                gap = Scalar::from_raw(rng.range(0, 2 * kDeepDistance.raw()));
                break; // deep or nearly
            default:
                gap = r + Scalar::from_raw(rng.range(0, one / 2));
                break;
            }
            a = box.c +
                box.rotate(
                    Vec3{box.h.x + gap,
                         Scalar::from_raw(rng.range(-box.h.y.raw() - one / 2, box.h.y.raw() / 2)),
                         Scalar::from_raw(rng.range(-box.h.z.raw(), box.h.z.raw()))});
            toward_side = box.yaw_only;
            break;
        }
        case 4: // above the top, over or beyond an edge or a corner of it (an unrotated box)
            if (!box.aligned) break;
            above_case = true;
            a = box.c + Vec3{(rng.next() % 2 == 0 ? box.h.x : -box.h.x) +
                                 Scalar::from_raw(rng.range(-one / 4, one / 2)),
                             box.h.y + Scalar::from_raw(rng.range(0, one / 2)),
                             (rng.next() % 2 == 0 ? box.h.z : -box.h.z) +
                                 Scalar::from_raw(rng.range(-one / 4, one / 2))};
            break;
        case 0:
            a.y = box.c.y + box.h.y + near_r;
            break; // over the top
        case 6:
            a.y = box.c.y + box.h.y + r + Scalar::from_raw(rng.range(0, one)); // above it
            a.z = box.c.z + Scalar::from_raw(rng.range(-box.h.z.raw() / 2, box.h.z.raw() / 2));
            break;
        case 1:
            a.y = box.c.y + box.h.y + (rng.next() % 2 == 0 ? Scalar{} : kContactTolerance);
            break;
        case 2:
            if (box.aligned) a.x = box.c.x + box.h.x + near_r;
            break; // beside x+
        case 3:
            if (box.aligned) a.z = box.c.z - box.h.z - near_r;
            break; // beside z-
        default:
            break;
        }
        if (rng.next() % 2 == 0)
            a.x = box.c.x + Scalar::from_raw(rng.range(-box.h.x.raw(), box.h.x.raw()));
        Vec3 b = a + Vec3{Scalar{}, Scalar::from_raw(rng.range(0, 2 * one)), Scalar{}};
        if (rng.next() % 16 == 0)
            b.x += Scalar::from_raw(rng.range(-1000, 1000)); // slanted: general
        if (rng.next() % 16 == 0) std::swap(a, b); // upper end first
        Vec3 dir;
        switch (rng.next() % 5) {
        case 0:
            dir = Vec3{Scalar{}, -Scalar::one(), Scalar{}};
            break;
        case 1:
            dir = Vec3{Scalar{}, Scalar::one(), Scalar{}};
            break;
        case 2:
            dir = normalize(Vec3{coord(rng, 2), Scalar{}, coord(rng, 2)});
            break;
        case 3:
            dir = normalize(Vec3{Scalar::one(), Scalar{}, Scalar{}});
            break;
        default:
            dir = normalize(Vec3{coord(rng, 2), coord(rng, 2), coord(rng, 2)});
            break;
        }
        if (toward_side && rng.next() % 2 == 0)
            dir = normalize(box.rotate(Vec3{-Scalar::one(), Scalar{}, coord(rng, 1)}));
        if (above_case && rng.next() % 2 == 0) {
            // Down onto the top's edge or corner: straight, toward the top's middle, or slanted.
            switch (rng.next() % 3) {
            case 0:
                dir = Vec3{Scalar{}, -Scalar::one(), Scalar{}};
                break;
            case 1:
                dir = normalize(box.c + Vec3{Scalar{}, box.h.y, Scalar{}} - a);
                break;
            default:
                dir = normalize(
                    Vec3{coord(rng, 1), -Scalar::from_raw(rng.range(1, 2 * one)), coord(rng, 1)});
                break;
            }
        }
        const Scalar reach = Scalar::from_raw(rng.range(-one / 16, 3 * one));
        const Vec3 o{coord(rng, 50), coord(rng, 50), coord(rng, 50)};
        Hit fast{}, general{};
        const bool fh = cast_core(o, a, b, r, dir, reach, box, &fast);
        const bool gh = cast_core_general(o, a, b, r, dir, reach, box, &general);
        require_same_hit(fh, fast, gh, general);
        ++casts;
        const bool upright = box.yaw_only && a.x == b.x && a.z == b.z && a.y < b.y;
        if (upright && gh && !general.start_overlap && dir.y.raw() < 0 && dir.x.raw() == 0 &&
            dir.z.raw() == 0 && general.feature == Feature{0, FeatureKind::kFace, 3})
            ++drops_hit;
        if (upright && !gh && dir.y.raw() == 0) ++level_misses;
        if (upright && gh && general.start_overlap && dir.y.raw() == 0 &&
            general.feature.kind == FeatureKind::kFace && general.feature.index / 2 != 1)
            ++side_contacts;
        if (upright && gh && !general.start_overlap && dir.y.raw() == 0 &&
            general.feature.kind == FeatureKind::kFace && general.feature.index / 2 != 1)
            ++side_hits;
        if (upright && !gh && dir.y.raw() != 0 && dir.x.raw() == 0 && dir.z.raw() == 0)
            ++vertical_misses;
        const bool above = upright && box.aligned && a.y - box.c.y > box.h.y;
        if (above && gh && !general.start_overlap && general.feature.kind != FeatureKind::kFace)
            ++above_edge_hits;
        if (above && gh && !general.start_overlap && dir.y.raw() != 0 &&
            !(dir.x.raw() == 0 && dir.z.raw() == 0))
            ++above_slanted_hits;

        const Scalar margin =
            rng.next() % 2 == 0 ? Scalar{} : Scalar::from_raw(rng.range(0, one / 4));
        Contact fc{}, gc{};
        const bool fo = overlap_core(o, a, b, r, box, margin, &fc);
        const bool go = overlap_core_general(o, a, b, r, box, margin, &gc);
        REQUIRE(fo == go);
        if (fo) {
            REQUIRE(fc.feature == gc.feature);
            REQUIRE(fc.normal == gc.normal);
            REQUIRE(fc.depth == gc.depth);
            REQUIRE(fc.point == gc.point);
            ++contacts;
        } else if (upright) {
            ++overlaps_ruled_out;
        }
    }
    // Each shortcut's case is drawn often (or the comparison would prove little).
    INFO("drops " << drops_hit << ", side hits " << side_hits << ", side contacts " << side_contacts
                  << ", level misses " << level_misses << ", vertical misses " << vertical_misses
                  << ", overlaps ruled out " << overlaps_ruled_out << ", contacts " << contacts
                  << ", hits on a top edge or corner from above " << above_edge_hits
                  << ", slanted hits from above " << above_slanted_hits);
    CHECK(casts == cases);
    CHECK(drops_hit > at_least(2000));
    CHECK(side_hits > at_least(2000));
    CHECK(side_contacts > at_least(2000));
    CHECK(level_misses > at_least(20000));
    CHECK(vertical_misses > at_least(20000));
    CHECK(overlaps_ruled_out > at_least(20000));
    CHECK(contacts > at_least(5000));
    CHECK(above_edge_hits > at_least(2000));
    CHECK(above_slanted_hits > at_least(2000));
}
