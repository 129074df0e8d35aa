#include "geo/scene.h"

#include <algorithm>

#include "narrow.h"
#include "sweep.h"

namespace fx::geo {

using namespace detail;

void StaticScene::add_sphere(ShapeId id, const Sphere& s, Motion motion) {
    Record r;
    r.id = id, r.kind = ShapeKind::kSphere, r.motion = motion, r.sphere = s;
    records_.push_back(r);
}
void StaticScene::add_capsule(ShapeId id, const Capsule& c, Motion motion) {
    Record r;
    r.id = id, r.kind = ShapeKind::kCapsule, r.motion = motion, r.capsule = c;
    records_.push_back(r);
}
void StaticScene::add_box(ShapeId id, const Box& b, Motion motion) {
    Record r;
    r.id = id, r.kind = ShapeKind::kBox, r.motion = motion, r.box = b,
    r.box_frame = box_frame(b.rotation);
    records_.push_back(r);
}
void StaticScene::add_plane(ShapeId id, const Plane& p) {
    Record r;
    r.id = id, r.kind = ShapeKind::kPlane, r.plane = p;
    records_.push_back(r);
}
void StaticScene::add_mesh(ShapeId id, TriangleMesh mesh) {
    Record r;
    r.id = id, r.kind = ShapeKind::kMesh, r.mesh = static_cast<uint32_t>(meshes_.size());
    meshes_.push_back(std::move(mesh));
    records_.push_back(r);
}

namespace {

/// Bounds of a bounded primitive shape (planes have none; meshes carry their own).
Aabb primitive_bounds(ShapeKind kind, const Sphere& s, const Capsule& c, const Box& b) {
    switch (kind) {
    case ShapeKind::kSphere:
        return s.bounds();
    case ShapeKind::kCapsule:
        return c.bounds();
    case ShapeKind::kBox:
        return b.bounds();
    case ShapeKind::kMesh:
    case ShapeKind::kPlane:
        break;
    }
    return Aabb{};
}

} // namespace

bool StaticScene::build(std::string* error) {
    // Ids are unique (checked below), so this order is total.
    std::sort(records_.begin(), records_.end(),
              [](const Record& a, const Record& b) { return a.id < b.id; });
    auto fail = [&](ShapeId id, const std::string& what) {
        if (error != nullptr) *error = "shape " + std::to_string(id) + ": " + what;
        return false;
    };
    static_items_.clear(), kinematic_items_.clear(), planes_.clear(), large_items_.clear(),
        large_bounds_.clear();
    std::vector<Aabb> static_boxes;
    std::vector<uint32_t> static_keys, kin_keys;
    std::vector<uint32_t> static_records;
    kinematic_bounds_.clear();
    for (uint32_t i = 0; i < records_.size(); ++i) {
        Record& r = records_[i];
        if (i > 0 && records_[i - 1].id == r.id) return fail(r.id, "duplicate id");
        if (r.id == kBodyShape) return fail(r.id, "id reserved for bodies (kBodyShape)");
        const bool small_radius =
            (r.kind == ShapeKind::kSphere && r.sphere.radius < kMinHalfExtent) ||
            (r.kind == ShapeKind::kCapsule && r.capsule.radius.raw() < 0);
        if (small_radius) return fail(r.id, "radius below the minimum (2^-16 m)");
        if (r.kind == ShapeKind::kCapsule &&
            distance(r.capsule.a, r.capsule.b) > kMaxCapsuleSegment)
            return fail(r.id, "capsule segment longer than 30000 m");
        if (r.kind == ShapeKind::kBox &&
            (r.box.half_extents.x < kMinHalfExtent || r.box.half_extents.y < kMinHalfExtent ||
             r.box.half_extents.z < kMinHalfExtent))
            return fail(r.id, "half extent below the minimum (2^-16 m)");
        if (r.kind == ShapeKind::kPlane) {
            const Scalar len = length(r.plane.normal);
            if (abs(len - Scalar::one()) > Scalar::from_raw(int64_t{1} << 8))
                return fail(r.id, "plane normal is not unit length");
            planes_.push_back(i);
            continue;
        }
        r.bounds = r.kind == ShapeKind::kMesh
                       ? meshes_[r.mesh].bounds()
                       : primitive_bounds(r.kind, r.sphere, r.capsule, r.box);
        if (r.kind == ShapeKind::kMesh && r.motion == Motion::kKinematic)
            return fail(r.id, "meshes are static");
        if (r.motion == Motion::kStatic) {
            static_records.push_back(i);
        } else {
            kinematic_items_.push_back(i);
            kinematic_bounds_.push_back(r.bounds);
            kin_keys.push_back(r.id);
        }
    }
    // Split the static items into the large ones (tested one by one) and the tree's. Only the
    // cost of a query depends on the split: every query orders its results itself.
    if (!static_records.empty()) {
        Aabb level = records_[static_records[0]].bounds;
        for (uint32_t i : static_records)
            level = level.merged(records_[i].bounds);
        const Vec3 half_level = Vec3{(level.hi.x - level.lo.x).div_int(2), Scalar{},
                                     (level.hi.z - level.lo.z).div_int(2)};
        for (uint32_t i : static_records) {
            const Aabb& b = records_[i].bounds;
            const Vec3 e = b.hi - b.lo;
            if (e.x >= half_level.x || e.z >= half_level.z) {
                large_items_.push_back(i);
                large_bounds_.push_back(b);
            } else {
                static_items_.push_back(i);
                static_boxes.push_back(b);
                static_keys.push_back(records_[i].id);
            }
        }
    }
    static_tree_.build(static_boxes, static_keys);
    kinematic_tree_.build(kinematic_bounds_, kin_keys);
    built_ = true;
    return true;
}

StaticScene::ShapeView StaticScene::shape(size_t index) const {
    const Record& r = records_[index];
    ShapeView v;
    v.id = r.id;
    v.kind = r.kind;
    v.motion = r.motion;
    v.sphere = r.sphere;
    v.capsule = r.capsule;
    v.box = r.box;
    v.plane = r.plane;
    if (r.kind == ShapeKind::kMesh) v.mesh = &meshes_[r.mesh];
    return v;
}

bool StaticScene::is_kinematic(ShapeId id) const {
    const auto it = std::lower_bound(records_.begin(), records_.end(), id,
                                     [](const Record& r, ShapeId v) { return r.id < v; });
    return it != records_.end() && it->id == id && it->motion == Motion::kKinematic;
}

const StaticScene::Record* StaticScene::find(ShapeId id, ShapeKind kind) const {
    const auto it = std::lower_bound(records_.begin(), records_.end(), id,
                                     [](const Record& r, ShapeId v) { return r.id < v; });
    if (it == records_.end() || it->id != id || it->kind != kind) return nullptr;
    return &*it;
}
bool StaticScene::face_normal(const Hit& h, Vec3* out) const {
    if (h.feature.kind != FeatureKind::kEdge && h.feature.kind != FeatureKind::kVertex)
        return false;
    const auto it = std::lower_bound(records_.begin(), records_.end(), h.shape,
                                     [](const Record& r, ShapeId v) { return r.id < v; });
    if (it == records_.end() || it->id != h.shape) return false;
    if (it->kind == ShapeKind::kBox) {
        // The face whose normal is nearest: the axis with the largest |dot|, on the hit's side.
        int best = 0;
        for (int a = 1; a < 3; ++a) {
            if (abs(dot(it->box.rotation.column(a), h.normal)) >
                abs(dot(it->box.rotation.column(best), h.normal)))
                best = a;
        }
        const Vec3 axis = it->box.rotation.column(best);
        *out = dot(axis, h.normal).raw() >= 0 ? axis : -axis;
        return true;
    }
    if (it->kind == ShapeKind::kMesh) {
        const auto tris = meshes_[it->mesh].triangles();
        if (h.feature.triangle >= tris.size()) return false;
        const Vec3 n = tris[h.feature.triangle].normal;
        *out = dot(n, h.normal).raw() >= 0 ? n : -n;
        return true;
    }
    return false;
}

StaticScene::Record* StaticScene::find(ShapeId id, ShapeKind kind) {
    return const_cast<Record*>(static_cast<const StaticScene*>(this)->find(id, kind));
}

bool StaticScene::move_sphere(ShapeId id, const Sphere& s) {
    Record* r = find(id, ShapeKind::kSphere);
    if (r == nullptr || r->motion != Motion::kKinematic) return false;
    r->sphere = s;
    return true;
}
bool StaticScene::move_capsule(ShapeId id, const Capsule& c) {
    Record* r = find(id, ShapeKind::kCapsule);
    if (r == nullptr || r->motion != Motion::kKinematic) return false;
    r->capsule = c;
    return true;
}
bool StaticScene::move_box(ShapeId id, const Box& b) {
    Record* r = find(id, ShapeKind::kBox);
    if (r == nullptr || r->motion != Motion::kKinematic) return false;
    r->box = b;
    r->box_frame = box_frame(b.rotation);
    return true;
}

void StaticScene::refit() {
    for (size_t k = 0; k < kinematic_items_.size(); ++k) {
        Record& r = records_[kinematic_items_[k]];
        r.bounds = primitive_bounds(r.kind, r.sphere, r.capsule, r.box);
        kinematic_bounds_[k] = r.bounds;
    }
    kinematic_tree_.refit(kinematic_bounds_);
}

template <class Visit>
void StaticScene::for_candidates(const Aabb& q, const LocalScene* local, Visit&& visit) const {
    for (uint32_t p : planes_)
        visit(records_[p]);
    if (local != nullptr && local->covers(q)) {
        for (uint32_t k = 0; k < local->count_; ++k) {
            const Record& r = records_[local->items_[k]];
            if (r.bounds.overlaps(q)) visit(r);
        }
        return;
    }
    for (size_t k = 0; k < large_items_.size(); ++k)
        if (large_bounds_[k].overlaps(q)) visit(records_[large_items_[k]]);
    static_tree_.query(q, [&](uint32_t item) { visit(records_[static_items_[item]]); });
    kinematic_tree_.query(q, [&](uint32_t item) { visit(records_[kinematic_items_[item]]); });
}

namespace {
/// Another body the capsule starts a cast inside of (or touching) is left out of the cast's
/// results when the motion goes along or away from it (dot(dir, n) >= 0): it cannot stop that
/// motion nor be ground under it, and a crowd standing in one another (characters released at
/// one point) would otherwise fill every bounded list of hits (the probe's eight) before the
/// floor. A motion into it still meets it, unless the motion is vertical and the capsule starts
/// more than `pass_depth` inside it (LocalScene::set_body_pass_depth): deep in a pile of bodies
/// of mixed sizes the contact normal leans up from inside another body, and such bodies filled
/// the probe's list before the floor too. (docs/controller.md, "Characters".)
bool passes_body(const Hit& h, const Vec3& dir, Scalar pass_depth) {
    if (!h.start_overlap) return false;
    return dot(dir, h.normal).raw() >= 0 ||
           (dir.x.raw() == 0 && dir.z.raw() == 0 && h.depth > pass_depth);
}
} // namespace

size_t StaticScene::cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance,
                             std::span<Hit> out) const {
    return cast_all(c, direction, max_distance, out, nullptr, false);
}

