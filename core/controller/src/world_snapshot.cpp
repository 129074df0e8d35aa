// What a world says of itself between ticks: its checksum, snapshots and restore (rollback),
// the recorder attached to it, and render poses.
#include "kcc/world.h"

#include <algorithm>
#include <array>
#include <string>

#include "fx/trig.h"
#include "kcc/checksum.h"
#include "kcc/recorder.h"
#include "kcc/state_bytes.h"

namespace fx::kcc {

namespace {
constexpr uint8_t kSnapshotMagic[4] = {'F', 'X', 'K', 'S'};
constexpr size_t kSnapshotHeader = 18;
} // namespace

uint64_t World::checksum() const {
    uint8_t* p = checksum_bytes_.data();
    for (const CharacterState& s : states_) {
        const std::array<uint8_t, kStateBytes> b = serialize_state(s);
        for (size_t k = 0; k < kStateBytes; ++k)
            *p++ = b[k];
    }
    for (const Platform& pl : platforms_) {
        const std::array<uint8_t, kPlatformBytes> b =
            serialize_platform(pl.id, pl.center_at(tick_));
        for (size_t k = 0; k < kPlatformBytes; ++k)
            *p++ = b[k];
    }
    return xxh3_64(checksum_bytes_);
}

namespace {
constexpr size_t kSnapshotRecord = kStateBytes + kSettingsBytes;

bool within(const Vec3& v, Scalar limit) {
    return abs(v.x) <= limit && abs(v.y) <= limit && abs(v.z) <= limit;
}

/// Why a restored state could not have been made by step(), or "": what the solver's range
/// proofs assume of it (settings.h, the working volume and the speed bound). A body that is
/// not halted has its feet within the working volume and its velocity within the speed bound
/// per component; a halted one (kept as it was when it left them) within twice those. The run
/// speed and the held motion are not negative, the facings in [-pi, pi], a ground normal a unit
/// vector (within 1/1024) pointing up, a platform one of the world's or none.
std::string state_refusal(const CharacterState& s, std::span<const Platform> platforms) {
    if (s.id >= geo::kBodyShape) return "a reserved id";
    const int shift = s.halted ? 1 : 0;
    const Scalar volume = Scalar::from_int(kWorkingVolumeMetres << shift);
    const Scalar speed = Scalar::from_int(kMaxBodySpeedMetresPerSecond << shift);
    if (!within(s.position, volume) || !within(s.previous_position, volume))
        return "a position beyond the working volume (" + std::to_string(kWorkingVolumeMetres) +
               " m)";
    if (!within(s.velocity, speed) || s.run_speed < Scalar{} || s.run_speed > speed)
        return "a speed beyond the speed bound (" + std::to_string(kMaxBodySpeedMetresPerSecond) +
               " m/s)";
    if (s.step_hold < Scalar{} || s.step_hold > speed) return "a held motion out of range";
    if (abs(s.facing) > kPi || abs(s.previous_facing) > kPi) return "a facing beyond pi";
    const Scalar len2 = dot(s.ground_normal, s.ground_normal);
    if (abs(len2 - Scalar::one()) > Scalar::ratio(1, 1024) || s.ground_normal.y < Scalar{})
        return "a ground normal that is not a unit vector pointing up";
    if (s.platform != kNoId && std::none_of(platforms.begin(), platforms.end(),
                                            [&](const Platform& p) { return p.id == s.platform; }))
        return "platform " + std::to_string(s.platform) + ", which the world does not have";
    return "";
}
} // namespace

size_t World::snapshot_size() const {
    return kSnapshotHeader + states_.size() * kSnapshotRecord;
}

void World::snapshot(std::vector<uint8_t>* out) const {
    out->resize(snapshot_size());
    uint8_t* p = out->data();
    for (size_t k = 0; k < 4; ++k)
        p[k] = kSnapshotMagic[k];
    p[4] = kSnapshotVersion;
    p[5] = kStateBytesVersion;
    const uint64_t tick = static_cast<uint64_t>(tick_);
    for (int k = 0; k < 8; ++k)
        p[6 + k] = static_cast<uint8_t>(tick >> (8 * k));
    const uint32_t n = static_cast<uint32_t>(states_.size());
    for (int k = 0; k < 4; ++k)
        p[14 + k] = static_cast<uint8_t>(n >> (8 * k));
    for (size_t i = 0; i < states_.size(); ++i) {
        uint8_t* r = p + kSnapshotHeader + i * kSnapshotRecord;
        const std::array<uint8_t, kStateBytes> b = serialize_state(states_[i]);
        for (size_t k = 0; k < kStateBytes; ++k)
            r[k] = b[k];
        const std::array<uint8_t, kSettingsBytes> c = serialize_settings(params_[i].s);
        for (size_t k = 0; k < kSettingsBytes; ++k)
            r[kStateBytes + k] = c[k];
    }
    if (recorder_.r != nullptr) recorder_.r->on_snapshot(tick_, *out);
}

bool World::restore(std::span<const uint8_t> bytes, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error != nullptr) *error = "restore: " + why;
        return false;
    };
    if (!built_) return fail("the world is not built");
    if (bytes.size() < kSnapshotHeader)
        return fail("not a snapshot (" + std::to_string(bytes.size()) + " bytes)");
    for (size_t k = 0; k < 4; ++k)
        if (bytes[k] != kSnapshotMagic[k]) return fail("not a snapshot (no FXKS magic)");
    if (bytes[4] != kSnapshotVersion)
        return fail("snapshot version " + std::to_string(bytes[4]) + ", this library reads " +
                    std::to_string(kSnapshotVersion));
    if (bytes[5] != kStateBytesVersion)
        return fail("state-bytes version " + std::to_string(bytes[5]) + ", this library writes " +
                    std::to_string(kStateBytesVersion));
    uint64_t tick = 0;
    for (int k = 0; k < 8; ++k)
        tick |= static_cast<uint64_t>(bytes[6 + static_cast<size_t>(k)]) << (8 * k);
    uint32_t n = 0;
    for (int k = 0; k < 4; ++k)
        n |= static_cast<uint32_t>(bytes[14 + static_cast<size_t>(k)]) << (8 * k);
    if (static_cast<int64_t>(tick) < 0) return fail("negative tick");
    if (tick > static_cast<uint64_t>(kMaxWorldTick))
        return fail("tick " + std::to_string(tick) + " beyond " + std::to_string(kMaxWorldTick));
    if ((bytes.size() - kSnapshotHeader) % kSnapshotRecord != 0 ||
        (bytes.size() - kSnapshotHeader) / kSnapshotRecord != n)
        return fail(std::to_string(bytes.size()) + " bytes, a snapshot of " + std::to_string(n) +
                    " characters has " +
                    std::to_string(kSnapshotHeader + size_t{n} * kSnapshotRecord));
    auto record = [&](size_t i) {
        return bytes.subspan(kSnapshotHeader + i * kSnapshotRecord, kSnapshotRecord);
    };
    // Check every record first, then write: a refused snapshot leaves the world as it was.
    CharacterId prev_id = 0;
    for (size_t i = 0; i < n; ++i) {
        CharacterState s;
        Settings settings;
        if (!deserialize_state(record(i).first(kStateBytes), &s))
            return fail("character " + std::to_string(i) + ": unreadable state bytes");
        if (i > 0 && s.id <= prev_id)
            return fail("character " + std::to_string(s.id) + " after " + std::to_string(prev_id) +
                        ": ids not in ascending order");
        prev_id = s.id;
        if (const std::string bad = state_refusal(s, platforms_); !bad.empty())
            return fail("character " + std::to_string(s.id) + ": " + bad);
        std::string why;
        if (!deserialize_settings(record(i).subspan(kStateBytes), &settings))
            return fail("character " + std::to_string(s.id) + ": unreadable settings bytes");
        if (!validate(settings, &why))
            return fail("character " + std::to_string(s.id) + ": " + why);
    }
    // The snapshot's characters, settings and all: the same set in place (no allocation),
    // another set (characters joined or left since) with the scratch resized.
    const bool same_count = n == states_.size();
    states_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        Settings settings;
        deserialize_state(record(i).first(kStateBytes), &states_[i]);
        deserialize_settings(record(i).subspan(kStateBytes), &settings);
        if (i < params_.size()) {
            if (serialize_settings(params_[i].s) != serialize_settings(settings))
                params_[i] = make_params(settings);
        } else {
            params_.push_back(make_params(settings));
        }
    }
    params_.resize(n);
    if (!same_count) size_scratch();
    placed_.clear();
    bodies_indexed_ = false;
    for (TickCache& c : cache_)
        c.ground.valid = false;
    tick_ = static_cast<int64_t>(tick);
    // The platforms where they stand at that tick (step() moves them on from there).
    if (!platforms_.empty()) {
        for (const Platform& pl : platforms_)
            scene_.move_box(pl.id, geo::Box{pl.center_at(tick_), pl.half_extents, pl.rotation});
        scene_.refit();
    }
    if (recorder_.r != nullptr) recorder_.r->on_restore(tick_, bytes);
    return true;
}

