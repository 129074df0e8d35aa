// Capsule queries against a triangle mesh: candidate triangles from the mesh's BVH, each
// tested as a convex triangle, results kept in the total orders of geo/queries.h.
#include "narrow.h"
#include "sweep.h"

namespace fx::geo {

using namespace detail;

size_t overlap(const Capsule& c, const TriangleMesh& m, Scalar margin, std::span<Contact> out) {
    const Vec3 o = c.a;
    const Vec3 b = c.b - o;
    size_t count = 0, total = 0;
    m.bvh().query(c.bounds().expanded(max(margin, Scalar{}) + kContactTolerance),
                  [&](uint32_t tri) {
                      Contact ct;
                      if (overlap_core(o, Vec3{}, b, c.radius, make_core(m, tri, o), margin, &ct)) {
                          ++total;
                          insert_contact(out, &count, ct);
                      }
                  });
    return total;
}

size_t cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance, const TriangleMesh& m,
                std::span<Hit> out) {
    const Vec3 o = c.a;
    const Vec3 b = c.b - o;
    const Vec3 dir = normalize(direction);
    size_t count = 0, total = 0;
    m.bvh().query(swept_bounds(c, dir, max_distance), [&](uint32_t tri) {
        Hit h;
        if (cast_core(o, Vec3{}, b, c.radius, dir, max_distance, make_core(m, tri, o), &h)) {
            ++total;
            insert_hit(out, &count, h);
        }
    });
    return total;
}

bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, const TriangleMesh& m,
          Hit* out) {
    Hit best[1];
    return cast_all(c, direction, max_distance, m, best) > 0 ? (*out = best[0], true) : false;
}

} // namespace fx::geo
