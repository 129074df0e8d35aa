// Controller layer: ns per character-tick on a small level (floor, walls, a ramp, steps,
// a moving platform), 16 characters running scripted input. Outside the default test run:
//   fx_bench "[.bench][controller]"
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kcc/world.h"

namespace {

using fx::Scalar;
using fx::Vec3;
using namespace fx::kcc;

Vec3 m(int x_cm, int y_cm, int z_cm) {
    return {Scalar::ratio(x_cm, 100), Scalar::ratio(y_cm, 100), Scalar::ratio(z_cm, 100)};
}

void box(World& w, fx::geo::ShapeId id, const Vec3& c, const Vec3& h) {
    w.scene().add_box(id, fx::geo::Box{c, h, fx::Mat3::identity()});
}

void build_level(World& w, int characters) {
    w.scene().add_plane(1, fx::geo::Plane{Vec3::unit_y(), Scalar{}});
    box(w, 2, m(1000, 150, 0), m(50, 150, 1000)); // walls around a 20 m square
    box(w, 3, m(-1000, 150, 0), m(50, 150, 1000));
    box(w, 4, m(0, 150, 1000), m(1000, 150, 50));
    box(w, 5, m(0, 150, -1000), m(1000, 150, 50));
    for (int k = 0; k < 4; ++k)
        box(w, 10 + k, m(-400 + 30 * k, 10 + 20 * k, 400), m(15, 10 + 20 * k, 200)); // steps
    w.scene().add_box(
        20, fx::geo::Box::from_yaw_pitch_roll_degrees(m(400, -50, -400), m(300, 100, 200), Scalar{},
                                                      Scalar{}, Scalar::from_int(20)));
    Platform p;
    p.id = 30;
    p.half_extents = m(100, 25, 100);
    p.waypoints = {{m(0, 25, -600), 0}, {m(0, 25, 600), 200}, {m(0, 25, -600), 400}};
    std::string error;
    w.add_platform(p, &error);
    for (int i = 0; i < characters; ++i)
        w.add_character(static_cast<CharacterId>(100 + i),
                        m(-800 + 100 * (i % 16), 2, -800 + 400 * (i / 16)), Settings{}, &error);
    w.build(&error);
}

} // namespace

TEST_CASE("controller: ns per character-tick, small level", "[.bench][controller]") {
    constexpr int kCharacters = 16;
    World world;
    build_level(world, kCharacters);
    std::vector<Input> inputs(kCharacters);
    int64_t t = 0;
    BENCHMARK("one world tick, 16 characters (divide by 16 for one character-tick)") {
        for (int i = 0; i < kCharacters; ++i) {
            const int64_t phase = (t + 13 * i) % 120;
            inputs[static_cast<size_t>(i)].stick_x = Scalar::ratio(phase < 60 ? 1 : -1, 1);
            inputs[static_cast<size_t>(i)].stick_y = Scalar::ratio((phase % 40) < 20 ? 1 : -1, 2);
            inputs[static_cast<size_t>(i)].jump = phase == 30;
        }
        world.step(inputs);
        ++t;
        return world.characters()[0].position.x.raw();
    };
}
