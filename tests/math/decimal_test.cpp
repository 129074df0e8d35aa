// Decimal text <-> Q31.32: known values derived by hand or with plain integer arithmetic here,
// every rejected input class with its exact message and offset, ties to even at constructed
// midpoints, long and extreme inputs, and random properties checked against references built
// in this file (exact dyadic expansions in base 10^9 limbs, decimal string comparison and
// rounding), independent of the algorithms in decimal.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fx/decimal.h"
#include "fx/scalar.h"
#include "test_support.h"

using fx::parse_decimal;
using fx::Scalar;
using fx::to_string_exact;
using fx::to_string_raw_hex;
using fx::to_string_shortest;

using fxtest::kOne;
using fxtest::R;

namespace {

constexpr uint64_t kMask32 = 0xffffffffull;

/// num / den rounded to nearest, ties to even (den < 2^63).
uint64_t round_even(uint64_t num, uint64_t den) {
    uint64_t q = num / den;
    const uint64_t r = num % den;
    if (2 * r > den || (2 * r == den && (q & 1) != 0)) ++q;
    return q;
}

/// Parses text that must be accepted and returns the raw value.
int64_t raw_of(std::string_view text) {
    const fx::DecimalResult r = parse_decimal(text);
    INFO("text: " << text << "  error: " << r.error << " at " << r.error_offset);
    REQUIRE(r.ok);
    return r.value.raw();
}

void check_rejected(std::string_view text, const std::string& message, std::size_t offset) {
    const fx::DecimalResult r = parse_decimal(text);
    INFO("text: \"" << text << "\"");
    CHECK_FALSE(r.ok);
    CHECK(r.error == message);
    CHECK(r.error_offset == offset);
}

/// Exact decimal expansion of int_part + frac / 2^shift (frac < 2^shift, shift <= 40): the
/// fraction is frac * 5^shift / 10^shift, with frac * 5^shift built in base 10^9 limbs.
std::string dyadic_decimal(bool negative, uint64_t int_part, uint64_t frac, int shift) {
    constexpr uint64_t kBase = 1000000000ull;
    std::vector<uint64_t> limbs; // little endian, base 10^9
    for (uint64_t f = frac; f != 0; f /= kBase)
        limbs.push_back(f % kBase);
    for (int i = 0; i < shift; ++i) {
        uint64_t carry = 0;
        for (uint64_t& l : limbs) {
            const uint64_t t = l * 5 + carry;
            l = t % kBase;
            carry = t / kBase;
        }
        if (carry != 0) limbs.push_back(carry);
    }
    std::string digits; // frac * 5^shift in decimal, big endian, zero-padded limbs
    for (auto it = limbs.rbegin(); it != limbs.rend(); ++it) {
        std::string part = std::to_string(*it);
        digits += std::string(9 - part.size(), '0') + part;
    }
    while (digits.size() > static_cast<std::size_t>(shift) && digits.front() == '0')
        digits.erase(0, 1);
    if (digits.size() < static_cast<std::size_t>(shift)) {
        digits.insert(0, static_cast<std::size_t>(shift) - digits.size(), '0');
    }
    while (!digits.empty() && digits.back() == '0')
        digits.pop_back();
    std::string out = negative && (int_part != 0 || frac != 0) ? "-" : "";
    out += std::to_string(int_part);
    if (!digits.empty()) out += "." + digits;
    return out;
}

/// Exact expansion of a raw value, the reference for to_string_exact.
std::string exact_reference(int64_t raw) {
    const uint64_t mag = fx::wide::uabs(raw);
    return dyadic_decimal(raw < 0, mag >> 32, mag & kMask32, 32);
}

/// Exact expansion of (2a + 1) / 2^33 and (2a - 1) / 2^33, the midpoints around raw magnitude a
/// (in raw units), written without overflowing 64 bits.
std::string midpoint_above(uint64_t a) {
    return dyadic_decimal(false, a >> 32, ((a & kMask32) << 1) | 1, 33);
}
std::string midpoint_below(uint64_t a) { // a >= 1
    if ((a & kMask32) != 0) return dyadic_decimal(false, a >> 32, ((a & kMask32) << 1) - 1, 33);
    return dyadic_decimal(false, (a >> 32) - 1, (uint64_t{1} << 33) - 1, 33);
}

struct Plain {
    std::string int_part; // no leading zeros ("" for zero)
    std::string frac; // no trailing zeros
};

Plain split_plain(std::string_view s) { // non-negative, no exponent
    Plain p;
    const std::size_t dot = s.find('.');
    p.int_part = std::string(s.substr(0, dot));
    if (dot != std::string_view::npos) p.frac = std::string(s.substr(dot + 1));
    while (!p.int_part.empty() && p.int_part.front() == '0')
        p.int_part.erase(0, 1);
    while (!p.frac.empty() && p.frac.back() == '0')
        p.frac.pop_back();
    return p;
}

/// Numeric comparison of two non-negative plain decimals: -1, 0 or 1.
int compare_plain(std::string_view x, std::string_view y) {
    const Plain a = split_plain(x);
    const Plain b = split_plain(y);
    if (a.int_part.size() != b.int_part.size())
        return a.int_part.size() < b.int_part.size() ? -1 : 1;
    if (a.int_part != b.int_part) return a.int_part < b.int_part ? -1 : 1;
    const std::size_t n = std::max(a.frac.size(), b.frac.size());
    const std::string fa = a.frac + std::string(n - a.frac.size(), '0');
    const std::string fb = b.frac + std::string(n - b.frac.size(), '0');
    return fa == fb ? 0 : (fa < fb ? -1 : 1);
}

/// A digit string with a decimal point after `point` digits (point may be negative or beyond
/// the digits), as a plain non-negative decimal.
std::string place_point(const std::string& digits, int64_t point) {
    std::string ip;
    std::string fp;
    const auto n = static_cast<int64_t>(digits.size());
    if (point <= 0) {
        fp = std::string(static_cast<std::size_t>(-point), '0') + digits;
    } else if (point >= n) {
        ip = digits + std::string(static_cast<std::size_t>(point - n), '0');
    } else {
        ip = digits.substr(0, static_cast<std::size_t>(point));
        fp = digits.substr(static_cast<std::size_t>(point));
    }
    return (ip.empty() ? "0" : ip) + (fp.empty() ? "" : "." + fp);
}

/// Rounds a plain signed decimal to k fraction digits, ties to an even last digit, and writes
/// it in the canonical form (no trailing zeros, no "-0").
std::string round_plain_even(std::string_view s, std::size_t k) {
    const bool negative = !s.empty() && s.front() == '-';
    if (negative) s.remove_prefix(1);
    const std::size_t dot = s.find('.');
    const std::string ip(s.substr(0, dot));
    std::string fp = dot == std::string_view::npos ? "" : std::string(s.substr(dot + 1));
    if (fp.size() < k) fp.append(k - fp.size(), '0');
    std::string kept = ip + fp.substr(0, k);
    const std::string dropped = fp.substr(k);
    bool up = false;
    if (!dropped.empty()) {
        const bool rest_zero = dropped.find_first_not_of('0', 1) == std::string::npos;
        up =
            dropped[0] > '5' || (dropped[0] == '5' && (!rest_zero || (kept.back() - '0') % 2 == 1));
    }
    if (up) {
        std::size_t i = kept.size();
        while (i > 0 && kept[i - 1] == '9')
            kept[--i] = '0';
        if (i == 0) {
            kept.insert(0, "1");
        } else {
            ++kept[i - 1];
        }
    }
    std::string int_digits = kept.substr(0, kept.size() - k);
    std::string frac_digits = kept.substr(kept.size() - k);
    while (int_digits.size() > 1 && int_digits.front() == '0')
        int_digits.erase(0, 1);
    while (!frac_digits.empty() && frac_digits.back() == '0')
        frac_digits.pop_back();
    const bool zero = int_digits == "0" && frac_digits.empty();
    return (negative && !zero ? "-" : "") + int_digits +
           (frac_digits.empty() ? "" : "." + frac_digits);
}

/// Collects the first few failures of a bulk check so one CHECK reports them.
struct Failures {
    std::size_t count = 0;
    std::vector<std::string> first;
    void add(std::string what) {
        if (count++ < 8) first.push_back(std::move(what));
    }
    void report() const {
        for (const auto& f : first)
            UNSCOPED_INFO(f);
        CHECK(count == 0);
    }
};

const std::string kRangeSuffix = " is outside [-2147483648, 2147483647.9999999998]";

} // namespace

