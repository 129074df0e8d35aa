// Exact decimal text <-> Q31.32. Integer arithmetic only (see fx/decimal.h for the contract).
//
// Parsing. The text's value is D * 10^E for a digit string D. Only digits whose weight lies in
// [10^-33, 10^9] can influence the result: anything at 10^10 or above is out of range, and every
// rounding boundary (a midpoint (2k+1) / 2^33 between two raw values) is a multiple of
// 2^-33 = 5^33 / 10^33, so digits below 10^-33 can only tell "exactly on a boundary" from
// "just above it". They are folded into a sticky flag, which keeps the work linear in the
// length of the text (one scan) however many digits or zeros it has, with no big integers:
//   I = integer part (weights 10^9 .. 10^0), at most 10 digits, fits 64 bits;
//   F = fraction digits at weights 10^-1 .. 10^-33 as an integer, F < 10^33 < 2^110;
//   frac * 2^33 = F / 5^33, so q = floor(F / 5^33) holds the 32 fraction bits of the result
//   plus the half bit, and a non-zero remainder (or the sticky flag) says "above half".
// The quotient is taken in two exact steps, F / 5^27 (128 by 64 bits) then / 5^6.
//
// Printing the shortest form. A raw value a (magnitude) is read back from every x with
// |x * 2^33 - 2a| <= 1 (the endpoints only when a is even: ties go to even). For k = 0, 1, ...
// fraction digits, the k-digit decimal nearest to the exact value is inside that interval
// whenever any k-digit decimal is (the interval is centred on the exact value), so it is the
// only candidate to try. k = 10 always succeeds: 10^-10 is finer than the interval's width 2^-32.
#include "fx/decimal.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "fx/wide.h"

