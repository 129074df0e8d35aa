// StaticScene: a set of shapes, each with a stable ShapeId, and the capsule queries the
// controller asks many times a tick, through a deterministic bounding-volume tree.
//
// Determinism: shapes are ordered by id when the scene is built (insertion order never
// matters); both trees are built from that order with total-order splits (geo/bvh.h); every
// result list is sorted by the total orders of geo/queries.h. Queries allocate nothing:
// results go to caller-provided spans, traversal uses fixed stacks.
//
// Static shapes (and meshes) go into one tree built once. Kinematic shapes (moving platforms)
// go into a second tree whose shape is fixed at build() and whose bounds are refitted after
// their poses are updated each tick (move_*, then refit()). Planes are unbounded and are
// tested by every query.
#pragma once

#include <array>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "geo/bvh.h"
#include "geo/queries.h"
#include "geo/shapes.h"

namespace fx::geo {

enum class ShapeKind : uint8_t { kSphere, kCapsule, kBox, kPlane, kMesh };

/// The shape id every other body (LocalScene::set_bodies) is reported with; reserved: a scene
/// shape may not use it (build() fails).
inline constexpr ShapeId kBodyShape = 0xFFFFFFFEu;

/// Another body a LocalScene's queries meet (LocalScene::set_bodies): a capsule and its bounds,
/// capsule.bounds() exactly (computed once, not by every query that tests it).
struct Body {
    Capsule capsule;
    Aabb bounds;
    static Body of(const Capsule& c) { return Body{c, c.bounds()}; }
};
enum class Motion : uint8_t { kStatic, kKinematic };

class LocalScene;

class StaticScene {
public:
    // ---- building (before build()) -----------------------------------------------------------
    void add_sphere(ShapeId id, const Sphere& s, Motion motion = Motion::kStatic);
    void add_capsule(ShapeId id, const Capsule& c, Motion motion = Motion::kStatic);
    void add_box(ShapeId id, const Box& b, Motion motion = Motion::kStatic);
    void add_plane(ShapeId id, const Plane& p);
    void add_mesh(ShapeId id, TriangleMesh mesh);
    /// Sorts by id and builds the trees. Fails (message naming the shape id) on a duplicate id,
    /// a radius or half extent below kMinHalfExtent (capsule radius 0 is allowed), or a plane
    /// whose normal is not unit length (within 2^-24).
    bool build(std::string* error);
    /// Whether the scene has kinematic shapes (after build()): shapes that move between queries.
    bool has_kinematic() const { return !kinematic_items_.empty(); }
    /// Whether `id` is a kinematic shape (after build()).
    bool is_kinematic(ShapeId id) const;

    // ---- kinematic shapes (after build()) ------------------------------------------------
    /// New pose of a kinematic shape; false if id is not a kinematic shape of that kind.
    bool move_sphere(ShapeId id, const Sphere& s);
    bool move_capsule(ShapeId id, const Capsule& c);
    bool move_box(ShapeId id, const Box& b);
    /// Refits the kinematic tree to the poses set since the last refit. Once per tick.
    void refit();

