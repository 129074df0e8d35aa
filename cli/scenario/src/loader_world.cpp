// The loader's `world` and `platforms` sections (docs/scenarios.md).
#include <algorithm>
#include <array>
#include <tuple>

#include "fx/decimal.h"
#include "fx/mat3.h"
#include "fx/trig.h"
#include "loader_context.h"
#include "loader_text.h"

namespace fx::harness::detail {
namespace {

void load_box(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "center", "half_extents", "rotation"});
    BoxDef b;
    b.id = shape_id(ctx, m.get("id"));
    b.center = m.get("center").vec3(detail::kCoordinate);
    b.half_extents = m.get("half_extents").vec3(detail::kSize);
    rotation(m, &b.rotation);
    s->boxes.push_back(b);
}

void load_plane(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "normal", "offset", "point", "exact"});
    PlaneDef p;
    p.id = shape_id(ctx, m.get("id"));
    const Value nv = m.get("normal");
    if (auto ex = m.opt("exact")) p.exact = ex->boolean();
    if (p.exact) {
        // As written (a recording's planes): it must be unit already, as the scene requires.
        p.normal = nv.vec3(detail::kStick, "a sequence of 3 numbers from -1 to 1 [x, y, z]");
        const Scalar len = length(p.normal);
        if (abs(len - Scalar::one()) > Scalar::from_raw(int64_t{1} << 8)) {
            nv.fail(
                "expected a unit normal (exact: true uses it as written; its length within 2^-24 of 1), found "
                "length " +
                to_string_shortest(len));
        }
    } else if (!try_normalize(nv.vec3(detail::kCoordinate), &p.normal)) {
        nv.fail("expected a non-zero normal, found a vector shorter than 2^-24");
    }
    if (m.has("offset") && m.has("point"))
        m.fail("expected either 'offset' or 'point', found both");
    if (auto pt = m.opt("point")) {
        p.offset = dot(p.normal, pt->vec3(detail::kCoordinate));
    } else {
        if (!m.has("offset")) m.fail("missing required key 'offset' (or 'point')");
        p.offset = m.get("offset").number(detail::kCoordinate);
    }
    s->planes.push_back(p);
}

void load_sphere(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "center", "radius"});
    SphereDef d;
    d.id = shape_id(ctx, m.get("id"));
    d.center = m.get("center").vec3(detail::kCoordinate);
    d.radius = m.get("radius").number(detail::kSize);
    s->spheres.push_back(d);
}

void load_capsule(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "a", "b", "radius"});
    CapsuleDef d;
    d.id = shape_id(ctx, m.get("id"));
    d.a = m.get("a").vec3(detail::kCoordinate);
    d.b = m.get("b").vec3(detail::kCoordinate);
    d.radius = m.get("radius").number(detail::kSize);
    if (distance(d.a, d.b) > geo::kMaxCapsuleSegment)
        m.get("b").fail("expected a capsule segment of at most 30000 m, found " +
                        to_string_shortest(distance(d.a, d.b)) + " m from a");
    s->capsules.push_back(d);
}

