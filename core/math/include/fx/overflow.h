// The one hook through which the numeric layer reports arithmetic overflow.
//
// Overflow is never undefined behaviour here. What happens depends on the build:
//   - FX_CHECKED=1 (CMake option FX_CHECKED): every operation that can overflow checks, and on
//     overflow calls the installed handler with the operation's name ("Scalar::mul", ...).
//     The default handler prints "fx: arithmetic overflow in <op>" to stderr and aborts.
//     Tests install a handler that throws.
//   - FX_CHECKED=0 (default): results wrap modulo 2^64 (two's complement) and nothing is
//     reported. Scenario loading enforces bounds (docs/numeric.md) so a valid scenario never
//     gets there; the checked build proves it.
// Division by zero is reported in both builds (it is always a programmer error); if the handler
// returns, the quotient saturates to the largest magnitude with the dividend's sign.
#pragma once

#ifndef FX_CHECKED
#define FX_CHECKED 0
#endif

namespace fx {

using OverflowHandler = void (*)(const char* operation);

/// Installs a handler and returns the previous one. nullptr restores the default.
OverflowHandler set_overflow_handler(OverflowHandler handler) noexcept;

/// Calls the installed handler. The default handler does not return.
void report_overflow(const char* operation);

/// True in builds configured with FX_CHECKED.
inline constexpr bool kChecked = FX_CHECKED != 0;

/// Reports `operation` when `overflowed` is true and this is a checked build.
constexpr void check_overflow(bool overflowed, const char* operation) {
    if (kChecked && overflowed) report_overflow(operation);
}

} // namespace fx
