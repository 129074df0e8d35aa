// Exact conversion between decimal text and fixed point. Never goes through floating point.
//
// Parsing accepts: optional sign ('+' or '-'), decimal digits, optional '.' and fraction digits
// (at least one digit in total), optional exponent ('e' or 'E', optional sign, digits). The
// exact rational value is rounded to the nearest raw value (units of 2^-32), ties to even.
// Rejected, with a message saying what was wrong and the offending character's offset: empty
// text, NaN, inf, hexadecimal, missing digits, trailing characters, and values whose rounded
// result lies outside [Scalar::min_value(), Scalar::max_value()].
//
// Printing: to_string_shortest gives the shortest decimal that parses back to the same raw
// value (at most 10 fraction digits); to_string_exact gives the exact expansion (at most 32
// fraction digits); to_string_raw_hex gives the raw bits as 0x... two's complement.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "fx/scalar.h"

namespace fx {

struct DecimalResult {
    bool ok = false;
    Scalar value;
    /// When !ok: what was wrong, e.g. "expected a digit, found 'x'", "number out of range ...".
    std::string error;
    /// When !ok: offset into the text of the character the error is about.
    std::size_t error_offset = 0;
};

DecimalResult parse_decimal(std::string_view text);

std::string to_string_shortest(Scalar v);
/// Most characters to_chars_shortest writes: a sign, 10 whole digits, a point, 10 fraction digits.
inline constexpr std::size_t kMaxShortestChars = 22;
/// to_string_shortest's text written to out (room for kMaxShortestChars), no terminator; returns
/// how many characters it wrote. Integer arithmetic in 64 bits alone (the trajectory CSV's rows).
std::size_t to_chars_shortest(Scalar v, char* out);
std::string to_string_exact(Scalar v);
std::string to_string_raw_hex(Scalar v);

} // namespace fx