TEST_CASE("decimal: known values", "[decimal]") {
    CHECK(raw_of("0") == 0);
    CHECK(raw_of("1") == kOne);
    CHECK(raw_of("-1") == -kOne);
    CHECK(raw_of("+1") == kOne);
    CHECK(raw_of("0.5") == kOne / 2);
    CHECK(raw_of("-0.25") == -kOne / 4);
    CHECK(raw_of("2") == 2 * kOne);
    CHECK(raw_of("000123.4500") == raw_of("123.45"));
    // 0.015 * 2^32 = 15 * 2^32 / 1000 = 64424509.44 -> 64424509
    CHECK(raw_of("0.015") == static_cast<int64_t>(round_even(15 * (uint64_t{1} << 32), 1000)));
    CHECK(raw_of("0.015") == 64424509);
    // 0.1 * 2^32 = 429496729.6 -> 429496730; 1.1 adds one unit
    CHECK(raw_of("0.1") == 429496730);
    CHECK(raw_of("1.1") == kOne + 429496730);
    CHECK(raw_of("-0.1") == -429496730);
    // 0.0000000001 * 2^32 = 0.43 -> 0; 0.0000000002 -> 0.86 -> 1; 0.0000000003 -> 1.29 -> 1
    CHECK(raw_of("0.0000000001") == 0);
    CHECK(raw_of("0.0000000002") == 1);
    CHECK(raw_of("0.0000000003") == 1);
    CHECK(raw_of("-0.0000000002") == -1);
    // Range ends: -2^31 exactly, and 2^31 - 2e-10: 2^63 - round(2 * 2^32 / 10^10) = 2^63 - 1.
    CHECK(raw_of("-2147483648") == INT64_MIN);
    CHECK(round_even(2 * (uint64_t{1} << 32), 10000000000ull) == 1);
    CHECK(raw_of("2147483647.9999999998") == INT64_MAX);
    CHECK(raw_of("2147483647") == int64_t{2147483647} * kOne);
    // -2^31 - 1e-10: 1e-10 is 0.43 raw units, rounds back to -2^31.
    CHECK(raw_of("-2147483648.0000000001") == INT64_MIN);
    // Zeros of every shape, never a negative zero.
    for (const char* z :
         {"-0", "+0", "0.0", "-0.0", "0000", ".0", "0.", "-0e99", "0e-99999999999999999999999"}) {
        CHECK(raw_of(z) == 0);
    }
    // Both optional-digit forms of YAML 1.2: "5." and ".5".
    CHECK(raw_of("5.") == 5 * kOne);
    CHECK(raw_of(".5") == kOne / 2);
    CHECK(raw_of("-.5") == -kOne / 2);
    CHECK(raw_of("5.e1") == 50 * kOne);
    CHECK(raw_of(".5e1") == 5 * kOne);
    // 1/3 and 2/3 written to 1000 digits: round(2^32 / 3) = 1431655765 (remainder 1 of 3),
    // round(2^33 / 3) = 2863311531 (remainder 2 of 3).
    CHECK(raw_of("0." + std::string(1000, '3')) ==
          static_cast<int64_t>(round_even(uint64_t{1} << 32, 3)));
    CHECK(raw_of("0." + std::string(1000, '6')) == 2863311531);
}

