// The numeric known-answer evaluator: runs one named operation on operands given as text and
// returns its results as text. The known-answer file tests/math/kat.txt drives it on every
// target, so the same few thousand operations prove bit-exactness everywhere. It lives in the
// library (not the tests) so that every target's build of the numeric layer compiles it.
//
// Operands and results are raw values (signed decimal integers, units of 2^-32) except for
// the decimal-text operations. Operations (operands -> results):
//   add sub mul div mul_div(3) min max         a b -> r
//   mul_int div_int                            a k(integer) -> r
//   neg abs floor ceil round trunc sqrt rsqrt  a -> r
//   sin cos asin acos deg_to_rad rad_to_deg    a -> r
//   atan2                                      y x -> r
//   sincos_deg                                 deg -> sin cos
//   dot                                        ax ay az bx by bz -> r
//   cross                                      ax ay az bx by bz -> rx ry rz
//   length length_sq                           x y z -> r
//   normalize                                  x y z -> ux uy uz
//   rotate_ypr          yaw pitch roll (degrees) vx vy vz -> rx ry rz
//   parse                                      text -> r   (or "error")
//   shortest exact                             a -> text
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fx::kat {

/// Evaluates `op` on `args`. Returns false with *error set for an unknown operation or
/// malformed operands; otherwise fills *results.
bool evaluate(std::string_view op, const std::vector<std::string>& args,
              std::vector<std::string>* results, std::string* error);

} // namespace fx::kat
