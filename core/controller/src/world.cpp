// The world: its characters' lifecycle (join, leave, settings, teleport), build(), and step():
// platforms, then every character's tick, then the characters' overlaps resolved
// (world_bodies.cpp). Snapshots and checksums: world_snapshot.cpp.
#include "kcc/world.h"

#include <algorithm>
#include <array>

#include "kcc/checksum.h"
#include "kcc/recorder.h"
#include "kcc/state_bytes.h"

namespace fx::kcc {

Vec3 Platform::center_at(int64_t tick) const {
    if (waypoints.empty()) return Vec3::zero();
    const Waypoint& first = waypoints.front();
    const int64_t period = waypoints.back().tick - first.tick;
    if (waypoints.size() == 1 || period <= 0 || tick <= first.tick) return first.center;
    const int64_t tt = first.tick + (tick - first.tick) % period;
    size_t k = 0;
    while (k + 2 < waypoints.size() && waypoints[k + 1].tick <= tt)
        ++k;
    const Waypoint& a = waypoints[k];
    const Waypoint& b = waypoints[k + 1];
    const Scalar num = Scalar::from_raw(tt - a.tick);
    const Scalar den = Scalar::from_raw(b.tick - a.tick);
    const Vec3 d = b.center - a.center;
    return a.center + Vec3{mul_div(d.x, num, den), mul_div(d.y, num, den), mul_div(d.z, num, den)};
}

bool World::add_platform(const Platform& platform, std::string* error) {
    if (built_) {
        if (error != nullptr) *error = "add_platform: world already built";
        return false;
    }
    for (const Waypoint& w : platform.waypoints) {
        if (w.tick < -kMaxWorldTick || w.tick > kMaxWorldTick) {
            if (error != nullptr)
                *error = "platform " + std::to_string(platform.id) + ": waypoint tick " +
                         std::to_string(w.tick) + " beyond +-" + std::to_string(kMaxWorldTick);
            return false;
        }
    }
    for (size_t k = 1; k < platform.waypoints.size(); ++k) {
        if (platform.waypoints[k].tick <= platform.waypoints[k - 1].tick) {
            if (error != nullptr)
                *error =
                    "platform " + std::to_string(platform.id) + ": waypoint ticks must increase";
            return false;
        }
    }
    if (platform.waypoints.empty()) {
        if (error != nullptr) *error = "platform " + std::to_string(platform.id) + ": no waypoints";
        return false;
    }
    platforms_.push_back(platform);
    scene_.add_box(platform.id,
                   geo::Box{platform.center_at(0), platform.half_extents, platform.rotation},
                   geo::Motion::kKinematic);
    return true;
}

bool World::check_character(CharacterId id, const Vec3& feet, const Settings& settings,
                            std::string* error) const {
    std::string why;
    if (!validate(settings, &why)) {
        if (error != nullptr) *error = "character " + std::to_string(id) + ": " + why;
        return false;
    }
    if (outside_working_volume(feet)) {
        if (error != nullptr)
            *error = "character " + std::to_string(id) +
                     ": feet outside the working volume (each coordinate less than 1048576 m)";
        return false;
    }
    return true;
}

bool World::add_character(CharacterId id, const Vec3& feet, const Settings& settings,
                          std::string* error) {
    if (!check_character(id, feet, settings, error)) return false;
    for (const CharacterState& s : states_) {
        if (s.id == id) {
            if (error != nullptr) *error = "character " + std::to_string(id) + ": duplicate id";
            return false;
        }
    }
    CharacterState s;
    s.id = id;
    s.position = feet;
    s.previous_position = feet;
    if (!built_) {
        states_.push_back(s);
        params_.push_back(make_params(settings));
        return true;
    }
    // Between ticks: in its place in id order, standing on whatever is under it, as at build().
    const auto at =
        std::lower_bound(states_.begin(), states_.end(), id,
                         [](const CharacterState& c, CharacterId v) { return c.id < v; });
    const size_t i = static_cast<size_t>(at - states_.begin());
    states_.insert(at, s);
    params_.insert(params_.begin() + static_cast<std::ptrdiff_t>(i), make_params(settings));
    settle(i);
    mark_placed(id);
    size_scratch();
    if (recorder_.r != nullptr)
        recorder_.r->on_change({tick_, Recorder::ChangeKind::kJoin, id, feet, settings});
    return true;
}

CharacterState* World::changing(const char* what, CharacterId id, std::string* error) {
    CharacterState* s = built_ ? find(id) : nullptr;
    if (s == nullptr && error != nullptr)
        *error = std::string(what) +
                 (built_ ? ": no character " + std::to_string(id) : ": the world is not built");
    return s;
}

bool World::remove_character(CharacterId id, std::string* error) {
    CharacterState* s = changing("remove_character", id, error);
    if (s == nullptr) return false;
    const auto i = static_cast<std::ptrdiff_t>(s - states_.data());
    states_.erase(states_.begin() + i);
    params_.erase(params_.begin() + i);
    const auto p = std::lower_bound(placed_.begin(), placed_.end(), id);
    if (p != placed_.end() && *p == id) placed_.erase(p);
    size_scratch();
    if (recorder_.r != nullptr)
        recorder_.r->on_change({tick_, Recorder::ChangeKind::kLeave, id, Vec3{}, Settings{}});
    return true;
}

bool World::set_settings(CharacterId id, const Settings& settings, std::string* error) {
    CharacterState* s = changing("set_settings", id, error);
    if (s == nullptr) return false;
    if (!check_character(id, s->position, settings, error)) return false;
    const size_t i = static_cast<size_t>(s - states_.data());
    params_[i] = make_params(settings);
    cache_[i].ground.valid = false;
    // Placed since the last tick (a join or a teleport settles the body where it stands): it
    // settles again with these settings, so a teleport and a settings change of one tick give
    // one world in either order (docs/embedding.md).
    if (std::binary_search(placed_.begin(), placed_.end(), id)) settle(i);
    if (recorder_.r != nullptr)
        recorder_.r->on_change({tick_, Recorder::ChangeKind::kSettings, id, Vec3{}, settings});
    return true;
}

bool World::teleport(CharacterId id, const Vec3& feet, std::string* error) {
    CharacterState* s = changing("teleport", id, error);
    if (s == nullptr) return false;
    const size_t i = static_cast<size_t>(s - states_.data());
    if (!check_character(id, feet, params_[i].s, error)) return false;
    cache_[i].ground.valid = false;
    // As if it had spawned there: at rest, facing as before, no interpolation across the jump.
    CharacterState t;
    t.id = id;
    t.position = feet;
    t.previous_position = feet;
    t.facing = s->facing;
    t.previous_facing = s->facing;
    *s = t;
    settle(i);
    mark_placed(id);
    if (recorder_.r != nullptr)
        recorder_.r->on_change({tick_, Recorder::ChangeKind::kTeleport, id, feet, Settings{}});
    return true;
}

const Settings* World::settings(CharacterId id) const {
    const auto it =
        std::lower_bound(states_.begin(), states_.end(), id,
                         [](const CharacterState& c, CharacterId v) { return c.id < v; });
    return it != states_.end() && it->id == id
               ? &params_[static_cast<size_t>(it - states_.begin())].s
               : nullptr;
}

void World::mark_placed(CharacterId id) {
    const auto p = std::lower_bound(placed_.begin(), placed_.end(), id);
    if (p == placed_.end() || *p != id) placed_.insert(p, id);
}

void World::settle(size_t i) {
    CharacterState& st = states_[i];
    const Ground g =
        probe_ground(geo::LocalScene(scene_), st.position, params_[i], false, Tracer{});
    st.grounded = g.grounded;
    st.ground_normal = g.normal;
    st.ground_shape = g.shape;
    const bool on_platform =
        std::any_of(platforms_.begin(), platforms_.end(),
                    [&](const Platform& pl) { return g.grounded && pl.id == g.shape; });
    st.platform = on_platform ? g.shape : kNoId;
}

void World::size_scratch() {
    bodies_indexed_ = false;
    body_start_.assign(states_.size(), geo::Capsule{});
    body_box_.assign(states_.size(), geo::Aabb{});
    body_cells_.reserve(states_.size());
    body_scratch_.reserve(states_.size());
    body_cell_.assign(states_.size(), 0);
    cell_start_.reserve(4 * states_.size() + 66);
    body_near_.reserve(states_.size());
    near_scratch_.assign(states_.size(), 0);
    body_push_.assign(states_.size(), Vec3::zero());
    cache_.assign(states_.size(), TickCache{});
    checksum_bytes_.assign(states_.size() * kStateBytes + platforms_.size() * kPlatformBytes, 0);
}

bool World::build(std::string* error) {
    if (!scene_.build(error)) return false;
    // Fixed order: characters and platforms by id (ids are unique, so the order is total).
    std::vector<size_t> order(states_.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return states_[a].id < states_[b].id; });
    std::vector<CharacterState> states;
    std::vector<Params> params;
    for (size_t i : order) {
        states.push_back(states_[i]);
        params.push_back(params_[i]);
    }
    states_ = std::move(states);
    params_ = std::move(params);
    std::sort(platforms_.begin(), platforms_.end(),
              [](const Platform& a, const Platform& b) { return a.id < b.id; });
    platform_shift_.clear();
    for (const Platform& pl : platforms_)
        platform_shift_.push_back(PlatformShift{pl.id, Vec3::zero()});
    // A body starts on whatever ground is under its spawn (enter limit: it was not grounded
    // before), so one spawned on a moving platform is carried from the first tick.
    for (size_t i = 0; i < states_.size(); ++i)
        settle(i);
    size_scratch();
    built_ = true;
    return true;
}

