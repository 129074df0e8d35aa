// The bounds a scenario file's numbers must keep (docs/scenarios.md, "Numbers"), in the library
// so that the harness's loader and kcc::Recorder, which writes scenarios, hold the same ones: a
// recording the loader would refuse is refused when it is made or written, with the reason.
#pragma once

#include <cstdint>
#include <string>

#include "fx/vec3.h"
#include "kcc/settings.h"

namespace fx::kcc::limits {

inline constexpr int64_t kMaxId = 4000000000;      ///< shape, platform and character ids
inline constexpr int64_t kMaxTicks = 10000000;     ///< ticks of a run, waypoint and segment ticks
inline constexpr int64_t kMaxCharacters = 4096;    ///< character entries (rejoins counted)
inline constexpr int64_t kMaxCoordinate = 1000000; ///< |x| of centres, points, vertices, spawns
inline constexpr int64_t kMaxSize = 100000;        ///< half extents, radii: at most (m)
inline constexpr int64_t kMinSizeMillimetres = 1;  ///< ... and at least 0.001 m
inline constexpr int64_t kMaxAngle = 3600;         ///< degrees (slope limits, rotations)
inline constexpr int64_t kMaxSpeed = 1000;         ///< m/s (max_speed, jump_speed, impulses, platforms)
inline constexpr int64_t kMaxAccel = 10000;        ///< m/s^2 (gravity, accelerations)
inline constexpr int64_t kMaxTurnRate = 36000;     ///< deg/s
inline constexpr int64_t kMaxDeadZonePercent = 99; ///< dead_zone in [0, 0.99]
inline constexpr int64_t kMaxTicksPerFrame = 1000; ///< max_ticks_per_frame

/// "" when every component is within kMaxCoordinate, else "<what> (x, y, z): a coordinate
/// beyond 1000000 m".
std::string coordinate_error(const char* what, const Vec3& v);
/// "" when v is a size a scenario can hold (0.001 to 100000 m), else why not.
std::string size_error(const char* what, Scalar v);
/// "" when the settings are within the scenario's bounds (beyond kcc::validate: speeds,
/// accelerations, angles, the dead zone, max_ticks_per_frame), else the first setting that is not.
std::string settings_error(const Settings& s);

} // namespace fx::kcc::limits
