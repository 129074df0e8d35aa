/* fxkcc.h: the C API of the fxkcc controller (docs/embedding.md).
 *
 * A thin layer over the C++ controller (fx::kcc::World) for bindings: C#/Unity, Godot, Rust,
 * JavaScript. Opaque handles, status codes with error text, no exceptions and no C++ types
 * across the boundary.
 *
 * Numbers are fixed point: fxkcc_fixed is a Q31.32 raw value (the real value times 2^32), the
 * bits the controller computes with. Everything that goes in as fxkcc_fixed is deterministic.
 * fxkcc_fixed_from_double() and fxkcc_fixed_to_double() are the one place where floating point
 * meets the controller (fxkcc_fixed_from_decimal, exact, is the other way in): a game that feeds
 * the simulation from doubles (stick axes from a
 * gamepad, level coordinates from an editor) gets identical results on every machine only if
 * those doubles are identical on every machine. Convert once, at the boundary, and keep and
 * send the fixed values (inputs, level data) rather than recomputing them per machine.
 *
 * Ownership: fxkcc_world_create() returns a world the caller owns and releases with
 * fxkcc_world_destroy(). Pointers passed in (vertex and index arrays, waypoints, inputs,
 * settings) are read during the call only; nothing is kept. Strings returned (error text,
 * status names) belong to the library: an error text stays valid until the next call on the
 * same world. A world is not thread-safe; distinct worlds may be used from distinct threads.
 *
 * Order of use: create; add shapes, platforms and characters; build; then step and read, tick
 * by tick. Characters are kept in ascending id order: index i in fxkcc_world_character() and
 * in the inputs of fxkcc_world_step() is the i-th smallest id.
 */
#ifndef FXKCC_H
#define FXKCC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library version (fxkcc_version(): major << 16 | minor << 8 | patch) and the behaviour
 * version of the controller's results (fxkcc_behaviour_version()). */
#define FXKCC_VERSION_MAJOR 0
#define FXKCC_VERSION_MINOR 1
#define FXKCC_VERSION_PATCH 0

/* Q31.32 fixed point: value * 2^32. FXKCC_FIXED(3) is 3.0. */
typedef int64_t fxkcc_fixed;
#define FXKCC_ONE ((fxkcc_fixed)1 << 32)
#define FXKCC_FIXED(integer) ((fxkcc_fixed)(integer)*FXKCC_ONE)

typedef struct fxkcc_vec3 {
    fxkcc_fixed x, y, z;
} fxkcc_vec3;

typedef enum fxkcc_status {
    FXKCC_OK = 0,
    FXKCC_INVALID_ARGUMENT =
        1, /* a null pointer, a value out of range, invalid settings or shapes */
    FXKCC_INVALID_STATE =
        2, /* adding shapes after build, stepping or changing before it, building twice */
    FXKCC_NOT_FOUND = 3, /* no character at that index or with that id */
    FXKCC_OUT_OF_MEMORY = 4,
    FXKCC_INTERNAL = 5
} fxkcc_status;

/* Per-character settings (docs/controller.md, "Settings"): lengths in m, angles in degrees,
 * speeds in m/s, accelerations in m/s^2. fxkcc_settings_default() fills the defaults. */
typedef struct fxkcc_settings {
    fxkcc_fixed radius, height, skin;
    fxkcc_fixed max_slope_enter_deg, max_slope_stay_deg;
    fxkcc_fixed probe_distance, probe_skin;
    int32_t probe_max_hits;
    fxkcc_fixed snap_distance, depenetration_cap;
    int32_t max_slide_iterations;
    fxkcc_fixed step_height, step_min_forward;
    fxkcc_fixed max_speed, ground_accel, ground_brake, air_accel, jump_speed, gravity;
    fxkcc_fixed dead_zone, turn_rate_deg;
    int32_t collide_characters; /* 0: a ghost, passes through every character */
    int32_t tick_rate_hz;
} fxkcc_settings;

/* One tick's input of one character: the stick (x right, y forward, each in [-1, 1]), a jump
 * press, and an impulse added to the velocity (m/s) before the solve. */
typedef struct fxkcc_input {
    fxkcc_fixed stick_x, stick_y;
    int32_t jump;
    fxkcc_vec3 impulse;
} fxkcc_input;