size_t StaticScene::cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance,
                             std::span<Hit> out, const LocalScene* local, bool any) const {
    const Vec3 o = c.a;
    const Vec3 b = c.b - o;
    const Vec3 dir = local != nullptr ? local->unit(direction) : normalize(direction);
    const Aabb swept = swept_bounds(c, dir, max_distance);
    size_t count = 0, total = 0;
    auto keep = [&](bool hit, Hit& h, ShapeId id) {
        if (!hit) return;
        h.shape = id;
        ++total;
        insert_hit(out, &count, h);
    };
    const auto visit = [&](const Record& r) {
        if (any && total > 0) return; // asked only whether anything is hit: it is
        Hit h;
        switch (r.kind) {
        case ShapeKind::kSphere:
            keep(cast_core(o, Vec3{}, b, c.radius, dir, max_distance, make_core(r.sphere, o), &h),
                 h, r.id);
            break;
        case ShapeKind::kCapsule:
            keep(cast_core(o, Vec3{}, b, c.radius, dir, max_distance, make_core(r.capsule, o), &h),
                 h, r.id);
            break;
        case ShapeKind::kBox:
            keep(cast_core(o, Vec3{}, b, c.radius, dir, max_distance,
                           make_core(r.box, o, r.box_frame), &h),
                 h, r.id);
            break;
        case ShapeKind::kPlane:
            keep(cast_plane(o, Vec3{}, b, c.radius, dir, max_distance, make_core(r.plane, o), &h),
                 h, r.id);
            break;
        case ShapeKind::kMesh: {
            const TriangleMesh& m = meshes_[r.mesh];
            m.bvh().query(swept, [&](uint32_t tri) {
                if (any && total > 0) return;
                Hit th;
                keep(
                    cast_core(o, Vec3{}, b, c.radius, dir, max_distance, make_core(m, tri, o), &th),
                    th, r.id);
            });
            break;
        }
        }
    };
    if (local != nullptr && local->covers(swept)) {
        // for_candidates(swept, local, visit) written out for the shapes gathered near the body
        // (nearly every query), the boxes' casts in the loop: the same calls on the same values.
        for (uint32_t p : planes_)
            visit(records_[p]);
        for (uint32_t k = 0; k < local->count_; ++k) {
            const Record& r = records_[local->items_[k]];
            if (!r.bounds.overlaps(swept)) continue;
            if (r.kind != ShapeKind::kBox) {
                visit(r);
                continue;
            }
            if (any && total > 0) break;
            Hit h;
            keep(cast_core(o, Vec3{}, b, c.radius, dir, max_distance,
                           make_core(r.box, o, r.box_frame), &h),
                 h, r.id);
        }
    } else {
        for_candidates(swept, local, visit);
    }
    if (local != nullptr) {
        for (const Body& body : local->bodies_) {
            if (any && total > 0) break;
            if (!body.bounds.overlaps(swept)) continue;
            Hit h;
            if (!cast_upright(o, b, c.radius, dir, max_distance, make_core(body.capsule, o), &h) ||
                passes_body(h, dir, local->body_pass_depth_))
                continue;
            keep(true, h, kBodyShape);
        }
    }
    return total;
}

