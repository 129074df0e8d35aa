// World: static geometry, moving platforms and characters, stepped tick by tick in a fixed
// order (platforms by id, then characters by id). Characters join, leave, change settings and
// teleport between ticks. Everything is sized when the world is built or changed; a tick
// allocates nothing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "geo/scene.h"
#include "kcc/motion.h"
#include "kcc/settings.h"
#include "kcc/state.h"
#include "kcc/trace.h"

namespace fx::kcc {

class Recorder;

/// The largest tick a world takes (a waypoint's, -kMaxWorldTick to kMaxWorldTick, or a restored
/// snapshot's): 2^60, about 700 million years at 50 Hz, so that the platforms' tick arithmetic
/// (differences of two ticks, the tick after the last) stays far inside int64.
inline constexpr int64_t kMaxWorldTick = int64_t{1} << 60;

/// A waypoint of a platform: its box centre reached at `tick` (ticks since the world began).
struct Waypoint {
    Vec3 center;
    int64_t tick = 0;
};

/// A kinematic box that follows its waypoints (ticks strictly increasing), moving linearly
/// between them, then loops from the first again after the last (the last should equal the
/// first for a closed path). The pose at tick t is computed exactly from the waypoints, never
/// accumulated, so it does not drift.
struct Platform {
    geo::ShapeId id = 0;
    Vec3 half_extents;
    Mat3 rotation;
    std::vector<Waypoint> waypoints;

    /// Centre at tick t (exact: one mul_div rounding per component).
    Vec3 center_at(int64_t tick) const;
};

/// The per-tick solve of KCC-SPEC for one character. Pure with respect to the world: reads
/// the scene, writes only `state`. `platform_shift` is the displacement of the platform the
/// body stood on (applied first); `platforms`, every platform's displacement this tick
/// (ascending id; Movers). `bodies`: the other characters' capsules it meets this tick, with their
/// bounds (their poses at the start of the tick, those near tick_region; docs/controller.md,
/// "Characters").
/// The observer may be null. `cache` (may be null): the character's TickCache, read and renewed
/// (the same results without it). `region` (may be null): tick_region(state.position,
/// state.velocity, params), when the caller has it already (only used without a platform shift).
void step_character(const geo::StaticScene& scene, const Params& params, CharacterState& state,
                    const Input& input, const Vec3& platform_shift,
                    std::span<const PlatformShift> platforms, std::span<const geo::Body> bodies,
                    TraceObserver* observer, TickCache* cache = nullptr,
                    const geo::Aabb* region = nullptr);

/// The region whose shapes a character's tick may meet (step_character gathers them once):
/// the body's bounds grown by a tick's motion at the larger of its speed and the top speed, a
/// step up or forward, a snap or a probe down.
geo::Aabb tick_region(const Vec3& feet, const Vec3& velocity, const Params& p);
/// tick_region of a body whose speed is `speed` (make_params: at the origin at region_speed).
geo::Aabb region_at_speed(const Vec3& feet, Scalar speed, const Params& p);

class World {
public:
    /// Static shapes: add them to scene() before build().
    geo::StaticScene& scene() { return scene_; }
    const geo::StaticScene& scene() const { return scene_; }

    /// Adds a platform (its box is added to the scene as a kinematic shape). Before build().
    /// False, with *error, without waypoints, with ticks not increasing or beyond
    /// +-kMaxWorldTick.
    bool add_platform(const Platform& platform, std::string* error);
    /// Adds a character standing at `feet`. Ids must be unique. Before build(), or between ticks
    /// after it (a character joining): it is placed in ascending id order and starts at rest on
    /// whatever ground is under its feet, exactly as one added before build(). The inputs of
    /// step() follow characters(), so the index of every character with a larger id moves up.
    bool add_character(CharacterId id, const Vec3& feet, const Settings& settings,
                       std::string* error);

    // Runtime changes, between ticks after build() (docs/embedding.md, "Runtime changes"). Each
    // is deterministic: its result depends only on the world and the arguments. A change
    // resizes the world's scratch (allocation at the change, never per tick). False, with
    // *error, and the world untouched, for an unknown id or invalid arguments.