TEST_CASE("decimal: exponents", "[decimal]") {
    CHECK(raw_of("1.5e3") == 1500 * kOne);
    CHECK(raw_of("15e-1") == 3 * kOne / 2);
    CHECK(raw_of("1E+2") == 100 * kOne);
    CHECK(raw_of("1e2") == 100 * kOne);
    CHECK(raw_of("1e0") == kOne);
    CHECK(raw_of("1e-0") == kOne);
    CHECK(raw_of("1e+0") == kOne);
    CHECK(raw_of("1e009") == 1000000000 * kOne);
    CHECK(raw_of("0.0000000001e10") == kOne);
    CHECK(raw_of("-25e-2") == -kOne / 4);
    // 2147483648e-9 = 2^31 / 10^9: raw 2^63 / 10^9 = 9223372036.85 -> 9223372037
    CHECK(raw_of("2147483648e-9") ==
          static_cast<int64_t>(round_even(uint64_t{1} << 63, 1000000000)));
    CHECK(raw_of("2147483648e-9") == 9223372037);
    // The exponent moves the point across long digit strings exactly.
    CHECK(raw_of("123456789012345678901234567890e-20") == raw_of("1234567890.1234567890123456789"));
    CHECK(raw_of("0.000000000000000000001234567890123456789e30") == raw_of("1234567890.123456789"));
    // Tiny values underflow to zero; huge exponents with a zero mantissa are zero.
    CHECK(raw_of("1e-400") == 0);
    CHECK(raw_of("-1e-400") == 0);
    CHECK(raw_of("9e-11") == 0); // 0.39 raw units
    CHECK(raw_of("1e-99999999999999999999999999") == 0);
    CHECK(raw_of("0e400") == 0);
    CHECK(raw_of("0.000e99999999999999999999999999") == 0);
    // Exponent and digits both far out, cancelling exactly.
    CHECK(raw_of("1" + std::string(500, '0') + "e-500") == kOne);
    CHECK(raw_of("0." + std::string(500, '0') + "1e501") == kOne);
    CHECK(raw_of("0." + std::string(500, '0') + "5e500") == kOne / 2);
    CHECK(raw_of("0." + std::string(20000, '0') + "1e20001") == kOne);
}

