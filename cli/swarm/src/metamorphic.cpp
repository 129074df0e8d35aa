// Transformations for the metamorphic oracles (swarm/metamorphic.h).
#include "swarm/metamorphic.h"

#include <algorithm>

namespace fx::harness::swarm {

namespace {

void shift_check(std::vector<std::pair<StateField, Check>>* checks, const Vec3& d) {
    for (auto& [f, c] : *checks) {
        const Scalar by = f == StateField::kX   ? d.x
                          : f == StateField::kY ? d.y
                          : f == StateField::kZ ? d.z
                                                : Scalar{};
        if (c.has_min) c.min = c.min + by;
        if (c.has_max) c.max = c.max + by;
    }
}

} // namespace

Scenario translated(const Scenario& sc, const Vec3& d) {
    Scenario t = sc;
    for (BoxDef& b : t.boxes)
        b.center = b.center + d;
    for (PlaneDef& p : t.planes)
        p.offset = p.offset + dot(p.normal, d);
    for (SphereDef& s : t.spheres)
        s.center = s.center + d;
    for (CapsuleDef& c : t.capsules) {
        c.a = c.a + d;
        c.b = c.b + d;
    }
    for (MeshDef& m : t.meshes) {
        for (Vec3& v : m.vertices)
            v = v + d;
    }
    for (PlatformDef& p : t.platforms) {
        for (kcc::Waypoint& w : p.waypoints)
            w.center = w.center + d;
    }
    for (CharacterDef& c : t.characters)
        c.spawn = c.spawn + d;
    for (EventDef& e : t.events) {
        if (e.kind == EventDef::Kind::kTeleport) e.feet = e.feet + d;
    }
    for (StateExpectation& e : t.expect_states)
        shift_check(&e.checks, d);
    return t;
}

namespace {

/// An unrotated box stays unrotated, its half extents along x and z swapped: the geometry's
/// closed forms for unrotated boxes and its general path for rotated ones round differently, so
/// the quarter-turn matrix would compare two code paths, not two worlds (found by the turn
/// oracle: a platform pressing its rider into a ceiling, seed 20261205 run 1839).
bool unrotated(const RotationDef& r) {
    return r.to_mat3() == Mat3::identity();
}
Vec3 swap_xz(const Vec3& v) {
    return Vec3{v.z, v.y, v.x};
}

RotationDef turned_rotation(const RotationDef& r) {
    if (unrotated(r)) return r;
    const Mat3 m = r.to_mat3();
    RotationDef t;
    t.is_matrix = true;
    t.matrix = m;
    t.matrix.row[0] = m.row[2];
    t.matrix.row[1] = m.row[1];
    t.matrix.row[2] = -m.row[0];
    return t;
}

} // namespace

Scenario turned(const Scenario& sc) {
    Scenario t = sc;
    for (BoxDef& b : t.boxes) {
        b.center = quarter_turn(b.center);
        if (unrotated(b.rotation)) b.half_extents = swap_xz(b.half_extents);
        b.rotation = turned_rotation(b.rotation);
    }
    for (PlaneDef& p : t.planes) {
        p.normal = quarter_turn(p.normal);
        p.exact = true;
    }
    for (SphereDef& s : t.spheres)
        s.center = quarter_turn(s.center);
    for (CapsuleDef& c : t.capsules) {
        c.a = quarter_turn(c.a);
        c.b = quarter_turn(c.b);
    }
    for (MeshDef& m : t.meshes) {
        for (Vec3& v : m.vertices)
            v = quarter_turn(v);
    }
    for (PlatformDef& p : t.platforms) {
        if (unrotated(p.rotation)) p.half_extents = swap_xz(p.half_extents);
        p.rotation = turned_rotation(p.rotation);
        for (kcc::Waypoint& w : p.waypoints)
            w.center = quarter_turn(w.center);
    }
    for (CharacterDef& c : t.characters) {
        c.spawn = quarter_turn(c.spawn);
        InputStream& in = c.input.edit();
        for (StickSegment& s : in.sticks) {
            const Scalar x = s.x;
            s.x = s.y;
            s.y = -x;
        }
        for (ImpulseEvent& e : in.impulses)
            e.velocity = quarter_turn(e.velocity);
    }
    for (EventDef& e : t.events) {
        if (e.kind == EventDef::Kind::kTeleport) e.feet = quarter_turn(e.feet);
    }
    t.expect_states.clear();
    t.expect_metrics.clear();
    t.expect_same_as.clear();
    return t;
}

Scenario permuted(const Scenario& sc, Rng& rng, std::map<uint32_t, uint32_t>* ids_out) {
    Scenario p = sc;
    std::vector<uint32_t> ids;
    for (const CharacterDef& c : sc.characters)
        ids.push_back(c.id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<uint32_t> to = ids;
    rng.shuffle(&to);
    std::map<uint32_t, uint32_t> m;
    for (size_t i = 0; i < ids.size(); ++i)
        m[ids[i]] = to[i];
    for (CharacterDef& c : p.characters)
        c.id = m.at(c.id);
    std::stable_sort(p.characters.begin(), p.characters.end(),
                     [](const CharacterDef& a, const CharacterDef& b) {
                         return a.id != b.id ? a.id < b.id : a.join < b.join;
                     });
    for (EventDef& e : p.events)
        e.character = m.at(e.character);
    rng.shuffle(&p.events);
    std::stable_sort(p.events.begin(), p.events.end(),
                     [](const EventDef& a, const EventDef& b) { return a.tick < b.tick; });
    for (StateExpectation& e : p.expect_states) {
        if (e.character != kcc::kNoId) e.character = m.at(e.character);
    }
    for (MetricExpectation& e : p.expect_metrics) {
        if (e.character != kcc::kNoId) e.character = m.at(e.character);
    }
    rng.shuffle(&p.boxes);
    rng.shuffle(&p.planes);
    rng.shuffle(&p.spheres);
    rng.shuffle(&p.capsules);
    rng.shuffle(&p.meshes);
    rng.shuffle(&p.platforms);
    *ids_out = std::move(m);
    return p;
}

} // namespace fx::harness::swarm
