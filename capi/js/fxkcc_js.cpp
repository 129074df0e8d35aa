// The WebAssembly module's exports for JavaScript (capi/js/fxkcc.js wraps them): the C API with
// every struct passed by value spelled out as scalars, and the inputs, a character's state and
// a render pose through buffers of six, fifteen and three int64, so that the JavaScript side never
// depends on the C structs' layout. Numbers are Q31.32 raw values (int64, BigInt in JavaScript with
// -sWASM_BIGINT). Single-threaded, as JavaScript is: the state and pose buffers are shared by every
// world and read at once after the call that fills them; inputs are passed per call.
#include <fxkcc.h>

#include <cstdlib>
#include <type_traits>
#include <vector>

#include <emscripten/emscripten.h>

namespace {
int64_t g_state[15];
int64_t g_pose[3];
uint64_t g_u64 = 0;
fxkcc_vec3 vec(int64_t x, int64_t y, int64_t z) {
    return fxkcc_vec3{x, y, z};
}

/// f(field) for settings field `index` in fxkcc_settings' declaration order; false for no such
/// field.
template <class F> bool settings_field(fxkcc_settings* s, int index, F&& f) {
    switch (index) {
    case 0:
        f(s->radius);
        return true;
    case 1:
        f(s->height);
        return true;
    case 2:
        f(s->skin);
        return true;
    case 3:
        f(s->max_slope_enter_deg);
        return true;
    case 4:
        f(s->max_slope_stay_deg);
        return true;
    case 5:
        f(s->probe_distance);
        return true;
    case 6:
        f(s->probe_skin);
        return true;
    case 7:
        f(s->probe_max_hits);
        return true;
    case 8:
        f(s->snap_distance);
        return true;
    case 9:
        f(s->depenetration_cap);
        return true;
    case 10:
        f(s->max_slide_iterations);
        return true;
    case 11:
        f(s->step_height);
        return true;
    case 12:
        f(s->step_min_forward);
        return true;
    case 13:
        f(s->max_speed);
        return true;
    case 14:
        f(s->ground_accel);
        return true;
    case 15:
        f(s->ground_brake);
        return true;
    case 16:
        f(s->air_accel);
        return true;
    case 17:
        f(s->jump_speed);
        return true;
    case 18:
        f(s->gravity);
        return true;
    case 19:
        f(s->dead_zone);
        return true;
    case 20:
        f(s->turn_rate_deg);
        return true;
    case 21:
        f(s->collide_characters);
        return true;
    case 22:
        f(s->tick_rate_hz);
        return true;
    default:
        return false;
    }
}
} // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE fxkcc_world* fxjs_world_create() {
    fxkcc_world* w = nullptr;
    return fxkcc_world_create(&w) == FXKCC_OK ? w : nullptr;
}

EMSCRIPTEN_KEEPALIVE int fxjs_add_box(fxkcc_world* w, uint32_t id, int64_t cx, int64_t cy,
                                      int64_t cz, int64_t hx, int64_t hy, int64_t hz, int64_t yaw,
                                      int64_t pitch, int64_t roll) {
    return fxkcc_world_add_box(w, id, vec(cx, cy, cz), vec(hx, hy, hz), yaw, pitch, roll);
}

EMSCRIPTEN_KEEPALIVE int fxjs_add_sphere(fxkcc_world* w, uint32_t id, int64_t cx, int64_t cy,
                                         int64_t cz, int64_t r) {
    return fxkcc_world_add_sphere(w, id, vec(cx, cy, cz), r);
}

EMSCRIPTEN_KEEPALIVE int fxjs_add_capsule(fxkcc_world* w, uint32_t id, int64_t ax, int64_t ay,
                                          int64_t az, int64_t bx, int64_t by, int64_t bz,
                                          int64_t r) {
    return fxkcc_world_add_capsule(w, id, vec(ax, ay, az), vec(bx, by, bz), r);
}

EMSCRIPTEN_KEEPALIVE int fxjs_add_plane(fxkcc_world* w, uint32_t id, int64_t nx, int64_t ny,
                                        int64_t nz, int64_t offset) {
    return fxkcc_world_add_plane(w, id, vec(nx, ny, nz), offset);
}

/// vertices: 3 x vertex_count int64 (x, y, z each); indices: index_count uint32.
EMSCRIPTEN_KEEPALIVE int fxjs_add_mesh(fxkcc_world* w, uint32_t id, const int64_t* vertices,
                                       size_t vertex_count, const uint32_t* indices,
                                       size_t index_count) {
    std::vector<fxkcc_vec3> v(vertex_count);
    for (size_t k = 0; k < vertex_count; ++k)
        v[k] = vec(vertices[3 * k], vertices[3 * k + 1], vertices[3 * k + 2]);
    return fxkcc_world_add_mesh(w, id, v.data(), vertex_count, indices, index_count);
}

/// waypoints: 4 x count int64 (centre x, y, z, tick each).
EMSCRIPTEN_KEEPALIVE int fxjs_add_platform(fxkcc_world* w, uint32_t id, int64_t hx, int64_t hy,
                                           int64_t hz, int64_t yaw, int64_t pitch, int64_t roll,
                                           const int64_t* waypoints, size_t count) {
    std::vector<fxkcc_waypoint> p(count);
    for (size_t k = 0; k < count; ++k)
        p[k] = fxkcc_waypoint{vec(waypoints[4 * k], waypoints[4 * k + 1], waypoints[4 * k + 2]),
                              waypoints[4 * k + 3]};
    return fxkcc_world_add_platform(w, id, vec(hx, hy, hz), yaw, pitch, roll, p.data(), count);
}