TEST_CASE("decimal: long inputs", "[decimal]") {
    // 500 zeros then digits: far below half a raw unit, or just above 1.
    CHECK(raw_of("0." + std::string(500, '0') + "123456789") == 0);
    CHECK(raw_of("1." + std::string(500, '0') + "1") == kOne);
    CHECK(raw_of("-1." + std::string(500, '0') + "1") == -kOne);
    // 0.999... (100 000 nines) is within a hair of 1.
    CHECK(raw_of("0." + std::string(100000, '9')) == kOne);
    // Leading zeros in the integer part do not count towards the range.
    CHECK(raw_of(std::string(100000, '0') + "7.25") == 29 * kOne / 4);
    // A 100 000-digit integer is out of range; the message quotes only its start.
    const std::string big = "1" + std::string(100000, '2');
    check_rejected(big, "number out of range: " + big.substr(0, 40) + "..." + kRangeSuffix, 0);
}

TEST_CASE("decimal: ties go to even", "[decimal]") {
    // 1 / 2^33 = 0.000000000116415321826934814453125 is half a raw unit: 0 is even.
    CHECK(dyadic_decimal(false, 0, 1, 33) == "0.000000000116415321826934814453125");
    CHECK(raw_of("0.000000000116415321826934814453125") == 0);
    CHECK(raw_of("-0.000000000116415321826934814453125") == 0);
    // 3 / 2^33 lies between raw 1 and 2: 2 is even.
    CHECK(raw_of("0.000000000349245965480804443359375") == 2);
    CHECK(raw_of("-0.000000000349245965480804443359375") == -2);
    // Anything past the midpoint, however far down, rounds away from it.
    CHECK(raw_of("0.000000000116415321826934814453125" + std::string(300, '0') + "1") == 1);
    CHECK(raw_of("0.000000000116415321826934814453124" + std::string(300, '9')) == 0);
    CHECK(raw_of("0.000000000349245965480804443359374" + std::string(300, '9')) == 1);
    // The same midpoint written with an exponent.
    CHECK(raw_of("116415321826934814453125e-33") == 0);
    CHECK(raw_of("1164153218269348144531250000001e-40") == 1);

    // Range ends: -2^31 - 2^-33 is a tie between -2^63 (even) and -2^63 - 1 raw: accepted.
    // 2^31 - 2^-33 is a tie between 2^63 - 1 (odd) and 2^63: goes to 2^63, out of range.
    CHECK(raw_of("-2147483648.000000000116415321826934814453125") == INT64_MIN);
    CHECK(raw_of("2147483647.999999999883584678173065185546874") == INT64_MAX);
    // (Texts over 40 characters are quoted up to their 40th character.)
    check_rejected(
        "2147483647.999999999883584678173065185546875",
        "number out of range: 2147483647.99999999988358467817306518554..." + kRangeSuffix, 0);
    check_rejected(
        "-2147483648.0000000001164153218269348144531251",
        "number out of range: -2147483648.0000000001164153218269348144..." + kRangeSuffix, 0);

    // Random midpoints (2a + 1) / 2^33 over the whole range, exactly, and nudged either way.
    fxtest::Rng rng(0x71e5);
    Failures fails;
    for (int i = 0; i < 20000; ++i) {
        const uint64_t a =
            fx::wide::uabs(i % 2 ? rng.spread_i64() : rng.next_i64()) & (~uint64_t{0} >> 1);
        const bool negative = (rng.next() & 1) != 0;
        const std::string tie = midpoint_above(a);
        const std::string sign = negative ? "-" : "";
        const uint64_t even = (a & 1) == 0 ? a : a + 1;
        const auto expect = [&](const std::string& text, uint64_t mag) {
            const fx::DecimalResult r = parse_decimal(text);
            const bool fits = negative ? mag <= (uint64_t{1} << 63) : mag < (uint64_t{1} << 63);
            const int64_t want =
                negative ? static_cast<int64_t>(uint64_t{0} - mag) : static_cast<int64_t>(mag);
            if (fits ? !(r.ok && r.value.raw() == want) : r.ok) {
                fails.add(text + " -> " + (r.ok ? std::to_string(r.value.raw()) : r.error));
            }
        };
        expect(sign + tie, even);
        expect(sign + tie + "0000000000000000000001", a + 1);
        std::string below = tie; // last digit of an odd multiple of 5^33 is 5
        below.back() = '4';
        expect(sign + below + "99999999999999999999", a);
    }
    fails.report();
}

