// fx::Scalar: the Q31.32 fixed-point number every simulation value is made of.
//
// Representation: a signed 64-bit raw value r stands for r / 2^32. Range [-2^31, 2^31 - 2^-32],
// resolution 2^-32 (about 2.3e-10). The raw bits are the product's contract: the same inputs
// give the same raw outputs on every CPU, compiler and optimisation level.
//
// Construction is explicit only: from an integer, from a raw value, from a ratio of integers,
// or from exact decimal text (fx/decimal.h). There is no conversion from or to float/double.
//
// Rounding, per operation (tested at raw boundary values in tests/math/scalar_test.cpp):
//   a + b, a - b, -a, abs(a)    exact
//   a * b                        round to nearest, ties away from zero
//   a / b, ratio(n, d)           round to nearest, ties away from zero
//   mul_int(k)                   exact;   div_int(k): round to nearest, ties away from zero
//   floor, ceil                  toward -inf, toward +inf
//   round                        to the nearest integer, ties away from zero
//   trunc                        toward zero
// Overflow (result outside the range): reported through fx/overflow.h in a checked build
// (FX_CHECKED); otherwise + - * wrap modulo 2^64 on the raw value and / saturates. Division by
// zero is always reported and saturates if the handler returns.
#pragma once

#include <compare>
#include <cstdint>
#include <type_traits>

#include "fx/overflow.h"

#include "fx/wide.h"

namespace fx {

namespace detail {

inline constexpr int kFracBits = 32;

constexpr int64_t wrap_add(int64_t a, int64_t b, bool* ovf) {
    const int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    *ovf = ((a ^ r) & (b ^ r)) < 0;
    return r;
}

constexpr int64_t wrap_sub(int64_t a, int64_t b, bool* ovf) {
    const int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    *ovf = ((a ^ b) & (a ^ r)) < 0;
    return r;
}

/// Raw product a*b / 2^32, rounded half away from zero. *ovf set when it does not fit.
template <class B> constexpr int64_t mul_raw(int64_t a, int64_t b, bool* ovf) {
#if FX_COMPILER_HAS_INT128
    if constexpr (std::is_same_v<B, wide::Native>) {
#if defined(__wasm__)
        // wasm has no 64 x 64 -> 128-bit product. From the 32-bit halves (a = ah 2^32 + al,
        // ah = a >> 32 arithmetic): a b = X 2^32 + al bl with X = ah bh 2^32 + ah bl + al bh, so
        // floor((a b + 2^31 - [a b < 0]) / 2^32) = X + floor((al bl + 2^31 - [a b < 0]) / 2^32)
        // exactly (al bl plus the addend stays below 2^64). Modulo 2^64 it is the 128-bit
        // rounded product's low half for every a and b: the result when it fits, the unchecked
        // build's wrapped one when not. Four 64-bit products and no branch; only the overflow
        // test, which unchecked builds drop, needs the 128-bit product.
        const uint64_t al = static_cast<uint64_t>(a) & wide::kLow32,
                       bl = static_cast<uint64_t>(b) & wide::kLow32;
        const int64_t ah = a >> 32, bh = b >> 32;
        const uint64_t neg = ((a ^ b) < 0 && a != 0 && b != 0) ? 1 : 0;
        const uint64_t x = (static_cast<uint64_t>(ah * bh) << 32) +
                           static_cast<uint64_t>(ah * static_cast<int64_t>(bl)) +
                           static_cast<uint64_t>(static_cast<int64_t>(al) * bh);
        // |a b| < 2^94 (clz of the magnitudes at least 34): the result is below 2^62.
        if (std::countl_zero(wide::uabs(a)) + std::countl_zero(wide::uabs(b)) >= 34) {
            *ovf = false;
        } else { // inline, so that the unchecked build, which never looks at *ovf, drops it
            using S = wide::Native::S;
            const S q =
                wide::Native::round_shift(static_cast<S>(wide::Native::smul(a, b)), kFracBits);
            *ovf = static_cast<S>(static_cast<int64_t>(q)) != q;
        }
        return static_cast<int64_t>(
            x + ((al * bl + ((uint64_t{1} << (kFracBits - 1)) - neg)) >> kFracBits));
#else
        return wide::Native::mul_shift(a, b, kFracBits, ovf); // in 128 bits, rounded
#endif
    }
#endif
    const bool neg = (a < 0) != (b < 0);
    uint64_t mag = 0;
    const bool fits =
        wide::shr_round_u64<B>(B::umul(wide::uabs(a), wide::uabs(b)), kFracBits, &mag);
    int64_t r = 0;
    const bool in_range = wide::signed_from_magnitude(mag, neg, &r);
    *ovf = !(fits && in_range);
    return r;
}

/// Rounded quotient of a non-negative wide numerator by d != 0, with a sign, half away from
/// zero. Saturates (and sets *ovf) when the quotient does not fit in int64.
template <class B>
constexpr int64_t div_wide_raw(typename B::T n, bool neg, uint64_t d, bool* ovf) {
    const int64_t saturated = neg ? INT64_MIN : INT64_MAX;
    if (B::hi64(n) >= d) {
        *ovf = true;
        return saturated;
    }
    uint64_t rem = 0;
    uint64_t q = B::udiv64(n, d, &rem);
    if (rem >= d - rem) { // 2 * rem >= d, without overflow: round half away from zero
        if (q == ~uint64_t{0}) {
            *ovf = true;
            return saturated;
        }
        ++q;
    }
    int64_t r = 0;
    *ovf = !wide::signed_from_magnitude(q, neg, &r);
    return *ovf ? saturated : r;
}

/// Raw quotient a * 2^32 / b, rounded half away from zero. b must not be 0.
template <class B> constexpr int64_t div_raw(int64_t a, int64_t b, bool* ovf) {
    const bool neg = (a < 0) != (b < 0);
    return div_wide_raw<B>(B::shl(B::from_u64(wide::uabs(a)), kFracBits), neg, wide::uabs(b), ovf);
}

} // namespace detail

class Scalar {
public:
    static constexpr int kFracBits = detail::kFracBits;
    static constexpr int64_t kOneRaw = int64_t{1} << kFracBits;