    // ---- queries ----------------------------------------------------------------------------
    /// Earliest hit (hit_less order) of the capsule moved along direction up to max_distance.
    bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, Hit* out) const;
    /// Whether cast() would hit anything (the same answer), without finding the earliest hit:
    /// it stops at the first shape hit.
    bool cast_any(const Capsule& c, const Vec3& direction, Scalar max_distance) const;
    /// The least out.size() hits (hit_less order: distance, shape id, feature), each shape's
    /// (each mesh triangle's) first contact along the motion. Returns the number of hits
    /// found in all (may exceed out.size()).
    size_t cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance,
                    std::span<Hit> out) const;
    /// Every shape (mesh triangle) with separation < margin, the least out.size() in
    /// contact_less order (shape id, feature). Returns the number found in all.
    size_t overlap(const Capsule& c, Scalar margin, std::span<Contact> out) const;
    /// Ray cast (a point cast); stops within kContactTolerance of the surface.
    bool ray_cast(const Vec3& origin, const Vec3& direction, Scalar max_distance, Hit* out) const;
    /// For a hit on an edge or a corner (Feature kEdge, kVertex) of a box or a mesh triangle: the
    /// normal of that shape's face there nearest to the hit's normal (dot largest; a box's six,
    /// or the triangle's on the hit's side). False for a face, a round shape, another body
    /// (kBodyShape) or an id that is not the scene's.
    bool face_normal(const Hit& h, Vec3* out) const;
    /// Broadphase: ids of shapes whose bounds overlap q (planes always), ascending, at most
    /// out.size() of them. Returns the number found in all.
    size_t query_bounds(const Aabb& q, std::span<ShapeId> out) const;

    size_t size() const { return records_.size(); }

    // ---- reading back (tools that write a scene out, kcc::Recorder) --------------------------
    /// A shape as it was added (a kinematic one at its current pose); only the member of its
    /// kind is meaningful, `mesh` is null for other kinds.
    struct ShapeView {
        ShapeId id = 0;
        ShapeKind kind = ShapeKind::kSphere;
        Motion motion = Motion::kStatic;
        Sphere sphere{};
        Capsule capsule{};
        Box box{};
        Plane plane{};
        const TriangleMesh* mesh =
            nullptr; ///< the mesh itself (its vertices and index triples as built)
    };
    /// Shape `index` < size(): in ascending id after build(), in the order added before it.
    ShapeView shape(size_t index) const;

private:
    friend class LocalScene;
    struct Record {
        ShapeId id = 0;
        ShapeKind kind = ShapeKind::kSphere;
        Motion motion = Motion::kStatic;
        Sphere sphere{};
        Capsule capsule{};
        Box box{};
        Plane plane{};
        uint32_t mesh = 0; ///< index into meshes_
        uint8_t box_frame =
            0; ///< the kind of box.rotation (detail::box_frame), set by add_box() and move_box()
        Aabb bounds;
    };
    template <class Visit>
    void for_candidates(const Aabb& q, const LocalScene* local, Visit&& visit) const;
    size_t cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance,
                    std::span<Hit> out, const LocalScene* local, bool any) const;
    size_t overlap(const Capsule& c, Scalar margin, std::span<Contact> out,
                   const LocalScene* local) const;
    const Record* find(ShapeId id, ShapeKind kind) const;
    Record* find(ShapeId id, ShapeKind kind);

    std::vector<Record> records_; ///< sorted by id after build()
    std::vector<TriangleMesh> meshes_;
    std::vector<uint32_t> static_items_, kinematic_items_, planes_; ///< record indices, ascending
    /// Static items spanning at least half the level along x or z (a floor, boundary walls):
    /// tested one by one, so that the tree's nodes stay tight around the small items instead of
    /// all growing to the size of the level. Record indices, ascending.
    std::vector<uint32_t> large_items_;
    std::vector<Aabb> large_bounds_;
    std::vector<Aabb> kinematic_bounds_;
    Bvh static_tree_, kinematic_tree_;
    bool built_ = false;
};

namespace detail {
/// The last N values of a function of a vector, the oldest replaced first (LocalScene::unit).
/// The entries are written before they are read (used): not zeroed when a LocalScene is made.
template <class Out, size_t N> struct Recent {
    struct Entry {
        Vec3 in;
        Out out; ///< f(in)
    };
    static_assert(std::is_trivially_copyable_v<Entry> && std::is_trivially_destructible_v<Entry>);
    Recent() {}
    union {
        Entry entries[N];
    };
    uint32_t used = 0, next = 0;
    const Out* find(const Vec3& v) const {
        for (uint32_t k = 0; k < used; ++k)
            if (entries[k].in == v) return &entries[k].out;
        return nullptr;
    }
    void put(const Vec3& v, const Out& o) {
        entries[next] = Entry{v, o};
        next = (next + 1) % N;
        if (used < N) ++used;
    }
};
} // namespace detail

/// The scene seen from one place: the shapes whose bounds overlap a region, gathered once for
/// the series of queries one character makes in a tick. A query whose bounds lie inside the
/// region tests only those shapes' bounds instead of walking the trees; any other query walks
/// the whole scene. The results are the same either way (every query orders its results by
/// its own total order, and the region holds every shape that could be a candidate), only
/// cheaper. Valid while the scene does not change (no move_* or refit() in between).
class LocalScene {
public:
    /// Most shapes kept; a region with more falls back to the whole scene for every query.
    static constexpr size_t kCapacity = 48;