TEST_CASE("decimal: rejected input", "[decimal]") {
    check_rejected("", "expected a number, found end of text", 0);
    check_rejected("x", "expected a number, found 'x'", 0);
    check_rejected(" 1", "expected a number, found space", 0);
    check_rejected("\t1", "expected a number, found tab", 0);
    check_rejected("-", "expected a digit after the sign, found end of text", 1);
    check_rejected("+", "expected a digit after the sign, found end of text", 1);
    check_rejected("--1", "expected a digit after the sign, found '-'", 1);
    check_rejected("- 1", "expected a digit after the sign, found space", 1);
    check_rejected(".", "expected a digit after '.', found end of text", 1);
    check_rejected("-.", "expected a digit after '.', found end of text", 2);
    check_rejected(".e5", "expected a digit after '.', found 'e'", 1);
    check_rejected("e5", "expected a number, found 'e'", 0);
    check_rejected("1e", "expected a digit in the exponent, found end of text", 2);
    check_rejected("1e+", "expected a digit in the exponent, found end of text", 3);
    check_rejected("1E-", "expected a digit in the exponent, found end of text", 3);
    check_rejected("1.5ex", "expected a digit in the exponent, found 'x'", 4);
    check_rejected("1e 5", "expected a digit in the exponent, found space", 2);
    check_rejected("1e+-5", "expected a digit in the exponent, found '-'", 3);

    const std::string nan_tail = "': NaN is not a number the simulation accepts";
    check_rejected("nan", "expected a number, found 'nan" + nan_tail, 0);
    check_rejected("NaN", "expected a number, found 'NaN" + nan_tail, 0);
    check_rejected(".nan", "expected a number, found '.nan" + nan_tail, 0);
    check_rejected(".NaN", "expected a number, found '.NaN" + nan_tail, 0);
    check_rejected("-nan", "expected a number, found 'nan" + nan_tail, 1);
    const std::string inf_tail = "': infinity is not allowed";
    check_rejected("inf", "expected a finite number, found 'inf" + inf_tail, 0);
    check_rejected(".inf", "expected a finite number, found '.inf" + inf_tail, 0);
    check_rejected("-.inf", "expected a finite number, found '.inf" + inf_tail, 1);
    check_rejected("+.Inf", "expected a finite number, found '.Inf" + inf_tail, 1);
    check_rejected("Infinity", "expected a finite number, found 'Infinity" + inf_tail, 0);
    check_rejected("-Infinity", "expected a finite number, found 'Infinity" + inf_tail, 1);
    check_rejected("INF", "expected a finite number, found 'INF" + inf_tail, 0);

    check_rejected(
        "0x1p3", "expected a decimal number, found '0x': hexadecimal numbers are not accepted", 1);
    check_rejected(
        "-0X10", "expected a decimal number, found '0X': hexadecimal numbers are not accepted", 2);
    check_rejected("0o17", "expected a decimal number, found '0o': octal numbers are not accepted",
                   1);
    check_rejected("0b101",
                   "expected a decimal number, found '0b': binary numbers are not accepted", 1);

    const std::string after = " after the number, expected end of text";
    check_rejected("1.5m", "unexpected 'm'" + after, 3);
    check_rejected("1.2.3", "unexpected '.'" + after, 3);
    check_rejected("1,5", "unexpected ','" + after, 1);
    check_rejected("1_000", "unexpected '_'" + after, 1);
    check_rejected("1e5.5", "unexpected '.'" + after, 3);
    check_rejected("1x", "unexpected 'x'" + after, 1);
    check_rejected("1 ", "unexpected space" + after, 1);
    check_rejected("1\n", "unexpected newline" + after, 1);
    check_rejected("2\r", "unexpected carriage return" + after, 1);
    check_rejected("12\xc3\xa9", "unexpected byte 0xc3" + after, 2);
    check_rejected(std::string("1\0", 2), "unexpected byte 0x00" + after, 1);

    check_rejected("3000000000", "number out of range: 3000000000" + kRangeSuffix, 0);
    check_rejected("2147483648", "number out of range: 2147483648" + kRangeSuffix, 0);
    check_rejected("4294967296", "number out of range: 4294967296" + kRangeSuffix, 0);
    check_rejected("-4294967296.5", "number out of range: -4294967296.5" + kRangeSuffix, 0);
    check_rejected("9999999999.9", "number out of range: 9999999999.9" + kRangeSuffix, 0);
    check_rejected("18446744073709551616",
                   "number out of range: 18446744073709551616" + kRangeSuffix, 0);
    check_rejected("-2147483649", "number out of range: -2147483649" + kRangeSuffix, 0);
    check_rejected("2147483647.9999999999",
                   "number out of range: 2147483647.9999999999" + kRangeSuffix, 0);
    check_rejected("-2147483648.00000000012",
                   "number out of range: -2147483648.00000000012" + kRangeSuffix, 0);
    check_rejected("1e400", "number out of range: 1e400" + kRangeSuffix, 0);
    check_rejected("1e10", "number out of range: 1e10" + kRangeSuffix, 0);
    check_rejected("0.0000000001e20", "number out of range: 0.0000000001e20" + kRangeSuffix, 0);
    check_rejected("1e99999999999999999999999",
                   "number out of range: 1e99999999999999999999999" + kRangeSuffix, 0);
    // The range in the message is what the printer writes for the ends.
    CHECK(to_string_shortest(Scalar::min_value()) == "-2147483648");
    CHECK(to_string_shortest(Scalar::max_value()) == "2147483647.9999999998");
}

