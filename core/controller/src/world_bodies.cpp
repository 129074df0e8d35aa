// The characters among themselves: a grid of the colliding characters' centres, the bodies near
// one character's tick, every pair of bodies whose boxes meet, and the symmetric resolution of
// their overlaps at the end of a tick (docs/controller.md, "Characters").
#include "kcc/world.h"

#include <algorithm>
#include <array>

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
/// A cell with more bodies than this is crowded whatever their size (docs/controller.md,
/// "Crowded cells"); with fewer, when they cannot all stand apart (crowded_run).
constexpr size_t kCrowdedCell = 64;
/// The bodies of crowded cells, in the crowd's order (crowd_before), meet the bodies at most
/// this many places either side of their own.
constexpr size_t kCrowdWindow = 4;
/// The bits of v's low 32 spread to the even bits of the result.
uint64_t spread_bits(uint64_t v) {
    v &= 0xffffffffu;
    v = (v | v << 16) & 0x0000ffff0000ffffu;
    v = (v | v << 8) & 0x00ff00ff00ff00ffu;
    v = (v | v << 4) & 0x0f0f0f0f0f0f0f0fu;
    v = (v | v << 2) & 0x3333333333333333u;
    v = (v | v << 1) & 0x5555555555555555u;
    return v;
}
/// A coordinate from the grid's origin in 1/64 m, clamped to 0 and 2^28 - 1 (the working
/// volume is two million metres wide: 2^27 sixty-fourths of a metre).
uint64_t crowd_coordinate(Scalar c) {
    return static_cast<uint64_t>(std::clamp<int64_t>(c.raw() >> 26, 0, (int64_t{1} << 28) - 1));
}
/// A place's key: its x and z from the grid's origin (ox, oz) in 1/64 m, their bits
/// interleaved (a Z-order curve), so that bodies near each other are mostly near each other in
/// the keys' order.
uint64_t crowd_key(const Vec3& c, Scalar ox, Scalar oz) {
    return spread_bits(crowd_coordinate(c.x - ox)) << 1 | spread_bits(crowd_coordinate(c.z - oz));
}
/// The second order's shift of both coordinates, in 1/64 m: the bits 0101...01 (a third of
/// 2^28). Two bodies near each other that a Z-order curve puts far apart (they straddle one of
/// its large steps) are near each other in the curve shifted so (the shifts of every scale
/// differ from the first curve's steps).
constexpr uint64_t kCrowdShift = 0x5555555;
/// The key of a place in the second order: the curve's coordinates shifted by kCrowdShift.
uint64_t crowd_key_shifted(const Vec3& c, Scalar ox, Scalar oz) {
    return spread_bits(crowd_coordinate(c.x - ox) + kCrowdShift) << 1 |
           spread_bits(crowd_coordinate(c.z - oz) + kCrowdShift);
}
/// Sorts v by key, stably (entries of one key keep their order): a least significant digit
/// first radix sort, 8 bits a pass, skipping the digits every key has alike.
void radix_sort(std::vector<std::pair<uint64_t, uint32_t>>& v,
                std::vector<std::pair<uint64_t, uint32_t>>& scratch) {
    uint64_t any = 0, every = ~uint64_t{0};
    for (const auto& e : v)
        any |= e.first, every &= e.first;
    const uint64_t varying = any ^ every;
    scratch.resize(v.size());
    for (int shift = 0; shift < 64; shift += 8) {
        if (((varying >> shift) & 0xff) == 0) continue;
        std::array<size_t, 257> start{};
        for (const auto& e : v)
            ++start[((e.first >> shift) & 0xff) + 1];
        for (size_t d = 1; d < start.size(); ++d)
            start[d] += start[d - 1];
        for (const auto& e : v)
            scratch[start[(e.first >> shift) & 0xff]++] = e;
        v.swap(scratch);
    }
}
} // namespace

