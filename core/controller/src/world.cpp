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
    while (k + 2 < waypoints.size() && waypoints[k + 1].tick <= tt) ++k;
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
    for (size_t k = 1; k < platform.waypoints.size(); ++k) {
        if (platform.waypoints[k].tick <= platform.waypoints[k - 1].tick) {
            if (error != nullptr) *error = "platform " + std::to_string(platform.id) + ": waypoint ticks must increase";
            return false;
        }
    }
    if (platform.waypoints.empty()) {
        if (error != nullptr) *error = "platform " + std::to_string(platform.id) + ": no waypoints";
        return false;
    }
    platforms_.push_back(platform);
    scene_.add_box(platform.id, geo::Box{platform.center_at(0), platform.half_extents, platform.rotation},
                   geo::Motion::kKinematic);
    return true;
}

bool World::check_character(CharacterId id, const Vec3& feet, const Settings& settings, std::string* error) const {
    std::string why;
    if (!validate(settings, &why)) {
        if (error != nullptr) *error = "character " + std::to_string(id) + ": " + why;
        return false;
    }
    if (outside_working_volume(feet)) {
        if (error != nullptr)
            *error = "character " + std::to_string(id) + ": feet outside the working volume (each coordinate less than 1048576 m)";
        return false;
    }
    return true;
}

bool World::add_character(CharacterId id, const Vec3& feet, const Settings& settings, std::string* error) {
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
    const auto at = std::lower_bound(states_.begin(), states_.end(), id,
                                     [](const CharacterState& c, CharacterId v) { return c.id < v; });
    const size_t i = static_cast<size_t>(at - states_.begin());
    states_.insert(at, s);
    params_.insert(params_.begin() + static_cast<std::ptrdiff_t>(i), make_params(settings));
    settle(i);
    size_scratch();
    if (recorder_.r != nullptr) recorder_.r->on_change({tick_, Recorder::ChangeKind::kJoin, id, feet, settings});
    return true;
}

CharacterState* World::changing(const char* what, CharacterId id, std::string* error) {
    CharacterState* s = built_ ? find(id) : nullptr;
    if (s == nullptr && error != nullptr)
        *error = std::string(what) + (built_ ? ": no character " + std::to_string(id) : ": the world is not built");
    return s;
}

bool World::remove_character(CharacterId id, std::string* error) {
    CharacterState* s = changing("remove_character", id, error);
    if (s == nullptr) return false;
    const auto i = static_cast<std::ptrdiff_t>(s - states_.data());
    states_.erase(states_.begin() + i);
    params_.erase(params_.begin() + i);
    size_scratch();
    if (recorder_.r != nullptr) recorder_.r->on_change({tick_, Recorder::ChangeKind::kLeave, id, Vec3{}, Settings{}});
    return true;
}

bool World::set_settings(CharacterId id, const Settings& settings, std::string* error) {
    CharacterState* s = changing("set_settings", id, error);
    if (s == nullptr) return false;
    if (!check_character(id, s->position, settings, error)) return false;
    params_[static_cast<size_t>(s - states_.data())] = make_params(settings);
    cache_[static_cast<size_t>(s - states_.data())].ground.valid = false;
    if (recorder_.r != nullptr) recorder_.r->on_change({tick_, Recorder::ChangeKind::kSettings, id, Vec3{}, settings});
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
    if (recorder_.r != nullptr) recorder_.r->on_change({tick_, Recorder::ChangeKind::kTeleport, id, feet, Settings{}});
    return true;
}

const Settings* World::settings(CharacterId id) const {
    const auto it = std::lower_bound(states_.begin(), states_.end(), id,
                                     [](const CharacterState& c, CharacterId v) { return c.id < v; });
    return it != states_.end() && it->id == id ? &params_[static_cast<size_t>(it - states_.begin())].s : nullptr;
}

