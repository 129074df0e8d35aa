// The scenario loader (harness/loader.h): walks the YAML document in schema order
// (docs/scenarios.md), reads referenced files, and builds a Scenario. The first error found
// is returned; the walk order is the schema's, not the document's.
#include "harness/loader.h"

#include "harness/atomic_file.h"
#include "harness/golden.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>
#include <sstream>
#include <utility>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>
#if __has_include(<yaml-cpp/depthguard.h>)
#include <yaml-cpp/depthguard.h> // YAML::DeepRecursion (yaml-cpp >= 0.7)
#endif

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "fx/decimal.h"
#include "fx/mat3.h"
#include "fx/trig.h"
#include "geo/shapes.h"
#include "harness/checks.h"
#include "kcc/settings.h"
#include "loader_text.h"
#include "loader_yaml.h"

namespace fx::harness {

std::string LoadError::to_string() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
    s += ": ";
    if (!path.empty()) s += path + ": ";
    return s + message;
}

namespace {

namespace fs = std::filesystem;
using detail::Bound;
using detail::Map;
using detail::Value;

constexpr int64_t kMaxId = 4000000000;
constexpr int64_t kMaxTicks = 10000000;
constexpr int64_t kMaxCharacters = 256;
constexpr int64_t kMaxSteps = 200;

struct IdUse {
    std::string path;
    int line = 0;
};

class Hasher {
public:
    Hasher() {
        XXH3_INITSTATE(&state_);
        XXH3_64bits_reset(&state_);
    }
    void update(const std::string& bytes) { XXH3_64bits_update(&state_, bytes.data(), bytes.size()); }
    std::string hex() const { return hex16(XXH3_64bits_digest(&state_)); }

private:
    XXH3_state_t state_;
};

struct Ctx {
    std::string file;        ///< display path of the scenario
    fs::path base_dir;       ///< where relative references resolve
    fs::path display_dir;    ///< folder of `file`, for displaying referenced files
    fs::path root;           ///< canonical scenarios tree
    bool allow_outside = false;
    Hasher hash;
    std::map<uint32_t, IdUse> shape_ids; ///< shapes and platforms
    std::map<uint32_t, IdUse> character_ids;
    int64_t ticks = 0;
    int tick_rate = 50;
    bool nested = false; ///< loading the other scenario of a same_as expectation
    detail::NodeBudget budget; ///< nodes the walk may still visit (Value::spend)
};

bool inside(const fs::path& p, const fs::path& root) {
    auto pi = p.begin();
    for (auto ri = root.begin(); ri != root.end(); ++ri, ++pi) {
        if (ri->empty()) continue; // trailing separator
        if (pi == p.end() || *pi != *ri) return false;
    }
    return true;
}

fs::path canonical_dir(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p.empty() ? fs::path(".") : p, ec);
    fs::path c = fs::weakly_canonical(abs, ec);
    if (ec) c = abs.lexically_normal();
    if (!c.has_filename() && c.has_parent_path() && c != c.root_path()) c = c.parent_path();
    return c;
}

bool read_file(const fs::path& p, uint64_t max_bytes, std::string* bytes, std::string* error) {
    return read_file_limited(p.string(), max_bytes, bytes, error);
}

struct Ref {
    std::string display; ///< for messages about the file's content
    std::string bytes;
    fs::path resolved;   ///< canonical path
};

/// A referenced file: resolved against the scenario's folder, kept inside the tree, read and
/// added to the digest.
Ref read_ref(Ctx& ctx, const Value& v, uint64_t max_bytes) {
    const std::string& rel = v.text("a file path");
    if (rel.empty()) v.fail("expected a file path, found an empty string");
    const fs::path p(rel);
    const fs::path resolved = p.is_absolute() ? p : ctx.base_dir / p;
    std::error_code ec;
    fs::path abs = fs::absolute(resolved, ec);
    fs::path canon = fs::weakly_canonical(abs, ec);
    if (ec) canon = abs.lexically_normal();
    if (!ctx.allow_outside && !inside(canon, ctx.root)) {
        v.fail(detail::shown(rel, 0) + " resolves outside the scenarios tree '" + ctx.root.generic_string() +
               "' (pass --allow-outside to permit)");
    }
    Ref r;
    std::string error;
    if (!read_file(canon, max_bytes, &r.bytes, &error)) {
        v.fail("cannot read " + detail::shown(rel, 0) + " (resolved to '" + canon.generic_string() + "'): " + error);
    }
    r.display = p.is_absolute() ? rel : (ctx.display_dir / p).lexically_normal().generic_string();
    r.resolved = canon;
    ctx.hash.update(r.bytes);
    return r;
}

bool load(const std::string& text, const std::string& display_path, const fs::path& base_dir,
          const LoadOptions& opts, bool nested, Scenario* out, LoadError* err);

void use_id(std::map<uint32_t, IdUse>& ids, uint32_t id, const Value& at) {
    const auto it = ids.find(id);
    if (it != ids.end()) {
        at.fail("duplicate id " + std::to_string(id) + " (first used at " + it->second.path + ", line " +
                std::to_string(it->second.line) + ")");
    }
    ids.emplace(id, IdUse{at.path, at.line});
}

