// Square roots in fixed point, built on the exact integer square root of fx/wide.h.
//
// Accuracy (proved in tests/math/sqrt_test.cpp, exhaustively on small inputs and by property
// on random large ones):
//   sqrt(x)       the exact square root rounded to the nearest raw value (error <= 0.5 raw).
//   sqrt_q64(n)   the same for a non-negative 128-bit value in units of 2^-64 (a sum of raw
//                 squares, e.g. a squared length), so large vectors need no pre-shift.
//   rsqrt(x)      1/sqrt(x) within 1 raw unit of the exact value (measured: see the test).
// Negative input to sqrt is a programmer error: reported through fx/overflow.h's hook in a
// checked build; the result is then 0 in every build. rsqrt(x <= 0) is reported and saturates.
#pragma once

#include "fx/scalar.h"

namespace fx {

namespace detail {

template <class B> constexpr int64_t sqrt_raw(int64_t raw) {
    if (raw <= 0) return 0;
    return static_cast<int64_t>(
        wide::isqrt_round<B>(B::shl(B::from_u64(static_cast<uint64_t>(raw)), kFracBits)));
}

template <class B> constexpr int64_t rsqrt_raw(int64_t raw) {
    // 1/sqrt(raw / 2^32) in raw units is 2^48 / sqrt(raw). Scale the radicand by 2^2k (k as large
    // as keeps it below 2^126) so that the integer square root carries ~62 significant bits,
    // then divide 2^(48+k) by it with one rounding.
    const int bits = 64 - std::countl_zero(static_cast<uint64_t>(raw));
    const int k = (126 - bits) / 2;
    const uint64_t root = wide::isqrt<B>(B::shl(B::from_u64(static_cast<uint64_t>(raw)), 2 * k));
    bool ovf = false;
    return div_wide_raw<B>(B::shl(B::from_u64(1), 48 + k), false, root, &ovf);
}

} // namespace detail

/// Square root, rounded to the nearest raw value. x >= 0.
constexpr Scalar sqrt(Scalar x) {
    check_overflow(x.raw() < 0, "fx::sqrt (negative argument)");
    return Scalar::from_raw(detail::sqrt_raw<wide::Default>(x.raw()));
}

/// Square root of a non-negative 128-bit quantity in units of 2^-64 (so that the result is in
/// raw units), rounded to nearest. Overflow when the root exceeds the Scalar range.
constexpr Scalar sqrt_q64(wide::Default::T n) {
    const uint64_t r = wide::isqrt_round<wide::Default>(n);
    check_overflow(r > static_cast<uint64_t>(INT64_MAX), "fx::sqrt_q64");
    return Scalar::from_raw(static_cast<int64_t>(r));
}

/// 1 / sqrt(x), x > 0, within one raw unit.
constexpr Scalar rsqrt(Scalar x) {
    if (x.raw() <= 0) {
        report_overflow("fx::rsqrt (non-positive argument)");
        return Scalar::max_value();
    }
    return Scalar::from_raw(detail::rsqrt_raw<wide::Default>(x.raw()));
}

} // namespace fx