void World::settle(size_t i) {
    CharacterState& st = states_[i];
    const Ground g = probe_ground(geo::LocalScene(scene_), st.position, params_[i], false, Tracer{});
    st.grounded = g.grounded;
    st.ground_normal = g.normal;
    st.ground_shape = g.shape;
    const bool on_platform = std::any_of(platforms_.begin(), platforms_.end(),
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
    body_push_.assign(states_.size(), Vec3::zero());
    cache_.assign(states_.size(), TickCache{});
    checksum_bytes_.assign(states_.size() * kStateBytes + platforms_.size() * kPlatformBytes, 0);
}

bool World::build(std::string* error) {
    if (!scene_.build(error)) return false;
    // Fixed order: characters and platforms by id (ids are unique, so the order is total).
    std::vector<size_t> order(states_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return states_[a].id < states_[b].id; });
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
    for (const Platform& pl : platforms_) platform_shift_.push_back(PlatformShift{pl.id, Vec3::zero()});
    // A body starts on whatever ground is under its spawn (enter limit: it was not grounded
    // before), so one spawned on a moving platform is carried from the first tick.
    for (size_t i = 0; i < states_.size(); ++i) settle(i);
    size_scratch();
    built_ = true;
    return true;
}

void World::set_reuse_casts(bool on) {
    reuse_casts_ = on;
    for (TickCache& c : cache_) c = TickCache{};
}

CharacterState* World::find(CharacterId id) {
    bodies_indexed_ = false; // the caller may move the character
    const auto it = std::lower_bound(states_.begin(), states_.end(), id,
                                     [](const CharacterState& s, CharacterId v) { return s.id < v; });
    return it != states_.end() && it->id == id ? &*it : nullptr;
}

void World::step(std::span<const Input> inputs, TraceObserver* observer) {
    if (recorder_.r != nullptr) recorder_.r->on_step(tick_, states_, inputs);
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
        if (const PlatformShift* pl = s.platform != kNoId ? find_platform(platform_shift_, s.platform) : nullptr)
            shift = pl->shift;
        body_near_.clear();
        const geo::Aabb* known = nullptr; // the tick's region, when computed here
        geo::Aabb own_region;
        if (params_[i].s.collide_characters && body_cells_.size() > 1) {
            own_region = tick_region(s.position, s.velocity, params_[i]);
            known = &own_region;
            geo::Aabb region = own_region;
            const Vec3 reach{abs(shift.x), abs(shift.y), abs(shift.z)};
            region.lo -= reach;
            region.hi += reach;
            for_bodies_near(region, [&](uint32_t k) {
                if (k != i && body_box_[k].overlaps(region)) body_near_.push_back({body_start_[k], body_box_[k]});
            });
        }
        step_character(scene_, params_[i], s, i < inputs.size() ? inputs[i] : idle, shift, platform_shift_,
                       body_near_, observer, reuse_casts_ ? &cache_[i] : nullptr, known);
        s.platform = kNoId;
        if (s.grounded && s.ground_shape != kNoId && find_platform(platform_shift_, s.ground_shape) != nullptr)
            s.platform = s.ground_shape;
    }
    if (body_cells_.size() > 1) resolve_bodies();
    ++tick_;
    if (recorder_.r != nullptr) recorder_.r->on_stepped(checksum());
}

namespace {
/// Side of a cell of the characters' grid: 2 m (2^1: a cell index is the raw coordinate
/// shifted right by 33, which rounds toward minus infinity). Only which bodies a query visits
/// depends on it (docs/performance.md: 4 m cells visited twice as many on crowd-1024).
constexpr int kBodyCellShift = 32 + 1;
int64_t cell_of(Scalar c) { return c.raw() >> kBodyCellShift; }
int64_t cell_key(int64_t cx, int64_t cz) { return cx * (int64_t{1} << 32) + (cz + (int64_t{1} << 31)); }
/// More cells than this in a query's footprint (a platform's long carry): every body is visited.
constexpr int64_t kMaxCellsVisited = 64;
} // namespace

