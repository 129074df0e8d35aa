// The generator's driver: the features of a run, its rate, length and floor, the lots of its
// families, the modifiers of the whole run, and the text it emits (swarm/generate.h).
#include "swarm/generate.h"

#include <algorithm>

#include "gen_context.h"
#include "kcc/settings.h"
#include "scenario/loader.h"
#include "scenario/writer.h"
#include "swarm/metamorphic.h"

namespace fx::harness::swarm {

namespace {

constexpr FeatureInfo kFeatures[] = {
    {"wall-joint",
     "walls of boxes laid end to end (rotated; joints exact, overlapping, gapped, tilted), slid along",
     true},
    {"corner", "two walls meeting at an angle, a body pushed into the corner", true},
    {"union", "overlapping solids, a body spawned inside their union", true},
    {"slot", "a slot narrower than the body, the body idle in it", true},
    {"seams",
     "raised floors of meshes with shared edges, of box tiles, and both side by side, run across",
     true},
    {"step",
     "steps and stairs on both sides of step_height, walked into at swept angles and speeds", true},
    {"ledge",
     "drops on both sides of snap_distance, walked off at swept angles, speeds and tick phases",
     true},
    {"slope", "ramps on both sides of the slope enter and stay angles", true},
    {"ceiling", "a ceiling over a step, on both sides of height + step_height", true},
    {"platform", "moving platforms (horizontal, vertical, diagonal, fast), riders idle or jumping",
     true},
    {"crush", "a platform lifting its rider into a ceiling", true},
    {"crowd", "crowds spread, clustered, coincident, against a wall, in a corner", true},
    {"roam",
     "characters among obstacles: held sticks, random walks, dead-zone edges, jump spam, impulses",
     true},
    {"lifecycle",
     "joins, leaves, teleports and settings changes, a teleport and a settings change at one tick",
     true},
    {"notch",
     "two pillars or two idle characters closer than the body's width, a body held into the notch",
     true},
    {"frames", "tick rates other than 50 Hz and display frame schedules", false},
    {"offset", "the whole run translated far from the origin", false},
    {"settings", "random settings per character: sizes, speeds, accelerations, thresholds", false},
};
static_assert(std::size(kFeatures) == static_cast<size_t>(kFeatureCount));

using Family = void (*)(Gen&);
constexpr Family kFamilies[] = {gen_wall_joint, gen_corner, gen_union, gen_slot,      gen_seams,
                                gen_step,       gen_ledge,  gen_slope, gen_ceiling,   gen_platform,
                                gen_crush,      gen_crowd,  gen_roam,  gen_lifecycle, gen_notch};

constexpr int kLotSpacing = 80; ///< m between lots along x
constexpr int kFloorId = 1;

} // namespace

std::span<const FeatureInfo> feature_info() {
    return kFeatures;
}

bool parse_features(const std::string& list, FeatureMask* out, std::string* error) {
    FeatureMask m = 0;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = std::min(list.find(',', start), list.size());
        const std::string word = list.substr(start, end - start);
        if (word == "all") {
            m |= kAllFeatures;
        } else {
            int found = -1;
            for (int i = 0; i < kFeatureCount; ++i) {
                if (word == kFeatures[i].name) found = i;
            }
            if (found < 0) {
                std::string names;
                for (const FeatureInfo& f : kFeatures)
                    names += (names.empty() ? "" : ", ") + std::string(f.name);
                *error = "unknown feature '" + word +
                         "', expected 'all' or a comma-separated list of: " + names;
                return false;
            }
            m |= FeatureMask{1} << found;
        }
        start = end + 1;
    }
    if (m == 0) {
        *error = "expected at least one feature";
        return false;
    }
    *out = m;
    return true;
}

std::string feature_names(FeatureMask mask) {
    std::string s;
    for (int i = 0; i < kFeatureCount; ++i) {
        if (mask & (FeatureMask{1} << i))
            s += (s.empty() ? "" : ",") + std::string(kFeatures[i].name);
    }
    return s;
}

FeatureMask features_of(const Scenario& sc) {
    FeatureMask m = 0;
    auto tag = [&m](uint32_t id) {
        const uint32_t code = id / 1000;
        if (code >= 1 && code <= static_cast<uint32_t>(kFeatureCount))
            m |= FeatureMask{1} << (code - 1);
    };
    for (const BoxDef& b : sc.boxes)
        tag(b.id);
    for (const SphereDef& s : sc.spheres)
        tag(s.id);
    for (const CapsuleDef& c : sc.capsules)
        tag(c.id);
    for (const MeshDef& me : sc.meshes)
        tag(me.id);
    for (const PlatformDef& p : sc.platforms)
        tag(p.id);
    for (const CharacterDef& c : sc.characters)
        tag(c.id);
    if (!sc.frames.empty() || sc.tick_rate_hz != 50) m |= bit(Feature::kFrames);
    for (const PlaneDef& p : sc.planes) {
        if (p.id == kFloorId && p.offset.raw() != 0) m |= bit(Feature::kOffset);
    }
    const kcc::Settings def;
    for (const CharacterDef& c : sc.characters) {
        if (c.settings.radius != def.radius || c.settings.max_speed != def.max_speed)
            m |= bit(Feature::kSettings);
    }
    return m;
}

