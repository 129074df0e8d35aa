// The swarm's scenario generator (docs/swarm.md, "Grammar"): a run's world, characters, inputs
// and spec-derived expectations from its seed alone, integer arithmetic only, so the same seed
// and run index give the same scenario, byte for byte, on every target.
//
// A run enables a random subset of the allowed features (swarm testing: Groce et al., "Swarm
// Testing", ISSTA 2012). Each "family" feature builds its own lot of the level, 40 m apart along
// x, with the characters that test it; "modifier" features change the whole run (tick rate and
// frames, far-from-origin offset, random settings, runtime changes, roaming input). Every shape
// and character id is 1000 * (feature code) + n, so the features a scenario still holds after
// shrinking can be read from its ids (features_of); a crowd's characters are 1000 * code +
// 100 * (arrangement + 1) + n (spread, cluster, coincident, wall, corner).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fx/vec3.h"
#include "scenario/scenario.h"

namespace fx::harness::swarm {

enum class Feature : uint8_t {
    kWallJoint, ///< walls of boxes laid end to end, rotated, joints exact, overlapping, gapped or
                ///< tilted
    kCorner, ///< two walls meeting at an angle, a body pushed into the corner
    kUnion, ///< overlapping solids, a body spawned inside their union
    kSlot, ///< a slot narrower than the body, the body spawned in it
    kSeams, ///< raised floors of triangle meshes with shared edges, tiles of boxes, both side by
            ///< side
    kStep, ///< single steps and stairs on both sides of step_height
    kLedge, ///< drops on both sides of snap_distance, walked off at swept angles, speeds, phases
    kSlope, ///< ramps on both sides of the slope enter and stay angles
    kCeiling, ///< a ceiling over a step, on both sides of height + step_height
    kPlatform, ///< moving platforms (horizontal, vertical, diagonal, fast), riders idle or jumping
    kCrush, ///< a platform that lifts its rider into a ceiling
    kCrowd, ///< crowds spread, clustered, coincident, against a wall, in a corner
    kRoam, ///< roaming characters among obstacles: held sticks, random walks, dead-zone edges, jump
           ///< spam, impulses
    kLifecycle, ///< joins, leaves, teleports and settings changes (with a teleport and a settings
                ///< change at one tick)
    kNotch, ///< two round obstacles (pillars, idle characters) closer than the body's width, the
            ///< body held into the notch between them
    kFrames, ///< tick rates other than 50 Hz and display frame schedules
    kOffset, ///< the whole run far from the origin
    kSettings, ///< random settings per character (sizes, speeds, thresholds)
    kCount,
};
inline constexpr int kFeatureCount = static_cast<int>(Feature::kCount);
using FeatureMask = uint32_t;
inline constexpr FeatureMask kAllFeatures = (FeatureMask{1} << kFeatureCount) - 1;
constexpr FeatureMask bit(Feature f) {
    return FeatureMask{1} << static_cast<int>(f);
}

struct FeatureInfo {
    const char* name;
    const char* what;
    bool family; ///< builds a lot of its own (else a modifier of the whole run)
};
std::span<const FeatureInfo> feature_info();
/// "wall-joint,crowd" -> mask; "all" -> every feature. False with *error naming the unknown one.
bool parse_features(const std::string& list, FeatureMask* out, std::string* error);
/// The mask as names, comma-separated, in the table's order.
std::string feature_names(FeatureMask mask);
/// The features whose ids a scenario holds (shapes, platforms, characters), plus the modifiers
/// visible in it (frames or a tick rate other than 50, an offset is not visible: see run notes).
FeatureMask features_of(const Scenario& sc);

/// A rule the generator derived from KCC-SPEC for characters it made, which an oracle of
/// oracles.h checks on every run (beside the scenario's own expectations).
struct CrowdRule {
    std::vector<kcc::CharacterId> ids; ///< the crowd
    int64_t from = 0; ///< from this tick on they must be apart
};
struct RestRule {
    kcc::CharacterId id = 0;
    int64_t from = 0; ///< from this tick on it rests one skin from every static surface
    Vec3 spawn; ///< with max_travel: it got out by at most that far from here
    Scalar max_travel; ///< 0: not checked
};

struct GeneratedRun {
    uint64_t seed = 0;
    int64_t index = 0;
    FeatureMask features = 0;
    std::string yaml; ///< the emitted scenario (format 1)
    Scenario scenario; ///< yaml loaded back: what every oracle runs
    /// Per `expect` item (SourceRef::index): the rule it states ("wall-slide", "ledge-fall", ...).
    std::vector<std::string> expect_rules;
    std::vector<CrowdRule> crowds;
    std::vector<RestRule> rests;
};

/// Generates run `index` of the swarm seeded `seed`, with a random non-empty subset of
/// `allowed` (every allowed feature when `all_of_them`). False with *error only when the
/// generated text does not load back (a generator bug: reported as a finding by the caller).
bool generate_run(uint64_t seed, int64_t index, FeatureMask allowed, bool all_of_them,
                  GeneratedRun* out, std::string* error);

} // namespace fx::harness::swarm
