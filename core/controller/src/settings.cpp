#include "kcc/settings.h"

#include "kcc/scenario_limits.h"
#include "kcc/world.h" // tick_region

#include "fx/decimal.h"
#include "fx/trig.h"

namespace fx::kcc {

namespace {
bool fail(std::string* error, const char* message) {
    if (error != nullptr) *error = message;
    return false;
}
} // namespace

bool validate(const Settings& s, std::string* error) {
    const Scalar zero{};
    // Lengths first, so that the message names the one out of range (at most 1000 m each).
    const struct {
        const char* message;
        Scalar value;
    } lengths[] = {{"radius: must be at most 1000 m", s.radius},
                   {"height: must be at most 1000 m", s.height},
                   {"skin: must be at most 1000 m", s.skin},
                   {"probe_distance: must be at most 1000 m", s.probe_distance},
                   {"probe_skin: must be at most 1000 m", s.probe_skin},
                   {"snap_distance: must be at most 1000 m", s.snap_distance},
                   {"depenetration_cap: must be at most 1000 m", s.depenetration_cap},
                   {"step_height: must be at most 1000 m", s.step_height},
                   {"step_min_forward: must be at most 1000 m", s.step_min_forward}};
    static_assert(kMaxSettingLengthMetres == 1000, "the messages above name the bound");
    for (const auto& l : lengths) {
        if (l.value > Scalar::from_int(kMaxSettingLengthMetres)) return fail(error, l.message);
    }
    if (s.radius <= zero) return fail(error, "radius: must be > 0");
    if (s.height < s.radius.mul_int(2)) return fail(error, "height: must be >= 2 * radius");
    if (s.skin <= zero || s.skin >= s.radius) return fail(error, "skin: must be in (0, radius)");
    if (s.max_slope_enter_deg <= zero || s.max_slope_enter_deg > s.max_slope_stay_deg ||
        s.max_slope_stay_deg >= Scalar::from_int(90))
        return fail(error, "max_slope_enter_deg/max_slope_stay_deg: need 0 < enter <= stay < 90");
    if (s.probe_distance <= zero) return fail(error, "probe_distance: must be > 0");
    if (s.probe_skin < zero) return fail(error, "probe_skin: must be >= 0");
    if (s.probe_max_hits < 1 || s.probe_max_hits > kMaxProbeHits)
        return fail(error, "probe_max_hits: must be in [1, 8]");
    if (s.snap_distance < zero) return fail(error, "snap_distance: must be >= 0");
    if (s.depenetration_cap <= zero) return fail(error, "depenetration_cap: must be > 0");
    if (s.max_slide_iterations < 1 || s.max_slide_iterations > kMaxSlideIterations)
        return fail(error, "max_slide_iterations: must be in [1, 8]");
    if (s.step_height < zero) return fail(error, "step_height: must be >= 0");
    if (s.step_min_forward < zero) return fail(error, "step_min_forward: must be >= 0");
    if (s.max_speed < zero || s.ground_accel < zero || s.ground_brake < zero ||
        s.air_accel < zero || s.jump_speed < zero || s.gravity < zero || s.turn_rate_deg < zero)
        return fail(error, "speeds, accelerations, gravity and turn rate must be >= 0");
    if (s.dead_zone < zero || s.dead_zone >= Scalar::one())
        return fail(error, "dead_zone: must be in [0, 1)");
    if (s.tick_rate_hz < 1 || s.tick_rate_hz > 1000)
        return fail(error, "tick_rate_hz: must be in [1, 1000]");
    if (s.max_ticks_per_frame < 1) return fail(error, "max_ticks_per_frame: must be >= 1");
    return true;
}

Params make_params(const Settings& s) {
    Params p;
    p.s = s;
    p.dt = Scalar::ratio(1, s.tick_rate_hz);
    p.cos_enter = sincos_deg(s.max_slope_enter_deg).cos;
    p.cos_stay = sincos_deg(s.max_slope_stay_deg).cos;
    p.turn_per_tick = deg_to_rad(s.turn_rate_deg).div_int(s.tick_rate_hz);
    p.ground_band = s.skin + s.probe_skin;
    p.accel_step = s.ground_accel * p.dt;
    p.brake_step = s.ground_brake * p.dt;
    p.air_accel_step = s.air_accel * p.dt;
    p.gravity_step = s.gravity * p.dt;
    p.region_speed = max(s.max_speed, s.jump_speed);
    p.region_speed_sq =
        wide::Default::umul(wide::uabs(p.region_speed.raw()), wide::uabs(p.region_speed.raw()));
    p.edge_allowance = s.step_height - s.skin + Scalar::from_raw(geo::kContactTolerance.raw() * 4);
    p.region_margin = max(max(s.step_height, s.snap_distance), s.probe_distance) +
                      s.step_min_forward + s.skin.mul_int(2);
    const geo::Aabb origin = region_at_speed(Vec3{}, p.region_speed, p);
    p.region_lo = origin.lo;
    p.region_hi = origin.hi;
    p.grown_radius = s.radius + s.skin;
    p.grown_low = s.radius + grown_base_lift(p);
    p.grown_high = s.height - p.grown_radius;
    if (p.grown_high < p.grown_low)
        p.grown_low = p.grown_high = s.height.div_int(2); // shorter than 2 * radius + skin + lift
    return p;
}

std::vector<std::pair<std::string, std::string>> settings_diff(const Settings& s,
                                                               const Settings& base) {
    std::vector<std::pair<std::string, std::string>> out;
    auto scalar = [&](const char* key, Scalar v, Scalar b) {
        if (v != b) out.emplace_back(key, to_string_shortest(v));
    };
    auto integer = [&](const char* key, int v, int b) {
        if (v != b) out.emplace_back(key, std::to_string(v));
    };
    scalar("radius", s.radius, base.radius);
    scalar("height", s.height, base.height);
    scalar("skin", s.skin, base.skin);
    scalar("max_slope_enter_deg", s.max_slope_enter_deg, base.max_slope_enter_deg);
    scalar("max_slope_stay_deg", s.max_slope_stay_deg, base.max_slope_stay_deg);
    scalar("probe_distance", s.probe_distance, base.probe_distance);
    scalar("probe_skin", s.probe_skin, base.probe_skin);
    integer("probe_max_hits", s.probe_max_hits, base.probe_max_hits);
    scalar("snap_distance", s.snap_distance, base.snap_distance);
    scalar("depenetration_cap", s.depenetration_cap, base.depenetration_cap);
    integer("max_slide_iterations", s.max_slide_iterations, base.max_slide_iterations);
    scalar("step_height", s.step_height, base.step_height);
    scalar("step_min_forward", s.step_min_forward, base.step_min_forward);
    scalar("max_speed", s.max_speed, base.max_speed);
    scalar("ground_accel", s.ground_accel, base.ground_accel);
    scalar("ground_brake", s.ground_brake, base.ground_brake);
    scalar("air_accel", s.air_accel, base.air_accel);
    scalar("jump_speed", s.jump_speed, base.jump_speed);
    scalar("gravity", s.gravity, base.gravity);
    scalar("dead_zone", s.dead_zone, base.dead_zone);
    scalar("turn_rate_deg", s.turn_rate_deg, base.turn_rate_deg);
    integer("max_ticks_per_frame", s.max_ticks_per_frame, base.max_ticks_per_frame);
    if (s.collide_characters != base.collide_characters)
        out.emplace_back("collide_characters", s.collide_characters ? "true" : "false");
    return out;
}

namespace limits {

std::string coordinate_error(const char* what, const Vec3& v) {
    const Scalar m = Scalar::from_int(kMaxCoordinate);
    for (const Scalar c : {v.x, v.y, v.z}) {
        if (c > m || c < -m) {
            return std::string(what) + " (" + to_string_shortest(v.x) + ", " +
                   to_string_shortest(v.y) + ", " + to_string_shortest(v.z) +
                   "): a coordinate beyond " + std::to_string(kMaxCoordinate) + " m";
        }
    }
    return "";
}

bool valid_scenario_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) return false;
    }
    return true;
}

