// The controller on a flat floor made of triangles: the ground probe meets the seams between
// coplanar triangles (inactive mesh edges, docs/geometry.md) and must see flat ground there,
// not the seam's edge normal ("bumps at mesh seams").
#include <cstdint>
#include <string>
#include <vector>

#include "kcc_test_util.h"

using namespace kcctest;
using namespace fx::kcc;

namespace {

/// A flat floor at y = 0 of 3 m cells, x and z in [-6, 6], two triangles per cell.
void add_mesh_floor(World& w) {
    std::vector<Vec3> v;
    std::vector<uint32_t> idx;
    for (int z = 0; z <= 4; ++z)
        for (int x = 0; x <= 4; ++x)
            v.push_back(v3(-6 + 3 * x, 0, -6 + 3 * z));
    for (uint32_t z = 0; z < 4; ++z)
        for (uint32_t x = 0; x < 4; ++x) {
            const uint32_t i = z * 5 + x;
            idx.insert(idx.end(), {i, i + 5, i + 1, i + 1, i + 5, i + 6});
        }
    fx::geo::TriangleMesh m;
    std::string err;
    REQUIRE(fx::geo::TriangleMesh::build(v, idx, &m, &err));
    w.scene().add_mesh(1, std::move(m));
}

/// Records what the ground probe chose each tick, and any step attempt.
struct ProbeLog : TraceObserver {
    std::vector<Vec3> normals;
    int step_attempts = 0;
    void on_event(const TraceEvent& e) override {
        if (e.kind == TraceKind::kProbe) normals.push_back(e.a);
        if (e.kind == TraceKind::kStepAttempt) ++step_attempts;
    }
};

} // namespace

TEST_CASE("walking across the seams of a flat triangle-mesh floor: flat ground, one skin above it",
          "[ground][mesh]") {
    // Diagonally (across the cells' diagonal edges and through shared vertices) and along a
    // grid line (on the seam itself).
    for (const auto& [start, in] : {std::pair{v3(-5, rest_height(), -5), stick(0.6L, 0.6L)},
                                    std::pair{v3(-3, rest_height(), -5), stick(0, 0.8L)}}) {
        Solo s(add_mesh_floor, start);
        for (int i = 0; i < 60; ++i) {
            ProbeLog log;
            s.tick(in, &log);
            // The probe's choice, before snap: a seam's edge normal (up to 18 degrees within
            // the probe band) used to win as the "steepest walkable" ground.
            REQUIRE(log.normals.size() == 1);
            CHECK(log.normals[0] == Vec3::unit_y());
            CHECK(log.step_attempts == 0);
            CHECK(s.st().grounded);
            CHECK(s.st().ground_normal == Vec3::unit_y());
            CHECK(ld(s.st().position.y) == Approx(rest_height()).margin(1e-6L));
        }
        CHECK(hlen(s.st().position - start) > 4); // it went somewhere
    }
}