TEST_CASE("decimal: printing known values", "[decimal]") {
    CHECK(to_string_shortest(R(0)) == "0");
    CHECK(to_string_shortest(R(kOne)) == "1");
    CHECK(to_string_shortest(R(-kOne)) == "-1");
    CHECK(to_string_shortest(R(kOne / 2)) == "0.5");
    CHECK(to_string_shortest(R(-3 * kOne / 4)) == "-0.75");
    CHECK(to_string_shortest(R(64424509)) == "0.015");
    CHECK(to_string_shortest(R(429496730)) == "0.1");
    CHECK(to_string_shortest(R(1)) == "0.0000000002");
    CHECK(to_string_shortest(R(-1)) == "-0.0000000002");
    CHECK(to_string_shortest(R(2)) == "0.0000000005");
    CHECK(to_string_shortest(R(INT64_MAX)) == "2147483647.9999999998");
    CHECK(to_string_shortest(R(INT64_MIN)) == "-2147483648");
    CHECK(to_string_shortest(R(INT64_MIN + 1)) == "-2147483647.9999999998");
    // 2^-11 = 0.00048828125 needs 11 digits; at 10 digits ...812 and ...813 are equally close
    // and both read back: the even one is printed.
    CHECK(to_string_shortest(R(int64_t{1} << 21)) == "0.0004882812");
    // 3 * 2^-11 = 0.00146484375: ...437 and ...438 tie, the even ...438 is printed.
    CHECK(to_string_shortest(R(int64_t{3} << 21)) == "0.0014648438");
    CHECK(to_string_shortest(R(-(int64_t{3} << 21))) == "-0.0014648438");

    CHECK(to_string_exact(R(0)) == "0");
    CHECK(to_string_exact(R(kOne / 2)) == "0.5");
    CHECK(to_string_exact(R(1)) == "0.00000000023283064365386962890625");
    CHECK(to_string_exact(R(-1)) == "-0.00000000023283064365386962890625");
    CHECK(to_string_exact(R(64424509)) == "0.01499999989755451679229736328125");
    CHECK(to_string_exact(R(INT64_MAX)) == "2147483647.99999999976716935634613037109375");
    CHECK(to_string_exact(R(INT64_MIN)) == "-2147483648");

    CHECK(to_string_raw_hex(R(0)) == "0x0000000000000000");
    CHECK(to_string_raw_hex(R(kOne)) == "0x0000000100000000");
    CHECK(to_string_raw_hex(R(-1)) == "0xffffffffffffffff");
    CHECK(to_string_raw_hex(R(INT64_MIN)) == "0x8000000000000000");
    CHECK(to_string_raw_hex(R(INT64_MAX)) == "0x7fffffffffffffff");
    CHECK(to_string_raw_hex(R(0x0123456789abcdef)) == "0x0123456789abcdef");
}

