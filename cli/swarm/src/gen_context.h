// What the generator's families share (private to the swarm library): the run being built, its
// random stream, id allocation per feature, settings, and the expectation writers.
#pragma once

#include <optional>
#include <string>

#include "fx/mat3.h"
#include "fx/trig.h"
#include "kcc/settings.h"
#include "scenario/metric_names.h"
#include "swarm/generate.h"
#include "swarm/rng.h"

namespace fx::harness::swarm {

inline Scalar mm(int64_t n) {
    return Scalar::ratio(n, 1000);
}
inline Scalar metres(int64_t n) {
    return Scalar::from_int(n);
}
inline Vec3 vec(Scalar x, Scalar y, Scalar z) {
    return Vec3{x, y, z};
}

/// A unit direction in the horizontal plane at `deg` degrees from +x toward +z (computed with
/// the fixed-point trigonometry, so the same bits everywhere).
Vec3 horizontal_dir(Scalar deg);

class Gen {
public:
    Gen(Rng& r, GeneratedRun& g, int hz, int64_t n, bool random)
        : rng(r), run(g), sc(g.scenario), rate(hz), ticks(n), random_settings(random) {}

    Rng& rng;
    GeneratedRun& run;
    Scenario& sc;
    int rate;
    int64_t ticks;
    bool random_settings;
    Vec3 lot; ///< the current family's lot origin (on the floor)
    Feature feature{}; ///< the current family (ids)

    /// Next shape id of the current feature (1000 * code + n, n from 1).
    geo::ShapeId shape_id();
    kcc::CharacterId character_id();

    /// An axis-aligned or yawed box; `center` in world coordinates.
    geo::ShapeId box(const Vec3& center, const Vec3& half, Scalar yaw_deg = Scalar{});
    /// A box resting on the floor (y from 0 to height) of the lot: centre at lot + local (x, z)
    /// turned by yaw about the lot's origin.
    geo::ShapeId standing_box(Scalar x, Scalar z, const Vec3& half, Scalar yaw_deg,
                              const Mat3& turn);

    /// Spec defaults, or (kSettings) random ones that kcc::validate accepts.
    kcc::Settings settings();
    CharacterDef& character(const Vec3& spawn, const kcc::Settings& s);

    /// Seconds -> ticks at the run's rate (rounded up).
    int64_t ticks_of_ms(int64_t ms) const { return (ms * rate + 999) / 1000; }
    Scalar dt() const { return Scalar::ratio(1, rate); }
    Scalar seconds(int64_t t) const { return Scalar::ratio(t, rate); }

    /// State expectation over ticks [from, to] of one character (kNoId: every character).
    void expect_state(const std::string& rule, kcc::CharacterId id, int64_t from, int64_t to,
                      StateField f, std::optional<Scalar> min, std::optional<Scalar> max);
    void expect_grounded(const std::string& rule, kcc::CharacterId id, int64_t from, int64_t to,
                         bool grounded, std::optional<uint32_t> platform = std::nullopt);
    void expect_metric(const std::string& rule, kcc::CharacterId id, Metric m,
                       std::optional<Scalar> min, std::optional<Scalar> max);
    /// The horizontal speed a full stick of magnitude `mag` asks for (dead zone remapped).
    static Scalar target_speed(const kcc::Settings& s, Scalar mag);

    /// Holds a stick on [from, to) for the character (appended; segments must ascend).
    static void hold(CharacterDef& c, int64_t from, int64_t to, Scalar x, Scalar y);

private:
    /// A state item of the next index, its rule recorded.
    StateExpectation state_item(const std::string& rule, kcc::CharacterId id, int64_t from,
                                int64_t to);
    int next_expect_ = 0;
    int next_shape_[kFeatureCount + 1] = {};
    int next_character_[kFeatureCount + 1] = {};
};

// The families (one lot each). gen_walls.cpp, gen_ground.cpp, gen_bodies.cpp.
void gen_wall_joint(Gen& g);
void gen_corner(Gen& g);
void gen_union(Gen& g);
void gen_slot(Gen& g);
void gen_seams(Gen& g);
void gen_step(Gen& g);
void gen_ledge(Gen& g);
void gen_slope(Gen& g);
void gen_ceiling(Gen& g);
void gen_platform(Gen& g);
void gen_crush(Gen& g);
void gen_crowd(Gen& g);
void gen_roam(Gen& g);
void gen_lifecycle(Gen& g);
void gen_notch(Gen& g);

} // namespace fx::harness::swarm