    /// A character leaving. The indices of characters with larger ids move down.
    bool remove_character(CharacterId id, std::string* error);
    /// New settings for a character from the next tick on (validated as add_character's).
    bool set_settings(CharacterId id, const Settings& settings, std::string* error);
    /// Moves a character to `feet` as if it had spawned there: at rest (no velocity, run speed
    /// or held step), on whatever ground is under it, its facing kept, and no render
    /// interpolation across the jump (previous pose = new pose). No collision test: a game
    /// teleports to a free spot (a body placed in a wall is pushed out by the next ticks'
    /// depenetration, as a spawn would be).
    bool teleport(CharacterId id, const Vec3& feet, std::string* error);
    /// A character's settings, or null for an unknown id.
    const Settings* settings(CharacterId id) const;
    /// Builds the scene and fixes the order of everything. Must be called once before step().
    bool build(std::string* error);

    /// One tick: platforms move to their pose at tick + 1, then every character (ascending id)
    /// is carried by its platform and solved with its input (inputs[i] for characters()[i];
    /// missing inputs count as idle).
    void step(std::span<const Input> inputs, TraceObserver* observer = nullptr);
    /// Whether a tick may answer a character's overlap and probe queries from its last tick's
    /// cast (GroundMemo), take a held stick's direction from the last tick (StickMemo), keep
    /// the shapes gathered around a body (TickCache) and rule out a step-up by the height of the
    /// blocking contact (StepResult::kAboveStep), and start a tick with the characters' grid the
    /// last tick's resolution built (grid_kept()); on by default. The results are the same either
    /// way, bit for bit; off, everything is computed afresh (for tests and measurements).
    void set_reuse_casts(bool on);

    int64_t tick() const { return tick_; }
    /// Ticks that began with the characters' grid as the last tick's resolution left it (no
    /// character changed between them; with reused casts on): a count for benchmarks and tests.
    int64_t grid_kept() const { return grid_kept_; }
    /// For tests: whether the grid the next tick would start with (the kept one, when kept) is
    /// the grid built afresh from the characters as they are. Allocates (it builds a copy).
    bool grid_is_fresh() const;
    /// For tests: whether the resolution at the end of a tick, were it to run now, would meet
    /// every pair of colliding characters whose boxes meet (one grown by the widest skin) exactly
    /// once, as comparing every pair finds them (*pairs: how many there are). Allocates.
    /// *crowd: how many of them are in crowded cells (docs/controller.md, "Crowded cells").
    bool body_pairs_complete(size_t* pairs = nullptr, size_t* crowd = nullptr) const;
    /// How many pairs of characters the resolution has met (tested for an overlap) since
    /// build(): a diagnostic of the work per tick, not state.
    uint64_t pairs_met() const { return pairs_met_; }
    /// Platforms in ascending id (after build(); in the order added before it).
    std::span<const Platform> platforms() const { return platforms_; }

    /// Attaches a recorder (kcc/recorder.h; docs/embedding.md, "Recording a session"), which
    /// from then on sees every input and every runtime change, snapshot and restore of this
    /// world, or detaches it (null). Attaching is refused, with *error, unless the world is built
    /// and at tick 0, or when the recorder cannot record its level; it restarts the recorder's
    /// recording. A recorder only observes: nothing simulated depends on it. Detach it before
    /// destroying it (destroying either one detaches it).
    bool set_recorder(Recorder* recorder, std::string* error = nullptr);
    Recorder* recorder() const { return recorder_.r; }
    /// Characters in ascending id order.
    std::span<const CharacterState> characters() const { return states_; }
    CharacterState* find(CharacterId id);
    const Params& params(size_t index) const { return params_[index]; }
    /// Render pose: previous and current tick positions interpolated by alpha in [0, 1].
    Vec3 render_position(size_t index, Scalar alpha) const;

    /// Snapshots (docs/embedding.md, "Snapshots and rollback"): everything that decides the
    /// next tick, as bytes that are the same on every machine: the tick count, and every
    /// character's canonical state bytes (kcc/state_bytes.h) and settings. Platforms and the
    /// scene follow from the tick; the level is the world's, fixed at build(). restore() puts
    /// the world back exactly, its character set and settings included (a rollback across a
    /// join, a leave or a settings change): stepping on from it computes the bits it computed
    /// the first time. Layout (little-endian):
    ///    0  4 bytes  "FXKS"
    ///    4  u8       snapshot version (kSnapshotVersion)
    ///    5  u8       state-bytes version (kStateBytesVersion)
    ///    6  i64      tick
    ///   14  u32      character count n
    ///   18  n x (kStateBytes state bytes, then kSettingsBytes settings bytes), ascending id
    static constexpr uint8_t kSnapshotVersion = 2;