std::string rotation_error(const Mat3& r) {
    const Scalar tol = Scalar::from_raw(int64_t{1} << (Scalar::kFracBits - kRotationToleranceBits));
    for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
            const Scalar d = dot(r.row[i], r.row[j]) - (i == j ? Scalar::one() : Scalar{});
            if (d > tol || d < -tol) {
                return i == j ? "row " + std::to_string(i) + " of length^2 " +
                                    to_string_shortest(d + Scalar::one())
                              : "rows " + std::to_string(i) + " and " + std::to_string(j) +
                                    " with dot product " + to_string_shortest(d);
            }
        }
    }
    if (dot(r.row[0], cross(r.row[1], r.row[2])) < Scalar{})
        return "a reflection (its determinant is -1)";
    return "";
}

std::string size_error(const char* what, Scalar v) {
    if (v < Scalar::ratio(kMinSizeMillimetres, 1000) || v > Scalar::from_int(kMaxSize)) {
        return std::string(what) + " " + to_string_shortest(v) + " m: a size from 0.001 to " +
               std::to_string(kMaxSize) + " m";
    }
    return "";
}

std::string settings_error(const Settings& s) {
    auto beyond = [](Scalar v, int64_t bound) {
        return v > Scalar::from_int(bound) || v < -Scalar::from_int(bound);
    };
    auto say = [](const char* key, Scalar v, const std::string& range) {
        return std::string(key) + " " + to_string_shortest(v) + ": a scenario holds " + range;
    };
    const struct {
        const char* key;
        Scalar v;
        int64_t bound;
        const char* range;
    } bounded[] = {
        {"radius", s.radius, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"height", s.height, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"skin", s.skin, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"probe_distance", s.probe_distance, kMaxSettingLengthMetres,
         "lengths from -1000 to 1000 m"},
        {"probe_skin", s.probe_skin, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"snap_distance", s.snap_distance, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"depenetration_cap", s.depenetration_cap, kMaxSettingLengthMetres,
         "lengths from -1000 to 1000 m"},
        {"step_height", s.step_height, kMaxSettingLengthMetres, "lengths from -1000 to 1000 m"},
        {"step_min_forward", s.step_min_forward, kMaxSettingLengthMetres,
         "lengths from -1000 to 1000 m"},
        {"max_slope_enter_deg", s.max_slope_enter_deg, kMaxAngle,
         "angles from -3600 to 3600 degrees"},
        {"max_slope_stay_deg", s.max_slope_stay_deg, kMaxAngle,
         "angles from -3600 to 3600 degrees"},
        {"max_speed", s.max_speed, kMaxSpeed, "speeds from -1000 to 1000 m/s"},
        {"jump_speed", s.jump_speed, kMaxSpeed, "speeds from -1000 to 1000 m/s"},
        {"ground_accel", s.ground_accel, kMaxAccel, "accelerations from -10000 to 10000 m/s^2"},
        {"ground_brake", s.ground_brake, kMaxAccel, "accelerations from -10000 to 10000 m/s^2"},
        {"air_accel", s.air_accel, kMaxAccel, "accelerations from -10000 to 10000 m/s^2"},
        {"gravity", s.gravity, kMaxAccel, "accelerations from -10000 to 10000 m/s^2"},
        {"turn_rate_deg", s.turn_rate_deg, kMaxTurnRate, "turn rates from -36000 to 36000 deg/s"},
    };
    for (const auto& b : bounded) {
        if (beyond(b.v, b.bound)) return say(b.key, b.v, b.range);
    }
    if (s.dead_zone < Scalar{} || s.dead_zone > Scalar::ratio(kMaxDeadZonePercent, 100))
        return say("dead_zone", s.dead_zone, "dead zones from 0 to 0.99");
    if (s.max_ticks_per_frame < 1 || s.max_ticks_per_frame > kMaxTicksPerFrame)
        return "max_ticks_per_frame " + std::to_string(s.max_ticks_per_frame) +
               ": a scenario holds 1 to 1000";
    if (s.tick_rate_hz < 1 || s.tick_rate_hz > 1000)
        return "tick_rate_hz " + std::to_string(s.tick_rate_hz) + ": a scenario holds 1 to 1000 Hz";
    return "";
}

} // namespace limits

} // namespace fx::kcc