void load_mesh(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "vertices", "triangles", "obj"});
    MeshDef d;
    d.id = shape_id(ctx, m.get("id"));
    std::string obj_key;
    if (auto obj = m.opt("obj")) {
        if (m.has("vertices") || m.has("triangles")) {
            m.fail("expected either 'obj' or 'vertices' and 'triangles', found both");
        }
        const std::shared_ptr<const Ref> r = read_ref(ctx, *obj, kMaxReferencedBytes);
        obj_key = r->resolved.string();
        if (const auto it = ctx.objs.find(obj_key); it != ctx.objs.end()) {
            // Parsed and checked at its first reference: the same triangles again.
            d.vertices = s->meshes[it->second].vertices;
            d.indices = s->meshes[it->second].indices;
            s->meshes.push_back(std::move(d));
            return;
        }
        detail::parse_obj(r->bytes, r->display, &d.vertices, &d.indices);
        if (d.indices.empty())
            obj->fail("expected a mesh with at least one face, found none in '" + r->display + "'");
    } else {
        const Value vs = m.get("vertices");
        vs.require_sequence("a sequence of vertices [[x, y, z], ...]");
        for (size_t i = 0; i < vs.size(); ++i)
            d.vertices.push_back(vs.item(i).vec3(detail::kCoordinate));
        const Value ts = m.get("triangles");
        ts.require_sequence("a sequence of triangles [[i, j, k], ...]");
        if (ts.size() == 0) ts.fail("expected at least one triangle, found none");
        for (size_t i = 0; i < ts.size(); ++i) {
            const Value t = ts.item(i);
            const char* what = "a sequence of 3 vertex indices [i, j, k]";
            t.require_sequence(what);
            if (t.size() != 3)
                t.fail(std::string("expected ") + what + ", found " + std::to_string(t.size()) +
                       " items");
            for (size_t k = 0; k < 3; ++k)
                d.indices.push_back(static_cast<uint32_t>(t.item(k).integer(0, kMaxId)));
        }
    }
    if (!ctx.allow_repeated_triangles) {
        if (std::string why = geo::repeated_triangle(d.vertices, d.indices); !why.empty()) {
            m.get(m.has("obj") ? "obj" : "triangles").fail(why); // at the OBJ reference or the list
        }
    }
    geo::TriangleMesh mesh;
    std::string error;
    if (!geo::TriangleMesh::build(d.vertices, d.indices, &mesh, &error)) m.fail(error);
    s->meshes.push_back(std::move(d));
    if (!obj_key.empty()) ctx.objs.emplace(obj_key, s->meshes.size() - 1);
}

void load_ramp(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "foot", "yaw", "angle", "length", "width", "thickness"});
    BoxDef b;
    b.id = shape_id(ctx, m.get("id"));
    const Vec3 foot = m.get("foot").vec3(detail::kCoordinate);
    const Scalar yaw = m.opt("yaw") ? m.get("yaw").number(detail::kAngle) : Scalar{};
    const Scalar angle = m.get("angle").number(detail::kRampAngle);
    const Scalar length = m.get("length").number(detail::kSize);
    const Scalar width = m.get("width").number(detail::kSize);
    const Scalar thickness =
        m.opt("thickness") ? m.get("thickness").number(detail::kSize) : Scalar::half();
    // Top face = the ramp surface: from the foot, `length` along dir*cos(a) + up*sin(a).
    const SinCos y = sincos_deg(yaw);
    const SinCos a = sincos_deg(angle);
    const Vec3 dir{y.sin, Scalar{}, y.cos};
    const Scalar half_len = half(length);
    const Scalar half_t = half(thickness);
    const Vec3 n = Mat3::from_yaw_pitch_roll_degrees(yaw, -angle, Scalar{}).column(1);
    b.center =
        foot + dir * (half_len * a.cos) + Vec3{Scalar{}, half_len * a.sin, Scalar{}} - n * half_t;
    b.half_extents = {half(width), half_t, half_len};
    b.rotation.yaw = yaw;
    b.rotation.pitch = -angle;
    b.rotation.roll = Scalar{};
    s->boxes.push_back(b);
}

void load_stairs(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"first_id", "foot", "yaw", "steps", "rise", "run", "width"});
    const Value idv = m.get("first_id");
    const int64_t first = idv.integer(0, kMaxId);
    const Vec3 foot = m.get("foot").vec3(detail::kCoordinate);
    const Scalar yaw = m.opt("yaw") ? m.get("yaw").number(detail::kAngle) : Scalar{};
    const Value sv = m.get("steps");
    const int64_t steps = sv.integer(1, kMaxSteps);
    if (first + steps - 1 > kMaxId) {
        sv.fail("expected ids first_id.." + std::to_string(first) + "+steps-1 of at most " +
                std::to_string(kMaxId) + ", found " + std::to_string(steps) + " steps");
    }
    const Value rv = m.get("rise");
    const Scalar rise = rv.number(detail::kSize);
    const Value runv = m.get("run");
    const Scalar run = runv.number(detail::kSize);
    const Scalar width = m.get("width").number(detail::kSize);
    if (rise.mul_int(steps) > detail::kSize.hi)
        rv.fail("expected steps * rise of at most 100000 metres");
    if (run.mul_int(steps) > detail::kSize.hi)
        runv.fail("expected steps * run of at most 100000 metres");
    const SinCos y = sincos_deg(yaw);
    const Vec3 dir{y.sin, Scalar{}, y.cos};
    for (int64_t k = 0; k < steps; ++k) {
        BoxDef b;
        b.id = static_cast<geo::ShapeId>(first + k);
        use_id(ctx.shape_ids, b.id, idv);
        const Scalar h = rise.mul_int(k + 1);
        const Scalar along = run.mul_int(k) + half(run);
        b.center = foot + dir * along + Vec3{Scalar{}, half(h), Scalar{}};
        b.half_extents = {half(width), half(h), half(run)};
        b.rotation.yaw = yaw;
        s->boxes.push_back(b);
    }
}

} // namespace