bool World::too_few_to_crowd(size_t n) const {
    // Too few to be crowded even at the widest radius (the square's side at least 2 m): most
    // cells, answered without a look at their bodies.
    const uint64_t w = static_cast<uint64_t>(body_widest_.raw()) * 1000 >> 32;
    return n <= kCrowdedCell && n * 3 * (w + 1) * (w + 1) <= 2000 * 2000;
}

bool World::crowded_run(size_t b, size_t e) const {
    if (e - b > kCrowdedCell) return true;
    if (too_few_to_crowd(e - b)) return false;
    // Discs of radius r_i with centres in a 2 m square lie in the square grown by the largest
    // radius on every side; they cannot all stand apart when their areas add up to more than
    // its, sum(pi r_i^2) > (2 + 2 r_max)^2, tested with 3 for pi in whole millimetres, each
    // radius rounded down and the square's side up (so never where they might stand apart).
    uint64_t area = 0, widest = 0; // mm^2 (three radii squared, summed); mm
    for (size_t k = b; k < e; ++k) {
        const uint64_t r =
            static_cast<uint64_t>(params_[body_cells_[k].second].s.radius.raw()) * 1000 >> 32;
        area += 3 * r * r;
        widest = std::max(widest, r);
    }
    const uint64_t side = 2000 + 2 * (widest + 1);
    return area > side * side;
}

bool World::crowd_before(const CrowdEntry& u, uint64_t key, const geo::Capsule& c,
                         size_t index) const {
    if (u.first != key) return u.first < key;
    // The same key: by place (body_compare), then by id (the index: states_ is in id order).
    const int order = body_compare(body_start_[u.second], c);
    return order != 0 ? order < 0 : u.second < index;
}

void World::order_crowd(size_t most) {
    crowded_ = false;
    // No cell holds enough bodies to be crowded (crowded_run false for every one): nothing to
    // look at cell by cell (most cells of a crowd spread out hold one or two bodies).
    if (too_few_to_crowd(most)) return;
    const size_t n = body_cells_.size();
    for (size_t b = 0, e; b < n; b = e) {
        const int64_t cell = body_cells_[b].first;
        for (e = b + 1; e < n && body_cells_[e].first == cell; ++e) {
        }
        if (!crowded_run(b, e)) continue;
        if (!crowded_) {
            crowded_ = true;
            crowd_.clear();
            crowd_shifted_.clear();
            body_rank_.assign(states_.size(), kNoRank);
            body_rank_shifted_.resize(states_.size());
        }
        for (size_t k = b; k < e; ++k) {
            const uint32_t i = body_cells_[k].second;
            const Vec3& c = states_[i].position;
            crowd_.emplace_back(crowd_key(c, grid_origin_x_, grid_origin_z_), i);
            crowd_shifted_.emplace_back(crowd_key_shifted(c, grid_origin_x_, grid_origin_z_), i);
        }
    }
    if (!crowded_) return;
    // By key (a stable radix sort: bodies of one key stay in index order, the same cell's),
    // then each run of one key by place and index (crowd_before).
    const auto before = [&](const CrowdEntry& u, const CrowdEntry& v) {
        return crowd_before(u, v.first, body_start_[v.second], v.second);
    };
    for (std::vector<CrowdEntry>* order : {&crowd_, &crowd_shifted_}) {
        std::vector<CrowdEntry>& v = *order;
        radix_sort(v, crowd_scratch_);
        for (size_t b = 0, e; b < v.size(); b = e) {
            for (e = b + 1; e < v.size() && v[e].first == v[b].first; ++e) {
            }
            if (e - b > 1)
                std::sort(v.begin() + static_cast<std::ptrdiff_t>(b),
                          v.begin() + static_cast<std::ptrdiff_t>(e), before);
        }
    }
    for (size_t r = 0; r < crowd_.size(); ++r) {
        body_rank_shifted_[crowd_shifted_[r].second] = static_cast<uint32_t>(r);
        body_rank_[crowd_[r].second] = static_cast<uint32_t>(r);
        // The same capsule in the same place as the one before: ids ordered them (id_ties()).
        if (r > 0 && crowd_[r].first == crowd_[r - 1].first &&
            body_compare(body_start_[crowd_[r].second], body_start_[crowd_[r - 1].second]) == 0)
            ++id_ties_;
    }
}

