// Fault injection: flips bits of one state field of one character after a tick, so that the
// desync tools can be tested against a desync whose tick, character and field are known.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kcc/state.h"
#include "kcc/world.h"

namespace fx::harness {

/// Flips the `bits` lowest bits of one scalar field (a state_fields() name such as "x", "vz",
/// "facing") of one character right after tick `tick` was computed, before it is hashed.
struct Fault {
    int64_t tick = -1;
    uint32_t character = 0;
    std::string field;
    int bits = 1; ///< 1..64
};

/// Scalar fields a fault can target (state_fields() order).
std::vector<std::string> fault_fields();
/// "TICK:CHARACTER:FIELD:BITS", e.g. "57:1:vx:3". Errors say what was expected.
bool parse_fault(std::string_view text, Fault* out, std::string* error);
/// Flips the bits; false (with *error) when the field is not a scalar field.
bool apply_fault(const Fault& fault, kcc::CharacterState* state, std::string* error);
/// The same on the world's character; false (with *error: "the <what> names character N, which
/// the scenario does not have") when the world has no such character.
bool apply_fault(const Fault& fault, kcc::World* world, const char* what, std::string* error);

} // namespace fx::harness