/// A settings record with the defaults (free with fxjs_settings_free); fields by their index
/// in fxkcc_settings' declaration order (fxkcc.js holds the names).
EMSCRIPTEN_KEEPALIVE fxkcc_settings* fxjs_settings_new() {
    auto* s = static_cast<fxkcc_settings*>(std::malloc(sizeof(fxkcc_settings)));
    if (s != nullptr) fxkcc_settings_default(s);
    return s;
}
EMSCRIPTEN_KEEPALIVE void fxjs_settings_free(fxkcc_settings* s) {
    std::free(s);
}

/// Sets field `index` (fixed fields take a raw value, integer fields the integer); 0 if there is
/// no such field or the integer does not fit.
EMSCRIPTEN_KEEPALIVE int fxjs_settings_set(fxkcc_settings* s, int index, int64_t value) {
    bool fits = true;
    const bool found = settings_field(s, index, [&](auto& field) {
        using T = std::remove_reference_t<decltype(field)>;
        if (static_cast<int64_t>(static_cast<T>(value)) != value)
            fits = false;
        else
            field = static_cast<T>(value);
    });
    return found && fits ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int64_t fxjs_settings_get(fxkcc_settings* s, int index) {
    int64_t out = 0;
    settings_field(s, index, [&](auto& field) { out = static_cast<int64_t>(field); });
    return out;
}

EMSCRIPTEN_KEEPALIVE int fxjs_add_character(fxkcc_world* w, uint32_t id, int64_t x, int64_t y,
                                            int64_t z, const fxkcc_settings* s) {
    return fxkcc_world_add_character(w, id, vec(x, y, z), s);
}

EMSCRIPTEN_KEEPALIVE int fxjs_teleport(fxkcc_world* w, uint32_t id, int64_t x, int64_t y,
                                       int64_t z) {
    return fxkcc_world_teleport(w, id, vec(x, y, z));
}

/// One tick with `count` inputs, six int64 each in `packed` (stick x, stick y, jump, impulse x, y,
/// z), written by the caller for this call alone: no input outlives the call, and nothing is
/// shared between worlds (a buffer shared by every world kept a failed step's inputs for the
/// next world's step: issue 51). The C API's status; FXKCC_OUT_OF_MEMORY when the inputs cannot
/// be held.
EMSCRIPTEN_KEEPALIVE int fxjs_step(fxkcc_world* w, const int64_t* packed, size_t count) {
    fxkcc_input* inputs = nullptr;
    if (count > 0) {
        inputs = static_cast<fxkcc_input*>(std::calloc(count, sizeof(fxkcc_input)));
        if (inputs == nullptr) return FXKCC_OUT_OF_MEMORY;
        for (size_t i = 0; i < count; ++i) {
            const int64_t* v = packed + 6 * i;
            inputs[i] = fxkcc_input{v[0], v[1], static_cast<int>(v[2] != 0), vec(v[3], v[4], v[5])};
        }
    }
    const int st = fxkcc_world_step(w, inputs, count);
    std::free(inputs);
    return st;
}

/// Character `index`: a pointer to 15 int64 (id, position x y z, velocity x y z, facing,
/// grounded, halted, ground normal x y z, ground shape, platform), or null.
EMSCRIPTEN_KEEPALIVE const int64_t* fxjs_character(const fxkcc_world* w, size_t index) {
    fxkcc_character_state s;
    if (fxkcc_world_character(w, index, &s) != FXKCC_OK) return nullptr;
    const int64_t v[15] = {s.id,
                           s.position.x,
                           s.position.y,
                           s.position.z,
                           s.velocity.x,
                           s.velocity.y,
                           s.velocity.z,
                           s.facing,
                           s.grounded,
                           s.halted,
                           s.ground_normal.x,
                           s.ground_normal.y,
                           s.ground_normal.z,
                           s.ground_shape,
                           s.platform};
    for (int k = 0; k < 15; ++k)
        g_state[k] = v[k];
    return g_state;
}

/// The render pose of character `index` at alpha (raw): a pointer to 3 int64, or null.
EMSCRIPTEN_KEEPALIVE const int64_t* fxjs_render_position(const fxkcc_world* w, size_t index,
                                                         int64_t alpha) {
    fxkcc_vec3 p;
    if (fxkcc_world_render_position(w, index, alpha, &p) != FXKCC_OK) return nullptr;
    g_pose[0] = p.x;
    g_pose[1] = p.y;
    g_pose[2] = p.z;
    return g_pose;
}

/// The checksum into the buffer read by fxjs_u64 (returns the status).
EMSCRIPTEN_KEEPALIVE int fxjs_checksum(const fxkcc_world* w) {
    return fxkcc_world_checksum(w, &g_u64);
}

/// Exact decimal text to a raw value, into the buffer read by fxjs_u64 (returns the status).
EMSCRIPTEN_KEEPALIVE int fxjs_fixed_from_decimal(const char* text) {
    fxkcc_fixed v = 0;
    const int st = fxkcc_fixed_from_decimal(text, &v);
    g_u64 = static_cast<uint64_t>(v);
    return st;
}

EMSCRIPTEN_KEEPALIVE uint64_t fxjs_u64() {
    return g_u64;
}

} // extern "C"
