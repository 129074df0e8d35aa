// Trigonometry in fixed point: integer algorithms of our own, never the platform's.
//
// Angles are radians (Scalar) unless a function says degrees. Every function is a pure function
// of its raw input bits: identical results on every target.
// Accuracy: measured against long double over dense sweeps in tests/math/trig_test.cpp; the
// worst-case errors in raw units (2^-32) are written next to each function.
#pragma once

#include "fx/scalar.h"

namespace fx {

/// pi, pi/2 and 2*pi rounded to the nearest raw value.
extern const Scalar kPi;
extern const Scalar kHalfPi;
extern const Scalar kTwoPi;

struct SinCos {
    Scalar sin;
    Scalar cos;
};

// sin, cos, sincos: any input, |x| up to 2^31 rad (range reduction with pi/2 held to 127 bits).
// Worst-case error 0.5 raw + 2^-27: one rounding of an internal value within 2^-59 of the
// exact one, so correctly rounded unless the exact value lies within 2^-27 raw of a tie.
// Measured: 0.49999997 (sin), 0.4999999 (cos) raw, over 2^21 points in [-4pi, 4pi] and 0.8
// million over the whole raw range; every tested result was correctly rounded.
// sin(-x) == -sin(x) and cos(-x) == cos(x) bit for bit; sincos(x) == {sin(x), cos(x)}.
Scalar sin(Scalar radians);
Scalar cos(Scalar radians);
SinCos sincos(Scalar radians);

/// Sine and cosine of an angle in degrees, with the range reduction done exactly in degrees
/// (so sincos_deg(90) is exactly (1, 0) and thresholds such as cos(55 deg) get one rounding).
/// Worst-case error 0.5 raw + 2^-27; measured 0.4999998 raw. Exact 0 and +-1 at multiples of
/// 90 degrees; |sin| == |cos| bit for bit at odd multiples of 45 degrees.
SinCos sincos_deg(Scalar degrees);

/// Angle of the vector (x, y) in [-kPi, kPi]. atan2(0, 0) = 0.
/// Worst-case error 0.5 raw + 2^-27 for any inputs (the ratio is formed from the full raw
/// magnitudes); measured 0.4999994 raw. Exact: atan2(0, x < 0) == kPi, atan2(y > 0, 0) ==
/// kHalfPi, atan2(-y, x) == -atan2(y, x) bit for bit. Rounding to nearest gives -kPi (whose
/// magnitude exceeds pi by 0.48 raw) when the exact angle is within 0.022 raw of -pi, e.g.
/// atan2(-2^-32, -2^31).
Scalar atan2(Scalar y, Scalar x);
/// asin and acos of x; x is clamped to [-1, 1] first (normals can exceed 1 by rounding).
/// Worst-case error for an exact input: 0.5 raw + 2^-27 (1 - x^2 is exact in 128 bits, so
/// there is no loss near +-1); measured 0.4999995 (asin), 0.4999998 (acos) raw. Near +-1 the
/// functions amplify input error: acos(1) == 0 but acos(1 - 2^-32) is 92682 raw.
/// Exact: asin(+-1) == +-kHalfPi, acos(1) == 0, acos(-1) == kPi, acos(0) == kHalfPi.
Scalar asin(Scalar x);
Scalar acos(Scalar x);

/// degrees * pi/180 with a 123-bit constant and one rounding, half away from zero: error
/// 0.5 raw + 2^-60; measured 0.4999993 raw. Never overflows. deg_to_rad(180) == kPi.
Scalar deg_to_rad(Scalar degrees);
/// radians * 180/pi with a 128-bit constant and one rounding, half away from zero: error
/// 0.5 raw + 2^-60; measured 0.499995 raw. Overflows (fx/overflow.h) for |radians| above
/// about 3.748e7.
Scalar rad_to_deg(Scalar radians);

} // namespace fx