    /// The checksum of the tick just stepped (docs/embedding.md, "Checksums"): XXH3-64 of every
    /// character's state bytes (ascending id) then every platform's bytes at this tick (ascending
    /// id), the world hash the goldens record for that tick (kcc/checksum.h). Allocates nothing.
    uint64_t checksum() const;
    /// How many times the resolution (docs/controller.md, "Characters") has separated two
    /// characters with the same capsule in the same place, the one case where ids choose which
    /// way each goes (body_separation), or ordered two such in the crowd's orders ("Crowded
    /// cells", where ids choose their places), since build(). A diagnostic, not
    /// state (no checksum or snapshot holds it): the swarm's id permutation does not apply after.
    uint64_t id_ties() const { return id_ties_; }
    size_t snapshot_size() const;
    /// Bytes of scratch the world keeps for every character besides its state, settings and
    /// TickCache: the vectors parallel to the characters for their collisions and the crowd's two
    /// orders, and its canonical bytes for checksum() (sized at build(): no allocation per tick).
    /// Not counted: the grid's cells and the bodies one character meets, which do not grow with the
    /// count.
    static size_t scratch_bytes_per_character();
    /// Writes the snapshot into *out (resized to snapshot_size(): no allocation when its
    /// capacity suffices). After build().
    void snapshot(std::vector<uint8_t>* out) const;
    /// Restores a snapshot of this world (taken at any tick: the characters then present, with
    /// their settings, replace the current ones). False, with *error, and the world untouched,
    /// when the bytes are not one: another size, magic or version, a negative tick or one past
    /// kMaxWorldTick, ids not
    /// ascending, a state or settings that do not read back or are invalid. Allocates nothing
    /// when the snapshot has as many characters as the world (resizes the scratch otherwise).
    bool restore(std::span<const uint8_t> bytes, std::string* error);

private:
    geo::StaticScene scene_;
    std::vector<Platform> platforms_; ///< ascending id
    std::vector<PlatformShift>
        platform_shift_; ///< this tick's displacement per platform (ascending id)
    std::vector<CharacterState> states_; ///< ascending id
    std::vector<Params> params_; ///< parallel to states_
    // Scratch of step() for the characters' collisions, sized at build() (no allocation per tick).
    std::vector<geo::Capsule> body_start_; ///< parallel to states_: capsule at the tick's start
    std::vector<geo::Aabb> body_box_; ///< parallel to states_: its bounds
    std::vector<std::pair<int64_t, uint32_t>>
        body_cells_; ///< colliding characters: (2 m grid cell, index), sorted
    /// Dense grid over the cells the bodies occupy (when it has at most a few cells per body):
    /// body_cells_[cell_start_[c] .. cell_start_[c + 1]) are the bodies of cell c, where
    /// c = (cx - grid_x0_) * grid_h_ + (cz - grid_z0_). Empty when the bodies are too spread out.
    std::vector<uint32_t> cell_start_;
    std::vector<int64_t> body_cell_; ///< parallel to states_: scratch of index_bodies
    std::vector<std::pair<int64_t, uint32_t>> body_scratch_; ///< scratch of index_bodies
    int64_t grid_x0_ = 0, grid_z0_ = 0, grid_w_ = 0, grid_h_ = 0;
    /// The cells' origin: the lowest x and z among the indexed bodies (cells are counted from it).
    Scalar grid_origin_x_, grid_origin_z_;
    Scalar body_widest_; ///< largest radius among them
    Scalar body_widest_skin_; ///< largest skin among them
    /// The index above (body_cells_, cell_start_, body_start_, body_box_, ...) describes the
    /// characters as they are now: set by resolve_bodies() at the end of a tick, cleared by
    /// step() and by every change to a character (find() included: its caller may move one).
    bool bodies_indexed_ = false;
    int64_t grid_kept_ = 0;
    /// The crowd (docs/controller.md, "Crowded cells"): the bodies of the cells that hold more
    /// than could stand in them apart, in two orders by place (crowd_before). Two of them meet in
    /// the resolution when at most kCrowdWindow places apart in either; in their casts they meet
    /// none of the crowd; a body outside it meets those within kCrowdWindow of its place in the
    /// first. The vectors below are filled when crowded_.
    using CrowdEntry = std::pair<uint64_t, uint32_t>; ///< (crowd_key of its place, index)
    bool crowded_ = false;
    std::vector<CrowdEntry> crowd_; ///< the crowd's bodies in order
    std::vector<uint32_t> body_rank_; ///< parallel to states_: place in crowd_, or kNoRank
    /// The crowd in a second order, by places shifted (crowd_key_shifted), and the places in it.
    std::vector<CrowdEntry> crowd_shifted_;
    std::vector<uint32_t> body_rank_shifted_;
    std::vector<CrowdEntry> crowd_scratch_; ///< scratch of order_crowd's sort
    static constexpr uint32_t kNoRank = UINT32_MAX;
    /// Whether the cell body_cells_[b, e) is crowded: more than kCrowdedCell bodies, or more
    /// than could stand there apart.
    bool crowded_run(size_t b, size_t e) const;
    /// crowded_, crowd_ and body_rank_, for index_bodies; `most`: at least as many bodies as the
    /// fullest cell holds
    void order_crowd(size_t most);
    /// Whether n bodies in one cell are too few to be crowded whatever their radii (up to the
    /// widest): crowded_run's answer without a look at them.
    bool too_few_to_crowd(size_t n) const;
    /// Whether crowd entry u comes before a body with key `key`, capsule `c` and index `index`:
    /// by key, then body_compare, then index (ids: states_ is in id order). A total order.
    bool crowd_before(const CrowdEntry& u, uint64_t key, const geo::Capsule& c, size_t index) const;
    /// The stretch of crowd_ within kCrowdWindow places of body `who`'s place in it (its own
    /// rank, or where it would fall).
    std::pair<size_t, size_t> crowd_window(size_t who) const;
    std::vector<geo::Body> body_near_; ///< the bodies one character meets
    /// scratch of gather_bodies_near, parallel to states_ (one place per body a query visits)
    std::vector<uint32_t> near_scratch_;
    std::vector<Vec3> body_push_; ///< parallel to states_: the resolution's push
    uint64_t id_ties_ = 0; ///< id_ties()
    uint64_t pairs_met_ = 0; ///< pairs_met()
    /// parallel to states_: what each character keeps between ticks (TickCache; not state: its
    /// last cast is dropped by restore(), teleport() and set_settings())
    std::vector<TickCache> cache_;
    bool reuse_casts_ = true;
    mutable std::vector<uint8_t> checksum_bytes_; ///< scratch of checksum(), sized at build()
    bool check_character(CharacterId id, const Vec3& feet, const Settings& settings,
                         std::string* error) const;
    /// The character a runtime change applies to, or null with *error ("<what>: no character N").
    CharacterState* changing(const char* what, CharacterId id, std::string* error);
    void settle(size_t index); ///< ground under a spawned or teleported body (as at build())
    void mark_placed(CharacterId id); ///< adds id to placed_
    /// Ids of the characters joined or teleported since the last step, ascending: a settings
    /// change of one of them settles it again (set_settings). Not state: restore() clears it.
    std::vector<CharacterId> placed_;
    void size_scratch(); ///< the per-tick scratch, sized for the current characters
    void index_bodies();
    /// visit(k) for each indexed body near box q, those of crowded cells excepted; true when it
    /// skipped any.
    template <class Visit> bool for_bodies_near(const geo::Aabb& q, Visit&& visit) const;
    /// visit(i, j) once for each pair of indexed bodies whose boxes meet, one grown by the widest
    /// skin.
    template <class Visit> void for_body_pairs(Visit&& visit) const;
    void resolve_bodies();
    /// The other characters character i meets this tick (near its tick_region, grown by its
    /// platform's shift) into body_near_; true, with *region its tick_region, when it collides
    /// with characters at all (false: body_near_ empty, *region not computed).
    bool gather_bodies_near(size_t i, const Vec3& shift, geo::Aabb* region);
    int64_t tick_ = 0;
    bool built_ = false;
    /// The recorder attached, or null. Not copied or moved with the world; detached from the
    /// recorder when the world is destroyed.
    struct RecorderLink {
        Recorder* r = nullptr;
        RecorderLink() = default;
        RecorderLink(const RecorderLink&) {}
        RecorderLink& operator=(const RecorderLink&) { return *this; }
        ~RecorderLink();
    };
    RecorderLink recorder_;
    friend class Recorder;
};

} // namespace fx::kcc
