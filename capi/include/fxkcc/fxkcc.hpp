// The controller for C++17 (and later): a header-only C++ interface over the C API (fxkcc.h), for
// engines that build with C++17. The controller's own headers (<fxkcc/kcc/world.h>, ...) need
// C++20; this one needs C++17 and links fxkcc::c (or fxkcc::c_shared). The same bits as the C++
// controller: it is the same library underneath (docs/embedding.md, "C++17").
//
//   fxkcc::World world;
//   world.add_box(1, fxkcc::vec3("0", "-0.5", "0"), fxkcc::vec3("30", "0.5", "30"));
//   world.add_character(7, fxkcc::vec3("0", "0.015", "0"));
//   world.build();
//   std::vector<fxkcc_input> inputs(world.character_count());
//   inputs[0].stick_y = fxkcc::ONE;
//   world.step(inputs);
//   uint64_t sum = world.checksum();
//
// Every failure throws fxkcc::Error with the status and the library's text.
#ifndef FXKCC_HPP
#define FXKCC_HPP

#include <fxkcc.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fxkcc {

/// 1.0 as a raw Q31.32 value.
constexpr fxkcc_fixed ONE = FXKCC_ONE;

class Error : public std::runtime_error {
public:
    Error(fxkcc_status status, const std::string& what)
        : std::runtime_error(what), status_(status) {}
    fxkcc_status status() const noexcept { return status_; }

private:
    fxkcc_status status_;
};

/// Exact decimal text ("0.015", "-2.5e3") to its raw value, never through floating point;
/// throws Error for anything else.
inline fxkcc_fixed fixed_from_decimal(const char* text) {
    fxkcc_fixed raw = 0;
    const fxkcc_status st = fxkcc_fixed_from_decimal(text, &raw);
    if (st != FXKCC_OK)
        throw Error(st, std::string("not a decimal number: '") + (text ? text : "(null)") + "'");
    return raw;
}
/// The float boundary: a double to the nearest raw value (NaN gives 0, beyond the range
/// saturates), and back for drawing.
inline fxkcc_fixed fixed_from_double(double value) {
    return fxkcc_fixed_from_double(value);
}
inline double fixed_to_double(fxkcc_fixed value) {
    return fxkcc_fixed_to_double(value);
}
/// A vector from three decimal texts (exact).
inline fxkcc_vec3 vec3(const char* x, const char* y, const char* z) {
    return fxkcc_vec3{fixed_from_decimal(x), fixed_from_decimal(y), fixed_from_decimal(z)};
}

/// KCC-SPEC's defaults, to change before add_character or set_settings.
inline fxkcc_settings default_settings() {
    fxkcc_settings s;
    fxkcc_settings_default(&s);
    return s;
}

/// One file of a recording: its name in the folder, and its text.
struct RecordedFile {
    std::string path, text;
};

