#include "run/fault.h"

#include <algorithm>

#include "records/compare.h"

namespace fx::harness {

std::vector<std::string> fault_fields() {
    std::vector<std::string> out;
    for (const Field& f : state_fields(kcc::CharacterState{})) {
        if (f.is_scalar) out.push_back(f.name);
    }
    return out;
}

namespace {

Scalar* field_ref(kcc::CharacterState* s, const std::string& name) {
    if (name == "x") return &s->position.x;
    if (name == "y") return &s->position.y;
    if (name == "z") return &s->position.z;
    if (name == "vx") return &s->velocity.x;
    if (name == "vy") return &s->velocity.y;
    if (name == "vz") return &s->velocity.z;
    if (name == "facing") return &s->facing;
    if (name == "normal_x") return &s->ground_normal.x;
    if (name == "normal_y") return &s->ground_normal.y;
    if (name == "normal_z") return &s->ground_normal.z;
    if (name == "previous_x") return &s->previous_position.x;
    if (name == "previous_y") return &s->previous_position.y;
    if (name == "previous_z") return &s->previous_position.z;
    if (name == "previous_facing") return &s->previous_facing;
    if (name == "run_speed") return &s->run_speed;
    if (name == "step_hold") return &s->step_hold;
    return nullptr;
}

bool parse_u64(std::string_view t, uint64_t* out) {
    if (t.empty() || t.size() > 18) return false;
    uint64_t v = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    *out = v;
    return true;
}
} // namespace

bool parse_fault(std::string_view text, Fault* out, std::string* error) {
    const std::string what =
        "expected TICK:CHARACTER:FIELD:BITS (e.g. 57:1:vx:3), found '" + std::string(text) + "'";
    std::vector<std::string_view> parts;
    size_t pos = 0;
    for (;;) {
        const size_t c = text.find(':', pos);
        parts.push_back(
            text.substr(pos, c == std::string_view::npos ? std::string_view::npos : c - pos));
        if (c == std::string_view::npos) break;
        pos = c + 1;
    }
    uint64_t tick = 0, ch = 0, bits = 0;
    if (parts.size() != 4 || !parse_u64(parts[0], &tick) || !parse_u64(parts[1], &ch) ||
        !parse_u64(parts[3], &bits)) {
        *error = what;
        return false;
    }
    const std::vector<std::string> fields = fault_fields();
    if (std::find(fields.begin(), fields.end(), std::string(parts[2])) == fields.end()) {
        std::string list;
        for (const std::string& f : fields)
            list += (list.empty() ? "" : ", ") + f;
        *error = "unknown fault field '" + std::string(parts[2]) + "', expected one of: " + list;
        return false;
    }
    if (bits < 1 || bits > 64) {
        *error = "expected 1 to 64 bits to flip, found " + std::to_string(bits);
        return false;
    }
    if (ch > 0xFFFFFFFEu) {
        *error = what;
        return false;
    }
    out->tick = static_cast<int64_t>(tick);
    out->character = static_cast<uint32_t>(ch);
    out->field = std::string(parts[2]);
    out->bits = static_cast<int>(bits);
    return true;
}

bool apply_fault(const Fault& fault, kcc::CharacterState* state, std::string* error) {
    Scalar* f = field_ref(state, fault.field);
    if (f == nullptr) {
        *error = "unknown fault field '" + fault.field + "'";
        return false;
    }
    const uint64_t mask = fault.bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << fault.bits) - 1);
    *f = Scalar::from_raw(static_cast<int64_t>(static_cast<uint64_t>(f->raw()) ^ mask));
    return true;
}

bool apply_fault(const Fault& fault, kcc::World* world, const char* what, std::string* error) {
    kcc::CharacterState* s = world->find(fault.character);
    if (s == nullptr) {
        *error = std::string("the ") + what + " names character " +
                 std::to_string(fault.character) + ", which the scenario does not have";
        return false;
    }
    return apply_fault(fault, s, error);
}

} // namespace fx::harness