size_t LocalScene::cast_bodies(const Capsule& c, const Vec3& direction, Scalar max_distance,
                               std::span<Hit> out, size_t* count) const {
    if (bodies_.empty()) return 0;
    // cast_all()'s loop over the bodies, the same calls on the same values.
    const Vec3 o = c.a;
    const Vec3 b = c.b - o;
    const Vec3 dir = unit(direction);
    const Aabb swept = swept_bounds(c, dir, max_distance);
    size_t found = 0;
    for (const Body& body : bodies_) {
        if (!body.bounds.overlaps(swept)) continue;
        Hit h;
        if (!cast_upright(o, b, c.radius, dir, max_distance, make_core(body.capsule, o), &h) ||
            passes_body(h, dir, body_pass_depth_))
            continue;
        h.shape = kBodyShape;
        ++found;
        insert_hit(out, count, h);
    }
    return found;
}

bool StaticScene::cast_any(const Capsule& c, const Vec3& direction, Scalar max_distance) const {
    Hit unused[1];
    return cast_all(c, direction, max_distance, unused, nullptr, true) > 0;
}

bool StaticScene::cast(const Capsule& c, const Vec3& direction, Scalar max_distance,
                       Hit* out) const {
    Hit best[1];
    if (cast_all(c, direction, max_distance, best) == 0) return false;
    *out = best[0];
    return true;
}

