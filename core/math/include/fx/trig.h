// Trigonometry in fixed point: integer algorithms of our own, never the platform's.
//
// Angles are radians (Scalar) unless a function says degrees. Every function is a pure function
// of its raw input bits: identical results on every target.
// Accuracy: measured against long double over dense sweeps in tests/math/trig_test.cpp; the
// worst-case errors in raw units (2^-32) are written next to each function.
#pragma once

#include "fx/scalar.h"

namespace fx {

/// pi, pi/2, 2*pi and pi/180 rounded to the nearest raw value.
extern const Scalar kPi;
extern const Scalar kHalfPi;
extern const Scalar kTwoPi;

struct SinCos {
    Scalar sin;
    Scalar cos;
};

Scalar sin(Scalar radians);
Scalar cos(Scalar radians);
SinCos sincos(Scalar radians);

/// Sine and cosine of an angle in degrees, with the range reduction done exactly in degrees
/// (so sincos_deg(90) is exactly (1, 0) and thresholds such as cos(55 deg) get one rounding).
SinCos sincos_deg(Scalar degrees);

/// Angle of the vector (x, y) in (-pi, pi]. atan2(0, 0) = 0.
Scalar atan2(Scalar y, Scalar x);
/// asin and acos of x; x is clamped to [-1, 1] first (normals can exceed 1 by rounding).
Scalar asin(Scalar x);
Scalar acos(Scalar x);

Scalar deg_to_rad(Scalar degrees);
Scalar rad_to_deg(Scalar radians);

} // namespace fx