void World::index_bodies() {
    body_cells_.clear();
    cell_start_.clear();
    body_widest_ = Scalar{};
    body_widest_skin_ = Scalar{};
    // Only the colliding bodies are indexed (body_start_ and body_box_ are read for them alone),
    // and none when fewer than two collide: nobody to meet, no query looks.
    const auto collides = [&](size_t i) { return params_[i].s.collide_characters && !states_[i].halted; };
    size_t colliding = 0;
    for (size_t i = 0; i < states_.size() && colliding < 2; ++i) colliding += collides(i) ? 1 : 0;
    if (colliding < 2) return;
    int64_t x0 = INT64_MAX, x1 = INT64_MIN, z0 = INT64_MAX, z1 = INT64_MIN;
    // (Locals, not members, inside the loop: the compiler need not store them every body.)
    Scalar widest, widest_skin;
    const size_t count = states_.size();
    for (size_t i = 0; i < count; ++i) {
        if (!collides(i)) continue;
        const Settings& st = params_[i].s;
        const Vec3& c = states_[i].position;
        body_start_[i] = capsule_at(c, params_[i]);
        body_box_[i] = body_start_[i].bounds();
        const int64_t cx = cell_of(c.x), cz = cell_of(c.z);
        x0 = std::min(x0, cx), x1 = std::max(x1, cx), z0 = std::min(z0, cz), z1 = std::max(z1, cz);
        body_cells_.emplace_back(cell_key(cx, cz), static_cast<uint32_t>(i));
        widest = max(widest, st.radius);
        widest_skin = max(widest_skin, st.skin);
    }
    body_widest_ = widest;
    body_widest_skin_ = widest_skin;
    // (cell, index): a total order; only which bodies a query visits depends on it, not what
    // the queries answer (hit_less orders what they meet by place). When the occupied cells
    // span at most a few cells per body, a counting sort over a dense grid puts them in that
    // order (stable in index) and lets a query find a cell's bodies directly; else a sort.
    const int64_t n = static_cast<int64_t>(body_cells_.size());
    const int64_t limit = 4 * n + 64;
    const int64_t w = x1 - x0 + 1, h = z1 - z0 + 1;
    if (w > limit || h > limit || w * h > limit) {
        std::sort(body_cells_.begin(), body_cells_.end());
        return;
    }
    grid_x0_ = x0, grid_z0_ = z0, grid_w_ = w, grid_h_ = h;
    // Counts at [c + 2], prefix sums, then each body placed at [c + 1]++: afterwards
    // cell_start_[c] is where cell c begins, for every c in [0, w * h].
    cell_start_.assign(static_cast<size_t>(w * h + 2), 0);
    for (const auto& cell : body_cells_) {
        // The key's cell: cx in the high half, cz + 2^31 in the low one (cell_key).
        const int64_t cx = cell.first >> 32, cz = (cell.first & 0xffffffff) - (int64_t{1} << 31);
        const int64_t k = (cx - x0) * h + (cz - z0);
        body_cell_[cell.second] = k;
        ++cell_start_[static_cast<size_t>(k + 2)];
    }
    for (size_t k = 2; k < cell_start_.size(); ++k) cell_start_[k] += cell_start_[k - 1];
    // Placed in ascending index (body_cells_ is built that way): stable.
    body_scratch_.assign(body_cells_.begin(), body_cells_.end());
    for (const auto& cell : body_scratch_)
        body_cells_[cell_start_[static_cast<size_t>(body_cell_[cell.second] + 1)]++] = cell;
    cell_start_.pop_back();
}

bool World::grid_is_fresh() const {
    if (!bodies_indexed_ || !reuse_casts_) return true; // the next tick builds it
    World fresh = *this;
    fresh.index_bodies();
    if (fresh.body_cells_ != body_cells_ || fresh.cell_start_ != cell_start_ || fresh.body_widest_ != body_widest_ ||
        fresh.body_widest_skin_ != body_widest_skin_)
        return false;
    if (!cell_start_.empty() && (fresh.grid_x0_ != grid_x0_ || fresh.grid_z0_ != grid_z0_ ||
                                 fresh.grid_w_ != grid_w_ || fresh.grid_h_ != grid_h_))
        return false;
    for (const auto& cell : body_cells_) {
        const size_t i = cell.second;
        if (fresh.body_start_[i].a != body_start_[i].a || fresh.body_start_[i].b != body_start_[i].b ||
            fresh.body_start_[i].radius != body_start_[i].radius || fresh.body_box_[i].lo != body_box_[i].lo ||
            fresh.body_box_[i].hi != body_box_[i].hi)
            return false;
    }
    return true;
}

