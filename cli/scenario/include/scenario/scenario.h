// A scenario as the harness runs it: level geometry, platforms, characters with their settings
// and recorded input, optional display frame times. Plain data, produced by the loader
// (scenario/loader.h) from a YAML file (schema: docs/scenarios.md), consumed by the runner.
//
// Every number is a fixed-point value converted exactly from the YAML text. Every world
// object carries the id the author gave it; ids are unique across shapes and platforms.
// Input is kept compact (segments and events, not one record per tick) so memory does not
// grow with the tick count.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fx/mat3.h"
#include "fx/vec3.h"
#include "geo/shapes.h"
#include "kcc/settings.h"
#include "kcc/state.h"
#include "kcc/world.h"

namespace fx::harness {

/// Scenario file format version this build reads (the `format:` key).
inline constexpr int kScenarioFormat = 1;

/// A rotation as the scenario gave it: [yaw, pitch, roll] degrees, or the exact matrix (rows),
/// as a recording writes it (docs/scenarios.md, "Rotations").
struct RotationDef {
    Scalar yaw, pitch, roll; ///< degrees (fx::Mat3::from_yaw_pitch_roll_degrees)
    bool is_matrix = false;
    Mat3 matrix; ///< when is_matrix
    Mat3 to_mat3() const {
        return is_matrix ? matrix : Mat3::from_yaw_pitch_roll_degrees(yaw, pitch, roll);
    }
    /// [0, 0, 0] degrees: the default, which the writer leaves out.
    bool is_default() const {
        return !is_matrix && yaw.raw() == 0 && pitch.raw() == 0 && roll.raw() == 0;
    }
};

struct BoxDef {
    geo::ShapeId id = 0;
    Vec3 center;
    Vec3 half_extents;
    RotationDef rotation;
};
struct PlaneDef {
    geo::ShapeId id = 0;
    Vec3 normal; ///< unit (the loader normalises what the author wrote, unless exact)
    Scalar offset;
    /// `exact: true`: the normal as written, already unit (a recording's form: normalising a
    /// normalised vector again can move it by a raw unit).
    bool exact = false;
};
struct SphereDef {
    geo::ShapeId id = 0;
    Vec3 center;
    Scalar radius;
};
struct CapsuleDef {
    geo::ShapeId id = 0;
    Vec3 a, b;
    Scalar radius;
};
struct MeshDef {
    geo::ShapeId id = 0;
    std::vector<Vec3> vertices;
    std::vector<uint32_t> indices; ///< triples
};

/// A moving platform: a kinematic box following waypoints (kcc::Platform semantics: linear
/// between waypoints, looping after the last).
struct PlatformDef {
    geo::ShapeId id = 0;
    Vec3 half_extents;
    RotationDef rotation;
    std::vector<kcc::Waypoint> waypoints; ///< ticks strictly increasing, first at tick 0
};

/// Hold a stick value over ticks [from, to).
struct StickSegment {
    int64_t from = 0;
    int64_t to = 0;
    Scalar x, y;
};
struct ImpulseEvent {
    int64_t tick = 0;
    Vec3 velocity; ///< m/s added that tick
};

/// A character's recorded input. Ticks not covered by a segment are idle (stick 0).
struct InputStream {
    std::vector<StickSegment> sticks; ///< ascending, non-overlapping
    std::vector<int64_t> jumps; ///< ticks where jump is pressed, ascending, unique
    std::vector<ImpulseEvent> impulses; ///< ascending tick (several per tick are summed)
};

/// A character's input stream, held once however many characters (and copies of the scenario)
/// use it: an input CSV referenced by 32 characters is parsed and stored once. Read through
/// `*input` or `input->sticks`; change through edit(), which copies a shared stream first.
class SharedInput {
public:
    SharedInput() = default;
    explicit SharedInput(InputStream s) : p_(std::make_shared<InputStream>(std::move(s))) {}
    const InputStream& operator*() const { return p_ ? *p_ : empty(); }
    const InputStream* operator->() const { return &**this; }
    /// The stream, to change: this character's own copy from now on.
    InputStream& edit() {
        if (!p_) {
            p_ = std::make_shared<InputStream>();
        } else if (p_.use_count() > 1) {
            p_ = std::make_shared<InputStream>(*p_);
        }
        return *p_;
    }

private:
    static const InputStream& empty() {
        static const InputStream none;
        return none;
    }
    std::shared_ptr<InputStream> p_;
};

/// One character's presence in the run: from world tick `join` (added before that tick's step;
/// 0: from the start) to world tick `leave` (removed before that tick's step; kNever: stays).
/// The same id may have several entries with disjoint presences (a rejoin).
struct CharacterDef {
    static constexpr int64_t kNever = -1;
    kcc::CharacterId id = 0;
    kcc::Settings settings; ///< at its join: spec defaults unless the scenario sets them
    Vec3 spawn; ///< feet position at its join
    int64_t join = 0;
    int64_t leave = kNever;
    SharedInput input; ///< ticks of the run (idle outside the presence)
    /// Present after the changes of world tick t (so in hash line t).
    bool present_at(int64_t t) const { return join <= t && (leave == kNever || t < leave); }
};

/// A change of a present character at world tick `tick` (after that tick's leaves and joins,
/// before its step; docs/scenarios.md, "Events").
struct EventDef {
    enum class Kind : uint8_t { kTeleport, kSettings };
    int64_t tick = 0;
    kcc::CharacterId character = 0;
    Kind kind = Kind::kTeleport;
    Vec3 feet; ///< kTeleport
    kcc::Settings settings; ///< kSettings: the character's whole settings from then on
    int line = 0; ///< where it was written (0: not from a file)
};

/// Display frame times for the frame clock: `count` frames of `ns` nanoseconds each.
struct FrameSegment {
    int64_t ns = 0;
    int64_t count = 0;
};

/// A bound on a value: `value` (exact: min == max), `[min, max]`, `{min: a}`, `{max: b}`.
struct Check {
    bool has_min = false, has_max = false;
    Scalar min, max;
    bool holds(Scalar v) const { return (!has_min || v >= min) && (!has_max || v <= max); }
};

/// Fields of a character's state that `expect` can bound (docs/scenarios.md, "Expectations").
enum class StateField : uint8_t {
    kX,
    kY,
    kZ,
    kVx,
    kVy,
    kVz,
    kSpeed,
    kHorizontalSpeed,
    kSurfaceSpeed,
    kGroundAngle,
    kFacing,
    kCharacterOverlap,
};
inline constexpr int kStateFieldCount = 12;

/// Where an expectation was written (for messages).
struct SourceRef {
    int index = 0; ///< position in `expect`
    int line = 0;
};

/// State checks at every tick of [from, to] for one character (or every character).
struct StateExpectation {
    SourceRef at;
    int64_t from = 0, to = 0; ///< inclusive
    uint32_t character = kcc::kNoId; ///< kNoId: every character
    int8_t grounded = -1; ///< -1: not checked, 0 / 1
    bool check_platform = false;
    uint32_t platform = kcc::kNoId; ///< kNoId: none
    std::vector<std::pair<StateField, Check>> checks; ///< in StateField order
};

/// Bounds on the feel metrics (run/checks.h) of one character (or every character).
struct MetricExpectation {
    SourceRef at;
    uint32_t character = kcc::kNoId;
    std::vector<std::pair<int, Check>> checks; ///< (metric index in metric_info(), bound)
};

struct Scenario;
/// Every tick of another scenario must give the same character states, positions shifted by
/// `offset`.
struct SameAsExpectation {
    SourceRef at;
    std::string path; ///< as written
    Vec3 offset;
    std::shared_ptr<const Scenario> other;
};

struct Scenario {
    std::string path; ///< as given to the loader
    std::string name; ///< `name:`; unique within a suite; used for golden file names
    std::string description; ///< what it checks and why
    int tick_rate_hz = 50;
    int64_t ticks = 0; ///< number of simulation ticks to run