geo::ShapeId shape_id(Ctx& ctx, const Value& v) {
    const auto id = static_cast<geo::ShapeId>(v.integer(0, kMaxId));
    use_id(ctx.shape_ids, id, v);
    return id;
}

void rotation(const Map& m, Scalar* yaw, Scalar* pitch, Scalar* roll) {
    if (auto r = m.opt("rotation")) {
        const Vec3 a = r->vec3(detail::kAngle, "a sequence of 3 angles [yaw, pitch, roll]");
        *yaw = a.x;
        *pitch = a.y;
        *roll = a.z;
    }
}

Scalar half(Scalar v) {
    return v.div_int(2);
}

// ---- world items ----

void load_box(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "center", "half_extents", "rotation"});
    BoxDef b;
    b.id = shape_id(ctx, m.get("id"));
    b.center = m.get("center").vec3(detail::kCoordinate);
    b.half_extents = m.get("half_extents").vec3(detail::kSize);
    rotation(m, &b.yaw, &b.pitch, &b.roll);
    s->boxes.push_back(b);
}

void load_plane(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "normal", "offset", "point"});
    PlaneDef p;
    p.id = shape_id(ctx, m.get("id"));
    const Value nv = m.get("normal");
    if (!try_normalize(nv.vec3(detail::kCoordinate), &p.normal)) {
        nv.fail("expected a non-zero normal, found a vector shorter than 2^-24");
    }
    if (m.has("offset") && m.has("point")) m.fail("expected either 'offset' or 'point', found both");
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
    if (distance(d.a, d.b) > geo::kMaxCapsuleSegment) m.get("b").fail("expected a capsule segment of at most 30000 m, found " + to_string_shortest(distance(d.a, d.b)) + " m from a");
    s->capsules.push_back(d);
}

void load_mesh(Ctx& ctx, const Value& v, Scenario* s) {
    const Map m(v, {"id", "vertices", "triangles", "obj"});
    MeshDef d;
    d.id = shape_id(ctx, m.get("id"));
    if (auto obj = m.opt("obj")) {
        if (m.has("vertices") || m.has("triangles")) {
            m.fail("expected either 'obj' or 'vertices' and 'triangles', found both");
        }
        const Ref r = read_ref(ctx, *obj, kMaxReferencedBytes);
        detail::parse_obj(r.bytes, r.display, &d.vertices, &d.indices);
        if (d.indices.empty()) obj->fail("expected a mesh with at least one face, found none in '" + r.display + "'");
    } else {
        const Value vs = m.get("vertices");
        vs.require_sequence("a sequence of vertices [[x, y, z], ...]");
        for (size_t i = 0; i < vs.size(); ++i) d.vertices.push_back(vs.item(i).vec3(detail::kCoordinate));
        const Value ts = m.get("triangles");
        ts.require_sequence("a sequence of triangles [[i, j, k], ...]");
        if (ts.size() == 0) ts.fail("expected at least one triangle, found none");
        for (size_t i = 0; i < ts.size(); ++i) {
            const Value t = ts.item(i);
            const char* what = "a sequence of 3 vertex indices [i, j, k]";
            t.require_sequence(what);
            if (t.size() != 3) t.fail(std::string("expected ") + what + ", found " + std::to_string(t.size()) + " items");
            for (size_t k = 0; k < 3; ++k) d.indices.push_back(static_cast<uint32_t>(t.item(k).integer(0, kMaxId)));
        }
    }
    geo::TriangleMesh mesh;
    std::string error;
    if (!geo::TriangleMesh::build(d.vertices, d.indices, &mesh, &error)) m.fail(error);
    s->meshes.push_back(std::move(d));
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
    const Scalar thickness = m.opt("thickness") ? m.get("thickness").number(detail::kSize) : Scalar::half();
    // Top face = the ramp surface: from the foot, `length` along dir*cos(a) + up*sin(a).
    const SinCos y = sincos_deg(yaw);
    const SinCos a = sincos_deg(angle);
    const Vec3 dir{y.sin, Scalar{}, y.cos};
    const Scalar half_len = half(length);
    const Scalar half_t = half(thickness);
    const Vec3 n = Mat3::from_yaw_pitch_roll_degrees(yaw, -angle, Scalar{}).column(1);
    b.center = foot + dir * (half_len * a.cos) + Vec3{Scalar{}, half_len * a.sin, Scalar{}} - n * half_t;
    b.half_extents = {half(width), half_t, half_len};
    b.yaw = yaw;
    b.pitch = -angle;
    b.roll = Scalar{};
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
    if (rise.mul_int(steps) > detail::kSize.hi) rv.fail("expected steps * rise of at most 100000 metres");
    if (run.mul_int(steps) > detail::kSize.hi) runv.fail("expected steps * run of at most 100000 metres");
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
        b.yaw = yaw;
        s->boxes.push_back(b);
    }
}

