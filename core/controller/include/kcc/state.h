// Plain data of one character: its per-tick input, its full state, the ground it stands on.
#pragma once

#include <cstdint>

#include "fx/vec3.h"
#include "geo/shapes.h"

namespace fx::kcc {

using CharacterId = uint32_t;
/// Marks "no shape" / "no platform" in ids.
inline constexpr uint32_t kNoId = 0xFFFFFFFFu;

/// Input of one tick. stick.x maps to world +x, stick.y to world +z (the harness owns any camera
/// transform). Each component in [-1, 1]; magnitudes above 1 are clamped to 1.
struct Input {
    Scalar stick_x;
    Scalar stick_y;
    bool jump = false;
    /// m/s, added to the velocity this tick after the input update (knock-back).
    Vec3 impulse;
};

/// An impulse with each component limited to +-2^20 m/s: far beyond the speed bound (such a body
/// is halted, settings.h), and the sum with a velocity cannot overflow whatever a game passes.
/// The controller limits every impulse it is given; a caller that adds impulses up limits the
/// running sum the same way, so that no count of them can overflow it.
inline Vec3 limit_impulse(const Vec3& v) {
    const Scalar lim = Scalar::from_int(int64_t{1} << 20);
    return {min(max(v.x, -lim), lim), min(max(v.y, -lim), lim), min(max(v.z, -lim), lim)};
}

/// Feet outside the working volume: some coordinate at least 2^20 m (kWorkingVolumeMetres,
/// settings.h) from the origin. One OR of the magnitudes: |c| >= 2^20 m iff bit 52 or above
/// of the raw magnitude is set.
inline bool outside_working_volume(const Vec3& feet) {
    const uint64_t m =
        wide::uabs(feet.x.raw()) | wide::uabs(feet.y.raw()) | wide::uabs(feet.z.raw());
    return (m >> 52) != 0;
}

/// Result of the ground query.
struct Ground {
    bool grounded = false;
    Vec3 normal = Vec3::unit_y(); ///< unit; (0,1,0) when airborne
    geo::ShapeId shape = kNoId;
    Scalar distance; ///< probe distance to the chosen hit
    /// The chosen hit is on an edge or corner (a step's or a ledge's), not a face: its normal
    /// says how the capsule's round base rests on it, not which way the ground runs.
    bool edge = false;
    /// y of the chosen hit's contact point: on an edge, the height of the ledge or step the body
    /// is rolling over (the ground it may not descend from by more than snap_distance).
    Scalar support_y;
};

/// Everything that carries over from one tick to the next. Serialised by state_bytes.h.
struct CharacterState {
    CharacterId id = 0;
    Vec3 position; ///< m, the capsule's lowest point (feet)
    Vec3 velocity; ///< m/s. Horizontal part from input; y from jump/gravity (0 while grounded)
    /// m/s, the speed the body runs at on the ground: what the next tick's input update speeds
    /// up or brakes from. Differs from the horizontal speed only while a wall or a step takes
    /// part of the motion (the legs keep running; the slide loses the part into the wall);
    /// airborne, and after a tick that ends in the air, it is the horizontal speed.
    Scalar run_speed;
    /// m, horizontal motion held back at a riser the body cannot yet step onto (a step-up needs
    /// step_min_forward to land the round base on the step; a slow walker's tick is shorter):
    /// added to the next step-up's forward. 0 when the last tick did not stop at a riser.
    Scalar step_hold;
    /// rad, yaw in (-pi, pi]: 0 faces +z, pi/2 faces +x (atan2(dir.x, dir.z)).
    Scalar facing;
    bool grounded = false;
    Vec3 ground_normal = Vec3::unit_y();
    geo::ShapeId ground_shape = kNoId;
    uint32_t platform = kNoId; ///< platform id carrying the body (kNoId: none)
    Vec3 previous_position; ///< tick pose before the last tick (render interpolation)
    Scalar previous_facing;
    /// Left the working volume or passed the speed bound (settings.h, kWorkingVolumeMetres):
    /// no longer moved; position and velocity are those of the tick that halted it.
    bool halted = false;
};

} // namespace fx::kcc
