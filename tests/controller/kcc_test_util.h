// Helpers of the controller tests: levels built in code, a one-character world, conversions to
// long double for assertions (tests may use floating point; the library may not).
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fx/trig.h"
#include "kcc/world.h"

namespace kcctest {

using fx::Scalar;
using fx::Vec3;

inline long double ld(Scalar s) {
    return static_cast<long double>(s.raw()) / 4294967296.0L;
}
inline Scalar sc(long double v) {
    return Scalar::from_raw(static_cast<int64_t>(v * 4294967296.0L));
}
inline Vec3 v3(long double x, long double y, long double z) {
    return {sc(x), sc(y), sc(z)};
}
inline long double hlen(const Vec3& v) {
    const long double x = ld(v.x), z = ld(v.z);
    return std::sqrt(x * x + z * z);
}
inline long double dist(const Vec3& a, const Vec3& b) {
    const long double x = ld(a.x - b.x), y = ld(a.y - b.y), z = ld(a.z - b.z);
    return std::sqrt(x * x + y * y + z * z);
}

inline const fx::kcc::Settings kDefaults{};
/// Feet height at rest on flat ground: the skin above it.
inline long double rest_height() {
    return ld(kDefaults.skin);
}

inline void add_floor(fx::kcc::World& w, fx::geo::ShapeId id = 1, Scalar height = {}) {
    w.scene().add_plane(id, fx::geo::Plane{Vec3::unit_y(), height});
}
/// Axis-aligned box from min and max corners.
inline void add_aabb(fx::kcc::World& w, fx::geo::ShapeId id, const Vec3& lo, const Vec3& hi) {
    const Vec3 c{(lo.x + hi.x).div_int(2), (lo.y + hi.y).div_int(2), (lo.z + hi.z).div_int(2)};
    const Vec3 h{(hi.x - lo.x).div_int(2), (hi.y - lo.y).div_int(2), (hi.z - lo.z).div_int(2)};
    w.scene().add_box(id, fx::geo::Box{c, h, fx::Mat3::identity()});
}
/// Unit normal of a slope of `deg` degrees rising toward +x.
inline Vec3 slope_normal(int deg) {
    const auto sc2 = fx::sincos_deg(Scalar::from_int(deg));
    return {-sc2.sin, sc2.cos, Scalar{}};
}
/// An infinite slope through the origin.
inline void add_slope_plane(fx::kcc::World& w, fx::geo::ShapeId id, int deg) {
    w.scene().add_plane(id, fx::geo::Plane{slope_normal(deg), Scalar{}});
}
/// Feet position resting (skin gap) on the slope plane through the origin, above x.
inline Vec3 feet_on_slope(int deg, long double x) {
    const long double th = deg * 3.14159265358979323846L / 180.0L;
    const long double r = ld(kDefaults.radius), skin = ld(kDefaults.skin);
    const long double cy = x * std::tan(th) + (r + skin) / std::cos(th);
    return v3(x, cy - r, 0);
}

inline fx::kcc::Input stick(long double x, long double y, bool jump = false) {
    fx::kcc::Input in;
    in.stick_x = sc(x);
    in.stick_y = sc(y);
    in.jump = jump;
    return in;
}

/// A world with one character (id 7) built after `level` adds its shapes.
struct Solo {
    fx::kcc::World world;
    template <class Level>
    Solo(Level level, const Vec3& feet, const fx::kcc::Settings& s = kDefaults) {
        level(world);
        std::string error;
        REQUIRE(world.add_character(7, feet, s, &error));
        REQUIRE(world.build(&error));
    }
    const fx::kcc::CharacterState& st() const { return world.characters()[0]; }
    fx::kcc::CharacterState& mut() { return *world.find(7); }
    void tick(const fx::kcc::Input& in, fx::kcc::TraceObserver* obs = nullptr) {
        world.step(std::span<const fx::kcc::Input>(&in, 1), obs);
    }
    /// Settles the body on the ground with idle input.
    void settle(int ticks = 5) {
        for (int i = 0; i < ticks; ++i)
            tick(fx::kcc::Input{});
    }
};

} // namespace kcctest