void load_world(Ctx& ctx, const Value& v, Scenario* s) {
    static const std::vector<std::string> kinds = {"box", "plane", "sphere", "capsule", "mesh", "ramp", "stairs"};
    if (v.is_null()) return;
    v.require_sequence("a sequence of world items");
    for (size_t i = 0; i < v.size(); ++i) {
        const Value it = v.item(i);
        const char* what = "a mapping with one key naming the item's kind (box, plane, sphere, capsule, mesh, ramp or stairs)";
        if (!it.is_null() && it.node.IsMap() && it.node.size() != 1) {
            it.fail(std::string("expected ") + what + ", found a mapping with " + std::to_string(it.node.size()) + " keys");
        }
        const Map m(it, kinds, what);
        const std::string& kind = m.entries()[0].key;
        const Value body = m.get(kind);
        if (kind == "box") load_box(ctx, body, s);
        else if (kind == "plane") load_plane(ctx, body, s);
        else if (kind == "sphere") load_sphere(ctx, body, s);
        else if (kind == "capsule") load_capsule(ctx, body, s);
        else if (kind == "mesh") load_mesh(ctx, body, s);
        else if (kind == "ramp") load_ramp(ctx, body, s);
        else load_stairs(ctx, body, s);
    }
}

// ---- platforms ----