Vec3 horizontal_dir(Scalar deg) {
    const SinCos sc = sincos_deg(deg);
    return Vec3{sc.cos, Scalar{}, sc.sin};
}

geo::ShapeId Gen::shape_id() {
    const int code = static_cast<int>(feature) + 1;
    return static_cast<geo::ShapeId>(1000 * code + ++next_shape_[code]);
}
kcc::CharacterId Gen::character_id() {
    const int code = static_cast<int>(feature) + 1;
    return static_cast<kcc::CharacterId>(1000 * code + ++next_character_[code]);
}

geo::ShapeId Gen::box(const Vec3& center, const Vec3& half, Scalar yaw_deg) {
    BoxDef b;
    b.id = shape_id();
    b.center = center;
    b.half_extents = half;
    b.rotation.yaw = yaw_deg;
    sc.boxes.push_back(b);
    return b.id;
}

geo::ShapeId Gen::standing_box(Scalar x, Scalar z, const Vec3& half, Scalar yaw_deg,
                               const Mat3& turn) {
    return box(lot + turn * Vec3{x, half.y, z}, half, yaw_deg);
}

kcc::Settings Gen::settings() {
    kcc::Settings s;
    s.tick_rate_hz = rate;
    if (!random_settings || rng.chance(1, 4)) return s;
    kcc::Settings r = s;
    r.radius = rng.milli(250, 600);
    r.height = r.radius.mul_int(2) + rng.milli(100, 1400);
    r.skin = rng.milli(5, 30);
    r.step_height = rng.milli(150, 500);
    r.snap_distance = rng.milli(150, 450);
    r.probe_distance = rng.milli(80, 250);
    r.max_speed = rng.milli(2000, 9000);
    r.ground_accel = rng.milli(20000, 80000);
    r.ground_brake = r.ground_accel + rng.milli(0, 30000);
    r.air_accel = rng.milli(4000, 20000);
    r.jump_speed = rng.milli(3000, 7000);
    r.gravity = rng.milli(6000, 20000);
    r.max_slope_enter_deg = metres(rng.range(35, 60));
    r.max_slope_stay_deg = r.max_slope_enter_deg + metres(rng.range(0, 5));
    r.dead_zone = rng.milli(0, 300);
    r.depenetration_cap = rng.milli(100, 400);
    std::string why;
    return kcc::validate(r, &why) ? r : s;
}

CharacterDef& Gen::character(const Vec3& spawn, const kcc::Settings& s) {
    CharacterDef c;
    c.id = character_id();
    c.settings = s;
    c.spawn = spawn;
    c.input = SharedInput(InputStream{});
    sc.characters.push_back(std::move(c));
    return sc.characters.back();
}

namespace {

Check bound(std::optional<Scalar> min, std::optional<Scalar> max) {
    Check c;
    c.has_min = min.has_value();
    c.has_max = max.has_value();
    if (min) c.min = *min;
    if (max) c.max = *max;
    return c;
}

} // namespace

StateExpectation Gen::state_item(const std::string& rule, kcc::CharacterId id, int64_t from,
                                 int64_t to) {
    StateExpectation e;
    e.at.index = next_expect_++;
    e.from = std::max<int64_t>(0, from);
    e.to = std::min(to, ticks - 1);
    e.character = id;
    run.expect_rules.push_back(rule);
    return e;
}

void Gen::expect_state(const std::string& rule, kcc::CharacterId id, int64_t from, int64_t to,
                       StateField f, std::optional<Scalar> min, std::optional<Scalar> max) {
    StateExpectation e = state_item(rule, id, from, to);
    e.checks.push_back({f, bound(min, max)});
    sc.expect_states.push_back(e);
}

void Gen::expect_grounded(const std::string& rule, kcc::CharacterId id, int64_t from, int64_t to,
                          bool grounded, std::optional<uint32_t> platform) {
    StateExpectation e = state_item(rule, id, from, to);
    e.grounded = grounded ? 1 : 0;
    if (platform) {
        e.check_platform = true;
        e.platform = *platform;
    }
    sc.expect_states.push_back(e);
}

void Gen::expect_metric(const std::string& rule, kcc::CharacterId id, Metric m,
                        std::optional<Scalar> min, std::optional<Scalar> max) {
    MetricExpectation e;
    e.at.index = next_expect_++;
    e.character = id;
    e.checks.push_back({static_cast<int>(m), bound(min, max)});
    sc.expect_metrics.push_back(e);
    run.expect_rules.push_back(rule);
}

Scalar Gen::target_speed(const kcc::Settings& s, Scalar mag) {
    if (mag <= s.dead_zone) return Scalar{};
    const Scalar m = min(mag, Scalar::one());
    return s.max_speed * ((m - s.dead_zone) / (Scalar::one() - s.dead_zone));
}