/* What a character is after a tick. position: the feet (the capsule's lowest point). */
typedef struct fxkcc_character_state {
    uint32_t id;
    fxkcc_vec3 position, velocity;
    fxkcc_fixed facing; /* radians */
    int32_t grounded, halted;
    fxkcc_vec3 ground_normal;
    uint32_t ground_shape; /* 0xFFFFFFFF: none; 0xFFFFFFFE: another character */
    uint32_t platform; /* the platform carrying it, 0xFFFFFFFF: none */
} fxkcc_character_state;

/* A platform's waypoint: its box centre reached at `tick`. */
typedef struct fxkcc_waypoint {
    fxkcc_vec3 center;
    int64_t tick;
} fxkcc_waypoint;

typedef struct fxkcc_world fxkcc_world;

uint32_t fxkcc_version(void);
int32_t fxkcc_behaviour_version(void);
/* "ok", "invalid argument", ...; "unknown status" for a value outside the enumeration. */
const char* fxkcc_status_name(fxkcc_status status);

/* The boundary conversions (see the top of this file). Rounded to the nearest raw value, a
 * tie away from zero, in integer arithmetic (not the C library's llround, which differs between
 * targets); NaN gives 0 and values beyond the range saturate. */
fxkcc_fixed fxkcc_fixed_from_double(double value);
double fxkcc_fixed_to_double(fxkcc_fixed value);

/* Exact decimal text to fixed point ("0.015", "-2.5e3"): the rational value rounded to the
 * nearest raw value, ties to even, never through floating point; the scenario files' reader.
 * The deterministic way in for level data and tuning values. FXKCC_INVALID_ARGUMENT, *out
 * untouched, for anything else (empty, NaN, hexadecimal, trailing characters, out of range). */
fxkcc_status fxkcc_fixed_from_decimal(const char* text, fxkcc_fixed* out);

void fxkcc_settings_default(fxkcc_settings* out);

fxkcc_status fxkcc_world_create(fxkcc_world** out);
void fxkcc_world_destroy(fxkcc_world* world); /* null: nothing */
/* Why the last call on this world failed ("" after a success). */
const char* fxkcc_world_error(const fxkcc_world* world);

/* Static shapes (before build). Ids are unique across shapes and platforms; 0xFFFFFFFE and
 * 0xFFFFFFFF are reserved. Box rotation: yaw, pitch, roll in degrees (R = Ry Rx Rz). Plane:
 * the points p with dot(normal, p) = offset, solid below (normal unit). Mesh: `index_count`
 * indices, three per triangle. Shapes are checked when the world is built. */
fxkcc_status fxkcc_world_add_box(fxkcc_world* world, uint32_t id, fxkcc_vec3 center,
                                 fxkcc_vec3 half_extents, fxkcc_fixed yaw_deg,
                                 fxkcc_fixed pitch_deg, fxkcc_fixed roll_deg);
fxkcc_status fxkcc_world_add_sphere(fxkcc_world* world, uint32_t id, fxkcc_vec3 center,
                                    fxkcc_fixed radius);
fxkcc_status fxkcc_world_add_capsule(fxkcc_world* world, uint32_t id, fxkcc_vec3 a, fxkcc_vec3 b,
                                     fxkcc_fixed radius);
fxkcc_status fxkcc_world_add_plane(fxkcc_world* world, uint32_t id, fxkcc_vec3 normal,
                                   fxkcc_fixed offset);
fxkcc_status fxkcc_world_add_mesh(fxkcc_world* world, uint32_t id, const fxkcc_vec3* vertices,
                                  size_t vertex_count, const uint32_t* indices, size_t index_count);
/* A moving box following its waypoints (ticks strictly increasing), looping after the last. */
fxkcc_status fxkcc_world_add_platform(fxkcc_world* world, uint32_t id, fxkcc_vec3 half_extents,
                                      fxkcc_fixed yaw_deg, fxkcc_fixed pitch_deg,
                                      fxkcc_fixed roll_deg, const fxkcc_waypoint* waypoints,
                                      size_t waypoint_count);
/* A character standing at `feet`; settings null: the defaults. Before build, or between ticks
 * after it (a character joining: it starts at rest on whatever is under its feet, and takes its
 * place in ascending id order, so the input index of every character with a larger id moves up). */
fxkcc_status fxkcc_world_add_character(fxkcc_world* world, uint32_t id, fxkcc_vec3 feet,
                                       const fxkcc_settings* settings);
fxkcc_status fxkcc_world_build(fxkcc_world* world);