bool StaticScene::ray_cast(const Vec3& origin, const Vec3& direction, Scalar max_distance,
                           Hit* out) const {
    return cast(Capsule{origin, origin, Scalar{}}, direction, max_distance, out);
}

size_t StaticScene::overlap(const Capsule& c, Scalar margin, std::span<Contact> out) const {
    return overlap(c, margin, out, nullptr);
}

size_t StaticScene::overlap(const Capsule& c, Scalar margin, std::span<Contact> out,
                            const LocalScene* local) const {
    const Vec3 o = c.a;
    const Vec3 b = c.b - o;
    const Aabb q = c.bounds().expanded(max(margin, Scalar{}) + kContactTolerance);
    size_t count = 0, total = 0;
    auto keep = [&](bool hit, Contact& ct, ShapeId id) {
        if (!hit) return;
        ct.shape = id;
        ++total;
        insert_contact(out, &count, ct);
    };
    for_candidates(q, local, [&](const Record& r) {
        Contact ct;
        switch (r.kind) {
        case ShapeKind::kSphere:
            keep(overlap_core(o, Vec3{}, b, c.radius, make_core(r.sphere, o), margin, &ct), ct,
                 r.id);
            break;
        case ShapeKind::kCapsule:
            keep(overlap_core(o, Vec3{}, b, c.radius, make_core(r.capsule, o), margin, &ct), ct,
                 r.id);
            break;
        case ShapeKind::kBox:
            keep(
                overlap_core(o, Vec3{}, b, c.radius, make_core(r.box, o, r.box_frame), margin, &ct),
                ct, r.id);
            break;
        case ShapeKind::kPlane:
            keep(overlap_plane(o, Vec3{}, b, c.radius, make_core(r.plane, o), margin, &ct), ct,
                 r.id);
            break;
        case ShapeKind::kMesh: {
            const TriangleMesh& m = meshes_[r.mesh];
            m.bvh().query(q, [&](uint32_t tri) {
                Contact tc;
                keep(overlap_core(o, Vec3{}, b, c.radius, make_core(m, tri, o), margin, &tc), tc,
                     r.id);
            });
            break;
        }
        }
    });
    if (local != nullptr) {
        for (const Body& body : local->bodies_) {
            if (!body.bounds.overlaps(q)) continue;
            Contact ct;
            keep(overlap_core(o, Vec3{}, b, c.radius, make_core(body.capsule, o), margin, &ct), ct,
                 kBodyShape);
        }
    }
    return total;
}