    /// The whole scene: every query walks the trees.
    explicit LocalScene(const StaticScene& scene) : scene_(&scene) {}
    /// The shapes near `region`.
    LocalScene(const StaticScene& scene, const Aabb& region);

    const StaticScene& scene() const { return *scene_; }

    bool cast(const Capsule& c, const Vec3& direction, Scalar max_distance, Hit* out) const;
    bool cast_any(const Capsule& c, const Vec3& direction, Scalar max_distance) const;
    size_t cast_all(const Capsule& c, const Vec3& direction, Scalar max_distance,
                    std::span<Hit> out) const {
        return scene_->cast_all(c, direction, max_distance, out, this, false);
    }
    size_t overlap(const Capsule& c, Scalar margin, std::span<Contact> out) const {
        return scene_->overlap(c, margin, out, this);
    }

    /// StaticScene::face_normal (false for another body).
    bool face_normal(const Hit& h, Vec3* out) const {
        return h.shape != kBodyShape && scene_->face_normal(h, out);
    }

    /// Other bodies (characters' capsules) that every query of this LocalScene also meets, as
    /// capsules reported with shape kBodyShape (their order does not matter: see hit_less).
    /// The span must outlive the queries.
    void set_bodies(std::span<const Body> bodies) { bodies_ = bodies; }
    bool has_bodies() const { return !bodies_.empty(); }
    /// A body a vertical cast (up or down, no horizontal part) starts inside of by more than
    /// `depth` is left out of its results too, whichever way its normal points (passes_body in
    /// scene.cpp): bodies inside one another are separated sideways, by whoever resolves their
    /// overlaps, and until then neither holds the other up nor stops its rise or fall. Default:
    /// never (the largest depth).
    void set_body_pass_depth(Scalar depth) { body_pass_depth_ = depth; }

    /// Whether a query with bounds q is answered from the gathered shapes.
    bool covers(const Aabb& q) const {
        return complete_ && region_.lo.x <= q.lo.x && region_.lo.y <= q.lo.y &&
               region_.lo.z <= q.lo.z && q.hi.x <= region_.hi.x && q.hi.y <= region_.hi.y &&
               q.hi.z <= region_.hi.z;
    }
    size_t count() const { return count_; }

    /// Whether every shape a cast of `c` straight down up to `reach` (reach >= 0) could meet,
    /// the bodies (set_bodies) aside, is static: the gathered shapes cover the cast (covers())
    /// and none of them is kinematic. Its hits on the shapes, its hits with shape kBodyShape
    /// left out, then depend on the static shapes alone, which never change after build(): the
    /// same cast made in another tick gives the same such hits.
    bool static_below(const Capsule& c, Scalar reach) const;

    /// The bodies' part of cast_all(c, direction, max_distance, ...): each body's hit, the same
    /// bits as cast_all() finds it, inserted into out[0, *count) (hit_less order, at most
    /// out.size(): insert_hit()). Returns how many bodies it hit. Merged so into a list of the
    /// other shapes' hits of that cast, it gives cast_all()'s list (hit_less is a total order).
    size_t cast_bodies(const Capsule& c, const Vec3& direction, Scalar max_distance,
                       std::span<Hit> out, size_t* count) const;

    /// normalize(v), from the last few directions this LocalScene normalised (a body moving at
    /// a steady velocity sweeps the same direction every tick): the same bits.
    Vec3 unit(const Vec3& v) const;

private:
    friend class StaticScene;
    template <class Out, size_t N> using Recent = detail::Recent<Out, N>;
    const StaticScene* scene_;
    mutable Recent<Vec3, 4> units_; ///< normalize()
    Aabb region_{};
    bool complete_ = false;
    uint32_t count_ = 0;
    uint32_t kinematic_ = 0; ///< how many of the gathered shapes are kinematic
    std::array<uint32_t, kCapacity> items_{}; ///< record indices of the scene, ascending
    std::span<const Body> bodies_;
    Scalar body_pass_depth_ = Scalar::max_value();
};

} // namespace fx::geo
