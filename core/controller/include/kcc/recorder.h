// Recorder: records a running World (its level, platforms, characters, every input per tick,
// every runtime change, and rollbacks) and writes it as a scenario the harness replays
// (`fxkcc run`) to the same World::checksum() at every tick. docs/embedding.md, "Recording a
// session"; the format: docs/scenarios.md.
//
//   kcc::Recorder rec;
//   world.build(&error);
//   world.set_recorder(&rec, &error);        // at tick 0: captures the level and the characters
//   ... the game steps, changes, snapshots and restores the world ...
//   rec.write("replays", "session", &error); // replays/session.yaml, session.c<id>.csv,
//   session.checksums
//
// The recorder only observes: nothing the world simulates depends on it, and a world with no
// recorder pays one null check per call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kcc/settings.h"
#include "kcc/state.h"
#include "kcc/world.h"

namespace fx::kcc {

/// One file of a recording: its path relative to the folder it is written to, and its text.
struct RecordedFile {
    std::string path;
    std::string text;
};

class Recorder {
public:
    Recorder() = default;
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;
    ~Recorder(); ///< detaches it from its world

    /// Room for `ticks` ticks and snapshots and `inputs` non-idle character inputs, so that
    /// recording them allocates nothing (otherwise the recording grows as vectors do).
    void reserve(size_t ticks, size_t inputs);

    /// Whether a world reports to it.
    bool attached() const { return world_ != nullptr; }
    /// Ticks recorded: the world's tick after its last step (a restore to tick T makes it T).
    int64_t ticks() const { return static_cast<int64_t>(tick_begin_.size()); }

    /// The scenario: `name`.yaml (first), one input CSV per character entry with input
    /// (`name`.c<id>.csv, `name`.c<id>.<k>.csv for the k-th entry of an id, k >= 2), and (last)
    /// `name`.checksums, the World::checksum() of every recorded tick (docs/formats.md,
    /// "Checksum file"; `fxkcc run --checksums` compares a replay with it). False, with
    /// *error, when the name is not a scenario name ([a-z0-9][a-z0-9._-]*, at most 64
    /// characters) or the recording cannot be written as a scenario: nothing stepped, a restore
    /// of a snapshot the recorder never saw taken, characters with different tick rates, a stick
    /// component outside [-1, 1], an impulse component beyond 1,000 m/s.
    bool files(const std::string& name, std::vector<RecordedFile>* out, std::string* error) const;
    /// Writes files(name) into the existing folder `folder`: each created afresh as
    /// "<path>.partial" (a file or link already there is removed, never written through), then
    /// an earlier recording's files of those names set aside as "<path>.previous", the new ones
    /// renamed over their names, and the earlier ones removed. On an error what was done is
    /// undone: the folder holds the whole earlier recording or the whole new one, never some
    /// files of each, and no .partial or .previous file is left.
    bool write(const std::string& folder, const std::string& name, std::string* error) const;

private:
    friend class World;
    enum class ChangeKind : uint8_t { kJoin, kLeave, kSettings, kTeleport };
    struct Change {
        int64_t tick = 0;
        ChangeKind kind = ChangeKind::kJoin;
        CharacterId id = 0;
        Vec3 feet; ///< join, teleport
        Settings settings; ///< join, settings
    };
    /// A snapshot taken: its tick, the XXH3-64 of its bytes, and how many changes had been
    /// made at that tick when it was taken.
    struct Mark {
        int64_t tick = 0;
        uint64_t hash = 0;
        size_t changes = 0;
    };
    struct TickInput {
        CharacterId id = 0;
        Input input;
    };
    struct Initial {
        CharacterId id = 0;
        Vec3 spawn;
        Settings settings;
    };

    /// Called by World::set_recorder: captures the level and the characters; `snapshot_hash`
    /// is the hash of the world's snapshot at this moment (a first mark).
    bool begin(const World& world, uint64_t snapshot_hash, std::string* error);
    void on_change(const Change& change);
    void on_step(int64_t tick, std::span<const CharacterState> characters,
                 std::span<const Input> inputs);
    /// After the step: the checksum of the tick just stepped (World::checksum).
    void on_stepped(uint64_t checksum);
    void on_snapshot(int64_t tick, std::span<const uint8_t> bytes);
    void on_restore(int64_t tick, std::span<const uint8_t> bytes);
    size_t changes_at(int64_t tick) const;

    World* world_ = nullptr;
    std::string world_yaml_; ///< the `world:` and `platforms:` sections
    std::vector<Platform>
        platforms_; ///< the world's, at attach (their speeds are checked at write)
    std::vector<Initial> initial_; ///< characters present at attach, ascending id
    std::vector<Change> changes_; ///< in the order made (ticks non-decreasing)
    std::vector<Mark> marks_; ///< in the order taken
    std::vector<TickInput> inputs_; ///< non-idle inputs, by tick then character index
    std::vector<size_t> tick_begin_; ///< tick t's inputs start at inputs_[tick_begin_[t]]
    std::vector<uint64_t> sums_; ///< parallel to tick_begin_: World::checksum() after tick t
    std::string invalid_; ///< why the recording cannot be written, or empty
};

} // namespace fx::kcc