std::pair<size_t, size_t> World::crowd_window(size_t who) const {
    size_t at = body_rank_.empty() ? kNoRank : body_rank_[who];
    if (at == kNoRank) { // not in the crowd: where it would fall in the crowd's order
        const geo::Capsule me = capsule_at(states_[who].position, params_[who]);
        const uint64_t key = crowd_key(states_[who].position, grid_origin_x_, grid_origin_z_);
        at = static_cast<size_t>(std::partition_point(crowd_.begin(), crowd_.end(),
                                                      [&](const CrowdEntry& u) {
                                                          return crowd_before(u, key, me, who);
                                                      }) -
                                 crowd_.begin());
    }
    return {at > kCrowdWindow ? at - kCrowdWindow : 0,
            std::min(crowd_.size(), at + kCrowdWindow + 1)};
}

void World::index_bodies() {
    body_cells_.clear();
    cell_start_.clear();
    crowded_ = false;
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
    // (Locals, not members, inside the loop: the compiler need not store them every body.)
    Scalar widest, widest_skin;
    Scalar ox = Scalar::from_raw(INT64_MAX), oz = Scalar::from_raw(INT64_MAX);
    const size_t count = states_.size();
    for (size_t i = 0; i < count; ++i) {
        if (!collides(i)) continue;
        const Settings& st = params_[i].s;
        const Vec3& c = states_[i].position;
        body_start_[i] = capsule_at(c, params_[i]);
        body_box_[i] = body_start_[i].bounds();
        ox = min(ox, c.x), oz = min(oz, c.z);
        body_cells_.emplace_back(0, static_cast<uint32_t>(i));
        widest = max(widest, st.radius);
        widest_skin = max(widest_skin, st.skin);
    }
    body_widest_ = widest;
    body_widest_skin_ = widest_skin;
    // The cells are counted from the lowest x and z among the bodies, so that the world moved
    // as a whole has the same cells (which cells are crowded decides what the resolution does).
    grid_origin_x_ = ox, grid_origin_z_ = oz;
    int64_t x0 = INT64_MAX, x1 = INT64_MIN, z0 = INT64_MAX, z1 = INT64_MIN;
    for (auto& cell : body_cells_) {
        const Vec3& c = states_[cell.second].position;
        const int64_t cx = cell_of(c.x - ox), cz = cell_of(c.z - oz);
        x0 = std::min(x0, cx), x1 = std::max(x1, cx), z0 = std::min(z0, cz), z1 = std::max(z1, cz);
        cell.first = cell_key(cx, cz);
    }
    // (cell, index): a total order; only which bodies a query visits depends on it, not what
    // the queries answer (hit_less orders what they meet by place). When the occupied cells
    // span at most a few cells per body, a counting sort over a dense grid puts them in that
    // order (stable in index) and lets a query find a cell's bodies directly; else a sort.
    const int64_t n = static_cast<int64_t>(body_cells_.size());
    const int64_t limit = 4 * n + 64;
    const int64_t w = x1 - x0 + 1, h = z1 - z0 + 1;
    if (w > limit || h > limit || w * h > limit) {
        std::sort(body_cells_.begin(), body_cells_.end());
        order_crowd(body_cells_.size());
        return;
    }
    grid_x0_ = x0, grid_z0_ = z0, grid_w_ = w, grid_h_ = h;
    // Counts at [c + 2], prefix sums, then each body placed at [c + 1]++: afterwards
    // cell_start_[c] is where cell c begins, for every c in [0, w * h].
    cell_start_.assign(static_cast<size_t>(w * h + 2), 0);
    size_t most = 0; // the most bodies in one cell
    for (const auto& cell : body_cells_) {
        // The key's cell: cx in the high half, cz + 2^31 in the low one (cell_key).
        const int64_t cx = cell.first >> 32, cz = (cell.first & 0xffffffff) - (int64_t{1} << 31);
        const int64_t k = (cx - x0) * h + (cz - z0);
        body_cell_[cell.second] = k;
        most = std::max<size_t>(most, ++cell_start_[static_cast<size_t>(k + 2)]);
    }
    for (size_t k = 2; k < cell_start_.size(); ++k)
        cell_start_[k] += cell_start_[k - 1];
    // Placed in ascending index (body_cells_ is built that way): stable.
    body_scratch_.assign(body_cells_.begin(), body_cells_.end());
    for (const auto& cell : body_scratch_)
        body_cells_[cell_start_[static_cast<size_t>(body_cell_[cell.second] + 1)]++] = cell;
    cell_start_.pop_back();
    order_crowd(most);
}

