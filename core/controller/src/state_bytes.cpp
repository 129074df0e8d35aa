#include "kcc/state_bytes.h"

#include <type_traits>

namespace fx::kcc {

namespace {

struct Writer {
    uint8_t* p;
    void u8(uint8_t v) { *p++ = v; }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i)
            *p++ = static_cast<uint8_t>(v >> (8 * i));
    }
    void i64(int64_t raw) {
        const uint64_t v = static_cast<uint64_t>(raw);
        for (int i = 0; i < 8; ++i)
            *p++ = static_cast<uint8_t>(v >> (8 * i));
    }
    void s(Scalar v) { i64(v.raw()); }
    void i32(int v) { u32(static_cast<uint32_t>(v)); }
    void v3(const Vec3& v) {
        s(v.x);
        s(v.y);
        s(v.z);
    }
};

struct Reader {
    const uint8_t* p;
    uint8_t u8() { return *p++; }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
            v |= static_cast<uint32_t>(*p++) << (8 * i);
        return v;
    }
    int i32() { return static_cast<int>(static_cast<int32_t>(u32())); }
    Scalar s() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= static_cast<uint64_t>(*p++) << (8 * i);
        return Scalar::from_raw(static_cast<int64_t>(v));
    }
    Vec3 v3() {
        const Scalar x = s();
        const Scalar y = s();
        const Scalar z = s();
        return {x, y, z};
    }
};

} // namespace

std::array<uint8_t, kStateBytes> serialize_state(const CharacterState& st) {
    std::array<uint8_t, kStateBytes> out{};
    Writer w{out.data()};
    w.u8(kStateBytesVersion);
    w.u32(st.id);
    w.v3(st.position);
    w.v3(st.velocity);
    w.s(st.facing);
    w.u8(static_cast<uint8_t>((st.grounded ? 1 : 0) | (st.halted ? 2 : 0)));
    w.v3(st.ground_normal);
    w.u32(st.ground_shape);
    w.u32(st.platform);
    w.v3(st.previous_position);
    w.s(st.previous_facing);
    w.s(st.run_speed);
    w.s(st.step_hold);
    return out;
}

bool deserialize_state(std::span<const uint8_t> bytes, CharacterState* out) {
    if (bytes.size() != kStateBytes || bytes[0] != kStateBytesVersion) return false;
    Reader r{bytes.data() + 1};
    CharacterState st;
    st.id = r.u32();
    st.position = r.v3();
    st.velocity = r.v3();
    st.facing = r.s();
    const uint8_t flags = r.u8();
    st.grounded = (flags & 1) != 0;
    st.halted = (flags & 2) != 0;
    st.ground_normal = r.v3();
    st.ground_shape = r.u32();
    st.platform = r.u32();
    st.previous_position = r.v3();
    st.previous_facing = r.s();
    st.run_speed = r.s();
    st.step_hold = r.s();
    *out = st;
    return true;
}

namespace {
// One list of the fields for both directions: f(scalar...) / f(int...) / f(bool) in order.
template <class S, class F> void settings_fields(S& s, F&& f) {
    f(s.radius);
    f(s.height);
    f(s.skin);
    f(s.max_slope_enter_deg);
    f(s.max_slope_stay_deg);
    f(s.probe_distance);
    f(s.probe_skin);
    f(s.probe_max_hits);
    f(s.snap_distance);
    f(s.depenetration_cap);
    f(s.max_slide_iterations);
    f(s.step_height);
    f(s.step_min_forward);
    f(s.max_speed);
    f(s.ground_accel);
    f(s.ground_brake);
    f(s.air_accel);
    f(s.jump_speed);
    f(s.gravity);
    f(s.dead_zone);
    f(s.turn_rate_deg);
    f(s.collide_characters);
    f(s.tick_rate_hz);
    f(s.max_ticks_per_frame);
}
} // namespace

std::array<uint8_t, kSettingsBytes> serialize_settings(const Settings& settings) {
    std::array<uint8_t, kSettingsBytes> out{};
    Writer w{out.data()};
    settings_fields(settings, [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Scalar>)
            w.s(v);
        else if constexpr (std::is_same_v<T, bool>)
            w.u8(v ? 1 : 0);
        else
            w.i32(v);
    });
    return out;
}

bool deserialize_settings(std::span<const uint8_t> bytes, Settings* out) {
    if (bytes.size() != kSettingsBytes) return false;
    Reader r{bytes.data()};
    Settings settings;
    bool ok = true;
    settings_fields(settings, [&](auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Scalar>)
            v = r.s();
        else if constexpr (std::is_same_v<T, bool>) {
            const uint8_t b = r.u8();
            ok = ok && b <= 1;
            v = b == 1;
        } else
            v = r.i32();
    });
    if (!ok) return false;
    *out = settings;
    return true;
}

} // namespace fx::kcc