template <class Visit> void World::for_bodies_near(const geo::Aabb& q, Visit&& visit) const {
    // A body overlapping q has its axis within its radius of q.
    int64_t x0 = cell_of(q.lo.x - body_widest_), x1 = cell_of(q.hi.x + body_widest_);
    int64_t z0 = cell_of(q.lo.z - body_widest_), z1 = cell_of(q.hi.z + body_widest_);
    if (!cell_start_.empty()) {
        x0 = std::max(x0, grid_x0_), x1 = std::min(x1, grid_x0_ + grid_w_ - 1);
        z0 = std::max(z0, grid_z0_), z1 = std::min(z1, grid_z0_ + grid_h_ - 1);
        if (x0 > x1 || z0 > z1) return;
        for (int64_t cx = x0; cx <= x1; ++cx) {
            const int64_t row = (cx - grid_x0_) * grid_h_ - grid_z0_;
            const size_t end = cell_start_[static_cast<size_t>(row + z1 + 1)];
            for (size_t k = cell_start_[static_cast<size_t>(row + z0)]; k < end; ++k) visit(body_cells_[k].second);
        }
        return;
    }
    if ((x1 - x0 + 1) * (z1 - z0 + 1) > kMaxCellsVisited) {
        for (const auto& cell : body_cells_) visit(cell.second);
        return;
    }
    for (int64_t cx = x0; cx <= x1; ++cx) {
        for (int64_t cz = z0; cz <= z1; ++cz) {
            const int64_t key = cell_key(cx, cz);
            auto it = std::lower_bound(body_cells_.begin(), body_cells_.end(), std::make_pair(key, uint32_t{0}));
            for (; it != body_cells_.end() && it->first == key; ++it) visit(it->second);
        }
    }
}

template <class Visit> void World::for_body_pairs(Visit&& visit) const {
    const Scalar widest_skin = body_widest_skin_;
    // Two bodies whose boxes meet, one grown by widest_skin, have their axes at most
    // d = 2 widest + widest_skin apart on x and on z. When d is at most a cell's side, they lie in
    // the same cell or in neighbouring ones, and the dense grid visits each such pair once: a body
    // against the bodies after it in its own cell and those of the next cell of its row (one
    // stretch of body_cells_), and the bodies of the three cells beside it in the next row
    // (another). Before, each body looked up the cells around its box (for_bodies_near) and
    // skipped every pair it met from the other side: on crowd-1024 that look-up cost more than
    // the pairs (docs/performance.md).
    const int64_t d = body_widest_.raw() * 2 + widest_skin.raw(); // radii and skins are bounded (settings)
    if (!cell_start_.empty() && d <= (int64_t{1} << kBodyCellShift)) {
        const int64_t h = grid_h_;
        const auto end_of = [&](int64_t c) { return static_cast<size_t>(cell_start_[static_cast<size_t>(c + 1)]); };
        for (size_t k = 0; k < body_cells_.size(); ++k) {
            const int64_t key = body_cells_[k].first;
            const uint32_t i = body_cells_[k].second;
            // The key's cell (cell_key), relative to the grid.
            const int64_t xl = (key >> 32) - grid_x0_, zl = (key & 0xffffffff) - (int64_t{1} << 31) - grid_z0_;
            const int64_t z_lo = zl > 0 ? zl - 1 : 0, z_hi = zl + 1 < h ? zl + 1 : h - 1;
            const geo::Aabb bi = body_box_[i].expanded(widest_skin);
            const auto stretch = [&](size_t from, size_t to) {
                for (size_t m = from; m < to; ++m) {
                    const uint32_t j = body_cells_[m].second;
                    if (body_box_[j].overlaps(bi)) visit(i, j);
                }
            };
            const int64_t row = xl * h;
            stretch(k + 1, end_of(row + z_hi));
            if (xl + 1 < grid_w_) stretch(cell_start_[static_cast<size_t>(row + h + z_lo)], end_of(row + h + z_hi));
        }
        return;
    }
    for (const auto& cell : body_cells_) {
        const uint32_t i = cell.second;
        const geo::Aabb bi = body_box_[i].expanded(widest_skin);
        for_bodies_near(bi, [&](uint32_t j) {
            if (j > i && body_box_[j].overlaps(bi)) visit(i, j); // each pair once
        });
    }
}

bool World::body_pairs_complete(size_t* pairs) const {
    World fresh = *this;
    fresh.index_bodies();
    std::vector<std::pair<uint32_t, uint32_t>> seen, all;
    fresh.for_body_pairs([&](uint32_t i, uint32_t j) { seen.emplace_back(std::min(i, j), std::max(i, j)); });
    for (size_t a = 0; a < fresh.body_cells_.size(); ++a) {
        for (size_t b = 0; b < fresh.body_cells_.size(); ++b) {
            const uint32_t i = fresh.body_cells_[a].second, j = fresh.body_cells_[b].second;
            if (i < j && fresh.body_box_[j].overlaps(fresh.body_box_[i].expanded(fresh.body_widest_skin_)))
                all.emplace_back(i, j);
        }
    }
    std::sort(seen.begin(), seen.end());
    std::sort(all.begin(), all.end());
    if (pairs != nullptr) *pairs = all.size();
    return seen == all; // every pair whose boxes meet, and each once
}