    /// Zero.
    constexpr Scalar() noexcept = default;

    /// The value raw / 2^32.
    static constexpr Scalar from_raw(int64_t raw) noexcept {
        Scalar s;
        s.raw_ = raw;
        return s;
    }
    /// The integer v; v must be in [-2^31, 2^31 - 1] (overflow otherwise).
    static constexpr Scalar from_int(int64_t v) {
        check_overflow(v < -(int64_t{1} << 31) || v >= (int64_t{1} << 31), "Scalar::from_int");
        return from_raw(static_cast<int64_t>(static_cast<uint64_t>(v) << kFracBits));
    }
    /// num / den rounded to the nearest raw value, ties away from zero. For exact constants
    /// such as 0.015 m = ratio(15, 1000). den must not be 0.
    static constexpr Scalar ratio(int64_t num, int64_t den) {
        if (den == 0) {
            report_overflow("Scalar::ratio (division by zero)");
            return from_raw(num >= 0 ? INT64_MAX : INT64_MIN);
        }
        bool ovf = false;
        const int64_t r = detail::div_raw<wide::Default>(num, den, &ovf);
        check_overflow(ovf, "Scalar::ratio");
        return from_raw(r);
    }

    static constexpr Scalar zero() noexcept { return {}; }
    static constexpr Scalar one() noexcept { return from_raw(kOneRaw); }
    static constexpr Scalar half() noexcept { return from_raw(kOneRaw / 2); }
    /// Largest and smallest representable values, and the resolution (one raw unit).
    static constexpr Scalar max_value() noexcept { return from_raw(INT64_MAX); }
    static constexpr Scalar min_value() noexcept { return from_raw(INT64_MIN); }
    static constexpr Scalar epsilon() noexcept { return from_raw(1); }

    constexpr int64_t raw() const noexcept { return raw_; }

    friend constexpr bool operator==(Scalar a, Scalar b) noexcept = default;
    friend constexpr std::strong_ordering operator<=>(Scalar a, Scalar b) noexcept {
        return a.raw_ <=> b.raw_;
    }

    constexpr Scalar operator+() const noexcept { return *this; }
    constexpr Scalar operator-() const {
        bool ovf = false;
        const int64_t r = detail::wrap_sub(0, raw_, &ovf);
        check_overflow(ovf, "Scalar::neg");
        return from_raw(r);
    }
    friend constexpr Scalar operator+(Scalar a, Scalar b) {
        bool ovf = false;
        const int64_t r = detail::wrap_add(a.raw_, b.raw_, &ovf);
        check_overflow(ovf, "Scalar::add");
        return from_raw(r);
    }
    friend constexpr Scalar operator-(Scalar a, Scalar b) {
        bool ovf = false;
        const int64_t r = detail::wrap_sub(a.raw_, b.raw_, &ovf);
        check_overflow(ovf, "Scalar::sub");
        return from_raw(r);
    }
    friend constexpr Scalar operator*(Scalar a, Scalar b) {
        bool ovf = false;
        const int64_t r = detail::mul_raw<wide::Default>(a.raw_, b.raw_, &ovf);
        check_overflow(ovf, "Scalar::mul");
        return from_raw(r);
    }
    friend constexpr Scalar operator/(Scalar a, Scalar b) {
        if (b.raw_ == 0) {
            report_overflow("Scalar::div (division by zero)");
            return from_raw(a.raw_ >= 0 ? INT64_MAX : INT64_MIN);
        }
        bool ovf = false;
        const int64_t r = detail::div_raw<wide::Default>(a.raw_, b.raw_, &ovf);
        check_overflow(ovf, "Scalar::div");
        return from_raw(r);
    }
    constexpr Scalar& operator+=(Scalar b) { return *this = *this + b; }
    constexpr Scalar& operator-=(Scalar b) { return *this = *this - b; }
    constexpr Scalar& operator*=(Scalar b) { return *this = *this * b; }
    constexpr Scalar& operator/=(Scalar b) { return *this = *this / b; }