TEST_CASE("decimal: printed forms read back to the same raw value", "[decimal]") {
    std::vector<int64_t> raws = {
        INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1, 0,        1,        -1,       2, -2,
        kOne,      -kOne,         kOne / 2,  -kOne / 2,     kOne - 1, kOne + 1, -kOne - 1};
    fxtest::Rng rng(0xdec1);
    const int64_t random_count = fxtest::scaled(1000000); // emulated legs run a share
    for (int64_t i = 0; i < random_count; ++i) {
        switch (i % 3) {
        case 0:
            raws.push_back(rng.next_i64());
            break;
        case 1:
            raws.push_back(rng.spread_i64());
            break;
        default: { // few significant bits at any scale: exact short decimals and printing ties
            const auto small = static_cast<int64_t>(rng.next() % 4096);
            const auto v = static_cast<int64_t>(static_cast<uint64_t>(small) << (rng.next() % 52));
            raws.push_back((rng.next() & 1) != 0 ? -v : v);
        }
        }
    }

    Failures fails;
    std::size_t index = 0;
    for (const int64_t raw : raws) {
        const std::string shortest = to_string_shortest(R(raw));
        const std::string exact = to_string_exact(R(raw));
        const std::string ctx =
            "raw " + std::to_string(raw) + " shortest " + shortest + " exact " + exact;
        const fx::DecimalResult s = parse_decimal(shortest);
        const fx::DecimalResult e = parse_decimal(exact);
        if (!s.ok || s.value.raw() != raw) fails.add(ctx + ": shortest does not read back");
        if (!e.ok || e.value.raw() != raw) fails.add(ctx + ": exact does not read back");
        if (shortest.size() > exact.size()) fails.add(ctx + ": shortest longer than exact");
        const std::size_t dot = shortest.find('.');
        if (shortest == "-0" || shortest.back() == '.' ||
            (dot != std::string::npos && shortest.back() == '0')) {
            fails.add(ctx + ": not canonical");
        }
        if (dot != std::string::npos) {
            // Minimal: one fraction digit fewer no longer reads back ...
            const fx::DecimalResult t =
                parse_decimal(std::string_view(shortest).substr(0, shortest.size() - 1));
            if (!t.ok || t.value.raw() == raw) fails.add(ctx + ": a shorter form reads back");
            // ... nor does the nearest form one digit shorter (which may round up, not cut, even
            // out of range: 2147483648 for the largest value) ...
            const std::size_t digits = shortest.size() - dot - 1;
            const fx::DecimalResult u = parse_decimal(round_plain_even(exact, digits - 1));
            if (u.ok && u.value.raw() == raw) fails.add(ctx + ": a shorter form reads back");
            // ... and among the forms of its length it is the exact value correctly rounded.
            if (round_plain_even(exact, shortest.size() - dot - 1) != shortest) {
                fails.add(ctx + ": not the nearest of its length");
            }
        }
        // The exact expansion against the base 10^9 reference, on a subset.
        if (index++ % 4 == 0 && exact != exact_reference(raw)) {
            fails.add(ctx + ": reference says " + exact_reference(raw));
        }
    }
    fails.report();
}

