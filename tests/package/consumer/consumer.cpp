// A C++ game's use of the installed package: the controller stepped in its own loop, and the
// same level and inputs stepped through the C API, which must give the same bits tick by tick.
// The level: a floor, a 30 degree ramp, a 0.3 m step, a moving platform; three characters (two
// colliding, one ghost) with turning sticks and jumps. Exit 0 when identical, 1 otherwise.
#include <fxkcc.h>

#include <fxkcc/boundary.h>
#include <fxkcc/kcc/world.h> // the installed spelling, <fxkcc/...>

#include <cstdio>
#include <vector>

#include "kcc/version.h" // the spelling of 0.1, kept one version (docs/embedding.md)

using fx::Scalar;
using fx::Vec3;

namespace {

Scalar milli(int64_t m) {
    return Scalar::ratio(m, 1000);
}
Vec3 v3m(int64_t x, int64_t y, int64_t z) {
    return {milli(x), milli(y), milli(z)};
} // millimetres
fxkcc_vec3 c3(const Vec3& v) {
    return {v.x.raw(), v.y.raw(), v.z.raw()};
}

struct BoxDef {
    uint32_t id;
    Vec3 centre, half;
    Scalar yaw, pitch, roll;
};
const BoxDef kBoxes[] = {
    {2, v3m(6000, 0, 0), v3m(2000, 1000, 2000), Scalar{}, Scalar::from_int(30), Scalar{}}, // ramp
    {3, v3m(-4000, 150, 0), v3m(1000, 150, 3000), Scalar{}, Scalar{}, Scalar{}}, // 0.3 m step
};

// Stick of character k at tick t: a slowly turning direction; a jump every 40 ticks.
fx::kcc::Input input(size_t k, int64_t t) {
    const int64_t phase = (t / 25 + static_cast<int64_t>(k) * 3) % 8;
    static const int8_t dx[8] = {1, 1, 0, -1, -1, -1, 0, 1}, dz[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    fx::kcc::Input in;
    in.stick_x = Scalar::from_int(dx[phase]);
    in.stick_y = Scalar::from_int(dz[phase]);
    in.jump = (t + static_cast<int64_t>(k) * 7) % 40 == 0;
    return in;
}

} // namespace

int main() {
    // The C++ world.
    fx::kcc::World w;
    w.scene().add_plane(1, fx::geo::Plane{Vec3::unit_y(), Scalar{}});
    for (const BoxDef& b : kBoxes)
        w.scene().add_box(b.id, fx::geo::Box::from_yaw_pitch_roll_degrees(b.centre, b.half, b.yaw,
                                                                          b.pitch, b.roll));
    fx::kcc::Platform pl;
    pl.id = 10;
    pl.half_extents = v3m(1000, 100, 1000);
    pl.rotation = fx::Mat3::identity();
    pl.waypoints = {{v3m(0, 100, 6000), 0}, {v3m(3000, 100, 6000), 100}, {v3m(0, 100, 6000), 200}};
    std::string error;
    fx::kcc::Settings ghost;
    ghost.collide_characters = false;
    const fx::kcc::Settings defaults;
    const Vec3 spawns[3] = {v3m(0, 15, 0), v3m(1000, 15, 500), v3m(0, 215, 6000)};
    bool ok = w.add_platform(pl, &error) && w.add_character(1, spawns[0], defaults, &error) &&
              w.add_character(2, spawns[1], defaults, &error) &&
              w.add_character(3, spawns[2], ghost, &error) && w.build(&error);
    if (!ok) {
        std::fprintf(stderr, "consumer: C++ world: %s\n", error.c_str());
        return 1;
    }

    // The C world, the same level through fxkcc.h.
    fxkcc_world* cw = nullptr;
    int bad = fxkcc_world_create(&cw) != FXKCC_OK;
    bad |= fxkcc_world_add_plane(cw, 1, c3(Vec3::unit_y()), 0) != FXKCC_OK;
    for (const BoxDef& b : kBoxes)
        bad |= fxkcc_world_add_box(cw, b.id, c3(b.centre), c3(b.half), b.yaw.raw(), b.pitch.raw(),
                                   b.roll.raw()) != FXKCC_OK;
    const fxkcc_waypoint wps[3] = {{c3(pl.waypoints[0].center), 0},
                                   {c3(pl.waypoints[1].center), 100},
                                   {c3(pl.waypoints[2].center), 200}};
    bad |= fxkcc_world_add_platform(cw, 10, c3(pl.half_extents), 0, 0, 0, wps, 3) != FXKCC_OK;
    fxkcc_settings cs;
    fxkcc_settings_default(&cs);
    bad |= fxkcc_world_add_character(cw, 1, c3(spawns[0]), &cs) != FXKCC_OK;
    bad |= fxkcc_world_add_character(cw, 2, c3(spawns[1]), nullptr) != FXKCC_OK;
    cs.collide_characters = 0;
    bad |= fxkcc_world_add_character(cw, 3, c3(spawns[2]), &cs) != FXKCC_OK;
    bad |= fxkcc_world_build(cw) != FXKCC_OK;
    if (bad != 0) {
        std::fprintf(stderr, "consumer: C world: %s\n", fxkcc_world_error(cw));
        return 1;
    }

    std::vector<fx::kcc::Input> in(3);
    fxkcc_input cin[3];
    int64_t grounded_ticks = 0, platform_ticks = 0;
    for (int64_t t = 0; t < 400; ++t) {
        for (size_t k = 0; k < 3; ++k) {
            in[k] = input(k, t);
            cin[k] = fxkcc_input{
                in[k].stick_x.raw(), in[k].stick_y.raw(), in[k].jump ? 1 : 0, {0, 0, 0}};
        }
        w.step(in);
        if (fxkcc_world_step(cw, cin, 3) != FXKCC_OK) {
            std::fprintf(stderr, "consumer: step %lld: %s\n", static_cast<long long>(t),
                         fxkcc_world_error(cw));
            return 1;
        }
        for (size_t k = 0; k < 3; ++k) {
            const fx::kcc::CharacterState& s = w.characters()[k];
            fxkcc_character_state c;
            fxkcc_world_character(cw, k, &c);
            const bool same =
                c.id == s.id && c.position.x == s.position.x.raw() &&
                c.position.y == s.position.y.raw() && c.position.z == s.position.z.raw() &&
                c.velocity.x == s.velocity.x.raw() && c.velocity.y == s.velocity.y.raw() &&
                c.velocity.z == s.velocity.z.raw() && c.facing == s.facing.raw() &&
                (c.grounded != 0) == s.grounded && c.ground_shape == s.ground_shape &&
                c.platform == s.platform;
            if (!same) {
                std::fprintf(
                    stderr, "consumer: tick %lld, character %u: the C API and the C++ API differ\n",
                    static_cast<long long>(t), s.id);
                return 1;
            }
            grounded_ticks += s.grounded;
            platform_ticks += s.platform != fx::kcc::kNoId;
        }
        uint64_t checksum = 0;
        if (fxkcc_world_checksum(cw, &checksum) != FXKCC_OK || checksum != w.checksum()) {
            std::fprintf(stderr, "consumer: tick %lld: the checksums differ\n",
                         static_cast<long long>(t));
            return 1;
        }
    }
    fxkcc_world_destroy(cw);
    // The run went through the ground, the air and the platform.
    if (grounded_ticks == 0 || grounded_ticks == 1200 || platform_ticks == 0) {
        std::fprintf(
            stderr, "consumer: unexpected run (grounded %lld, on the platform %lld of 1200)\n",
            static_cast<long long>(grounded_ticks), static_cast<long long>(platform_ticks));
        return 1;
    }
    // The ways in for C++ (fxkcc/boundary.h): exact decimal text, and the float boundary, whose
    // values are those of the C functions and of exact arithmetic on these inputs.
    const std::optional<Scalar> skin = fxkcc::from_decimal("0.015");
    if (!skin || skin->raw() != 64424509 || fxkcc::from_decimal("0x10") ||
        fxkcc::from_decimal(std::string("-2.5e3"))->raw() != -2500 * Scalar::kOneRaw ||
        fxkcc::from_double(0.5).raw() != Scalar::kOneRaw / 2 ||
        fxkcc::from_double(0.015).raw() != fxkcc_fixed_from_double(0.015) ||
        fxkcc::to_double(Scalar::ratio(3, 4)) != 0.75 ||
        fxkcc::from_double(1.0, -2.0, 0.25) !=
            Vec3{Scalar::one(), Scalar::from_int(-2), Scalar::ratio(1, 4)}) {
        std::fprintf(stderr, "consumer: fxkcc/boundary.h gave other values than the C API's\n");
        return 1;
    }
    std::printf(
        "consumer: 400 ticks x 3 characters identical through C++ and C, checksums included (behaviour %d; "
        "last checksum %016llx; grounded %lld, on the platform %lld character-ticks)\n",
        fx::kcc::kBehaviourVersion, static_cast<unsigned long long>(w.checksum()),
        static_cast<long long>(grounded_ticks), static_cast<long long>(platform_ticks));
    return 0;
}