    /// Exact product with an integer.
    constexpr Scalar mul_int(int64_t k) const {
        const bool neg = (raw_ < 0) != (k < 0);
        const auto p = wide::Default::umul(wide::uabs(raw_), wide::uabs(k));
        int64_t r = 0;
        const bool ok = wide::signed_from_magnitude(wide::Default::lo64(p), neg, &r) &&
                        wide::Default::hi64(p) == 0;
        check_overflow(!ok, "Scalar::mul_int");
        return from_raw(r);
    }
    /// Quotient by an integer k != 0, rounded to nearest, ties away from zero.
    constexpr Scalar div_int(int64_t k) const {
        if (k == 0) {
            report_overflow("Scalar::div_int (division by zero)");
            return from_raw(raw_ >= 0 ? INT64_MAX : INT64_MIN);
        }
        bool ovf = false;
        const bool neg = (raw_ < 0) != (k < 0);
        const int64_t r = detail::div_wide_raw<wide::Default>(
            wide::Default::from_u64(wide::uabs(raw_)), neg, wide::uabs(k), &ovf);
        check_overflow(ovf, "Scalar::div_int");
        return from_raw(r);
    }

private:
    int64_t raw_ = 0;
};

inline constexpr int64_t kFracMask = Scalar::kOneRaw - 1;

constexpr Scalar abs(Scalar a) {
    return a.raw() < 0 ? -a : a;
}
constexpr Scalar min(Scalar a, Scalar b) noexcept {
    return b < a ? b : a;
}
constexpr Scalar max(Scalar a, Scalar b) noexcept {
    return a < b ? b : a;
}
/// a limited to [lo, hi]; lo <= hi required.
constexpr Scalar clamp(Scalar a, Scalar lo, Scalar hi) noexcept {
    return min(max(a, lo), hi);
}
/// -1, 0 or 1.
constexpr int sign(Scalar a) noexcept {
    return (a.raw() > 0) - (a.raw() < 0);
}

/// Largest integer <= a. Exact, never overflows.
constexpr Scalar floor(Scalar a) noexcept {
    return Scalar::from_raw(a.raw() & ~kFracMask);
}
/// Smallest integer >= a. Overflows only above 2^31 - 1.
constexpr Scalar ceil(Scalar a) {
    bool ovf = false;
    const int64_t r = detail::wrap_add(a.raw(), kFracMask, &ovf);
    check_overflow(ovf, "fx::ceil");
    return Scalar::from_raw(r & ~kFracMask);
}
/// Integer part, toward zero.
constexpr Scalar trunc(Scalar a) noexcept {
    if (a.raw() >= 0) return floor(a);
    const uint64_t mag = wide::uabs(a.raw()) & ~static_cast<uint64_t>(kFracMask);
    return Scalar::from_raw(static_cast<int64_t>(uint64_t{0} - mag));
}
/// Nearest integer, ties away from zero. Overflows only when rounding up past 2^31 - 1.
constexpr Scalar round(Scalar a) {
    const uint64_t mag = wide::uabs(a.raw()) + (uint64_t{1} << 31);
    const uint64_t rounded = mag & ~static_cast<uint64_t>(kFracMask);
    int64_t r = 0;
    const bool ok = wide::signed_from_magnitude(rounded, a.raw() < 0, &r);
    check_overflow(!ok, "fx::round");
    return Scalar::from_raw(r);
}
/// floor(a) as an integer.
constexpr int64_t floor_to_int(Scalar a) noexcept {
    return a.raw() >> Scalar::kFracBits;
}
/// round(a) as an integer (ties away from zero).
constexpr int64_t round_to_int(Scalar a) {
    return round(a).raw() >> Scalar::kFracBits;
}

/// a * b / c with a single rounding (ties away from zero) and a 128-bit intermediate, so the
/// product may exceed the Scalar range as long as the result does not. c must not be 0.
constexpr Scalar mul_div(Scalar a, Scalar b, Scalar c) {
    if (c.raw() == 0) {
        report_overflow("fx::mul_div (division by zero)");
        return Scalar::from_raw(((a.raw() < 0) != (b.raw() < 0)) ? INT64_MIN : INT64_MAX);
    }
    using B = wide::Default;
    const bool neg = ((a.raw() < 0) != (b.raw() < 0)) != (c.raw() < 0);
    bool ovf = false;
    const int64_t r = detail::div_wide_raw<B>(B::umul(wide::uabs(a.raw()), wide::uabs(b.raw())),
                                              neg, wide::uabs(c.raw()), &ovf);
    check_overflow(ovf, "fx::mul_div");
    return Scalar::from_raw(r);
}

} // namespace fx