void Gen::hold(CharacterDef& c, int64_t from, int64_t to, Scalar x, Scalar y) {
    if (to <= from) return;
    // A unit direction rounded to Q31.32 can have a component a few raw units past 1 (an axis
    // rotated by a yaw that is nearly a multiple of 90 degrees, then normalized); the format
    // takes components in [-1, 1], so such a stick is the full stick it stands for.
    auto unit = [](Scalar v) { return clamp(v, -Scalar::one(), Scalar::one()); };
    c.input.edit().sticks.push_back(StickSegment{from, to, unit(x), unit(y)});
}

namespace {

/// Display frames: 1 to 3 segments of 4 to 60 ms frames (a hitch of up to 250 ms now and then).
void add_frames(Gen& g) {
    const int segments = static_cast<int>(g.rng.range(1, 3));
    for (int i = 0; i < segments; ++i) {
        FrameSegment f;
        f.ns =
            g.rng.chance(1, 8) ? g.rng.range(100, 250) * 1000000 : g.rng.range(4000, 60000) * 1000;
        f.count = g.rng.range(1, 200);
        g.sc.frames.push_back(f);
    }
}

} // namespace

bool generate_run(uint64_t seed, int64_t index, FeatureMask allowed, bool all_of_them,
                  GeneratedRun* out, std::string* error) {
    GeneratedRun run;
    run.seed = seed;
    run.index = index;
    Rng rng(run_seed(seed, static_cast<uint64_t>(index)));
    FeatureMask on = 0;
    for (int i = 0; i < kFeatureCount; ++i) {
        const FeatureMask b = FeatureMask{1} << i;
        if ((allowed & b) && (all_of_them || rng.chance(1, 2))) on |= b;
    }
    FeatureMask families = 0;
    for (int i = 0; i < kFeatureCount; ++i) {
        if (kFeatures[i].family) families |= FeatureMask{1} << i;
    }
    if ((on & families) == 0) {
        // Every run has at least one family: one of the allowed ones, or roaming characters.
        std::vector<int> pick;
        for (int i = 0; i < kFeatureCount; ++i) {
            if ((allowed & families) & (FeatureMask{1} << i)) pick.push_back(i);
        }
        on |= pick.empty() ? bit(Feature::kRoam) : FeatureMask{1} << rng.pick(pick);
    }
    run.features = on;

    const bool frames = (on & bit(Feature::kFrames)) != 0;
    static const std::vector<int> kRates = {30, 60, 64, 100, 120};
    const int rate = frames ? rng.pick(kRates) : 50;
    const int64_t ms = rng.range(3000, 5000);
    const int64_t ticks = (ms * rate + 999) / 1000;

    Scenario& sc = run.scenario;
    sc.name = "swarm-" + std::to_string(seed) + "-" + std::to_string(index);
    sc.tick_rate_hz = rate;
    sc.ticks = ticks;
    sc.planes.push_back(PlaneDef{kFloorId, Vec3::unit_y(), Scalar{}, false});

    Gen g(rng, run, rate, ticks, (on & bit(Feature::kSettings)) != 0);
    int lot = 0;
    for (int i = 0; i < static_cast<int>(std::size(kFamilies)); ++i) {
        if (!(on & (FeatureMask{1} << i))) continue;
        g.feature = static_cast<Feature>(i);
        g.lot = Vec3{metres(kLotSpacing * lot++), Scalar{}, Scalar{}};
        kFamilies[i](g);
    }
    if (frames) add_frames(g);
    // (id, join): a rejoin shares its id, and sorting equal keys is not portable.
    std::sort(sc.characters.begin(), sc.characters.end(),
              [](const CharacterDef& a, const CharacterDef& b) {
                  return a.id != b.id ? a.id < b.id : a.join < b.join;
              });
    std::stable_sort(sc.events.begin(), sc.events.end(),
                     [](const EventDef& a, const EventDef& b) { return a.tick < b.tick; });
    if (on & bit(Feature::kOffset)) {
        const int64_t dx = rng.range(-100000, 100000), dy = rng.range(1, 1000);
        const int64_t sign = rng.chance(1, 2) ? 1 : -1;
        const Vec3 d{metres(dx), metres(dy * sign), metres(rng.range(-100000, 100000))};
        sc = translated(sc, d);
        for (RestRule& r : run.rests)
            r.spawn = r.spawn + d;
    }
    sc.description = "Generated by fxkcc swarm (seed " + std::to_string(seed) + ", run " +
                     std::to_string(index) + "; features " + feature_names(on) +
                     "). Expectations are the generator's, derived from " +
                     "KCC-SPEC (docs/swarm.md).";
    run.yaml = scenario_to_yaml(sc);
    Scenario loaded;
    LoadError le;
    if (!load_scenario_text(run.yaml, sc.name + ".yaml", "", LoadOptions{}, &loaded, &le)) {
        *error = "the generated scenario does not load: " + le.to_string();
        *out = std::move(run); // its index and text, to be emitted and reproduced
        return false;
    }
    run.scenario = std::move(loaded);
    *out = std::move(run);
    return true;
}

} // namespace fx::harness::swarm