void World::resolve_bodies() {
    // Where the steps left two colliding characters closer than their radii and a skin (each
    // met the other where it stood at the start of the tick, and both moved), each is pushed
    // horizontally away from the other by half of what is missing. The pushes of all pairs add
    // up exactly (fixed point), so neither the pairs' order nor the characters' matters; each
    // pair is oriented by where its two bodies are, not by their ids. A character's total is
    // capped at its depenetration_cap and swept against the static scene. Velocities are kept:
    // the resolution launches nobody.
    // body_push_ is all zero here: size_scratch() makes it so, and each push is reset once applied.
    index_bodies(); // where the tick ended
    bool any = false;
    for_body_pairs([&](uint32_t i, uint32_t j) {
        // body_separation is exactly antisymmetric: which of the two comes first does not matter.
        const Vec3 push = body_separation(body_start_[i], body_start_[j], max(params_[i].s.skin, params_[j].s.skin));
        if (push.is_zero()) return;
        body_push_[i] += push;
        body_push_[j] -= push;
        any = true;
    });
    // The index is kept for the next tick's start (step()): it describes where the bodies are
    // once the pushed ones are indexed again in place, unless one of them left its cell.
    bodies_indexed_ = true;
    if (!any) return;
    for (const auto& cell : body_cells_) {
        const uint32_t i = cell.second;
        Vec3 push = body_push_[i];
        if (push.is_zero()) continue;
        body_push_[i] = Vec3::zero();
        const Params& p = params_[i];
        const Scalar len = length(push);
        if (len > p.s.depenetration_cap) push = push * (p.s.depenetration_cap / len);
        CharacterState& s = states_[i];
        // A grounded body is pushed along its ground (over a slope a level push floated it or
        // sank it), then its ground is probed again where it ends.
        const Vec3 along = s.grounded ? ground_plane_motion(push, s.ground_normal) : push;
        const Vec3 before = s.position;
        // The shapes this tick gathered around the body (TickCache) answer as the whole scene
        // does (a query they do not cover walks the scene), from fewer candidates; no bodies.
        const geo::LocalScene whole(scene_);
        geo::LocalScene* kept = reuse_casts_ && cache_[i].scene && &cache_[i].scene->scene() == &scene_
                                    ? &*cache_[i].scene
                                    : nullptr;
        if (kept != nullptr) kept->set_bodies({});
        const geo::LocalScene& statics = kept != nullptr ? *kept : whole;
        s.position += clear_of_statics(statics, s.position, along, p);
        body_start_[i] = capsule_at(s.position, p);
        body_box_[i] = body_start_[i].bounds();
        if (cell_of(s.position.x) != cell_of(before.x) || cell_of(s.position.z) != cell_of(before.z))
            bodies_indexed_ = false;
        if (s.grounded) {
            // Cast where the body now ends its tick: remembered (GroundMemo), it answers the next
            // tick's overlap and probe queries as the step's last cast does for a body not pushed.
            GroundMemo* memo = kept != nullptr ? &cache_[i].ground : nullptr;
            const Ground g = probe_ground(statics, s.position, p, true, Tracer{}, nullptr, memo);
            s.grounded = g.grounded;
            s.ground_normal = g.normal;
            s.ground_shape = g.shape;
        }
    }
}

namespace {
constexpr uint8_t kSnapshotMagic[4] = {'F', 'X', 'K', 'S'};
constexpr size_t kSnapshotHeader = 18;
} // namespace

uint64_t World::checksum() const {
    uint8_t* p = checksum_bytes_.data();
    for (const CharacterState& s : states_) {
        const std::array<uint8_t, kStateBytes> b = serialize_state(s);
        for (size_t k = 0; k < kStateBytes; ++k) *p++ = b[k];
    }
    for (const Platform& pl : platforms_) {
        const std::array<uint8_t, kPlatformBytes> b = serialize_platform(pl.id, pl.center_at(tick_));
        for (size_t k = 0; k < kPlatformBytes; ++k) *p++ = b[k];
    }
    return xxh3_64(checksum_bytes_);
}

namespace {
constexpr size_t kSnapshotRecord = kStateBytes + kSettingsBytes;
} // namespace

size_t World::snapshot_size() const { return kSnapshotHeader + states_.size() * kSnapshotRecord; }