TEST_CASE("decimal: random text is rounded to the nearest raw value", "[decimal]") {
    // Random digit strings with random points and exponents, biased towards runs of 0 and 9
    // (near raw boundaries and carries). The result r must satisfy, on the exact decimal
    // value x: (2|r| - 1) / 2^33 <= |x| <= (2|r| + 1) / 2^33, with equality only for even r;
    // out-of-range results must lie beyond the rounding bounds of the range.
    const std::string pos_limit = midpoint_above(uint64_t{INT64_MAX});
    CHECK(pos_limit == "2147483647.999999999883584678173065185546875");
    const std::string neg_limit = "2147483648." + dyadic_decimal(false, 0, 1, 33).substr(2);
    CHECK(neg_limit == "2147483648.000000000116415321826934814453125");

    fxtest::Rng rng(0x5eed);
    Failures fails;
    for (int i = 0; i < 200000; ++i) {
        const int n_int = static_cast<int>(rng.next() % 12);
        const int n_frac = static_cast<int>(rng.next() % 42);
        if (n_int + n_frac == 0) continue;
        std::string digits;
        const int style = static_cast<int>(rng.next() % 4);
        for (int d = 0; d < n_int + n_frac; ++d) {
            const uint64_t u = rng.next();
            char c = static_cast<char>('0' + u % 10);
            if (style == 1 && (u >> 8) % 3 != 0) c = '0';
            if (style == 2 && (u >> 8) % 3 != 0) c = '9';
            digits.push_back(c);
        }
        const bool negative = (rng.next() & 1) != 0;
        const bool has_exp = rng.next() % 3 == 0;
        const int64_t exp = has_exp ? static_cast<int64_t>(rng.next() % 51) - 25 : 0;
        std::string text = negative ? "-" : "";
        text += digits.substr(0, static_cast<std::size_t>(n_int));
        if (n_frac > 0) {
            text += '.';
            text += digits.substr(static_cast<std::size_t>(n_int));
        }
        if (has_exp) {
            text += 'e';
            text += std::to_string(exp);
        }
        const std::string plain = place_point(digits, n_int + exp);

        const fx::DecimalResult r = parse_decimal(text);
        if (!r.ok) {
            const bool beyond = negative ? compare_plain(plain, neg_limit) > 0
                                         : compare_plain(plain, pos_limit) >= 0;
            if (!beyond || r.error.rfind("number out of range: ", 0) != 0 || r.error_offset != 0) {
                fails.add(text + ": rejected: " + r.error);
            }
            continue;
        }
        const int64_t raw = r.value.raw();
        if (raw != 0 && (raw < 0) != negative) {
            fails.add(text + ": wrong sign " + std::to_string(raw));
            continue;
        }
        const uint64_t a = fx::wide::uabs(raw);
        const bool even = (a & 1) == 0;
        const int hi = compare_plain(plain, midpoint_above(a));
        const int lo = a == 0 ? 1 : compare_plain(plain, midpoint_below(a));
        if (hi > 0 || lo < 0 || (!even && (hi == 0 || lo == 0))) {
            fails.add(text + ": read as raw " + std::to_string(raw));
        }
    }
    fails.report();
}
