// Per-character settings of the kinematic character controller (KCC-SPEC.md), with the
// spec's defaults, and the values derived from them once when a character is created.
//
// Every number is exact: decimal defaults are Scalar::ratio of integers, slope thresholds are
// cosines computed once by fx::sincos_deg. Units are metres, seconds and degrees as stated.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fx/scalar.h"
#include "fx/vec3.h"
#include "fx/wide.h"

namespace fx::kcc {

/// Hard capacities of the fixed-size buffers used during a tick (no allocation per tick).
inline constexpr int kMaxProbeHits = 8; ///< ground probe hits kept (spec: up to 8)
inline constexpr int kMaxSlideIterations = 8; ///< upper bound for Settings::max_slide_iterations
inline constexpr int kMaxPlanes = 8; ///< planes remembered by one collide-and-slide pass
inline constexpr int kMaxContacts = 8; ///< overlaps resolved by depenetration per tick
/// Every length setting (radius, height, skin, probe_distance, probe_skin, snap_distance,
/// depenetration_cap, step_height, step_min_forward) is at most this many metres: the casts
/// that probe, snap and step settings produce stay where the geometry's exact products fit
/// (docs/numeric.md; the bounds generator, tests/harness/bounds_test.cpp, runs scenarios there
/// on a checked build).
inline constexpr int kMaxSettingLengthMetres = 1000;
/// The working volume and the speed bound (docs/numeric.md, "Bodies that leave the working
/// volume"): a body whose feet end a tick with a coordinate 2^20 m (1,048,576 m: the loader's
/// coordinate bound of 1,000,000 m plus 48 km) or more from the origin, or whose velocity after the
/// input (acceleration, gravity, jump and impulses, added up) is faster than 4096 m/s, is halted:
/// it keeps that position and velocity, `CharacterState::halted` is set, and it is never moved
/// again. Beyond them the arithmetic would leave the range the geometry is proven in (a tick's
/// motion below kMaxLocalExtent, 16 km, at 1 Hz) and, given enough ticks, the Scalar range
/// itself; the harness reports a halt as a failure (exit 1) in every build.
inline constexpr int64_t kWorkingVolumeMetres = int64_t{1} << 20;
inline constexpr int64_t kMaxBodySpeedMetresPerSecond = int64_t{1} << 12;

struct Settings {
    // ---- the capsule ----
    Scalar radius = Scalar::ratio(4, 10); ///< m. Capsule radius.
    Scalar height = Scalar::ratio(18, 10); ///< m. Total height, feet to top (>= 2 * radius).
    /// m. Gap kept between the capsule and anything it slides against. Too small: exact contacts
    /// turn into penetrations and jitter; too large: visible floating (articles: 0.01-0.02).
    Scalar skin = Scalar::ratio(15, 1000);

    // ---- ground ----
    Scalar max_slope_enter_deg =
        Scalar::from_int(55); ///< deg. Steepest ground to become grounded on.
    Scalar max_slope_stay_deg = Scalar::from_int(58); ///< deg. Steepest ground to stay grounded on
                                                      ///< (> enter: hysteresis against flicker).
    Scalar probe_distance = Scalar::ratio(15, 100); ///< m. Length of the downward capsule probe.
    /// m. A probe hit within skin + probe_skin counts as touching (grounded). Larger values make
    /// the body "grounded" while visibly above the floor.
    Scalar probe_skin = Scalar::ratio(2, 100);
    int probe_max_hits = 8; ///< Probe hits considered (1..kMaxProbeHits).
    /// m. Downward sweep after the passes that keeps a grounded body on descents and stairs.
    Scalar snap_distance = Scalar::ratio(3, 10);

    // ---- depenetration ----
    /// m. Largest total push-out per tick. Without it a bad collider throws bodies through walls.
    Scalar depenetration_cap = Scalar::ratio(2, 10);

    // ---- collide-and-slide and steps ----
    int max_slide_iterations = 4; ///< Sweeps per pass (1..kMaxSlideIterations); rest dropped.
    Scalar step_height =
        Scalar::ratio(35, 100); ///< m. Highest step climbed (0.2 no loss, 0.4 blocks).
    /// m. Shortest forward of a step-up that lands nowhere standable with less. The capsule's
    /// round base stopped at a step edge needs to move this far over it to land on ground it can
    /// stand on; the blocked motion of one tick is often only millimetres. A shorter forward
    /// holds the body at the riser until its motion adds up to this (CharacterState::step_hold).
    /// Larger: a slow walker waits longer at each riser.
    Scalar step_min_forward = Scalar::ratio(1, 10);

