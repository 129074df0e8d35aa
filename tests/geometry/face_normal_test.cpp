// StaticScene::face_normal: for a hit on an edge or a corner, the normal of the shape's face
// there nearest to the hit's normal (what the controller meets an internal edge as,
// docs/controller.md "Internal edges"). The expected faces are worked out here from the shapes'
// geometry, in long double, not read from the library.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "geo/scene.h"
#include "geo_test_util.h"

using namespace fx;
using namespace fx::geo;
using namespace geotest;

namespace {

StaticScene built(StaticScene s) {
    std::string err;
    REQUIRE(s.build(&err));
    return s;
}

/// The capsule of a character at `feet` swept along unit direction `dir` for 2 m.
Hit cast_from(const StaticScene& s, const Vec3& feet, const Vec3& dir) {
    Hit h;
    REQUIRE(s.cast(character(feet), dir, S(2), &h));
    return h;
}

} // namespace

TEST_CASE("face normal: a box edge met grazing gives the face beside it, whatever the box's turn",
          "[geometry][internal-edges]") {
    for (const long double yaw : {0.0L, 30.0L, -117.0L}) {
        INFO("yaw " << static_cast<double>(yaw));
        // A 2 m box turned by `yaw`; a character beside its local -z face, its axis 0.399 m out
        // (1 mm into the face's plane), swept along local +x into the box's local -x end edge:
        // grazing, so the contact normal is nearly the -z face's.
        const Mat3 turn = Mat3::from_yaw_pitch_roll_degrees(S(yaw), Scalar{}, Scalar{});
        const Vec3 ex = turn.column(0), ez = turn.column(2);
        StaticScene s;
        s.add_box(7, Box{V(0, 1, 0), V(1, 1, 1), turn}, Motion::kStatic);
        const StaticScene scene = built(std::move(s));
        // feet = -3 ex - 1.399 ez (the face at local z = -1, the capsule's radius 0.4).
        const Vec3 feet = ex * S(-3) + ez * S(-1.399L);
        const Hit h = cast_from(scene, feet, ex);
        REQUIRE(h.feature.kind == FeatureKind::kEdge);
        Vec3 face;
        REQUIRE(scene.face_normal(h, &face));
        // Expected: the local -z face, -ez (the edge's normal leans by acos(0.399 / 0.4) toward
        // -ex, 4.1 degrees: far nearer -ez than -ex).
        const LV want = L(-ez);
        CHECK(lenl(L(face) - want) < 1e-9L);
        CHECK(dotl(L(h.normal), want) > 0.997L);
        CHECK(dotl(L(h.normal), want) < 1.0L - 1e-6L); // the hit's own normal is not the face's
        // Head-on into the same end, beside the edge: the -x face.
        const Hit head = cast_from(scene, ex * S(-3) + ez * S(-0.9L), ex);
        Vec3 end;
        if (head.feature.kind == FeatureKind::kFace) {
            CHECK_FALSE(scene.face_normal(head, &end)); // a face hit is no edge
        } else {
            REQUIRE(scene.face_normal(head, &end));
            CHECK(lenl(L(end) - L(-ex)) < 1e-9L);
        }
    }
}

TEST_CASE("face normal: a mesh triangle's edge gives the triangle's normal on the hit's side, "
          "faces, round shapes, bodies and unknown ids none",
          "[geometry][internal-edges]") {
    // One triangle in the plane y = 0 (both sides collide), its edge along x at z = 0.
    TriangleMesh m;
    std::string err;
    REQUIRE(TriangleMesh::build({V(-2, 0, 0), V(2, 0, 0), V(0, 0, 3)}, {0, 1, 2}, &m, &err));
    StaticScene s;
    s.add_mesh(3, std::move(m));
    s.add_sphere(4, Sphere{V(10, 1, 0), S(0.5L)}, Motion::kStatic);
    const StaticScene scene = built(std::move(s));
    // Falling onto the triangle's edge from above, 0.3 m outside it: an edge hit from above.
    const Hit above = cast_from(scene, V(0, 0.5L, -0.3L), kDown);
    REQUIRE(above.shape == 3);
    REQUIRE(above.feature.kind == FeatureKind::kEdge);
    Vec3 up;
    REQUIRE(scene.face_normal(above, &up));
    CHECK(lenl(L(up) - LV{0, 1, 0}) < 1e-9L);
    // From below, rising into it: the same triangle's normal, turned to the hit's side.
    const Hit below = cast_from(scene, V(0, -2.3L, -0.3L), V(0, 1, 0));
    REQUIRE(below.feature.kind == FeatureKind::kEdge);
    Vec3 down;
    REQUIRE(scene.face_normal(below, &down));
    CHECK(lenl(L(down) - LV{0, -1, 0}) < 1e-9L);
    // Onto the face itself: no edge.
    const Hit face = cast_from(scene, V(0, 0.5L, 1), kDown);
    REQUIRE(face.feature.kind == FeatureKind::kFace);
    Vec3 none;
    CHECK_FALSE(scene.face_normal(face, &none));
    // A sphere is round; another character (kBodyShape) and an id the scene does not have are
    // none of its shapes, whatever feature they claim.
    Hit round = cast_from(scene, V(8, 0, 0), V(1, 0, 0));
    REQUIRE(round.shape == 4);
    round.feature.kind = FeatureKind::kEdge;
    CHECK_FALSE(scene.face_normal(round, &none));
    Hit body = above;
    body.shape = kBodyShape;
    CHECK_FALSE(LocalScene(scene).face_normal(body, &none));
    Hit stranger = above;
    stranger.shape = 99;
    CHECK_FALSE(scene.face_normal(stranger, &none));
    CHECK(LocalScene(scene).face_normal(above, &none));
}