void load_platforms(Ctx& ctx, const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of platforms");
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"id", "half_extents", "rotation", "waypoints"});
        PlatformDef p;
        p.id = shape_id(ctx, m.get("id"));
        p.half_extents = m.get("half_extents").vec3(detail::kSize);
        rotation(m, &p.yaw, &p.pitch, &p.roll);
        const Value ws = m.get("waypoints");
        ws.require_sequence("a sequence of waypoints [{tick, center}, ...]");
        if (ws.size() < 2) ws.fail("expected at least 2 waypoints, found " + std::to_string(ws.size()));
        for (size_t k = 0; k < ws.size(); ++k) {
            const Map w(ws.item(k), {"tick", "center"});
            kcc::Waypoint wp;
            const Value tv = w.get("tick");
            wp.tick = tv.integer(0, kMaxTicks);
            if (k == 0 && wp.tick != 0) tv.fail("expected tick 0 for the first waypoint, found '" + tv.node.Scalar() + "'");
            if (k > 0 && wp.tick <= p.waypoints.back().tick) {
                tv.fail("expected a tick after " + std::to_string(p.waypoints.back().tick) +
                        " (waypoint ticks strictly increasing), found '" + tv.node.Scalar() + "'");
            }
            wp.center = w.get("center").vec3(detail::kCoordinate);
            if (k > 0) {
                // Speed bound: |delta| <= 1000 m/s * dt_ticks / rate.
                const kcc::Waypoint& prev = p.waypoints.back();
                const int64_t dt = wp.tick - prev.tick;
                if (dt < 4000 * static_cast<int64_t>(ctx.tick_rate)) {
                    const Scalar dist = distance(prev.center, wp.center);
                    if (dist > Scalar::ratio(1000 * dt, ctx.tick_rate)) {
                        w.get("center").fail("platform moves faster than 1000 m/s from the previous waypoint (" +
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

// ---- characters ----

struct SettingField {
    const char* name;
    Scalar kcc::Settings::*scalar;
    const Bound* bound;
    int kcc::Settings::*integer;
    int lo, hi;
};

const std::vector<SettingField>& setting_fields() {
    using S = kcc::Settings;
    static const std::vector<SettingField> f = {
        {"radius", &S::radius, &detail::kLength, nullptr, 0, 0},
        {"height", &S::height, &detail::kLength, nullptr, 0, 0},
        {"skin", &S::skin, &detail::kLength, nullptr, 0, 0},
        {"max_slope_enter_deg", &S::max_slope_enter_deg, &detail::kAngle, nullptr, 0, 0},
        {"max_slope_stay_deg", &S::max_slope_stay_deg, &detail::kAngle, nullptr, 0, 0},
        {"probe_distance", &S::probe_distance, &detail::kLength, nullptr, 0, 0},
        {"probe_skin", &S::probe_skin, &detail::kLength, nullptr, 0, 0},
        {"probe_max_hits", nullptr, nullptr, &S::probe_max_hits, 1, kcc::kMaxProbeHits},
        {"snap_distance", &S::snap_distance, &detail::kLength, nullptr, 0, 0},
        {"depenetration_cap", &S::depenetration_cap, &detail::kLength, nullptr, 0, 0},
        {"max_slide_iterations", nullptr, nullptr, &S::max_slide_iterations, 1, kcc::kMaxSlideIterations},
        {"step_height", &S::step_height, &detail::kLength, nullptr, 0, 0},
        {"step_min_forward", &S::step_min_forward, &detail::kLength, nullptr, 0, 0},
        {"max_speed", &S::max_speed, &detail::kSpeed, nullptr, 0, 0},
        {"ground_accel", &S::ground_accel, &detail::kAccel, nullptr, 0, 0},
        {"ground_brake", &S::ground_brake, &detail::kAccel, nullptr, 0, 0},
        {"air_accel", &S::air_accel, &detail::kAccel, nullptr, 0, 0},
        {"jump_speed", &S::jump_speed, &detail::kSpeed, nullptr, 0, 0},
        {"gravity", &S::gravity, &detail::kAccel, nullptr, 0, 0},
        {"dead_zone", &S::dead_zone, &detail::kDeadZone, nullptr, 0, 0},
        {"turn_rate_deg", &S::turn_rate_deg, &detail::kTurnRate, nullptr, 0, 0},
        {"tick_rate_hz", nullptr, nullptr, &S::tick_rate_hz, 1, 1000},
        {"max_ticks_per_frame", nullptr, nullptr, &S::max_ticks_per_frame, 1, 1000},
    };
    return f;
}

kcc::Settings load_settings(Ctx& ctx, const Map& character) {
    kcc::Settings st;
    st.tick_rate_hz = ctx.tick_rate;
    const std::optional<Value> v = character.opt("settings");
    if (!v || v->is_null()) return st;
    std::vector<std::string> names;
    for (const SettingField& f : setting_fields()) names.push_back(f.name);
    const Map m(*v, names);
    for (const SettingField& f : setting_fields()) {
        const std::optional<Value> fv = m.opt(f.name);
        if (!fv) continue;
        if (f.scalar != nullptr) {
            st.*f.scalar = fv->number(*f.bound);
        } else {
            st.*f.integer = static_cast<int>(fv->integer(f.lo, f.hi));
        }
    }
    if (st.tick_rate_hz != ctx.tick_rate) {
        m.opt("tick_rate_hz")->fail("tick_rate_hz " + std::to_string(st.tick_rate_hz) +
                                    " disagrees with the scenario's tick_rate " + std::to_string(ctx.tick_rate) +
                                    " (set tick_rate only, or the same value in both)");
    }
    std::string error;
    if (!kcc::validate(st, &error)) character.key_node("settings").fail(error);
    return st;
}

int64_t tick_in_run(const Ctx& ctx, const Value& v) {
    return v.integer(0, ctx.ticks - 1);
}

InputStream load_input(Ctx& ctx, const Map& character) {
    InputStream in;
    const std::optional<Value> v = character.opt("input");
    if (!v || v->is_null()) return in;
    const Map m(*v, {"csv", "segments", "jumps", "impulses"});
    if (auto csv = m.opt("csv")) {
        if (m.has("segments") || m.has("jumps") || m.has("impulses")) {
            m.fail("expected either 'csv' or 'segments'/'jumps'/'impulses', found both");
        }
        const Ref r = read_ref(ctx, *csv, kMaxReferencedBytes);
        detail::parse_input_csv(r.bytes, r.display, ctx.ticks, &in);
        return in;
    }
    if (auto segs = m.opt("segments")) {
        segs->require_sequence("a sequence of segments [{ticks, stick}, ...]");
        int64_t t = 0;
        for (size_t i = 0; i < segs->size(); ++i) {
            const Map sm(segs->item(i), {"ticks", "stick"});
            StickSegment seg;
            seg.from = t;
            // Segments play from tick 0 in order and must end within the run, like the CSV's rows,
            // the jumps and the impulses.
            if (t >= ctx.ticks) {
                sm.fail("expected no more segments (those before fill the run's " + std::to_string(ctx.ticks) +
                        " ticks), found another");
            }
            const Value tv = sm.get("ticks");
            const int64_t n = tv.integer(1, kMaxTicks);
            if (n > ctx.ticks - t) {
                tv.fail("expected at most " + std::to_string(ctx.ticks - t) + " ticks (the segment starts at tick " +
                        std::to_string(t) + " of a " + std::to_string(ctx.ticks) + "-tick run), found '" +
                        tv.node.Scalar() + "'");
            }
            seg.to = t + n;
            if (auto stick = sm.opt("stick")) {
                const char* what = "a sequence of 2 numbers [x, y]";
                stick->require_sequence(what);
                if (stick->size() != 2) {
                    stick->fail(std::string("expected ") + what + ", found " + std::to_string(stick->size()) +
                                (stick->size() == 1 ? " item" : " items"));
                }
                seg.x = stick->item(0).number(detail::kStick);
                seg.y = stick->item(1).number(detail::kStick);
            }
            t = seg.to;
            in.sticks.push_back(seg);
        }
    }
    if (auto jumps = m.opt("jumps")) {
        jumps->require_sequence("a sequence of ticks");
        for (size_t i = 0; i < jumps->size(); ++i) {
            const Value jv = jumps->item(i);
            const int64_t tick = tick_in_run(ctx, jv);
            if (!in.jumps.empty() && tick <= in.jumps.back()) {
                jv.fail("expected a tick after " + std::to_string(in.jumps.back()) +
                        " (jump ticks ascending and unique), found '" + jv.node.Scalar() + "'");
            }
            in.jumps.push_back(tick);
        }
    }
    if (auto imps = m.opt("impulses")) {
        imps->require_sequence("a sequence of impulses [{tick, velocity}, ...]");
        for (size_t i = 0; i < imps->size(); ++i) {
            const Map im(imps->item(i), {"tick", "velocity"});
            ImpulseEvent e;
            e.tick = tick_in_run(ctx, im.get("tick"));
            e.velocity = im.get("velocity").vec3(detail::kSpeed);
            in.impulses.push_back(e);
        }
        std::stable_sort(in.impulses.begin(), in.impulses.end(),
                         [](const ImpulseEvent& a, const ImpulseEvent& b) { return a.tick < b.tick; });
    }
    return in;
}

void load_characters(Ctx& ctx, const Value& v, Scenario* s) {
    v.require_sequence("a sequence of characters");
    if (v.size() == 0) v.fail("expected at least one character, found none");
    if (static_cast<int64_t>(v.size()) > kMaxCharacters) {
        v.fail("expected at most " + std::to_string(kMaxCharacters) + " characters, found " + std::to_string(v.size()));
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"id", "spawn", "settings", "input"});
        CharacterDef c;
        const Value idv = m.get("id");
        c.id = static_cast<kcc::CharacterId>(idv.integer(0, kMaxId));
        use_id(ctx.character_ids, c.id, idv);
        c.spawn = m.get("spawn").vec3(detail::kCoordinate);
        c.settings = load_settings(ctx, m);
        c.input = load_input(ctx, m);
        s->characters.push_back(std::move(c));
    }
    std::stable_sort(s->characters.begin(), s->characters.end(),
                     [](const CharacterDef& a, const CharacterDef& b) { return a.id < b.id; });
}

// ---- frames ----

/// round(ms * 10^6) of a positive Q31.32 value, exact (ties away from zero).
int64_t ms_to_ns(Scalar ms) {
    const int64_t raw = ms.raw();
    const int64_t whole = raw >> Scalar::kFracBits;
    const uint64_t frac = static_cast<uint64_t>(raw & kFracMask);
    const uint64_t frac_ns = (frac * 1000000u + (uint64_t{1} << 31)) >> Scalar::kFracBits;
    return whole * 1000000 + static_cast<int64_t>(frac_ns);
}

void load_frames(const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of frame segments [{ms, count}, ...]");
    for (size_t i = 0; i < v.size(); ++i) {
        const Map m(v.item(i), {"ms", "count"});
        FrameSegment f;
        const Value msv = m.get("ms");
        f.ns = ms_to_ns(msv.number(detail::kFrameMs));
        if (f.ns == 0) {
            msv.fail(std::string("expected ") + detail::kFrameMs.what + ", found '" + msv.node.Scalar() +
                     "' (rounds to 0 ns)");
        }
        f.count = m.get("count").integer(1, kMaxTicks);
        s->frames.push_back(f);
    }
}


// ---- expectations ----

bool boolean(const Value& v) {
    const std::string& t = v.plain("true or false");
    if (t == "true") return true;
    if (t == "false") return false;
    v.fail("expected true or false, found " + v.found());
}

/// `value` (exact), `[min, max]`, or `{min: a, max: b}` (either may be left out).
Check load_check(const Value& v) {
    const char* what = "a number, [min, max] or {min: a, max: b}";
    Check c;
    if (v.node.IsSequence()) {
        if (v.size() != 2) v.fail(std::string("expected ") + what + ", found " + std::to_string(v.size()) +
                                  (v.size() == 1 ? " item" : " items"));
        c.min = v.item(0).number();
        c.max = v.item(1).number();
        c.has_min = c.has_max = true;
        if (c.max < c.min) {
            v.item(1).fail("expected a maximum >= the minimum " + to_string_shortest(c.min) + ", found '" +
                           v.item(1).node.Scalar() + "'");
        }
        return c;
    }
    if (v.node.IsMap()) {
        const Map m(v, {"min", "max"}, what);
        if (auto lo = m.opt("min")) {
            c.min = lo->number();
            c.has_min = true;
        }
        if (auto hi = m.opt("max")) {
            c.max = hi->number();
            c.has_max = true;
        }
        if (!c.has_min && !c.has_max) v.fail(std::string("expected ") + what + ", found an empty mapping");
        if (c.has_min && c.has_max && c.max < c.min) {
            m.get("max").fail("expected a maximum >= the minimum " + to_string_shortest(c.min) + ", found '" +
                              m.get("max").node.Scalar() + "'");
        }
        return c;
    }
    if (v.is_null() || !v.node.IsScalar()) v.fail(std::string("expected ") + what + ", found " + v.found());
    c.min = c.max = v.number();
    c.has_min = c.has_max = true;
    return c;
}

uint32_t expect_character(const Ctx& ctx, const Map& m) {
    const auto cv = m.opt("character");
    if (!cv) return kcc::kNoId;
    const auto id = static_cast<uint32_t>(cv->integer(0, kMaxId));
    if (ctx.character_ids.count(id) == 0) {
        std::string known;
        for (const auto& [k, use] : ctx.character_ids) known += (known.empty() ? "" : ", ") + std::to_string(k);
        cv->fail("expected the id of a character of this scenario (" + known + "), found '" + cv->node.Scalar() + "'");
    }
    return id;
}

void load_expect(Ctx& ctx, const LoadOptions& opts, const Value& v, Scenario* s) {
    if (v.is_null()) return;
    v.require_sequence("a sequence of expectations");
    std::vector<std::string> state_keys{"tick", "ticks", "character", "grounded", "platform"};
    for (const char* f : state_field_names()) state_keys.emplace_back(f);
    std::vector<std::string> metric_names;
    for (const MetricInfo& mi : metric_info()) metric_names.emplace_back(mi.name);
    for (size_t i = 0; i < v.size(); ++i) {
        const Value item = v.item(i);
        const SourceRef at{static_cast<int>(i), item.line};
        const bool is_map = item.node.IsMap();
        const YAML::Node& node = item.node; // const: operator[] must not insert
        if (is_map && node["same_as"]) {
            const Map m(item, {"same_as", "offset"});
            if (ctx.nested) m.key_node("same_as").fail("a same_as scenario cannot itself have same_as expectations");
            SameAsExpectation e;
            e.at = at;
            const Value pv = m.get("same_as");
            const Ref r = read_ref(ctx, pv, kMaxScenarioBytes);
            e.path = pv.node.Scalar();
            if (auto off = m.opt("offset")) e.offset = off->vec3(detail::kCoordinate);
            auto other = std::make_shared<Scenario>();
            LoadOptions o = opts;
            o.root = ctx.root.string();
            LoadError err;
            if (!load(r.bytes, r.display, r.resolved.parent_path(), o, /*nested=*/true, other.get(), &err)) {
                throw detail::Failure{err};
            }
            if (other->characters.size() != s->characters.size()) {
                pv.fail("expected a scenario with the same " + std::to_string(s->characters.size()) +
                        " characters, found " + std::to_string(other->characters.size()));
            }
            e.other = std::move(other);
            s->expect_same_as.push_back(std::move(e));
            continue;
        }
        if (is_map && node["metrics"]) {
            const Map m(item, {"character", "metrics"});
            MetricExpectation e;
            e.at = at;
            e.character = expect_character(ctx, m);
            const Map mm(m.get("metrics"), metric_names, "a mapping of metric bounds");
            for (const Map::Entry& entry : mm.entries()) {
                e.checks.emplace_back(find_metric(entry.key), load_check(mm.get(entry.key)));
            }
            if (e.checks.empty()) m.get("metrics").fail("expected at least one metric bound, found none");
            s->expect_metrics.push_back(std::move(e));
            continue;
        }
        const Map m(item, state_keys, "a mapping (an expectation)");
        StateExpectation e;
        e.at = at;
        e.from = 0;
        e.to = ctx.ticks - 1;
        if (m.has("tick") && m.has("ticks")) m.key_node("ticks").fail("expected either 'tick' or 'ticks', found both");
        if (auto t = m.opt("tick")) e.from = e.to = tick_in_run(ctx, *t);
        if (auto r = m.opt("ticks")) {
            const char* what = "a tick range [first, last]";
            r->require_sequence(what);
            if (r->size() != 2) r->fail(std::string("expected ") + what + ", found " + std::to_string(r->size()) +
                                        (r->size() == 1 ? " item" : " items"));
            e.from = tick_in_run(ctx, r->item(0));
            e.to = tick_in_run(ctx, r->item(1));
            if (e.to < e.from) {
                r->item(1).fail("expected a last tick >= the first " + std::to_string(e.from) + ", found '" +
                                r->item(1).node.Scalar() + "'");
            }
        }
        e.character = expect_character(ctx, m);
        if (auto g = m.opt("grounded")) e.grounded = boolean(*g) ? 1 : 0;
        if (auto p = m.opt("platform")) {
            e.check_platform = true;
            if (p->node.IsScalar() && p->node.Scalar() == "none") {
                e.platform = kcc::kNoId;
            } else {
                e.platform = static_cast<uint32_t>(p->integer(0, kMaxId));
                const bool known = std::any_of(s->platforms.begin(), s->platforms.end(),
                                               [&](const PlatformDef& d) { return d.id == e.platform; });
                if (!known) p->fail("expected the id of a platform of this scenario or 'none', found '" + p->node.Scalar() + "'");
            }
        }
        const auto names = state_field_names();
        for (int f = 0; f < kStateFieldCount; ++f) {
            if (auto fv = m.opt(names[static_cast<size_t>(f)])) e.checks.emplace_back(static_cast<StateField>(f), load_check(*fv));
        }
        if (e.checks.empty() && e.grounded < 0 && !e.check_platform) {
            m.fail("expected at least one check (grounded, platform, or one of x, y, z, vx, vy, vz, speed, "
                   "horizontal_speed, surface_speed, ground_angle, facing), found none");
        }
        s->expect_states.push_back(std::move(e));
    }
}

bool valid_name(const std::string& n) {
    if (n.empty() || n.size() > 64) return false;
    for (size_t i = 0; i < n.size(); ++i) {
        const char c = n[i];
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) return false;
    }
    return true;
}

/// YAML is Unicode text: the first byte that is not part of a UTF-8 character, and the first
/// control character other than tab, line feed and carriage return, are refused with their line
/// and column (counted in characters). yaml-cpp would otherwise drop or pass them silently.
void check_text(const std::string& file, std::string_view t) {
    static const char kHex[] = "0123456789ABCDEF";
    int line = 1, column = 1;
    for (size_t i = 0; i < t.size();) {
        const auto c = static_cast<unsigned char>(t[i]);
        size_t len = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            len = 1;
            cp = c;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1Fu;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0Fu;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07u;
        }
        bool ok = len > 0 && i + len <= t.size();
        for (size_t k = 1; ok && k < len; ++k) {
            const auto d = static_cast<unsigned char>(t[i + k]);
            ok = (d & 0xC0) == 0x80;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8 either.
        if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
                   (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)) {
            ok = false;
        }
        if (!ok) {
            detail::fail_at(file, line, column, "",
                            std::string("expected UTF-8 text, found the byte 0x") + kHex[c >> 4] + kHex[c & 15] +
                                " (not a UTF-8 character)");
        }
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7F && cp <= 0x9F)) {
            detail::fail_at(file, line, column, "",
                            std::string("expected text, found the control character U+00") + kHex[cp >> 4] +
                                kHex[cp & 15] + " (only tab, line feed and carriage return are allowed)");
        }
        if (cp == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        i += len;
    }
}

