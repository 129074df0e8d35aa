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
/// Sweeps of a resolution push: the push, then what is left of it along up to two surfaces met.
constexpr int kClearPasses = 3;

} // namespace

int body_compare(const geo::Capsule& a, const geo::Capsule& b) {
    if (a.a.x != b.a.x) return a.a.x < b.a.x ? -1 : 1;
    if (a.a.z != b.a.z) return a.a.z < b.a.z ? -1 : 1;
    if (a.a.y != b.a.y) return a.a.y < b.a.y ? -1 : 1;
    if (a.b.y != b.b.y) return a.b.y < b.b.y ? -1 : 1;
    if (a.radius != b.radius) return a.radius < b.radius ? -1 : 1;
    return 0;
}

Vec3 tie_direction(CharacterId lo, CharacterId hi) {
    // Two rounds of a multiply-xorshift mix of the pair (unsigned: wraps the same everywhere);
    // 11 bits each for x and z, centred, and +x when both are zero.
    uint32_t h = lo * 0x9E3779B1u ^ (hi + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0xC2B2AE3Du;
    h ^= h >> 13;
    const int64_t x = static_cast<int64_t>(h & 0x7ffu) - 1024;
    const int64_t z = static_cast<int64_t>((h >> 11) & 0x7ffu) - 1024;
    if (x == 0 && z == 0) return Vec3{Scalar::one(), Scalar{}, Scalar{}};
    const Vec3 d{Scalar::from_int(x), Scalar{}, Scalar::from_int(z)};
    return scaled(d, Scalar::one(), length(d));
}

Vec3 body_separation(const geo::Capsule& a, const geo::Capsule& b, Scalar gap, CharacterId id_a,
                     CharacterId id_b) {
    const int order = body_compare(a, b);
    // Oriented by place (exactly antisymmetric); the same capsule in the same place, by id.
    if (order > 0 || (order == 0 && id_a > id_b)) return -body_separation(b, a, gap, id_b, id_a);
    const Scalar want = a.radius + b.radius + gap;
    // Vertical gap between the axes (segments a.a..a.b and b.a..b.b, upright).
    const Scalar gy = max(max(a.a.y - b.b.y, b.a.y - a.b.y), Scalar{});
    if (gy >= want) return Vec3::zero();
    const Scalar need = gy.raw() == 0 ? want : sqrt(want * want - gy * gy); // horizontal
    const Vec3 d{a.a.x - b.a.x, Scalar{}, a.a.z - b.a.z};
    const Scalar dh = length(d);
    if (dh.raw() != 0) {
        if (dh >= need) return Vec3::zero();
        return scaled(d, (need - dh).div_int(2), dh);
    }
    // Axes on one vertical line: no direction from where they are. Told apart by place (one
    // over the other, or of other sizes), along -x for the one first in body_compare's order;
    // the same capsule in the same place, along tie_direction of the pair, the lower id along it.
    const Vec3 dir =
        order != 0 ? Vec3{-Scalar::one(), Scalar{}, Scalar{}} : tie_direction(id_a, id_b);
    return dir * need.div_int(2);
}

Vec3 clear_of_statics(const geo::LocalScene& scene, const Vec3& feet, const Vec3& push,
                      const Params& p) {
    // The grown capsule (as collide-and-slide): a push at a shallow angle to a wall the body
    // rests a skin from is stopped there, not carried into the skin (crowd-corridor). What is
    // left of the push slides along the surfaces met (solve_planes), so only its part into them
    // is lost, never its part along them (a crowd pressed against a wall separates along it).
    Vec3 at = feet, left = push;
    Vec3 normals[kClearPasses];
    int count = 0;
    for (int pass = 0; pass < kClearPasses; ++pass) {
        const Scalar len = length(left);
        if (len < kMinMove) break;
        geo::Hit h;
        if (!sweep(scene, grown_capsule_at(at, p), left, len, kNoId, &h)) {
            at += left;
            break;
        }
        const Scalar c = h.start_overlap ? Scalar{} : -(dot(left, h.normal) / len);
        const Scalar move =
            h.start_overlap ? Scalar{}
                            : min(approach_distance(h.distance, c, grown_keep(h.normal, p)), len);
        const Vec3 step = scaled(left, move, len);
        at += step;
        normals[count++] = h.normal;
        left = solve_planes(left - step, normals, count).motion;
    }
    return at - feet;
}

Scalar grown_base_lift(const Params& p) {
    return p.s.skin.div_int(16);
}

Scalar grown_keep(const Vec3& n, const Params& p) {
    return n.y.raw() > 0 ? grown_base_lift(p) * n.y : p.s.skin * -n.y;
}

} // namespace fx::kcc
