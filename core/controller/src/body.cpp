// The body's shapes beyond its own capsule: the capsule grown by a skin that the slides sweep,
// and the push that separates two characters (World::resolve_bodies).
#include "kcc/motion.h"

#include "sweep.h"

namespace fx::kcc {

using namespace detail;

geo::Capsule grown_capsule_at(const Vec3& feet, const Params& p) {
    // The ends' heights above the feet and the radius from make_params (grown_low, grown_high).
    return {Vec3{feet.x, feet.y + p.grown_low, feet.z}, Vec3{feet.x, feet.y + p.grown_high, feet.z},
            p.grown_radius};
}

namespace {
/// Lexicographic order of two upright capsules by their lowest centre (x, z, y), then radius.
int body_compare(const geo::Capsule& a, const geo::Capsule& b) {
    if (a.a.x != b.a.x) return a.a.x < b.a.x ? -1 : 1;
    if (a.a.z != b.a.z) return a.a.z < b.a.z ? -1 : 1;
    if (a.a.y != b.a.y) return a.a.y < b.a.y ? -1 : 1;
    if (a.b.y != b.b.y) return a.b.y < b.b.y ? -1 : 1;
    if (a.radius != b.radius) return a.radius < b.radius ? -1 : 1;
    return 0;
}
} // namespace

Vec3 body_separation(const geo::Capsule& a, const geo::Capsule& b, Scalar gap) {
    const int order = body_compare(a, b);
    if (order == 0) return Vec3::zero();
    if (order > 0) return -body_separation(b, a, gap); // oriented by place: exactly antisymmetric
    const Vec3 d{a.a.x - b.a.x, Scalar{}, a.a.z - b.a.z};
    const Scalar dh = length(d);
    if (dh.raw() == 0) return Vec3::zero();
    const Scalar want = a.radius + b.radius + gap;
    // Vertical gap between the axes (segments a.a..a.b and b.a..b.b, upright).
    const Scalar gy = max(max(a.a.y - b.b.y, b.a.y - a.b.y), Scalar{});
    if (gy >= want) return Vec3::zero();
    const Scalar need = gy.raw() == 0 ? want : sqrt(want * want - gy * gy); // horizontal
    if (dh >= need) return Vec3::zero();
    return scaled(d, (need - dh).div_int(2), dh);
}

Vec3 clear_of_statics(const geo::LocalScene& scene, const Vec3& feet, const Vec3& push,
                      const Params& p) {
    const Scalar len = length(push);
    if (len < kMinMove) return Vec3::zero();
    // The grown capsule (as collide-and-slide): a push at a shallow angle to a wall the body
    // rests a skin from is stopped there, not carried into the skin (crowd-corridor).
    geo::Hit h;
    if (!sweep(scene, grown_capsule_at(feet, p), push, len, kNoId, &h)) return push;
    const Scalar c = h.start_overlap ? Scalar{} : -(dot(push, h.normal) / len);
    const Scalar move = h.start_overlap
                            ? Scalar{}
                            : min(approach_distance(h.distance, c, grown_keep(h.normal, p)), len);
    return scaled(push, move, len);
}

Scalar grown_base_lift(const Params& p) {
    return p.s.skin.div_int(16);
}

Scalar grown_keep(const Vec3& n, const Params& p) {
    return n.y.raw() > 0 ? grown_base_lift(p) * n.y : p.s.skin * -n.y;
}

} // namespace fx::kcc