/// A world (fxkcc_world), move-only; destroyed with it.
class World {
public:
    World() { check(fxkcc_world_create(&w_), "cannot create a world"); }
    ~World() { fxkcc_world_destroy(w_); }
    World(World&& o) noexcept : w_(std::exchange(o.w_, nullptr)) {}
    World& operator=(World&& o) noexcept {
        if (this != &o) {
            fxkcc_world_destroy(w_);
            w_ = std::exchange(o.w_, nullptr);
        }
        return *this;
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // ---- the level (before build) ----
    void add_box(uint32_t id, fxkcc_vec3 center, fxkcc_vec3 half_extents, fxkcc_fixed yaw_deg = 0,
                 fxkcc_fixed pitch_deg = 0, fxkcc_fixed roll_deg = 0) {
        check(fxkcc_world_add_box(w_, id, center, half_extents, yaw_deg, pitch_deg, roll_deg));
    }
    void add_sphere(uint32_t id, fxkcc_vec3 center, fxkcc_fixed radius) {
        check(fxkcc_world_add_sphere(w_, id, center, radius));
    }
    void add_capsule(uint32_t id, fxkcc_vec3 a, fxkcc_vec3 b, fxkcc_fixed radius) {
        check(fxkcc_world_add_capsule(w_, id, a, b, radius));
    }
    void add_plane(uint32_t id, fxkcc_vec3 normal, fxkcc_fixed offset) {
        check(fxkcc_world_add_plane(w_, id, normal, offset));
    }
    void add_mesh(uint32_t id, const std::vector<fxkcc_vec3>& vertices,
                  const std::vector<uint32_t>& indices) {
        check(fxkcc_world_add_mesh(w_, id, vertices.data(), vertices.size(), indices.data(),
                                   indices.size()));
    }
    void add_platform(uint32_t id, fxkcc_vec3 half_extents,
                      const std::vector<fxkcc_waypoint>& waypoints, fxkcc_fixed yaw_deg = 0,
                      fxkcc_fixed pitch_deg = 0, fxkcc_fixed roll_deg = 0) {
        check(fxkcc_world_add_platform(w_, id, half_extents, yaw_deg, pitch_deg, roll_deg,
                                       waypoints.data(), waypoints.size()));
    }

    // ---- characters (before build, or between ticks after it) ----
    void add_character(uint32_t id, fxkcc_vec3 feet) {
        check(fxkcc_world_add_character(w_, id, feet, nullptr));
    }
    void add_character(uint32_t id, fxkcc_vec3 feet, const fxkcc_settings& settings) {
        check(fxkcc_world_add_character(w_, id, feet, &settings));
    }
    void remove_character(uint32_t id) { check(fxkcc_world_remove_character(w_, id)); }
    void set_settings(uint32_t id, const fxkcc_settings& settings) {
        check(fxkcc_world_set_settings(w_, id, &settings));
    }
    void teleport(uint32_t id, fxkcc_vec3 feet) { check(fxkcc_world_teleport(w_, id, feet)); }

    void build() { check(fxkcc_world_build(w_)); }

    /// One tick: inputs[i] for the i-th character in ascending id; those beyond are idle.
    void step(const std::vector<fxkcc_input>& inputs) { step(inputs.data(), inputs.size()); }
    void step(const fxkcc_input* inputs, size_t count) {
        check(fxkcc_world_step(w_, inputs, count));
    }

    int64_t tick() const { return fxkcc_world_tick(w_); }
    size_t character_count() const { return fxkcc_world_character_count(w_); }
    fxkcc_character_state character(size_t index) const {
        fxkcc_character_state s;
        check(fxkcc_world_character(w_, index, &s));
        return s;
    }
    /// The pose to draw between the last two ticks, alpha in [0, ONE].
    fxkcc_vec3 render_position(size_t index, fxkcc_fixed alpha) const {
        fxkcc_vec3 p;
        check(fxkcc_world_render_position(w_, index, alpha, &p));
        return p;
    }
    /// The world hash the goldens record for the tick just stepped.
    uint64_t checksum() const {
        uint64_t sum = 0;
        check(fxkcc_world_checksum(w_, &sum));
        return sum;
    }

    // ---- rollback ----
    std::vector<uint8_t> snapshot() {
        std::vector<uint8_t> bytes(fxkcc_world_snapshot_size(w_));
        check(fxkcc_world_snapshot(w_, bytes.data(), bytes.size()));
        return bytes;
    }
    void restore(const std::vector<uint8_t>& bytes) {
        check(fxkcc_world_restore(w_, bytes.data(), bytes.size()));
    }

    // ---- recording (docs/embedding.md, "Recording a session") ----
    void record() { check(fxkcc_world_record(w_)); }
    void write_recording(const std::string& folder, const std::string& name) {
        check(fxkcc_world_write_recording(w_, folder.c_str(), name.c_str()));
    }
    std::vector<RecordedFile> recording(const std::string& name) {
        size_t count = 0;
        check(fxkcc_world_recording_files(w_, name.c_str(), &count));
        std::vector<RecordedFile> files;
        for (size_t i = 0; i < count; ++i) {
            const char* path = nullptr;
            const char* text = nullptr;
            check(fxkcc_world_recording_file(w_, i, &path, &text));
            files.push_back(RecordedFile{path, text});
        }
        return files;
    }

    /// The C API's handle, for what this class does not wrap.
    fxkcc_world* handle() const noexcept { return w_; }

private:
    void check(fxkcc_status st, const char* otherwise = nullptr) const {
        if (st == FXKCC_OK) return;
        const char* text = w_ != nullptr ? fxkcc_world_error(w_) : "";
        throw Error(st, std::string(fxkcc_status_name(st)) + ": " +
                            (text != nullptr && *text != '\0'
                                 ? text
                                 : (otherwise != nullptr ? otherwise : "")));
    }

    fxkcc_world* w_ = nullptr;
};

} // namespace fxkcc

#endif // FXKCC_HPP