size_t StaticScene::query_bounds(const Aabb& q, std::span<ShapeId> out) const {
    size_t count = 0, total = 0;
    for_candidates(q, nullptr, [&](const Record& r) {
        ++total;
        // Sorted insertion by id (ids are unique), keeping the least out.size().
        size_t pos = count;
        while (pos > 0 && r.id < out[pos - 1])
            --pos;
        if (pos >= out.size()) return;
        const size_t end = count < out.size() ? count : out.size() - 1;
        for (size_t i = end; i > pos; --i)
            out[i] = out[i - 1];
        out[pos] = r.id;
        if (count < out.size()) ++count;
    });
    return total;
}

LocalScene::LocalScene(const StaticScene& scene, const Aabb& region)
    : scene_(&scene), region_(region) {
    // Every bounded shape overlapping the region (planes are visited by every query anyway).
    // Gathered in the trees' order; the queries do not depend on the order of their candidates.
    bool full = false;
    auto keep = [&](uint32_t record) {
        if (count_ == kCapacity) {
            full = true;
            return;
        }
        items_[count_++] = record;
    };
    for (size_t k = 0; k < scene.large_items_.size(); ++k)
        if (scene.large_bounds_[k].overlaps(region)) keep(scene.large_items_[k]);
    scene.static_tree_.query(region, [&](uint32_t item) { keep(scene.static_items_[item]); });
    scene.kinematic_tree_.query(region, [&](uint32_t item) {
        keep(scene.kinematic_items_[item]);
        ++kinematic_;
    });
    complete_ = !full;
}

Vec3 LocalScene::unit(const Vec3& v) const {
    // Straight up or down (every probe and snap): normalize() gives +-1 on y exactly (its own
    // shortcut for a vector along an axis), without the memo.
    if (v.x.raw() == 0 && v.z.raw() == 0 &&
        wide::uabs(v.y.raw()) >= static_cast<uint64_t>(kMinNormalizeLength.raw()))
        return Vec3{Scalar{}, v.y.raw() < 0 ? -Scalar::one() : Scalar::one(), Scalar{}};
    if (const Vec3* u = units_.find(v)) return *u;
    const Vec3 u = normalize(v);
    units_.put(v, u);
    return u;
}

bool LocalScene::static_below(const Capsule& c, Scalar reach) const {
    if (kinematic_ != 0) return false;
    // swept_bounds(c, down, reach), written out: the start's bounds and the same lowered by
    // reach (an exact shift), grown by the same band.
    const Aabb start = c.bounds();
    const Scalar e = kContactTolerance + Scalar::epsilon().mul_int(4);
    const Vec3 grow{e, e, e};
    return covers(Aabb{start.lo - grow - Vec3{Scalar{}, reach, Scalar{}}, start.hi + grow});
}

bool LocalScene::cast_any(const Capsule& c, const Vec3& direction, Scalar max_distance) const {
    Hit unused[1];
    return scene_->cast_all(c, direction, max_distance, unused, this, true) > 0;
}

bool LocalScene::cast(const Capsule& c, const Vec3& direction, Scalar max_distance,
                      Hit* out) const {
    Hit best[1];
    if (cast_all(c, direction, max_distance, best) == 0) return false;
    *out = best[0];
    return true;
}

} // namespace fx::geo