/// Line `line0` (0-based) of the text, without its line break.
std::string_view line_of(std::string_view text, int line0) {
    size_t pos = 0;
    for (int l = 0; l < line0; ++l) {
        pos = text.find('\n', pos);
        if (pos == std::string_view::npos) return {};
        ++pos;
    }
    const size_t end = text.find('\n', pos);
    return text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
}

/// Walks the documents of a YAML text without building them, to find where the reader stops
/// moving. yaml-cpp 0.7.0 reads a ',' outside any flow collection as an empty document without
/// consuming it, so `YAML::LoadAll` loops for ever, allocating (jbeder/yaml-cpp issue 1040,
/// fixed upstream after 0.8.0): a document starting where the previous one started is that loop.
class DocumentWalk : public YAML::EventHandler {
public:
    bool stuck = false;
    YAML::Mark stuck_at;
    void OnDocumentStart(const YAML::Mark& mark) override {
        if (started_ && mark.pos == last_.pos) {
            stuck = true;
            stuck_at = mark;
        }
        started_ = true;
        last_ = mark;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}

private:
    bool started_ = false;
    YAML::Mark last_;
};

/// Parses the YAML text into documents; syntax errors as "YAML syntax error: ..." at their mark.
std::vector<YAML::Node> parse_yaml(const Ctx& ctx, const std::string& text) {
    // yaml-cpp accepts a quoted string left open up to the end of the file when the file ends
    // with a line break (it throws "illegal EOF in scalar" only without one). An explicit
    // document end marker after the last line changes nothing in a valid document and makes
    // that open quote an error, at the end of the file.
    const bool sentinel = !text.empty() && text.back() == '\n';
    const int end_line0 = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    auto fail = [&](const YAML::Mark& mark, std::string message) {
        if (message == YAML::ErrorMsg::EOF_IN_SCALAR ||
            (sentinel && message == YAML::ErrorMsg::DOC_IN_SCALAR && mark.line == end_line0)) {
            message = "end of file inside a quoted string (a closing quote is missing)";
        }
        const std::string_view line = line_of(text, mark.line);
        const std::string_view indent = line.substr(0, std::min(line.find_first_not_of(" \t"), line.size()));
        if (indent.find('\t') != std::string_view::npos) message += " (a tab in the indentation: YAML indents with spaces)";
        detail::fail_at(ctx.file, mark.line + 1, mark.column + 1, "", "YAML syntax error: " + message);
    };
    try {
        const std::string input = sentinel ? text + "...\n" : text;
        {
            std::istringstream in(input);
            YAML::Parser parser(in);
            DocumentWalk walk;
            while (!walk.stuck && parser.HandleNextDocument(walk)) {
            }
            if (walk.stuck) {
                const char c = static_cast<size_t>(walk.stuck_at.pos) < input.size() ? input[walk.stuck_at.pos] : ' ';
                fail(walk.stuck_at, c == ','
                                        ? "unexpected ',' outside a flow sequence [...] or flow mapping {...}"
                                        : "unexpected " + detail::shown(std::string_view(&c, 1), 0));
            }
        }
        return YAML::LoadAll(input);
#if __has_include(<yaml-cpp/depthguard.h>)
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own guard against running out of stack ("bad file" in its words).
        fail(e.mark, "nesting deeper than " + std::to_string(e.depth() - 1) +
                         " levels of sequences and mappings (the YAML reader's limit)");
#endif
    } catch (const YAML::ParserException& e) {
        fail(e.mark, e.msg);
    } catch (const YAML::Exception& e) {
        detail::fail_at(ctx.file, e.mark.line + 1, e.mark.column + 1, "", "YAML error: " + e.msg);
    }
    return {};
}