namespace fx {
namespace {

using B = wide::Default;

/// 10^0 .. 10^19, every power of ten that fits in 64 bits.
constexpr std::array<uint64_t, 20> kPow10 = [] {
    std::array<uint64_t, 20> t{};
    uint64_t p = 1;
    for (auto& x : t) {
        x = p;
        p *= 10; // wraps harmlessly after the last entry
    }
    return t;
}();

constexpr uint64_t kPow5_6 = 15625ull; // 5^6
constexpr uint64_t kPow5_27 = 7450580596923828125ull; // 5^27, the largest power of 5 in 64 bits

/// Lowest and highest decimal weight (power of ten) a digit can have and still matter.
constexpr int kLowestWeight = -33;
constexpr int kHighestWeight = 9;
/// Number of fraction digits kept exactly: weights 10^-1 .. 10^-33, split 19 + 14 so each half
/// fits in 64 bits.
constexpr int kFracHiDigits = 19;
constexpr int kFracLoDigits = 14;
static_assert(kFracHiDigits + kFracLoDigits == -kLowestWeight);

/// Exponents saturate at this magnitude. Any text is far shorter than this, so a saturated
/// exponent still puts every digit outside the window of weights that matter, and the result
/// (zero or out of range) is the exact one.
constexpr int64_t kExponentCap = 100000000000000000; // 10^17

/// Most fraction digits the shortest form ever needs (see the comment at the top).
constexpr int kMaxShortestDigits = 10;

/// Most characters of the input quoted in an out-of-range message.
constexpr std::size_t kMaxQuoted = 40;

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

char lower_ascii(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// True when text[pos..] starts with `word` (lowercase ASCII), ignoring case.
bool starts_with_ci(std::string_view text, std::size_t pos, std::string_view word) {
    if (text.size() - pos < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (lower_ascii(text[pos + i]) != word[i]) return false;
    }
    return true;
}

/// How a character is named in an error message: 'm', space, tab, byte 0xc3, ...
std::string describe_char(char c) {
    switch (c) {
    case ' ':
        return "space";
    case '\t':
        return "tab";
    case '\n':
        return "newline";
    case '\r':
        return "carriage return";
    default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) {
        constexpr char kHex[] = "0123456789abcdef";
        return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
    }
    return std::string("'") + c + "'";
}

std::string describe_at(std::string_view text, std::size_t pos) {
    return pos < text.size() ? describe_char(text[pos]) : std::string("end of text");
}

DecimalResult fail(std::string message, std::size_t offset) {
    DecimalResult r;
    r.error = std::move(message);
    r.error_offset = offset;
    return r;
}

void append_u64(std::string& out, uint64_t v) {
    char buf[20];
    int n = 0;
    do {
        buf[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0)
        out.push_back(buf[--n]);
}

/// A lexically valid number: sign, the digits on either side of '.', and the exponent.
struct Lexed {
    bool negative = false;
    std::string_view int_digits;
    std::string_view frac_digits;
    int64_t exponent = 0; // saturated at +-kExponentCap
};

/// Checks the grammar; on success fills *out and returns an empty error.
DecimalResult lex(std::string_view text, Lexed* out) {
    const std::size_t n = text.size();
    if (n == 0) return fail("expected a number, found end of text", 0);
    std::size_t i = 0;
    if (text[0] == '+' || text[0] == '-') {
        out->negative = text[0] == '-';
        i = 1;
    }

    // NaN and infinity, in the spellings of YAML (.nan, .inf), C and JavaScript (nan, inf,
    // Infinity), in any case.
    const std::size_t word = (i < n && text[i] == '.') ? i + 1 : i;
    if (starts_with_ci(text, word, "nan")) {
        return fail("expected a number, found '" + std::string(text.substr(i, word + 3 - i)) +
                        "': NaN is not a number the simulation accepts",
                    i);
    }
    if (starts_with_ci(text, word, "inf")) {
        const std::size_t len = starts_with_ci(text, word, "infinity") ? 8 : 3;
        return fail("expected a finite number, found '" +
                        std::string(text.substr(i, word + len - i)) + "': infinity is not allowed",
                    i);
    }

    const std::size_t int_begin = i;
    while (i < n && is_digit(text[i]))
        ++i;
    out->int_digits = text.substr(int_begin, i - int_begin);
    bool has_dot = false;
    if (i < n && text[i] == '.') {
        has_dot = true;
        const std::size_t frac_begin = ++i;
        while (i < n && is_digit(text[i]))
            ++i;
        out->frac_digits = text.substr(frac_begin, i - frac_begin);
    }
    if (out->int_digits.empty() && out->frac_digits.empty()) {
        if (has_dot) return fail("expected a digit after '.', found " + describe_at(text, i), i);
        if (i == 0) return fail("expected a number, found " + describe_at(text, i), i);
        return fail("expected a digit after the sign, found " + describe_at(text, i), i);
    }

    // 0x.., 0o.., 0b..: name the base rather than complaining about a stray letter.
    if (!has_dot && out->int_digits == "0" && i < n) {
        const char c = lower_ascii(text[i]);
        const char* base = c == 'x'   ? "hexadecimal"
                           : c == 'o' ? "octal"
                           : c == 'b' ? "binary"
                                      : nullptr;
        if (base != nullptr) {
            return fail("expected a decimal number, found '" +
                            std::string(text.substr(int_begin, 2)) + "': " + base +
                            " numbers are not accepted",
                        i);
        }
    }

    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool exp_negative = false;
        if (i < n && (text[i] == '+' || text[i] == '-')) {
            exp_negative = text[i] == '-';
            ++i;
        }
        if (i >= n || !is_digit(text[i])) {
            return fail("expected a digit in the exponent, found " + describe_at(text, i), i);
        }
        int64_t e = 0;
        for (; i < n && is_digit(text[i]); ++i) {
            e = e * 10 + (text[i] - '0');
            if (e > kExponentCap) e = kExponentCap;
        }
        out->exponent = exp_negative ? -e : e;
    }

    if (i < n) {
        return fail(
            "unexpected " + describe_char(text[i]) + " after the number, expected end of text", i);
    }
    return DecimalResult{true, {}, {}, 0};
}

/// The out-of-range error, quoting (the start of) the text.
DecimalResult out_of_range(std::string_view text) {
    std::string quoted(text.substr(0, kMaxQuoted));
    if (text.size() > kMaxQuoted) quoted += "...";
    return fail("number out of range: " + quoted + " is outside [" +
                    to_string_shortest(Scalar::min_value()) + ", " +
                    to_string_shortest(Scalar::max_value()) + "]",
                0);
}

/// Rounds the lexed value to the nearest raw value, ties to even. False when out of range.
bool round_to_raw(const Lexed& lx, int64_t* raw) {
    const std::string_view a = lx.int_digits;
    const std::string_view b = lx.frac_digits;
    // Index k into the concatenated digits a + b.
    const auto digit_at = [&](int64_t k) -> uint64_t {
        const auto uk = static_cast<std::size_t>(k);
        return static_cast<uint64_t>((uk < a.size() ? a[uk] : b[uk - a.size()]) - '0');
    };
    const auto total = static_cast<int64_t>(a.size() + b.size());
    int64_t first = -1; // first and last non-zero digit
    int64_t last = -1;
    for (int64_t k = 0; k < total; ++k) {
        if (digit_at(k) != 0) {
            first = k;
            break;
        }
    }
    if (first < 0) {
        *raw = 0; // any zero, including -0 and 0e999
        return true;
    }
    for (int64_t k = total - 1; k >= first; --k) {
        if (digit_at(k) != 0) {
            last = k;
            break;
        }
    }
    // Digit k has weight 10^(point - 1 - k).
    const int64_t point = static_cast<int64_t>(a.size()) + lx.exponent;
    if (point - 1 - first > kHighestWeight) return false; // >= 10^10
    const auto digit_of_weight = [&](int w) -> uint64_t {
        const int64_t k = point - 1 - w;
        return (k >= first && k <= last) ? digit_at(k) : 0;
    };

    uint64_t int_part = 0;
    for (int w = kHighestWeight; w >= 0; --w)
        int_part = int_part * 10 + digit_of_weight(w);
    uint64_t frac_hi = 0;
    for (int w = -1; w >= -kFracHiDigits; --w)
        frac_hi = frac_hi * 10 + digit_of_weight(w);
    uint64_t frac_lo = 0;
    for (int w = -kFracHiDigits - 1; w >= kLowestWeight; --w)
        frac_lo = frac_lo * 10 + digit_of_weight(w);
    const bool sticky = point - 1 - last < kLowestWeight;

    constexpr uint64_t kTwo31 = uint64_t{1} << 31;
    if (int_part > kTwo31) return false;

    // q = floor(F / 5^33) = floor(frac * 2^33); hi64(F) < 2^46 < 5^27 as udiv64 requires.
    const B::T f = B::add(B::umul(frac_hi, kPow10[kFracLoDigits]), B::from_u64(frac_lo));
    uint64_t rem1 = 0;
    const uint64_t q1 = B::udiv64(f, kPow5_27, &rem1);
    const uint64_t q = q1 / kPow5_6;
    const uint64_t rem2 = q1 % kPow5_6;
    uint64_t frac_raw = q >> 1;
    const bool half = (q & 1) != 0;
    const bool above_half = rem1 != 0 || rem2 != 0 || sticky;
    if (half && (above_half || (frac_raw & 1) != 0)) ++frac_raw; // ties to even
    // int_part <= 2^31 and frac_raw <= 2^32: no overflow.
    const uint64_t mag = (int_part << Scalar::kFracBits) + frac_raw;
    return wide::signed_from_magnitude(mag, lx.negative, raw);
}

} // namespace

DecimalResult parse_decimal(std::string_view text) {
    Lexed lx;
    DecimalResult r = lex(text, &lx);
    if (!r.ok) return r;
    int64_t raw = 0;
    if (!round_to_raw(lx, &raw)) return out_of_range(text);
    r.value = Scalar::from_raw(raw);
    return r;
}

std::string to_string_exact(Scalar v) {
    std::string out;
    if (v.raw() < 0) out.push_back('-');
    const uint64_t mag = wide::uabs(v.raw());
    append_u64(out, mag >> Scalar::kFracBits);
    uint64_t frac = mag & static_cast<uint64_t>(kFracMask);
    if (frac != 0) {
        out.push_back('.');
        // Each step moves one decimal digit above the binary point; frac * 10 < 2^36.
        while (frac != 0) {
            frac *= 10;
            out.push_back(static_cast<char>('0' + (frac >> Scalar::kFracBits)));
            frac &= static_cast<uint64_t>(kFracMask);
        }
    }
    return out;
}

namespace {

/// The decimal digits of v (< 10^10) into the `width` characters ending at `end`, zeros in front.
void put_digits(char* end, uint64_t v, int width) {
    for (int i = 0; i < width; ++i) {
        *--end = static_cast<char>('0' + v % 10);
        v /= 10;
    }
}

int digit_count(uint64_t v) { // v < 10^10
    int n = 1;
    while (v >= 10 && n < 10) {
        v /= 10;
        ++n;
    }
    return n;
}

} // namespace

std::size_t to_chars_shortest(Scalar v, char* out) {
    char* p = out;
    if (v.raw() < 0) *p++ = '-';
    const uint64_t a = wide::uabs(v.raw());
    const uint64_t whole = a >> Scalar::kFracBits; // <= 2^31
    const int n = digit_count(whole);
    put_digits(p + n, whole, n);
    p += n;
    const uint64_t f = a & static_cast<uint64_t>(kFracMask);
    if (f == 0) return static_cast<std::size_t>(p - out);
    // The decimals that read back to a are those strictly between the two half-way points
    // (2a - 1) / 2^33 and (2a + 1) / 2^33 (never one of them: a half-way point has 33 fraction
    // digits), and the whole part is never one of them (f / 2^32 would be within half a unit of
    // 0 or 1): only the fraction's digits are looked for, in units of 10^-10. The half-way points
    // in those units are (2f -+ 1) 10^10 / 2^33 = (2f -+ 1) 5^10 / 2^23 (< 2^57): the fractions
    // that read back are the integers of [lo, hi], lo = the first above the lower point.
    constexpr uint64_t kPow5_10 = 9765625;
    const uint64_t lo = (((2 * f - 1) * kPow5_10) >> 23) + 1;
    const uint64_t hi = ((2 * f + 1) * kPow5_10) >> 23;
    // The fewest digits k = 10 - s: the largest s for which a multiple of 10^s lies in [lo, hi],
    // that is for which hi / 10^s and (lo - 1) / 10^s (rounded down) differ. Where they differ
    // for s they differ for every smaller s. The loop makes s steps: none for most values of a
    // simulation, which need all ten digits.
    uint64_t h = hi, l = lo - 1;
    int s = 0;
    while (h / 10 != l / 10) {
        h /= 10;
        l /= 10;
        ++s;
    }
    uint64_t digits = h; // for s > 0 the only multiple of 10^s in [lo, hi] (hi - lo < 10), / 10^s
    if (s == 0) {
        // Ten digits: [lo, hi] holds two or three; the nearest to f 10^10 / 2^32, ties to an even
        // last digit (f 5^10 < 2^56).
        const uint64_t scaled = f * kPow5_10;
        constexpr uint64_t kHalf = uint64_t{1} << 21;
        digits = scaled >> 22;
        const uint64_t rest = scaled & ((uint64_t{1} << 22) - 1);
        if (rest > kHalf || (rest == kHalf && (digits & 1) != 0)) ++digits;
    }
    const int k = kMaxShortestDigits - s;
    *p++ = '.';
    put_digits(p + k, digits, k);
    return static_cast<std::size_t>(p + k - out);
}

std::string to_string_shortest(Scalar v) {
    char buf[kMaxShortestChars];
    return std::string(buf, to_chars_shortest(v, buf));
}

std::string to_string_raw_hex(Scalar v) {
    constexpr char kHex[] = "0123456789abcdef";
    std::string out = "0x";
    const auto bits = static_cast<uint64_t>(v.raw());
    for (int shift = 60; shift >= 0; shift -= 4)
        out.push_back(kHex[(bits >> shift) & 15]);
    return out;
}

} // namespace fx