bool World::grid_is_fresh() const {
    if (!bodies_indexed_ || !reuse_casts_) return true; // the next tick builds it
    World fresh = *this;
    fresh.index_bodies();
    if (fresh.body_cells_ != body_cells_ || fresh.cell_start_ != cell_start_ ||
        fresh.crowded_ != crowded_ ||
        (crowded_ && (fresh.crowd_ != crowd_ || fresh.crowd_shifted_ != crowd_shifted_)) ||
        fresh.grid_origin_x_ != grid_origin_x_ || fresh.grid_origin_z_ != grid_origin_z_ ||
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

template <class Visit> bool World::for_bodies_near(const geo::Aabb& q, Visit&& visit) const {
    // A body overlapping q has its axis within its radius of q. With crowded cells, their
    // bodies are skipped (the crowd's windows meet them) and the answer is whether any was.
    const Scalar ox = grid_origin_x_, oz = grid_origin_z_;
    int64_t x0 = cell_of(q.lo.x - body_widest_ - ox), x1 = cell_of(q.hi.x + body_widest_ - ox);
    int64_t z0 = cell_of(q.lo.z - body_widest_ - oz), z1 = cell_of(q.hi.z + body_widest_ - oz);
    bool skipped = false;
    const auto cell = [&](size_t b, size_t e) {
        if (b == e) return;
        if (body_rank_[body_cells_[b].second] != kNoRank) {
            skipped = true;
            return;
        }
        for (size_t k = b; k < e; ++k)
            visit(body_cells_[k].second);
    };
    if (!cell_start_.empty()) {
        x0 = std::max(x0, grid_x0_), x1 = std::min(x1, grid_x0_ + grid_w_ - 1);
        z0 = std::max(z0, grid_z0_), z1 = std::min(z1, grid_z0_ + grid_h_ - 1);
        if (x0 > x1 || z0 > z1) return false;
        for (int64_t cx = x0; cx <= x1; ++cx) {
            const int64_t row = (cx - grid_x0_) * grid_h_ - grid_z0_;
            if (crowded_) { // cell by cell
                for (int64_t cz = z0; cz <= z1; ++cz)
                    cell(cell_start_[static_cast<size_t>(row + cz)],
                         cell_start_[static_cast<size_t>(row + cz + 1)]);
                continue;
            }
            const size_t end = cell_start_[static_cast<size_t>(row + z1 + 1)];
            for (size_t k = cell_start_[static_cast<size_t>(row + z0)]; k < end; ++k)
                visit(body_cells_[k].second);
        }
        return skipped;
    }
    const auto first_of = [&](int64_t key) { // the first entry of a cell key or a later one
        return static_cast<size_t>(
            std::lower_bound(body_cells_.begin(), body_cells_.end(), key,
                             [](const auto& c, int64_t k) { return c.first < k; }) -
            body_cells_.begin());
    };
    if ((x1 - x0 + 1) * (z1 - z0 + 1) > kMaxCellsVisited) {
        if (!crowded_) {
            for (const auto& c : body_cells_)
                visit(c.second);
            return false;
        }
        for (size_t b = 0, e; b < body_cells_.size(); b = e) {
            e = first_of(body_cells_[b].first + 1);
            cell(b, e);
        }
        return skipped;
    }
    for (int64_t cx = x0; cx <= x1; ++cx) {
        for (int64_t cz = z0; cz <= z1; ++cz) {
            const int64_t key = cell_key(cx, cz);
            size_t k = first_of(key);
            if (crowded_) {
                cell(k, first_of(key + 1));
                continue;
            }
            for (; k < body_cells_.size() && body_cells_[k].first == key; ++k)
                visit(body_cells_[k].second);
        }
    }
    return skipped;
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
    if (!crowded_ && !cell_start_.empty() && d <= (int64_t{1} << kBodyCellShift)) {
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
        // The bodies of cells that are not crowded: each pair of two of them once (from the
        // lower index), a crowd's body and one of them from the crowd's side.
        const bool in_crowd = crowded_ && body_rank_[i] != kNoRank;
        for_bodies_near(bi, [&](uint32_t j) {
            if ((in_crowd || j > i) && j != i && body_box_[j].overlaps(bi)) visit(i, j);
        });
        if (!in_crowd) continue;
        // Two of the crowd: within kCrowdWindow places of each other in either order, from
        // the earlier one (in the first order when they are that near in it).
        const size_t rank = body_rank_[i], end = std::min(crowd_.size(), rank + kCrowdWindow + 1);
        for (size_t r = rank + 1; r < end; ++r) {
            const uint32_t j = crowd_[r].second;
            if (body_box_[j].overlaps(bi)) visit(i, j);
        }
        const size_t shifted = body_rank_shifted_[i];
        const size_t end_shifted = std::min(crowd_.size(), shifted + kCrowdWindow + 1);
        for (size_t r = shifted + 1; r < end_shifted; ++r) {
            const uint32_t j = crowd_shifted_[r].second;
            const size_t other = body_rank_[j];
            const size_t apart = other > rank ? other - rank : rank - other;
            if (apart > kCrowdWindow && body_box_[j].overlaps(bi)) visit(i, j);
        }
    }
}

bool World::body_pairs_complete(size_t* pairs, size_t* crowd) const {
    World fresh = *this;
    fresh.index_bodies();
    std::vector<std::pair<uint32_t, uint32_t>> seen;
    fresh.for_body_pairs(
        [&](uint32_t i, uint32_t j) { seen.emplace_back(std::min(i, j), std::max(i, j)); });
    const auto& cells = fresh.body_cells_;
    // Which bodies are in the crowd and their places in its order, from the definition
    // (docs/controller.md, "Crowded cells"): every body of a cell that crowded_run() calls
    // crowded, ranked by counting the crowd's bodies before it (not looked up).
    std::vector<uint8_t> in_crowd(fresh.states_.size(), 0);
    for (size_t b = 0, e; b < cells.size(); b = e) {
        for (e = b; e < cells.size() && cells[e].first == cells[b].first; ++e) {
        }
        if (fresh.crowded_run(b, e))
            for (size_t k = b; k < e; ++k)
                in_crowd[cells[k].second] = 1;
    }
    const auto key = [&](uint32_t i) {
        return crowd_key(fresh.states_[i].position, fresh.grid_origin_x_, fresh.grid_origin_z_);
    };
    const auto key_shifted = [&](uint32_t i) {
        return crowd_key_shifted(fresh.states_[i].position, fresh.grid_origin_x_,
                                 fresh.grid_origin_z_);
    };
    std::vector<int64_t> rank(fresh.states_.size(), -1), rank_shifted(rank);
    for (const auto& c : cells) {
        const uint32_t i = c.second;
        if (in_crowd[i] == 0) continue;
        rank[i] = rank_shifted[i] = 0;
        for (const auto& o : cells) {
            if (o.second == i || in_crowd[o.second] == 0) continue;
            const geo::Capsule& cap = fresh.body_start_[i];
            if (fresh.crowd_before({key(o.second), o.second}, key(i), cap, i)) ++rank[i];
            if (fresh.crowd_before({key_shifted(o.second), o.second}, key_shifted(i), cap, i))
                ++rank_shifted[i];
        }
    }
    const auto pair_counts = [&](uint32_t i, uint32_t j) {
        if (in_crowd[i] == 0 || in_crowd[j] == 0) return true; // a crowd meets the rest whole
        const auto near = [](int64_t a, int64_t b) {
            return (a > b ? a - b : b - a) <= static_cast<int64_t>(kCrowdWindow);
        };
        return near(rank[i], rank[j]) || near(rank_shifted[i], rank_shifted[j]);
    };
    std::vector<std::pair<uint32_t, uint32_t>> all;
    for (size_t a = 0; a < cells.size(); ++a) {
        for (size_t b = 0; b < cells.size(); ++b) {
            const uint32_t i = cells[a].second, j = cells[b].second;
            if (i < j &&
                fresh.body_box_[j].overlaps(fresh.body_box_[i].expanded(fresh.body_widest_skin_)) &&
                pair_counts(i, j))
                all.emplace_back(i, j);
        }
    }
    std::sort(seen.begin(), seen.end());
    std::sort(all.begin(), all.end());
    if (pairs != nullptr) *pairs = all.size();
    if (crowd != nullptr)
        *crowd = static_cast<size_t>(std::count(in_crowd.begin(), in_crowd.end(), 1));
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
        ++pairs_met_;
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
    // A crowded cell's order is by place, which the pushes change: indexed afresh next tick.
    bodies_indexed_ = !(any && crowded_);
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
        // The grid is kept when the body stayed in its cell and was not the one the cells are
        // counted from, nor went below it.
        const Scalar ox = grid_origin_x_, oz = grid_origin_z_;
        if (cell_of(s.position.x - ox) != cell_of(before.x - ox) ||
            cell_of(s.position.z - oz) != cell_of(before.z - oz) || before.x == ox ||
            before.z == oz || s.position.x < ox || s.position.z < oz)
            bodies_indexed_ = false;
        if (s.grounded) {
            // Cast where the body now ends its tick: remembered (GroundMemo), it answers the next
            // tick's overlap and probe queries as the step's last cast does for a body not pushed.
            GroundMemo* memo = kept != nullptr ? &cache_[i].ground : nullptr;
            const Ground g = probe_ground(statics, s.position, p, true, Tracer{}, nullptr, memo,
                                          s.ground_normal);
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
    // Without a branch a candidate (whether one is near is what a crowd's predictions miss):
    // the six comparisons of Aabb::overlaps combined, every candidate's index written to the
    // next place and the count moved on when it is near; the bodies kept copied after. (At most
    // one place a body: for_bodies_near visits each once, the crowd's window only ones it skipped.)
    uint32_t* const kept = near_scratch_.data();
    size_t n = 0;
    const auto at_most = [](Scalar a, Scalar b) { return static_cast<size_t>(a <= b); };
    const auto near = [&](uint32_t k) {
        const geo::Aabb& bk = body_box_[k];
        kept[n] = k;
        n += at_most(reach.lo.x, bk.hi.x) & at_most(bk.lo.x, reach.hi.x) &
             at_most(reach.lo.z, bk.hi.z) & at_most(bk.lo.z, reach.hi.z) &
             at_most(reach.lo.y, bk.hi.y) & at_most(bk.lo.y, reach.hi.y) &
             static_cast<size_t>(k != i);
    };
    // A body of the crowd meets none of the crowd in its casts (only the resolution's pairs);
    // another body near the crowd meets those within kCrowdWindow of its place in its order.
    if (for_bodies_near(reach, near) && body_rank_[i] == kNoRank) {
        const auto [from, to] = crowd_window(i);
        for (size_t r = from; r < to; ++r)
            near(crowd_[r].second);
    }
    for (size_t m = 0; m < n; ++m)
        body_near_.push_back({body_start_[kept[m]], body_box_[kept[m]]});
    return true;
}

} // namespace fx::kcc