void load_document(Ctx& ctx, const LoadOptions& opts, const std::string& text, Scenario* s) {
    check_text(ctx.file, text);
    ctx.budget.total = ctx.budget.left = std::max<int64_t>(kMinNodeBudget, static_cast<int64_t>(text.size()));
    const std::vector<YAML::Node> docs = parse_yaml(ctx, text);
    Value root;
    root.file = &ctx.file;
    root.budget = &ctx.budget;
    if (!docs.empty()) root.node = docs[0];
    if (docs.size() > 1) {
        const Value second = Value{&ctx.file, docs[1], "", docs[1].Mark().line + 1, docs[1].Mark().column + 1, nullptr};
        second.fail("expected one YAML document, found " + std::to_string(docs.size()));
    }
    const Map m(root,
                {"format", "name", "description", "deviation", "tick_rate", "ticks", "golden_every", "world", "platforms",
                 "characters", "frames", "expect"},
                "a mapping of scenario keys", /*defer_unknown=*/true);
    const Value fv = m.get("format");
    int64_t format = 0;
    if (!detail::parse_integer(fv.plain("an integer format version"), &format)) {
        fv.fail("expected an integer format version, found " + fv.found());
    }
    if (format != kScenarioFormat) {
        fv.fail("unsupported scenario format " + fv.node.Scalar() + " (this build reads format " +
                std::to_string(kScenarioFormat) + ")");
    }
    m.check_unknown();

    const Value nv = m.get("name");
    const char* name_what = "a name of 1 to 64 characters [a-z0-9][a-z0-9._-]*";
    s->name = nv.text(name_what);
    if (!valid_name(s->name)) nv.fail(std::string("expected ") + name_what + ", found " + detail::shown(s->name));
    s->description = m.get("description").text("a description (a string)");
    if (auto tr = m.opt("tick_rate")) s->tick_rate_hz = static_cast<int>(tr->integer(1, 1000));
    ctx.tick_rate = s->tick_rate_hz;
    s->ticks = m.get("ticks").integer(1, kMaxTicks);
    ctx.ticks = s->ticks;
    if (auto ge = m.opt("golden_every")) s->golden_every = ge->integer(1, 100000);
    if (auto w = m.opt("world")) load_world(ctx, *w, s);
    if (auto p = m.opt("platforms")) load_platforms(ctx, *p, s);
    load_characters(ctx, m.get("characters"), s);
    if (auto f = m.opt("frames")) load_frames(*f, s);
    if (auto d = m.opt("deviation")) s->deviation = d->text("a text (why the scenario deviates from KCC-SPEC)");
    if (auto e = m.opt("expect")) load_expect(ctx, opts, *e, s);
}

