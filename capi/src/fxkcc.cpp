// The C API (capi/include/fxkcc.h) over fx::kcc::World. Every entry point catches what the
// C++ side may throw (allocation) and reports it as a status: nothing crosses the boundary.
#include "fxkcc.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "fx/decimal.h"
#include "kcc/recorder.h"
#include "kcc/version.h"
#include "kcc/world.h"

static_assert(FXKCC_VERSION_MAJOR == fx::kcc::kVersionMajor &&
                  FXKCC_VERSION_MINOR == fx::kcc::kVersionMinor &&
                  FXKCC_VERSION_PATCH == fx::kcc::kVersionPatch,
              "fxkcc.h and kcc/version.h name the same version");
static_assert(FX_PROJECT_VERSION_MAJOR == fx::kcc::kVersionMajor &&
                  FX_PROJECT_VERSION_MINOR == fx::kcc::kVersionMinor &&
                  FX_PROJECT_VERSION_PATCH == fx::kcc::kVersionPatch,
              "CMakeLists.txt's project(VERSION) and kcc/version.h name the same version");

using fx::Scalar;
using fx::Vec3;

struct fxkcc_world {
    fx::kcc::World world;
    /// Why the last call failed; "" after a success. Mutable: the getters, which take a const
    /// world, set and clear it too (a stale text from an earlier call misled a caller).
    mutable std::string error;
    bool built = false;
    std::vector<fx::kcc::Input> inputs; // scratch of step(), sized at build
    std::vector<uint8_t> snapshot; // scratch of fxkcc_world_snapshot
    std::unique_ptr<fx::kcc::Recorder> recorder; // fxkcc_world_record
    std::vector<fx::kcc::RecordedFile> recording; // fxkcc_world_recording_files
};

