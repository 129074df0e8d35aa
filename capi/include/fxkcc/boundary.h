// The controller's two ways in from outside, for C++ as for C (fxkcc.h): exact decimal text,
// the deterministic one (the scenario files' reader), and the floating-point boundary, where a
// game's float or double world meets the fixed-point controller (docs/embedding.md, "Where
// floating point meets the controller"). Header-only over the C API: link fxkcc::c.
//
//   #include <fxkcc/boundary.h>
//   fx::Scalar skin = *fxkcc::from_decimal("0.015");      // exact, the same on every machine
//   fx::Scalar x = fxkcc::from_double(transform.x);        // rounded to the nearest raw value
//   double drawn = fxkcc::to_double(state.position.x);     // for drawing only
#ifndef FXKCC_BOUNDARY_H
#define FXKCC_BOUNDARY_H

#include <fxkcc.h>

#include <optional>
#include <string>

#include "fx/scalar.h"
#include "fx/vec3.h"

namespace fxkcc {

/// Decimal text ("0.015", "-2.5e3") to its nearest raw value, ties to even, never through
/// floating point; nullopt for anything else (empty, NaN, hexadecimal, trailing characters, out
/// of range).
inline std::optional<fx::Scalar> from_decimal(const char* text) {
    fxkcc_fixed raw = 0;
    if (text == nullptr || fxkcc_fixed_from_decimal(text, &raw) != FXKCC_OK) return std::nullopt;
    return fx::Scalar::from_raw(raw);
}
inline std::optional<fx::Scalar> from_decimal(const std::string& text) {
    return from_decimal(text.c_str());
}

/// A double to the nearest raw value (NaN gives 0; values beyond the range saturate). The same
/// double gives the same raw value everywhere; a double computed differently on two machines
/// does not: keep doubles out of anything the simulation reads, or quantize them once, here.
inline fx::Scalar from_double(double value) {
    return fx::Scalar::from_raw(fxkcc_fixed_from_double(value));
}
inline fx::Vec3 from_double(double x, double y, double z) {
    return {from_double(x), from_double(y), from_double(z)};
}

/// A raw value as the nearest double (for drawing, logging, a game's float physics).
inline double to_double(fx::Scalar value) {
    return fxkcc_fixed_to_double(value.raw());
}

} // namespace fxkcc

#endif // FXKCC_BOUNDARY_H