bool load(const std::string& text, const std::string& display_path, const fs::path& base_dir,
          const LoadOptions& opts, bool nested, Scenario* out, LoadError* err) {
    Ctx ctx;
    ctx.nested = nested;
    ctx.file = display_path;
    ctx.base_dir = base_dir.empty() ? fs::path(".") : base_dir;
    ctx.display_dir = fs::path(display_path).parent_path();
    ctx.root = canonical_dir(opts.root.empty() ? ctx.base_dir : fs::path(opts.root));
    ctx.allow_outside = opts.allow_outside;
    ctx.hash.update(text);
    Scenario s;
    s.path = display_path;
    try {
        load_document(ctx, opts, text, &s);
    } catch (const detail::Failure& f) {
        if (err != nullptr) *err = f.error;
        return false;
    } catch (const YAML::Exception& e) {
        // Not expected (the walk never converts with as<>), but never let one escape.
        if (err != nullptr) *err = LoadError{ctx.file, e.mark.line + 1, e.mark.column + 1, "", "YAML error: " + e.msg};
        return false;
    }
    s.digest = ctx.hash.hex();
    *out = std::move(s);
    return true;
}

} // namespace

bool load_scenario_text(const std::string& text, const std::string& display_path, const std::string& base_dir,
                        const LoadOptions& opts, Scenario* out, LoadError* err) {
    if (text.size() > kMaxScenarioBytes) {
        if (err != nullptr) {
            *err = LoadError{display_path, 0, 0, "",
                             "cannot read the scenario: file too large: " + std::to_string(text.size()) +
                                 " bytes, the limit is " + std::to_string(kMaxScenarioBytes) + " bytes (" +
                                 std::to_string(kMaxScenarioBytes >> 20) + " MiB)"};
        }
        return false;
    }
    return load(text, display_path, fs::path(base_dir), opts, false, out, err);
}

bool load_scenario(const std::string& path, const LoadOptions& opts, Scenario* out, LoadError* err) {
    std::string text;
    std::string error;
    if (!read_file(fs::path(path), kMaxScenarioBytes, &text, &error)) {
        if (err != nullptr) *err = LoadError{path, 0, 0, "", "cannot read the scenario: " + error};
        return false;
    }
    return load(text, path, fs::path(path).parent_path(), opts, false, out, err);
}

} // namespace fx::harness