/* Runtime changes, between ticks after build (docs/embedding.md, "Runtime changes"):
 * FXKCC_NOT_FOUND for an unknown id, FXKCC_INVALID_ARGUMENT for invalid settings or feet outside
 * the working volume (the world unchanged). A character leaving (the indices of larger ids move
 * down); new settings from the next tick on (null: the defaults); a teleport, as if the body had
 * spawned at `feet` (at rest, facing kept, no render interpolation across it). */
fxkcc_status fxkcc_world_remove_character(fxkcc_world* world, uint32_t id);
fxkcc_status fxkcc_world_set_settings(fxkcc_world* world, uint32_t id,
                                      const fxkcc_settings* settings);
fxkcc_status fxkcc_world_teleport(fxkcc_world* world, uint32_t id, fxkcc_vec3 feet);

/* One tick. inputs[i] is the input of the i-th character (ascending id); characters beyond
 * `count` are idle. inputs may be null when count is 0. */
fxkcc_status fxkcc_world_step(fxkcc_world* world, const fxkcc_input* inputs, size_t count);

int64_t fxkcc_world_tick(const fxkcc_world* world); /* ticks stepped since build */
size_t fxkcc_world_character_count(const fxkcc_world* world);
fxkcc_status fxkcc_world_character(const fxkcc_world* world, size_t index,
                                   fxkcc_character_state* out);
/* The pose to draw between the last two ticks: alpha in [0, 1] (FXKCC_ONE: the last tick). */
fxkcc_status fxkcc_world_render_position(const fxkcc_world* world, size_t index, fxkcc_fixed alpha,
                                         fxkcc_vec3* out);

/* The checksum of the tick just stepped: XXH3-64 of every character's and platform's canonical
 * bytes, the world hash the goldens record for that tick (docs/formats.md). */
fxkcc_status fxkcc_world_checksum(const fxkcc_world* world, uint64_t* out);

/* Snapshots (docs/embedding.md, "Snapshots and rollback"): everything that decides the next
 * tick, as bytes that are the same on every machine. fxkcc_world_snapshot writes
 * fxkcc_world_snapshot_size() bytes into `buffer` (FXKCC_INVALID_ARGUMENT when `capacity` is
 * smaller); fxkcc_world_restore puts the world back to a snapshot of it, or refuses (with the
 * reason in fxkcc_world_error) and leaves the world as it was. */
size_t fxkcc_world_snapshot_size(const fxkcc_world* world);
fxkcc_status fxkcc_world_snapshot(fxkcc_world* world, uint8_t* buffer, size_t capacity);
fxkcc_status fxkcc_world_restore(fxkcc_world* world, const uint8_t* bytes, size_t size);

/* Recording (docs/embedding.md, "Recording a session"): fxkcc_world_record starts recording the
 * world (its level, characters, every input, runtime change, snapshot and restore) at tick 0
 * after build (FXKCC_INVALID_STATE otherwise; FXKCC_INVALID_ARGUMENT for a level a scenario
 * cannot hold); called again at tick 0, it starts over. fxkcc_world_write_recording writes what
 * was recorded as a scenario that `fxkcc run` replays to the same checksum at every tick: the
 * files `<name>.yaml`, `<name>.c<id>.csv` and `<name>.checksums` into the existing folder
 * `folder`.
 * FXKCC_INVALID_STATE when not recording; FXKCC_INVALID_ARGUMENT, with nothing written, for a
 * name that is not a scenario name ([a-z0-9][a-z0-9._-]*, at most 64 characters), a recording a
 * scenario cannot hold (see fxkcc_world_error) or a folder it cannot write to. */
fxkcc_status fxkcc_world_record(fxkcc_world* world);
fxkcc_status fxkcc_world_write_recording(fxkcc_world* world, const char* folder, const char* name);
/* The same files in memory (a browser has no folder to write to): fxkcc_world_recording_files
 * makes them and sets *count (the scenario first, the checksum file last; errors as
 * fxkcc_world_write_recording's); fxkcc_world_recording_file gives file `index`'s path and text
 * (NUL-terminated, owned by the world, valid until the next fxkcc_world_recording_files or the
 * world's destruction; FXKCC_INVALID_ARGUMENT for an index >= the count). */
fxkcc_status fxkcc_world_recording_files(fxkcc_world* world, const char* name, size_t* count);
fxkcc_status fxkcc_world_recording_file(fxkcc_world* world, size_t index, const char** path,
                                        const char** text);

#ifdef __cplusplus
}
#endif

#endif /* FXKCC_H */