void World::set_reuse_casts(bool on) {
    reuse_casts_ = on;
    for (TickCache& c : cache_)
        c = TickCache{};
}

CharacterState* World::find(CharacterId id) {
    bodies_indexed_ = false; // the caller may move the character
    const auto it =
        std::lower_bound(states_.begin(), states_.end(), id,
                         [](const CharacterState& s, CharacterId v) { return s.id < v; });
    return it != states_.end() && it->id == id ? &*it : nullptr;
}

void World::step(std::span<const Input> inputs, TraceObserver* observer) {
    if (recorder_.r != nullptr) recorder_.r->on_step(tick_, states_, inputs);
    placed_.clear();
    if (!platforms_.empty()) {
        for (size_t k = 0; k < platforms_.size(); ++k) {
            const Platform& pl = platforms_[k];
            const Vec3 now = pl.center_at(tick_);
            const Vec3 next = pl.center_at(tick_ + 1);
            platform_shift_[k].shift = next - now;
            scene_.move_box(pl.id, geo::Box{next, pl.half_extents, pl.rotation});
        }
        scene_.refit();
    }
    // Characters meet one another where they stand at the start of the tick (body_start_), so
    // a character's tick never depends on which were stepped before it: ids and the order of
    // the list do not matter. Colliding ones are found through a grid of their centres,
    // indexed where the last tick's resolve_bodies() left them unless something changed since.
    if (!bodies_indexed_ || !reuse_casts_)
        index_bodies();
    else
        ++grid_kept_;
    bodies_indexed_ = false; // the steps move them

    const Input idle;
    for (size_t i = 0; i < states_.size(); ++i) {
        CharacterState& s = states_[i];
        Vec3 shift;
        if (const PlatformShift* pl =
                s.platform != kNoId ? find_platform(platform_shift_, s.platform) : nullptr)
            shift = pl->shift;
        geo::Aabb region; // the tick's region, when gather_bodies_near() computed it
        const bool known = gather_bodies_near(i, shift, &region);
        step_character(scene_, params_[i], s, i < inputs.size() ? inputs[i] : idle, shift,
                       platform_shift_, body_near_, observer, reuse_casts_ ? &cache_[i] : nullptr,
                       known ? &region : nullptr);
        s.platform = kNoId;
        if (s.grounded && s.ground_shape != kNoId &&
            find_platform(platform_shift_, s.ground_shape) != nullptr)
            s.platform = s.ground_shape;
    }
    if (body_cells_.size() > 1) resolve_bodies();
    ++tick_;
    if (recorder_.r != nullptr) recorder_.r->on_stepped(checksum());
}

size_t World::scratch_bytes_per_character() {
    return sizeof(decltype(body_start_)::value_type) + sizeof(decltype(body_box_)::value_type) +
           sizeof(decltype(near_scratch_)::value_type) + sizeof(decltype(body_cells_)::value_type) +
           sizeof(decltype(body_cell_)::value_type) + sizeof(decltype(body_scratch_)::value_type) +
           sizeof(decltype(crowd_)::value_type) + sizeof(decltype(body_rank_)::value_type) +
           sizeof(decltype(crowd_shifted_)::value_type) +
           sizeof(decltype(body_rank_shifted_)::value_type) +
           sizeof(decltype(crowd_scratch_)::value_type) + sizeof(decltype(body_push_)::value_type) +
           kStateBytes; // checksum_bytes_: the character's canonical state bytes
}

} // namespace fx::kcc