void World::snapshot(std::vector<uint8_t>* out) const {
    out->resize(snapshot_size());
    uint8_t* p = out->data();
    for (size_t k = 0; k < 4; ++k) p[k] = kSnapshotMagic[k];
    p[4] = kSnapshotVersion;
    p[5] = kStateBytesVersion;
    const uint64_t tick = static_cast<uint64_t>(tick_);
    for (int k = 0; k < 8; ++k) p[6 + k] = static_cast<uint8_t>(tick >> (8 * k));
    const uint32_t n = static_cast<uint32_t>(states_.size());
    for (int k = 0; k < 4; ++k) p[14 + k] = static_cast<uint8_t>(n >> (8 * k));
    for (size_t i = 0; i < states_.size(); ++i) {
        uint8_t* r = p + kSnapshotHeader + i * kSnapshotRecord;
        const std::array<uint8_t, kStateBytes> b = serialize_state(states_[i]);
        for (size_t k = 0; k < kStateBytes; ++k) r[k] = b[k];
        const std::array<uint8_t, kSettingsBytes> c = serialize_settings(params_[i].s);
        for (size_t k = 0; k < kSettingsBytes; ++k) r[kStateBytes + k] = c[k];
    }
    if (recorder_.r != nullptr) recorder_.r->on_snapshot(tick_, *out);
}

bool World::restore(std::span<const uint8_t> bytes, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error != nullptr) *error = "restore: " + why;
        return false;
    };
    if (!built_) return fail("the world is not built");
    if (bytes.size() < kSnapshotHeader) return fail("not a snapshot (" + std::to_string(bytes.size()) + " bytes)");
    for (size_t k = 0; k < 4; ++k)
        if (bytes[k] != kSnapshotMagic[k]) return fail("not a snapshot (no FXKS magic)");
    if (bytes[4] != kSnapshotVersion)
        return fail("snapshot version " + std::to_string(bytes[4]) + ", this library reads " +
                    std::to_string(kSnapshotVersion));
    if (bytes[5] != kStateBytesVersion)
        return fail("state-bytes version " + std::to_string(bytes[5]) + ", this library writes " +
                    std::to_string(kStateBytesVersion));
    uint64_t tick = 0;
    for (int k = 0; k < 8; ++k) tick |= static_cast<uint64_t>(bytes[6 + static_cast<size_t>(k)]) << (8 * k);
    uint32_t n = 0;
    for (int k = 0; k < 4; ++k) n |= static_cast<uint32_t>(bytes[14 + static_cast<size_t>(k)]) << (8 * k);
    if (static_cast<int64_t>(tick) < 0) return fail("negative tick");
    if ((bytes.size() - kSnapshotHeader) % kSnapshotRecord != 0 ||
        (bytes.size() - kSnapshotHeader) / kSnapshotRecord != n)
        return fail(std::to_string(bytes.size()) + " bytes, a snapshot of " + std::to_string(n) + " characters has " +
                    std::to_string(kSnapshotHeader + size_t{n} * kSnapshotRecord));
    auto record = [&](size_t i) { return bytes.subspan(kSnapshotHeader + i * kSnapshotRecord, kSnapshotRecord); };
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
        std::string why;
        if (!deserialize_settings(record(i).subspan(kStateBytes), &settings))
            return fail("character " + std::to_string(s.id) + ": unreadable settings bytes");
        if (!validate(settings, &why)) return fail("character " + std::to_string(s.id) + ": " + why);
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
            if (serialize_settings(params_[i].s) != serialize_settings(settings)) params_[i] = make_params(settings);
        } else {
            params_.push_back(make_params(settings));
        }
    }
    params_.resize(n);
    if (!same_count) size_scratch();
    bodies_indexed_ = false;
    for (TickCache& c : cache_) c.ground.valid = false;
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
    if (tick_ != 0) return fail("a recording starts at tick 0, the world is at tick " + std::to_string(tick_));
    // The recorder's first mark: the world as it is now (a snapshot taken before attaching,
    // restored later, is known). Taken with no recorder attached, so that none sees it.
    Recorder* const previous = recorder_.r;
    recorder_.r = nullptr;
    std::vector<uint8_t> bytes;
    snapshot(&bytes);
    recorder_.r = previous;
    if (!recorder->begin(*this, xxh3_64(bytes), error)) return false;
    if (previous != nullptr && previous != recorder) previous->world_ = nullptr;
    if (recorder->world_ != nullptr && recorder->world_ != this) recorder->world_->recorder_.r = nullptr;
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
