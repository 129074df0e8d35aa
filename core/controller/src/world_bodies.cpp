// The characters among themselves: a grid of the colliding characters' centres, the bodies near
// one character's tick, every pair of bodies whose boxes meet, and the symmetric resolution of
// their overlaps at the end of a tick (docs/controller.md, "Characters").
#include "kcc/world.h"

#include <algorithm>

namespace fx::kcc {

namespace {
/// Side of a cell of the characters' grid: 2 m (2^1: a cell index is the raw coordinate
/// shifted right by 33, which rounds toward minus infinity). Only which bodies a query visits
/// depends on it (docs/performance.md: 4 m cells visited twice as many on crowd-1024).
constexpr int kBodyCellShift = 32 + 1;
int64_t cell_of(Scalar c) {
    return c.raw() >> kBodyCellShift;
}
int64_t cell_key(int64_t cx, int64_t cz) {
    return cx * (int64_t{1} << 32) + (cz + (int64_t{1} << 31));
}
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
    const auto collides = [&](size_t i) {
        return params_[i].s.collide_characters && !states_[i].halted;
    };
    size_t colliding = 0;
    for (size_t i = 0; i < states_.size() && colliding < 2; ++i)
        colliding += collides(i) ? 1 : 0;
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
    for (size_t k = 2; k < cell_start_.size(); ++k)
        cell_start_[k] += cell_start_[k - 1];
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
    if (fresh.body_cells_ != body_cells_ || fresh.cell_start_ != cell_start_ ||
        fresh.body_widest_ != body_widest_ || fresh.body_widest_skin_ != body_widest_skin_)
        return false;
    if (!cell_start_.empty() && (fresh.grid_x0_ != grid_x0_ || fresh.grid_z0_ != grid_z0_ ||
                                 fresh.grid_w_ != grid_w_ || fresh.grid_h_ != grid_h_))
        return false;
    for (const auto& cell : body_cells_) {
        const size_t i = cell.second;
        if (fresh.body_start_[i].a != body_start_[i].a ||
            fresh.body_start_[i].b != body_start_[i].b ||
            fresh.body_start_[i].radius != body_start_[i].radius ||
            fresh.body_box_[i].lo != body_box_[i].lo || fresh.body_box_[i].hi != body_box_[i].hi)
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
            for (size_t k = cell_start_[static_cast<size_t>(row + z0)]; k < end; ++k)
                visit(body_cells_[k].second);
        }
        return;
    }
    if ((x1 - x0 + 1) * (z1 - z0 + 1) > kMaxCellsVisited) {
        for (const auto& cell : body_cells_)
            visit(cell.second);
        return;
    }
    for (int64_t cx = x0; cx <= x1; ++cx) {
        for (int64_t cz = z0; cz <= z1; ++cz) {
            const int64_t key = cell_key(cx, cz);
            auto it = std::lower_bound(body_cells_.begin(), body_cells_.end(),
                                       std::make_pair(key, uint32_t{0}));
            for (; it != body_cells_.end() && it->first == key; ++it)
                visit(it->second);
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
    // (another). Otherwise each body looks up the cells around its box (for_bodies_near) and
    // skips every pair it met from the other side.
    const int64_t d =
        body_widest_.raw() * 2 + widest_skin.raw(); // radii and skins are bounded (settings)
    if (!cell_start_.empty() && d <= (int64_t{1} << kBodyCellShift)) {
        const int64_t h = grid_h_;
        const auto end_of = [&](int64_t c) {
            return static_cast<size_t>(cell_start_[static_cast<size_t>(c + 1)]);
        };
        for (size_t k = 0; k < body_cells_.size(); ++k) {
            const int64_t key = body_cells_[k].first;
            const uint32_t i = body_cells_[k].second;
            // The key's cell (cell_key), relative to the grid.
            const int64_t xl = (key >> 32) - grid_x0_,
                          zl = (key & 0xffffffff) - (int64_t{1} << 31) - grid_z0_;
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
            if (xl + 1 < grid_w_)
                stretch(cell_start_[static_cast<size_t>(row + h + z_lo)], end_of(row + h + z_hi));
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
    fresh.for_body_pairs(
        [&](uint32_t i, uint32_t j) { seen.emplace_back(std::min(i, j), std::max(i, j)); });
    for (size_t a = 0; a < fresh.body_cells_.size(); ++a) {
        for (size_t b = 0; b < fresh.body_cells_.size(); ++b) {
            const uint32_t i = fresh.body_cells_[a].second, j = fresh.body_cells_[b].second;
            if (i < j &&
                fresh.body_box_[j].overlaps(fresh.body_box_[i].expanded(fresh.body_widest_skin_)))
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
        const Vec3 push = body_separation(body_start_[i], body_start_[j],
                                          max(params_[i].s.skin, params_[j].s.skin), states_[i].id,
                                          states_[j].id);
        if (push.is_zero()) return;
        const geo::Capsule &a = body_start_[i], &b = body_start_[j];
        if (a.a == b.a && a.b == b.b && a.radius == b.radius) ++id_ties_;
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
        geo::LocalScene* kept =
            reuse_casts_ && cache_[i].scene && &cache_[i].scene->scene() == &scene_
                ? &*cache_[i].scene
                : nullptr;
        if (kept != nullptr) kept->set_bodies({});
        const geo::LocalScene& statics = kept != nullptr ? *kept : whole;
        s.position += clear_of_statics(statics, s.position, along, p);
        body_start_[i] = capsule_at(s.position, p);
        body_box_[i] = body_start_[i].bounds();
        if (cell_of(s.position.x) != cell_of(before.x) ||
            cell_of(s.position.z) != cell_of(before.z))
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

bool World::gather_bodies_near(size_t i, const Vec3& shift, geo::Aabb* region) {
    body_near_.clear();
    if (!params_[i].s.collide_characters || body_cells_.size() <= 1) return false;
    const CharacterState& s = states_[i];
    *region = tick_region(s.position, s.velocity, params_[i]);
    geo::Aabb reach = *region;
    const Vec3 carried{abs(shift.x), abs(shift.y), abs(shift.z)};
    reach.lo -= carried;
    reach.hi += carried;
    for_bodies_near(reach, [&](uint32_t k) {
        if (k != i && body_box_[k].overlaps(reach))
            body_near_.push_back({body_start_[k], body_box_[k]});
    });
    return true;
}

} // namespace fx::kcc