bool World::set_recorder(Recorder* recorder, std::string* error) {
    if (recorder == nullptr) {
        if (recorder_.r != nullptr) recorder_.r->world_ = nullptr;
        recorder_.r = nullptr;
        return true;
    }
    auto fail = [&](const std::string& why) {
        if (error != nullptr) *error = "set_recorder: " + why;
        return false;
    };
    if (!built_) return fail("build the world first");
    if (tick_ != 0)
        return fail("a recording starts at tick 0, the world is at tick " + std::to_string(tick_));
    // The recorder's first mark: the world as it is now (a snapshot taken before attaching,
    // restored later, is known). Taken with no recorder attached, so that none sees it.
    Recorder* const previous = recorder_.r;
    recorder_.r = nullptr;
    std::vector<uint8_t> bytes;
    snapshot(&bytes);
    recorder_.r = previous;
    if (!recorder->begin(*this, xxh3_64(bytes), error)) return false;
    if (previous != nullptr && previous != recorder) previous->world_ = nullptr;
    if (recorder->world_ != nullptr && recorder->world_ != this)
        recorder->world_->recorder_.r = nullptr;
    recorder->world_ = this;
    recorder_.r = recorder;
    return true;
}

World::RecorderLink::~RecorderLink() {
    if (r != nullptr) r->world_ = nullptr;
}

Vec3 World::render_position(size_t index, Scalar alpha) const {
    const CharacterState& s = states_[index];
    return lerp(s.previous_position, s.position, alpha);
}

} // namespace fx::kcc