    std::vector<BoxDef> boxes; ///< includes boxes generated by `ramp:` and `stairs:`
    std::vector<PlaneDef> planes;
    std::vector<SphereDef> spheres;
    std::vector<CapsuleDef> capsules;
    std::vector<MeshDef> meshes;
    std::vector<PlatformDef> platforms;
    std::vector<CharacterDef> characters; ///< ascending (id, join)
    std::vector<EventDef> events; ///< ascending tick, then list order

    /// Empty: no frame clock (one tick per step). Otherwise frames are played in order until
    /// `ticks` ticks have run (the last segment repeats if they run out).
    std::vector<FrameSegment> frames;

    /// Goldens and `run --hashes` record every tick (1) or every golden_every-th tick and the
    /// last (long soak runs; docs/formats.md).
    int64_t golden_every = 1;

    /// An accepted deviation from KCC-SPEC and why (empty: none).
    std::string deviation;
    std::vector<StateExpectation> expect_states;
    std::vector<MetricExpectation> expect_metrics;
    std::vector<SameAsExpectation> expect_same_as;

    /// The files this scenario was read from: its own file (when loaded from one, as given) and
    /// then each referenced file once, resolved (OBJ meshes, input CSVs, same_as scenarios and
    /// theirs). Outputs may not name any of them (records/atomic_file.h, output_conflict).
    std::vector<std::string> inputs;

    /// XXH3-64 (hex, 16 digits) of the scenario file's bytes followed by every referenced
    /// file's bytes in the order referenced: a golden whose digest differs is stale.
    std::string digest;
};

/// Every character id of the scenario, ascending, once (the entities of its hash files).
std::vector<kcc::CharacterId> character_ids(const Scenario& sc);
/// The index in sc.characters of the entry of `id` present after the changes of tick t, or
/// sc.characters.size() when it is absent.
size_t entry_at(const Scenario& sc, kcc::CharacterId id, int64_t t);

} // namespace fx::harness