void load_world(Ctx& ctx, const Value& v, Scenario* s) {
    static const std::vector<std::string> kinds = {"box",  "plane", "sphere", "capsule",
                                                   "mesh", "ramp",  "stairs"};
    if (v.is_null()) return;
    v.require_sequence("a sequence of world items");
    for (size_t i = 0; i < v.size(); ++i) {
        const Value it = v.item(i);
        const char* what =
            "a mapping with one key naming the item's kind (box, plane, sphere, capsule, mesh, ramp or stairs)";
        if (!it.is_null() && it.node.is_map() && it.node.size() != 1) {
            it.fail(std::string("expected ") + what + ", found a mapping with " +
                    std::to_string(it.node.size()) + " keys");
        }
        const Map m(it, kinds, what);
        const std::string& kind = m.entries()[0].key;
        const Value body = m.get(kind);
        if (kind == "box")
            load_box(ctx, body, s);
        else if (kind == "plane")
            load_plane(ctx, body, s);
        else if (kind == "sphere")
            load_sphere(ctx, body, s);
        else if (kind == "capsule")
            load_capsule(ctx, body, s);
        else if (kind == "mesh")
            load_mesh(ctx, body, s);
        else if (kind == "ramp")
            load_ramp(ctx, body, s);
        else
            load_stairs(ctx, body, s);
    }
}

void load_platforms(Ctx& ctx, const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of platforms");
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"id", "half_extents", "rotation", "waypoints"});
        PlatformDef p;
        p.id = shape_id(ctx, m.get("id"));
        p.half_extents = m.get("half_extents").vec3(detail::kSize);
        rotation(m, &p.rotation);
        const Value ws = m.get("waypoints");
        ws.require_sequence("a sequence of waypoints [{tick, center}, ...]");
        if (ws.size() < 2)
            ws.fail("expected at least 2 waypoints, found " + std::to_string(ws.size()));
        for (size_t k = 0; k < ws.size(); ++k) {
            const Map w(ws.item(k), {"tick", "center"});
            kcc::Waypoint wp;
            const Value tv = w.get("tick");
            wp.tick = tv.integer(0, kMaxTicks);
            if (k == 0 && wp.tick != 0)
                tv.fail("expected tick 0 for the first waypoint, found '" + tv.node.scalar() + "'");
            if (k > 0 && wp.tick <= p.waypoints.back().tick) {
                tv.fail("expected a tick after " + std::to_string(p.waypoints.back().tick) +
                        " (waypoint ticks strictly increasing), found '" + tv.node.scalar() + "'");
            }
            wp.center = w.get("center").vec3(detail::kCoordinate);
            if (k > 0) {
                // Speed bound: |delta| <= 1000 m/s * dt_ticks / rate.
                const kcc::Waypoint& prev = p.waypoints.back();
                const int64_t dt = wp.tick - prev.tick;
                if (dt < 4000 * static_cast<int64_t>(ctx.tick_rate)) {
                    const Scalar dist = distance(prev.center, wp.center);
                    if (dist > Scalar::ratio(1000 * dt, ctx.tick_rate)) {
                        w.get("center").fail(
                            "platform moves faster than 1000 m/s from the previous waypoint (" +
                            to_string_shortest(dist) + " m in " + std::to_string(dt) +
                            " ticks at " + std::to_string(ctx.tick_rate) + " Hz)");
                    }
                }
            }
            p.waypoints.push_back(wp);
        }
        s->platforms.push_back(std::move(p));
    }
}

} // namespace fx::harness::detail
