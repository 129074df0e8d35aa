// The bounds a scenario file's numbers must keep (docs/scenarios.md, "Numbers"), in the library
// so that the harness's loader and kcc::Recorder, which writes scenarios, hold the same ones: a
// recording the loader would refuse is refused when it is made or written, with the reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fx/mat3.h"

#include "fx/vec3.h"
#include "kcc/settings.h"

namespace fx::kcc::limits {

inline constexpr int64_t kMaxId = 4000000000; ///< shape, platform and character ids
inline constexpr int64_t kMaxTicks = 10000000; ///< ticks of a run, waypoint and segment ticks
inline constexpr int64_t kMaxCharacters = 4096; ///< character entries (rejoins counted)
inline constexpr int64_t kMaxCoordinate = 1000000; ///< |x| of centres, points, vertices, spawns
inline constexpr int64_t kMaxSize = 100000; ///< half extents, radii: at most (m)
inline constexpr int64_t kMinSizeMillimetres = 1; ///< ... and at least 0.001 m
inline constexpr int64_t kMaxAngle = 3600; ///< degrees (slope limits, rotations)
inline constexpr int64_t kMaxSpeed = 1000; ///< m/s (max_speed, jump_speed, impulses, platforms)
inline constexpr int64_t kMaxAccel = 10000; ///< m/s^2 (gravity, accelerations)
inline constexpr int64_t kMaxTurnRate = 36000; ///< deg/s
inline constexpr int64_t kMaxDeadZonePercent = 99; ///< dead_zone in [0, 0.99]
inline constexpr int64_t kMaxTicksPerFrame = 1000; ///< max_ticks_per_frame
inline constexpr uint64_t kMaxScenarioBytes = uint64_t{2} << 20; ///< a scenario file: 2 MiB
/// A rotation matrix's rows are unit and at right angles within 2^-kRotationToleranceBits.
inline constexpr int kRotationToleranceBits = 20;

/// A scenario's name (it names golden files): 1 to 64 characters, [a-z0-9][a-z0-9._-]*.
bool valid_scenario_name(std::string_view name);
/// "" when r is a rotation a scenario can hold (rows of unit length at right angles within
/// 2^-kRotationToleranceBits, right-handed), else what is not: "row 1 of length^2 0.81",
/// "rows 0 and 1 with dot product 0.5", "a reflection (its determinant is -1)".
std::string rotation_error(const Mat3& r);

/// "" when every component is within kMaxCoordinate, else "<what> (x, y, z): a coordinate
/// beyond 1000000 m".
std::string coordinate_error(const char* what, const Vec3& v);
/// "" when v is a size a scenario can hold (0.001 to 100000 m), else why not.
std::string size_error(const char* what, Scalar v);
/// "" when the settings are within the scenario's bounds (beyond kcc::validate: speeds,
/// accelerations, angles, the dead zone, max_ticks_per_frame), else the first setting that is not.
std::string settings_error(const Settings& s);

} // namespace fx::kcc::limits