    // ---- velocity ----
    Scalar max_speed = Scalar::ratio(62, 10); ///< m/s. Ground speed at full stick; air clamp.
    Scalar ground_accel =
        Scalar::from_int(45); ///< m/s^2. The ground speed's rise toward the stick's speed.
    /// m/s^2. The ground speed's change when the stick asks for less speed than the body runs
    /// at, or is released (see apply_input). 60 stops 6.2 m/s in 6 ticks at 50 Hz
    /// (~100-120 ms). Keep 1.3-1.5x ground_accel.
    Scalar ground_brake = Scalar::from_int(60);
    Scalar air_accel = Scalar::from_int(12); ///< m/s^2. Air control; there is no air braking.
    Scalar jump_speed = Scalar::from_int(5); ///< m/s. Upward velocity of a jump.
    Scalar gravity = Scalar::ratio(981, 100); ///< m/s^2. Downward.
    Scalar dead_zone = Scalar::ratio(15, 100); ///< Stick magnitude below which input is zero.
    Scalar turn_rate_deg = Scalar::from_int(720); ///< deg/s. Facing turn rate.

    // ---- other characters ----
    /// Whether this character is a solid capsule to the other characters that are (both ways:
    /// off, a ghost or a spectator, it passes through every character and every character
    /// through it). docs/controller.md, "Characters".
    bool collide_characters = true;

    // ---- time ----
    int tick_rate_hz = 50; ///< Fixed simulation rate.
    int max_ticks_per_frame = 4; ///< Frame clock cap (after a hitch the rest is dropped).
};

/// Values derived from Settings once (never per tick).
struct Params {
    Settings s;
    Scalar dt; ///< s, 1 / tick_rate_hz
    Scalar cos_enter; ///< cos(max_slope_enter_deg): normal.y >= this to become grounded
    Scalar cos_stay; ///< cos(max_slope_stay_deg): normal.y >= this to stay grounded
    Scalar turn_per_tick; ///< rad, turn_rate * dt
    Scalar ground_band; ///< m, skin + probe_skin: probe hits this close are "touching"
    // Products of settings every tick uses, computed once (the same operations, the same bits).
    Scalar accel_step; ///< m/s, ground_accel * dt
    Scalar brake_step; ///< m/s, ground_brake * dt
    Scalar air_accel_step; ///< m/s, air_accel * dt
    Scalar gravity_step; ///< m/s, gravity * dt
    Scalar region_speed; ///< m/s, max(max_speed, jump_speed): tick_region's least speed
    wide::Default::T region_speed_sq; ///< region_speed^2, exactly (raw^2, 128 bits)
    /// m, step_height - skin + four contact tolerances: select_ground's highest edge above the
    /// feet on level ground (the step-up's rounding allowance of a rise, as in slide.cpp)
    Scalar edge_allowance;
    Scalar region_margin; ///< m, max(step_height, snap_distance, probe_distance) + step_min_forward
                          ///< + 2 skin
    Vec3 region_lo,
        region_hi; ///< m, tick_region of a body at the origin no faster than region_speed
    Scalar grown_radius; ///< m, radius + skin: the grown capsule's radius (grown_capsule_at)
    Scalar grown_low, grown_high; ///< m, heights of the grown capsule's segment ends above the feet
};

/// Checks the settings' ranges; on failure writes a message naming the field and returns false.
bool validate(const Settings& s, std::string* error);

/// The settings of `s` that differ from `base`, as (scenario key, value text) in Settings order:
/// the keys of a scenario's `settings:` (docs/scenarios.md), values as fx::to_string_shortest
/// (which the scenario loader reads back to the same bits), integers in decimal, booleans as
/// true / false. tick_rate_hz is left out (a scenario gives it once, as `tick_rate`). The
/// harness's scenario writer and kcc::Recorder write settings with it.
std::vector<std::pair<std::string, std::string>> settings_diff(const Settings& s,
                                                               const Settings& base);
/// Derives Params (validate() first).
Params make_params(const Settings& s);

} // namespace fx::kcc