namespace {

Scalar S(fxkcc_fixed v) {
    return Scalar::from_raw(v);
}
Vec3 V(const fxkcc_vec3& v) {
    return {S(v.x), S(v.y), S(v.z)};
}
fxkcc_vec3 C(const Vec3& v) {
    return {v.x.raw(), v.y.raw(), v.z.raw()};
}

fxkcc_status fail(fxkcc_world* w, fxkcc_status status, std::string why) {
    if (w != nullptr) w->error = std::move(why);
    return status;
}
/// fail() for the getters, which take a const world (its error text is mutable).
fxkcc_status said(const fxkcc_world* w, fxkcc_status status, std::string why) {
    w->error = std::move(why);
    return status;
}

// Runs f (returning a status) with the world's error cleared, turning an exception into a status.
template <class F> fxkcc_status guarded(fxkcc_world* w, F&& f) {
    if (w == nullptr) return FXKCC_INVALID_ARGUMENT;
    try {
        w->error.clear();
        return f();
    } catch (const std::bad_alloc&) {
        return fail(w, FXKCC_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(w, FXKCC_INTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
        return fail(w, FXKCC_INTERNAL, "internal error");
    }
}

fxkcc_status before_build(fxkcc_world* w, const char* what) {
    return w->built
               ? fail(w, FXKCC_INVALID_STATE, std::string(what) + ": the world is already built")
               : FXKCC_OK;
}

fx::kcc::Settings from_c(const fxkcc_settings& c) {
    fx::kcc::Settings s;
    s.radius = S(c.radius);
    s.height = S(c.height);
    s.skin = S(c.skin);
    s.max_slope_enter_deg = S(c.max_slope_enter_deg);
    s.max_slope_stay_deg = S(c.max_slope_stay_deg);
    s.probe_distance = S(c.probe_distance);
    s.probe_skin = S(c.probe_skin);
    s.probe_max_hits = c.probe_max_hits;
    s.snap_distance = S(c.snap_distance);
    s.depenetration_cap = S(c.depenetration_cap);
    s.max_slide_iterations = c.max_slide_iterations;
    s.step_height = S(c.step_height);
    s.step_min_forward = S(c.step_min_forward);
    s.max_speed = S(c.max_speed);
    s.ground_accel = S(c.ground_accel);
    s.ground_brake = S(c.ground_brake);
    s.air_accel = S(c.air_accel);
    s.jump_speed = S(c.jump_speed);
    s.gravity = S(c.gravity);
    s.dead_zone = S(c.dead_zone);
    s.turn_rate_deg = S(c.turn_rate_deg);
    s.collide_characters = c.collide_characters != 0;
    s.tick_rate_hz = c.tick_rate_hz;
    return s;
}

} // namespace

namespace {
// A runtime change of an existing character (after build): NOT_FOUND for an unknown id,
// INVALID_ARGUMENT when the world refuses the change.
template <class F> fxkcc_status change(fxkcc_world* world, const char* what, uint32_t id, F&& f) {
    return guarded(world, [&] {
        if (!world->built)
            return fail(world, FXKCC_INVALID_STATE, std::string(what) + ": build the world first");
        if (world->world.find(id) == nullptr)
            return fail(world, FXKCC_NOT_FOUND,
                        std::string(what) + ": no character " + std::to_string(id));
        std::string why;
        if (!f(&why)) return fail(world, FXKCC_INVALID_ARGUMENT, why);
        world->inputs.resize(world->world.characters().size());
        return FXKCC_OK;
    });
}
} // namespace

extern "C" {

uint32_t fxkcc_version(void) {
    return static_cast<uint32_t>(fx::kcc::kVersionMajor << 16 | fx::kcc::kVersionMinor << 8 |
                                 fx::kcc::kVersionPatch);
}

int32_t fxkcc_behaviour_version(void) {
    return fx::kcc::kBehaviourVersion;
}

const char* fxkcc_status_name(fxkcc_status status) {
    switch (status) {
    case FXKCC_OK:
        return "ok";
    case FXKCC_INVALID_ARGUMENT:
        return "invalid argument";
    case FXKCC_INVALID_STATE:
        return "invalid state";
    case FXKCC_NOT_FOUND:
        return "not found";
    case FXKCC_OUT_OF_MEMORY:
        return "out of memory";
    case FXKCC_INTERNAL:
        return "internal error";
    }
    return "unknown status";
}

fxkcc_fixed fxkcc_fixed_from_double(double value) {
    if (std::isnan(value)) return 0;
    const double raw = value * 4294967296.0; // 2^32: exact (a power of two)
    if (raw >= 9223372036854775807.0) return INT64_MAX;
    if (raw <= -9223372036854775808.0) return INT64_MIN;
    // Rounded half away from zero without the C library: MinGW's llround gave the double just
    // below one half 1 where glibc's and emscripten's give 0. |raw| < 2^63, so the conversion
    // truncates toward zero, and raw less its integer part is exact (the bits below the point).
    const int64_t whole = static_cast<int64_t>(raw);
    const double part = raw - static_cast<double>(whole);
    return whole + (part >= 0.5 ? 1 : 0) - (part <= -0.5 ? 1 : 0);
}

double fxkcc_fixed_to_double(fxkcc_fixed value) {
    return static_cast<double>(value) / 4294967296.0;
}

fxkcc_status fxkcc_fixed_from_decimal(const char* text, fxkcc_fixed* out) {
    if (text == nullptr || out == nullptr) return FXKCC_INVALID_ARGUMENT;
    try {
        const fx::DecimalResult r = fx::parse_decimal(text);
        if (!r.ok) return FXKCC_INVALID_ARGUMENT;
        *out = r.value.raw();
        return FXKCC_OK;
    } catch (...) {
        return FXKCC_OUT_OF_MEMORY; // the error text's allocation
    }
}

void fxkcc_settings_default(fxkcc_settings* out) {
    if (out == nullptr) return;
    const fx::kcc::Settings s;
    std::memset(out, 0, sizeof *out);
    out->radius = s.radius.raw();
    out->height = s.height.raw();
    out->skin = s.skin.raw();
    out->max_slope_enter_deg = s.max_slope_enter_deg.raw();
    out->max_slope_stay_deg = s.max_slope_stay_deg.raw();
    out->probe_distance = s.probe_distance.raw();
    out->probe_skin = s.probe_skin.raw();
    out->probe_max_hits = s.probe_max_hits;
    out->snap_distance = s.snap_distance.raw();
    out->depenetration_cap = s.depenetration_cap.raw();
    out->max_slide_iterations = s.max_slide_iterations;
    out->step_height = s.step_height.raw();
    out->step_min_forward = s.step_min_forward.raw();
    out->max_speed = s.max_speed.raw();
    out->ground_accel = s.ground_accel.raw();
    out->ground_brake = s.ground_brake.raw();
    out->air_accel = s.air_accel.raw();
    out->jump_speed = s.jump_speed.raw();
    out->gravity = s.gravity.raw();
    out->dead_zone = s.dead_zone.raw();
    out->turn_rate_deg = s.turn_rate_deg.raw();
    out->collide_characters = s.collide_characters ? 1 : 0;
    out->tick_rate_hz = s.tick_rate_hz;
}

fxkcc_status fxkcc_world_create(fxkcc_world** out) {
    if (out == nullptr) return FXKCC_INVALID_ARGUMENT;
    *out = new (std::nothrow) fxkcc_world();
    return *out != nullptr ? FXKCC_OK : FXKCC_OUT_OF_MEMORY;
}

void fxkcc_world_destroy(fxkcc_world* world) {
    delete world;
}

const char* fxkcc_world_error(const fxkcc_world* world) {
    return world != nullptr ? world->error.c_str() : "";
}

fxkcc_status fxkcc_world_add_box(fxkcc_world* world, uint32_t id, fxkcc_vec3 center,
                                 fxkcc_vec3 half_extents, fxkcc_fixed yaw_deg,
                                 fxkcc_fixed pitch_deg, fxkcc_fixed roll_deg) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_box"); st != FXKCC_OK) return st;
        world->world.scene().add_box(
            id, fx::geo::Box::from_yaw_pitch_roll_degrees(V(center), V(half_extents), S(yaw_deg),
                                                          S(pitch_deg), S(roll_deg)));
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_sphere(fxkcc_world* world, uint32_t id, fxkcc_vec3 center,
                                    fxkcc_fixed radius) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_sphere"); st != FXKCC_OK) return st;
        world->world.scene().add_sphere(id, fx::geo::Sphere{V(center), S(radius)});
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_capsule(fxkcc_world* world, uint32_t id, fxkcc_vec3 a, fxkcc_vec3 b,
                                     fxkcc_fixed radius) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_capsule"); st != FXKCC_OK) return st;
        world->world.scene().add_capsule(id, fx::geo::Capsule{V(a), V(b), S(radius)});
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_plane(fxkcc_world* world, uint32_t id, fxkcc_vec3 normal,
                                   fxkcc_fixed offset) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_plane"); st != FXKCC_OK) return st;
        world->world.scene().add_plane(id, fx::geo::Plane{V(normal), S(offset)});
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_mesh(fxkcc_world* world, uint32_t id, const fxkcc_vec3* vertices,
                                  size_t vertex_count, const uint32_t* indices,
                                  size_t index_count) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_mesh"); st != FXKCC_OK) return st;
        if ((vertices == nullptr && vertex_count > 0) || (indices == nullptr && index_count > 0))
            return fail(world, FXKCC_INVALID_ARGUMENT, "add_mesh: null vertex or index array");
        std::vector<Vec3> v(vertex_count);
        for (size_t k = 0; k < vertex_count; ++k)
            v[k] = V(vertices[k]);
        const std::vector<uint32_t> idx(indices, indices + index_count);
        fx::geo::TriangleMesh mesh;
        std::string why;
        if (!fx::geo::TriangleMesh::build(std::move(v), idx, &mesh, &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, "mesh " + std::to_string(id) + ": " + why);
        world->world.scene().add_mesh(id, std::move(mesh));
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_platform(fxkcc_world* world, uint32_t id, fxkcc_vec3 half_extents,
                                      fxkcc_fixed yaw_deg, fxkcc_fixed pitch_deg,
                                      fxkcc_fixed roll_deg, const fxkcc_waypoint* waypoints,
                                      size_t waypoint_count) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "add_platform"); st != FXKCC_OK) return st;
        if (waypoints == nullptr && waypoint_count > 0)
            return fail(world, FXKCC_INVALID_ARGUMENT, "add_platform: null waypoint array");
        fx::kcc::Platform p;
        p.id = id;
        p.half_extents = V(half_extents);
        p.rotation = fx::Mat3::from_yaw_pitch_roll_degrees(S(yaw_deg), S(pitch_deg), S(roll_deg));
        for (size_t k = 0; k < waypoint_count; ++k)
            p.waypoints.push_back({V(waypoints[k].center), waypoints[k].tick});
        std::string why;
        if (!world->world.add_platform(p, &why)) return fail(world, FXKCC_INVALID_ARGUMENT, why);
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_add_character(fxkcc_world* world, uint32_t id, fxkcc_vec3 feet,
                                       const fxkcc_settings* settings) {
    return guarded(world, [&] {
        const fx::kcc::Settings s = settings != nullptr ? from_c(*settings) : fx::kcc::Settings{};
        std::string why;
        if (!world->world.add_character(id, V(feet), s, &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, why);
        if (world->built)
            world->inputs.resize(world->world.characters().size()); // joined between ticks
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_remove_character(fxkcc_world* world, uint32_t id) {
    return change(world, "remove_character", id,
                  [&](std::string* why) { return world->world.remove_character(id, why); });
}

fxkcc_status fxkcc_world_set_settings(fxkcc_world* world, uint32_t id,
                                      const fxkcc_settings* settings) {
    return change(world, "set_settings", id, [&](std::string* why) {
        const fx::kcc::Settings s = settings != nullptr ? from_c(*settings) : fx::kcc::Settings{};
        return world->world.set_settings(id, s, why);
    });
}

fxkcc_status fxkcc_world_teleport(fxkcc_world* world, uint32_t id, fxkcc_vec3 feet) {
    return change(world, "teleport", id,
                  [&](std::string* why) { return world->world.teleport(id, V(feet), why); });
}

fxkcc_status fxkcc_world_build(fxkcc_world* world) {
    return guarded(world, [&] {
        if (const fxkcc_status st = before_build(world, "build"); st != FXKCC_OK) return st;
        std::string why;
        if (!world->world.build(&why)) return fail(world, FXKCC_INVALID_ARGUMENT, why);
        world->inputs.assign(world->world.characters().size(), fx::kcc::Input{});
        world->built = true;
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_step(fxkcc_world* world, const fxkcc_input* inputs, size_t count) {
    return guarded(world, [&] {
        if (!world->built) return fail(world, FXKCC_INVALID_STATE, "step: build the world first");
        if (inputs == nullptr && count > 0)
            return fail(world, FXKCC_INVALID_ARGUMENT, "step: null inputs");
        for (size_t k = 0; k < world->inputs.size(); ++k) {
            fx::kcc::Input in;
            if (k < count) {
                in.stick_x = S(inputs[k].stick_x);
                in.stick_y = S(inputs[k].stick_y);
                in.jump = inputs[k].jump != 0;
                in.impulse = V(inputs[k].impulse);
            }
            world->inputs[k] = in;
        }
        world->world.step(world->inputs);
        return FXKCC_OK;
    });
}

int64_t fxkcc_world_tick(const fxkcc_world* world) {
    return world != nullptr ? world->world.tick() : 0;
}

size_t fxkcc_world_character_count(const fxkcc_world* world) {
    return world != nullptr ? world->world.characters().size() : 0;
}

fxkcc_status fxkcc_world_character(const fxkcc_world* world, size_t index,
                                   fxkcc_character_state* out) {
    if (world == nullptr) return FXKCC_INVALID_ARGUMENT;
    if (out == nullptr) return said(world, FXKCC_INVALID_ARGUMENT, "character: null output");
    if (index >= world->world.characters().size())
        return said(world, FXKCC_NOT_FOUND,
                    "character: no character at index " + std::to_string(index) + " (there are " +
                        std::to_string(world->world.characters().size()) + ")");
    world->error.clear();
    const fx::kcc::CharacterState& s = world->world.characters()[index];
    out->id = s.id;
    out->position = C(s.position);
    out->velocity = C(s.velocity);
    out->facing = s.facing.raw();
    out->grounded = s.grounded ? 1 : 0;
    out->halted = s.halted ? 1 : 0;
    out->ground_normal = C(s.ground_normal);
    out->ground_shape = s.ground_shape;
    out->platform = s.platform;
    return FXKCC_OK;
}

fxkcc_status fxkcc_world_render_position(const fxkcc_world* world, size_t index, fxkcc_fixed alpha,
                                         fxkcc_vec3* out) {
    if (world == nullptr) return FXKCC_INVALID_ARGUMENT;
    if (out == nullptr) return said(world, FXKCC_INVALID_ARGUMENT, "render_position: null output");
    if (alpha < 0 || alpha > FXKCC_ONE)
        return said(world, FXKCC_INVALID_ARGUMENT, "render_position: alpha outside [0, FXKCC_ONE]");
    if (index >= world->world.characters().size())
        return said(world, FXKCC_NOT_FOUND,
                    "render_position: no character at index " + std::to_string(index));
    world->error.clear();
    *out = C(world->world.render_position(index, S(alpha)));
    return FXKCC_OK;
}

fxkcc_status fxkcc_world_checksum(const fxkcc_world* world, uint64_t* out) {
    if (world == nullptr) return FXKCC_INVALID_ARGUMENT;
    if (out == nullptr) return said(world, FXKCC_INVALID_ARGUMENT, "checksum: null output");
    if (!world->built) return said(world, FXKCC_INVALID_STATE, "checksum: build the world first");
    world->error.clear();
    *out = world->world.checksum();
    return FXKCC_OK;
}

size_t fxkcc_world_snapshot_size(const fxkcc_world* world) {
    return world != nullptr && world->built ? world->world.snapshot_size() : 0;
}

fxkcc_status fxkcc_world_snapshot(fxkcc_world* world, uint8_t* buffer, size_t capacity) {
    return guarded(world, [&] {
        if (!world->built)
            return fail(world, FXKCC_INVALID_STATE, "snapshot: build the world first");
        const size_t size = world->world.snapshot_size();
        if (buffer == nullptr || capacity < size)
            return fail(world, FXKCC_INVALID_ARGUMENT,
                        "snapshot: a buffer of " + std::to_string(size) + " bytes is needed");
        world->world.snapshot(&world->snapshot);
        std::memcpy(buffer, world->snapshot.data(), size);
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_restore(fxkcc_world* world, const uint8_t* bytes, size_t size) {
    return guarded(world, [&] {
        if (!world->built)
            return fail(world, FXKCC_INVALID_STATE, "restore: build the world first");
        if (bytes == nullptr && size > 0)
            return fail(world, FXKCC_INVALID_ARGUMENT, "restore: null bytes");
        std::string why;
        if (!world->world.restore({bytes, size}, &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, why);
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_record(fxkcc_world* world) {
    return guarded(world, [&] {
        if (!world->built) return fail(world, FXKCC_INVALID_STATE, "record: build the world first");
        if (world->world.tick() != 0)
            return fail(world, FXKCC_INVALID_STATE,
                        "record: a recording starts at tick 0, the world is at tick " +
                            std::to_string(world->world.tick()));
        auto recorder = std::make_unique<fx::kcc::Recorder>();
        std::string why;
        if (!world->world.set_recorder(recorder.get(), &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, why);
        world->recorder = std::move(recorder); // the one it replaces detached itself from the world
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_write_recording(fxkcc_world* world, const char* folder, const char* name) {
    return guarded(world, [&] {
        if (world->recorder == nullptr)
            return fail(world, FXKCC_INVALID_STATE, "write_recording: not recording");
        if (folder == nullptr || name == nullptr)
            return fail(world, FXKCC_INVALID_ARGUMENT, "write_recording: null folder or name");
        std::string why;
        if (!world->recorder->write(folder, name, &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, why);
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_recording_files(fxkcc_world* world, const char* name, size_t* count) {
    return guarded(world, [&] {
        if (world->recorder == nullptr)
            return fail(world, FXKCC_INVALID_STATE, "recording_files: not recording");
        if (name == nullptr || count == nullptr)
            return fail(world, FXKCC_INVALID_ARGUMENT, "recording_files: null name or count");
        std::string why;
        std::vector<fx::kcc::RecordedFile> files;
        if (!world->recorder->files(name, &files, &why))
            return fail(world, FXKCC_INVALID_ARGUMENT, why);
        world->recording = std::move(files);
        *count = world->recording.size();
        return FXKCC_OK;
    });
}

fxkcc_status fxkcc_world_recording_file(fxkcc_world* world, size_t index, const char** path,
                                        const char** text) {
    return guarded(world, [&] {
        if (path == nullptr || text == nullptr)
            return fail(world, FXKCC_INVALID_ARGUMENT, "recording_file: null path or text");
        if (index >= world->recording.size())
            return fail(world, FXKCC_INVALID_ARGUMENT,
                        "recording_file: no file " + std::to_string(index) +
                            " (the recording has " + std::to_string(world->recording.size()) + ")");
        *path = world->recording[index].path.c_str();
        *text = world->recording[index].text.c_str();
        return FXKCC_OK;
    });
}

} // extern "C"
