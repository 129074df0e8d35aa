// Wide (128-bit) integer arithmetic behind every fixed-point product, quotient and square root.
//
// Two interchangeable backends implement the same small set of operations on an *unsigned*
// 128-bit value (two's complement when a caller treats it as signed):
//   - wide::Native:   `unsigned __int128`, where the compiler has it (GCC and Clang on 64-bit
//                     targets), with x86-64's `divq` as inline assembly. These are the only
//                     compiler-specific constructs of the project, all in this header and
//                     guarded: FX_STANDARD_CPP_ONLY compiles none of them (the code MSVC
//                     compiles), and scripts/gate-standard-cpp.sh keeps them here.
//   - wide::Portable: two 64-bit limbs, plain ISO C++ (i686 GCC, MSVC, any compiler).
// `wide::Default` is the one the library uses. The CMake option FX_FORCE_PORTABLE_WIDE selects
// the portable backend even where `__int128` exists; tests run millions of operand pairs
// through both backends in one binary and require identical bits.
//
// Every operation is exact (no rounding) except the documented quotient and square-root
// functions, which floor. Callers choose rounding on top.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

#if defined(__SIZEOF_INT128__) && !defined(FX_STANDARD_CPP_ONLY)
#define FX_COMPILER_HAS_INT128 1
#else
#define FX_COMPILER_HAS_INT128 0
#endif

#if FX_COMPILER_HAS_INT128 && !defined(FX_FORCE_PORTABLE_WIDE)
#define FX_WIDE_NATIVE 1
#else
#define FX_WIDE_NATIVE 0
#endif

namespace fx::wide {

// 64 / 32-bit halves used by the portable backend.
inline constexpr uint64_t kLow32 = 0xffffffffu;

/// Unsigned 128 by 64 division, quotient and remainder, for u1:u0 / v with u1 < v (so the
/// quotient fits in 64 bits) and v != 0. Floors. Plain 64-bit arithmetic: Knuth's algorithm D
/// specialised to two 32-bit quotient digits (as in Hacker's Delight, "divlu").
constexpr uint64_t divlu(uint64_t u1, uint64_t u0, uint64_t v, uint64_t* rem) {
    if (u1 == 0) { // a 64-bit numerator: one division (the same floor)
        if (rem != nullptr) *rem = u0 % v;
        return u0 / v;
    }
    constexpr uint64_t b = uint64_t{1} << 32;
    const int s = std::countl_zero(v);
    v <<= s;
    const uint64_t vn1 = v >> 32;
    const uint64_t vn0 = v & kLow32;
    const uint64_t un32 = (u1 << s) | (s == 0 ? 0 : (u0 >> (64 - s)));
    const uint64_t un10 = u0 << s;
    const uint64_t un1 = un10 >> 32;
    const uint64_t un0 = un10 & kLow32;

    uint64_t q1 = un32 / vn1;
    uint64_t rhat = un32 - q1 * vn1;
    while (q1 >= b || q1 * vn0 > ((rhat << 32) | un1)) {
        --q1;
        rhat += vn1;
        if (rhat >= b) break;
    }
    const uint64_t un21 = (un32 << 32) + un1 - q1 * v; // exact modulo 2^64: the true value < v
    uint64_t q0 = un21 / vn1;
    rhat = un21 - q0 * vn1;
    while (q0 >= b || q0 * vn0 > ((rhat << 32) | un0)) {
        --q0;
        rhat += vn1;
        if (rhat >= b) break;
    }
    if (rem != nullptr) *rem = (((un21 << 32) + un0) - q0 * v) >> s;
    return (q1 << 32) + q0;
}

/// floor(x * 2^32 / d) and its remainder, for x < d (so the quotient is below 2^32): divlu's
/// second digit alone, one 64-bit division where divlu takes two (its first digit is 0 here).
constexpr uint64_t div_shl32(uint64_t x, uint64_t d, uint64_t* rem) {
    constexpr uint64_t b = uint64_t{1} << 32;
    const int s = std::countl_zero(d);
    const uint64_t v = d << s, u = x << s; // u < v: x < d, so x has s leading zeros too
    const uint64_t vn1 = v >> 32, vn0 = v & kLow32;
    uint64_t q = u / vn1;
    uint64_t rhat = u - q * vn1;
    while (q >= b || q * vn0 > (rhat << 32)) {
        --q;
        rhat += vn1;
        if (rhat >= b) break;
    }
    *rem = ((u << 32) - q * v) >> s; // exact modulo 2^64: the true value < v
    return q;
}

/// Portable backend: two 64-bit limbs.
struct Portable {
    struct U128 {
        uint64_t lo = 0;
        uint64_t hi = 0;
    };
    using T = U128;

    static constexpr T from_u64(uint64_t v) { return {v, 0}; }
    static constexpr T from_i64(int64_t v) {
        return {static_cast<uint64_t>(v), v < 0 ? ~uint64_t{0} : 0};
    }
    static constexpr T make(uint64_t hi, uint64_t lo) { return {lo, hi}; }
    static constexpr uint64_t lo64(T a) { return a.lo; }
    static constexpr uint64_t hi64(T a) { return a.hi; }

    /// Full 64x64 -> 128 unsigned product, from four 32x32 partial products.
    static constexpr T umul(uint64_t a, uint64_t b) {
        const uint64_t a0 = a & kLow32, a1 = a >> 32;
        const uint64_t b0 = b & kLow32, b1 = b >> 32;
        const uint64_t p00 = a0 * b0;
        const uint64_t p01 = a0 * b1;
        const uint64_t p10 = a1 * b0;
        const uint64_t p11 = a1 * b1;
        const uint64_t mid = (p00 >> 32) + (p01 & kLow32) + (p10 & kLow32);
        return {(mid << 32) | (p00 & kLow32), p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)};
    }
    /// Signed 64x64 -> 128 product (two's complement result).
    static constexpr T smul(int64_t a, int64_t b) {
        T p = umul(static_cast<uint64_t>(a), static_cast<uint64_t>(b));
        // Correct the unsigned product of the two's complement bit patterns.
        if (a < 0) p.hi -= static_cast<uint64_t>(b);
        if (b < 0) p.hi -= static_cast<uint64_t>(a);
        return p;
    }
    /// a0 b0 + a1 b1 + a2 b2, modulo 2^128 (exact while it fits: the dot product's 128-bit sum).
    /// One pass over the 32-bit halves, carries gathered once: a = ah 2^32 + al with ah = a >> 32
    /// (arithmetic) and al = a mod 2^32, so a b = ah bh 2^64 + (ah bl + al bh) 2^32 + al bl, each
    /// cross product within int64 and split the same way. Fewer operations than three products
    /// and two sums (wasm32's 128-bit arithmetic is this code).
    static constexpr T sdot3(int64_t a0, int64_t b0, int64_t a1, int64_t b1, int64_t a2,
                             int64_t b2) {
        uint64_t lo = 0, mid = 0, hi = 0; // hi wraps modulo 2^64, as the 128-bit sum would
        const auto term = [&lo, &mid, &hi](int64_t a, int64_t b) {
            const int64_t ah = a >> 32, bh = b >> 32;
            const uint64_t al = static_cast<uint64_t>(a) & kLow32,
                           bl = static_cast<uint64_t>(b) & kLow32;
            const uint64_t ll = al * bl;
            const int64_t lh = static_cast<int64_t>(al) * bh,
                          hl = ah * static_cast<int64_t>(bl); // |.| < 2^63
            lo += ll & kLow32;
            mid += (ll >> 32) + (static_cast<uint64_t>(lh) & kLow32) +
                   (static_cast<uint64_t>(hl) & kLow32);
            hi += static_cast<uint64_t>(ah) * static_cast<uint64_t>(bh) +
                  static_cast<uint64_t>(lh >> 32) + static_cast<uint64_t>(hl >> 32);
        };
        term(a0, b0);
        term(a1, b1);
        term(a2, b2);
        mid += lo >> 32; // lo < 3 * 2^32, mid < 2^37: no overflow
        return {(mid << 32) | (lo & kLow32), hi + (mid >> 32)};
    }
    /// x^2 + y^2 + z^2 of magnitudes, exact (< 3 * 2^126), the same way (x = xh 2^32 + xl:
    /// x^2 = xh^2 2^64 + 2 xh xl 2^32 + xl^2).
    static constexpr T usq3(uint64_t x, uint64_t y, uint64_t z) {
        uint64_t lo = 0, mid = 0, hi = 0;
        const auto term = [&lo, &mid, &hi](uint64_t v) {
            const uint64_t vh = v >> 32, vl = v & kLow32;
            const uint64_t ll = vl * vl, hl = vh * vl;
            lo += ll & kLow32;
            mid += (ll >> 32) + ((hl & kLow32) << 1);
            hi += vh * vh + ((hl >> 32) << 1);
        };
        term(x);
        term(y);
        term(z);
        mid += lo >> 32; // lo < 3 * 2^32, mid < 2^36
        return {(mid << 32) | (lo & kLow32), hi + (mid >> 32)};
    }
    static constexpr T add(T a, T b) {
        const uint64_t lo = a.lo + b.lo;
        return {lo, a.hi + b.hi + (lo < a.lo ? 1u : 0u)};
    }
    static constexpr T sub(T a, T b) {
        return {a.lo - b.lo, a.hi - b.hi - (a.lo < b.lo ? 1u : 0u)};
    }
    static constexpr T neg(T a) { return sub(T{}, a); }
    static constexpr bool is_neg(T a) { return (a.hi >> 63) != 0; }
    static constexpr bool is_zero(T a) { return (a.lo | a.hi) == 0; }
    /// Unsigned comparison: -1, 0, 1.
    static constexpr int ucmp(T a, T b) {
        if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
        if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
        return 0;
    }
    /// Logical shift left, 0 <= s < 128.
    static constexpr T shl(T a, int s) {
        if (s == 0) return a;
        if (s >= 64) return {0, a.lo << (s - 64)};
        return {a.lo << s, (a.hi << s) | (a.lo >> (64 - s))};
    }
    /// Logical shift right, 0 <= s < 128.
    static constexpr T shr(T a, int s) {
        if (s == 0) return a;
        if (s >= 64) return {a.hi >> (s - 64), 0};
        return {(a.lo >> s) | (a.hi << (64 - s)), a.hi >> s};
    }
    /// Number of leading zero bits, 128 for zero.
    static constexpr int clz(T a) {
        return a.hi != 0 ? std::countl_zero(a.hi) : 64 + std::countl_zero(a.lo);
    }
    /// Unsigned floor division by d != 0 when hi64(n) < d (quotient fits 64 bits).
    static constexpr uint64_t udiv64(T n, uint64_t d, uint64_t* rem) {
        return divlu(n.hi, n.lo, d, rem);
    }
    /// Whether udiv64 is one instruction (isqrt then takes a 128-bit Newton step).
    static constexpr bool kOneInstructionUdiv64 = false;
};

#if FX_COMPILER_HAS_INT128
// x86-64 with GCC or Clang: the 128/64 division as one instruction (Native::udiv64).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FX_WIDE_DIVQ 1
#else
#define FX_WIDE_DIVQ 0
#endif

/// Native backend: the compiler's 128-bit integer.
struct Native {
    __extension__ typedef unsigned __int128 T;
    __extension__ typedef __int128 S;

    static constexpr T from_u64(uint64_t v) { return v; }
    static constexpr T from_i64(int64_t v) { return static_cast<T>(static_cast<S>(v)); }
    static constexpr T make(uint64_t hi, uint64_t lo) { return (static_cast<T>(hi) << 64) | lo; }
    static constexpr uint64_t lo64(T a) { return static_cast<uint64_t>(a); }
    static constexpr uint64_t hi64(T a) { return static_cast<uint64_t>(a >> 64); }
#if defined(__wasm__)
    // wasm has no 64 x 64 -> 128-bit product: the compiler's is a call to the generic 128 x 128
    // routine (__multi3). Here one 64-bit product when both factors fit in 32 bits, else the
    // four 32 x 32 partial products inline (Portable::umul). The same bits
    // (tests/math/wide_test.cpp compares the backends; the wasm32 leg runs it under node).
    static constexpr T umul(uint64_t a, uint64_t b) {
        if (((a | b) >> 32) == 0) return static_cast<T>(a * b);
        const Portable::T p = Portable::umul(a, b);
        return make(p.hi, p.lo);
    }
    static constexpr T smul(int64_t a, int64_t b) {
        const auto fits32 = [](int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
        if (fits32(a) && fits32(b)) return from_i64(a * b); // |a * b| <= 2^62
        const Portable::T p = Portable::smul(a, b);
        return make(p.hi, p.lo);
    }
    static constexpr T sdot3(int64_t a0, int64_t b0, int64_t a1, int64_t b1, int64_t a2,
                             int64_t b2) {
        const Portable::T p = Portable::sdot3(a0, b0, a1, b1, a2, b2);
        return make(p.hi, p.lo);
    }
    static constexpr T usq3(uint64_t x, uint64_t y, uint64_t z) {
        const Portable::T p = Portable::usq3(x, y, z);
        return make(p.hi, p.lo);
    }
#else
    static constexpr T umul(uint64_t a, uint64_t b) {
        return static_cast<T>(a) * b;
    }
    static constexpr T smul(int64_t a, int64_t b) {
        return from_i64(a) * from_i64(b);
    }
    static constexpr T sdot3(int64_t a0, int64_t b0, int64_t a1, int64_t b1, int64_t a2,
                             int64_t b2) {
        return smul(a0, b0) + smul(a1, b1) + smul(a2, b2);
    }
    static constexpr T usq3(uint64_t x, uint64_t y, uint64_t z) {
        return umul(x, x) + umul(y, y) + umul(z, z);
    }
#endif
    static constexpr T add(T a, T b) {
        return a + b;
    }
    static constexpr T sub(T a, T b) {
        return a - b;
    }
    static constexpr T neg(T a) {
        return T{0} - a;
    }
    static constexpr bool is_neg(T a) {
        return (hi64(a) >> 63) != 0;
    }
    /// floor((v + 2^(s-1) - [v < 0]) / 2^s), 0 < s < 64: v / 2^s rounded half away from zero
    /// (for v < 0 it equals -floor((|v| + 2^(s-1)) / 2^s)). The addend is a non-negative 64-bit
    /// value and is added as one (a carry into the high half); written with signed 128-bit
    /// operands the compiler also built and added its sign word.
    static constexpr S round_shift(S v, int s) {
        const uint64_t neg = hi64(static_cast<T>(v)) >> 63;
        return static_cast<S>(static_cast<T>(v) + ((uint64_t{1} << (s - 1)) - neg)) >> s;
    }
    /// The Scalar product's raw value: round_shift(a * b, s) as int64, *ovf set when it does not
    /// fit (for p < 0, -floor((|p| + 2^31) / 2^32) equals floor((p + 2^31 - 1) / 2^32), an
    /// arithmetic shift, C++20; |p| <= 2^126, so the sum cannot overflow, and the low 64 bits, the
    /// unchecked build's wrapped result, agree). (wasm32's product, without a 128-bit one, is
    /// fx::detail::mul_raw's own.)
    static constexpr int64_t mul_shift(int64_t a, int64_t b, int s, bool* ovf) {
        const S q = round_shift(static_cast<S>(smul(a, b)), s);
        const int64_t r = static_cast<int64_t>(q);
        *ovf = static_cast<S>(r) != q;
        return r;
    }
    static constexpr bool is_zero(T a) {
        return a == 0;
    }
    static constexpr int ucmp(T a, T b) {
        return a < b ? -1 : (a > b ? 1 : 0);
    }
    static constexpr T shl(T a, int s) {
        return a << s;
    }
    static constexpr T shr(T a, int s) {
        return a >> s;
    }
    static constexpr int clz(T a) {
        return hi64(a) != 0 ? std::countl_zero(hi64(a)) : 64 + std::countl_zero(lo64(a));
    }
    /// `n / d` on a 128-bit type is a call to the generic 128/128 routine (__udivti3), tens of
    /// instructions on x86-64 and a bit loop on wasm32. x86-64 divides 128 by 64 bits in one
    /// instruction (the precondition rules out its overflow trap); elsewhere divlu's two 64-bit
    /// divisions. Both floor, so every path gives the same bits (tests/math/wide_test.cpp).
    static constexpr uint64_t udiv64(T n, uint64_t d, uint64_t* rem) {
#if FX_WIDE_DIVQ
        if (!std::is_constant_evaluated()) {
            uint64_t q = 0, r = 0;
            __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo64(n)), "d"(hi64(n)), "rm"(d) : "cc");
            if (rem != nullptr) *rem = r;
            return q;
        }
#endif
        return divlu(hi64(n), lo64(n), d, rem);
    }
    static constexpr bool kOneInstructionUdiv64 = FX_WIDE_DIVQ != 0;
};
#endif

#if FX_WIDE_NATIVE
using Default = Native;
#else
using Default = Portable;
#endif

/// Human-readable name of the backend in use, for --version and golden provenance.
constexpr const char* default_backend_name() {
    return FX_WIDE_NATIVE ? "int128" : "portable";
}

// ---------------------------------------------------------------------------------------------
// Kernels shared by both backends. Each is a template on the backend so tests can run both.

/// |v| as an unsigned 64-bit value (|INT64_MIN| = 2^63 is representable).
constexpr uint64_t uabs(int64_t v) {
    return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

/// Applies a sign to a magnitude and checks it fits in int64.
/// Returns false (and the wrapped two's complement value) when it does not.
constexpr bool signed_from_magnitude(uint64_t mag, bool negative, int64_t* out) {
    const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
    *out = static_cast<int64_t>(negative ? uint64_t{0} - mag : mag);
    return mag <= limit;
}

/// Magnitude of a signed wide value (two's complement), and whether it was negative.
template <class B> constexpr typename B::T wabs(typename B::T v, bool* negative) {
    *negative = B::is_neg(v);
    return *negative ? B::neg(v) : v;
}

/// Rounds the magnitude m / 2^s half away from zero (ties go up in magnitude), 1 <= s < 128.
/// Returns false when the result does not fit in 64 bits.
template <class B> constexpr bool shr_round_u64(typename B::T m, int s, uint64_t* out) {
    const typename B::T half = B::shl(B::from_u64(1), s - 1);
    const typename B::T sum = B::add(m, half);
    // A carry out of bit 127 is impossible for the magnitudes used here (< 2^127).
    const typename B::T q = B::shr(sum, s);
    *out = B::lo64(q);
    return B::hi64(q) == 0;
}

/// Signed wide value / 2^s rounded half away from zero, as int64. False on overflow.
template <class B> constexpr bool round_shift_to_i64(typename B::T v, int s, int64_t* out) {
    bool neg = false;
    const typename B::T m = wabs<B>(v, &neg);
    uint64_t mag = 0;
    const bool fits = shr_round_u64<B>(m, s, &mag);
    return signed_from_magnitude(mag, neg, out) && fits;
}

/// floor(sqrt(i * 2^56)) for i = 64..256: the square roots at the edges of the buckets of values in
/// [2^62, 2^64] whose top 8 bits are i, for a starting estimate interpolated between them. Only
/// the speed of isqrt depends on these values.
inline constexpr std::array<uint64_t, 193> kSqrtEdge = [] {
    std::array<uint64_t, 193> t{};
    for (uint64_t i = 64; i <= 256; ++i) {
        const uint64_t v = i << 56; // 2^64 for i = 256: its root, 2^32, is set below
        uint64_t r = 0; // bit-by-bit floor square root (compile time only)
        for (int b = 31; b >= 0 && i < 256; --b) {
            const uint64_t c = r | (uint64_t{1} << b);
            if (c * c <= v) r = c;
        }
        t[i - 64] = i < 256 ? r : uint64_t{1} << 32;
    }
    return t;
}();

namespace detail {

/// For 2^62 <= t < 2^64: an estimate of sqrt(t) never below floor(sqrt(t)) (an integer Newton
/// step from any positive start is not: its real value is at least sqrt(t), and flooring keeps
/// it at least floor(sqrt(t))), and at most 2 above it (measured on 20 million values and at
/// every bucket edge). Where udiv64 is one instruction (x86-64), the bucket's lower edge (8
/// correct bits) and two Newton steps: fewest instructions. Elsewhere one division fewer: a
/// start interpolated linearly between the bucket's edges (a chord of the root over 1/256 of
/// its range, about 16 correct bits) and one Newton step.
template <class B> constexpr uint64_t isqrt_top_estimate(uint64_t t) {
    const uint64_t i = (t >> 56) - 64;
    if constexpr (B::kOneInstructionUdiv64) {
        const uint64_t e = (kSqrtEdge[i] + t / kSqrtEdge[i]) >> 1;
        return (e + t / e) >> 1;
    } else {
        const uint64_t f = (t >> 48) & 0xff;
        const uint64_t e = kSqrtEdge[i] + (((kSqrtEdge[i + 1] - kSqrtEdge[i]) * f) >> 8);
        return (e + t / e) >> 1;
    }
}
/// floor(sqrt(t)) for 2^62 <= t < 2^64 (so below 2^32), exact: the estimate stepped down (at most
/// twice; the estimate affects only the speed).
template <class B> constexpr uint64_t isqrt_top(uint64_t t) {
    uint64_t e = isqrt_top_estimate<B>(t);
    while (e > kLow32 || e * e > t)
        --e; // e * e is tested only below 2^32: no overflow
    return e;
}

/// r = floor(sqrt(n)) for n < 2^126, and *rem = n - r^2 (at most 2r, so within 64 bits). Except on
/// x86-64, no 128-bit product or division (on wasm32 both are emulated, and elsewhere but x86-64
/// the division is divlu's two):
///  - n < 2^64: with t = n * 4^m in [2^62, 2^64), r = floor(floor(sqrt(t)) / 2^m).
///  - else: t = floor(n / 4^k) in [2^62, 2^64) (1 <= k <= 31), s = floor(sqrt(t)), base = s * 2^k,
///    so r = base + d with 0 <= d < 2^k, and R = n - base^2 = (t - s^2) 4^k + (n mod 4^k) >= 0.
///    (base + d)^2 <= n exactly when 2 base d + d^2 <= R. The estimate d0 = floor(R / (2 base)) =
///    floor(floor(R / 2^(k+1)) / s) is at least d, and at most d + 1: with sqrt(n) = base + x,
///    R / (2 base) = x + x^2 / (2 base) < x + 2^k / (2 s) <= x + 1/2. floor(R / 2^(k+1)) =
///    (t - s^2) 2^(k-1) + floor((n mod 4^k) / 2^(k+1)) < 2^64 (t - s^2 <= 2s < 2^33), and
///    R - 2 base d0 = (its remainder by s) 2^(k+1) + (n mod 2^(k+1)) < 2^64: d0 is tested by
///    d0^2 against that, in 64 bits.
template <class B, bool kRound = false>
constexpr uint64_t isqrt_rem(typename B::T n, uint64_t* rem) {
    // kRound: the root rounded to nearest instead (up when n - r^2 > r, see isqrt_round), rem
    // unused: one function for isqrt_round, so that wasm32 neither calls a second one nor passes
    // the remainder through memory.
    const auto done = [&](uint64_t r, uint64_t left) {
        if constexpr (kRound) {
            return left > r ? r + 1 : r;
        } else {
            *rem = left;
            return r;
        }
    };
    const int bits = 128 - B::clz(n);
    if (bits <= 64) {
        const uint64_t v = B::lo64(n);
        if (v == 0) return done(0, 0);
        const int m = (64 - bits) / 2;
        const uint64_t r = isqrt_top<B>(v << (2 * m)) >> m;
        return done(r, v - r * r);
    }
    const int k = (bits - 63) / 2;
    const uint64_t t =
        (B::hi64(n) << (64 - 2 * k)) | (B::lo64(n) >> (2 * k)); // n / 4^k: 2 <= 2k <= 62
    if constexpr (B::kOneInstructionUdiv64) {
        // x86-64, where udiv64 is one instruction: one 128-bit Newton step from an over-estimate
        // (Hacker's Delight 11-1) is fewer instructions. x = (estimate + 1) 2^k > sqrt(n), so
        // hi64(n) < x as udiv64 requires; y = floor((x + n / x) / 2) is never below the floor,
        // and the loop steps down to it.
        const uint64_t x = (isqrt_top_estimate<B>(t) + 1) << k;
        const uint64_t q = B::udiv64(n, x, nullptr);
        uint64_t y = (x >> 1) + (q >> 1) + (x & q & 1);
        typename B::T sq = B::umul(y, y);
        while (B::ucmp(sq, n) > 0) {
            --y;
            sq = B::umul(y, y);
        }
        return done(y, B::lo64(B::sub(n, sq)));
    }
    const uint64_t s = isqrt_top<B>(t);
    const uint64_t low = B::lo64(n); // n mod 4^k is in it: 2k <= 62
    const uint64_t num =
        ((t - s * s) << (k - 1)) + ((low & ((uint64_t{1} << (2 * k)) - 1)) >> (k + 1));
    const uint64_t d = num / s;
    const uint64_t left = ((num - d * s) << (k + 1)) | (low & ((uint64_t{1} << (k + 1)) - 1));
    if (d * d <= left) { // d < 2^k + 1 <= 2^31 + 1: d^2 within 64 bits
        return done((s << k) + d, left - d * d);
    }
    // d0 = d + 1: n - (base + d0 - 1)^2 = left + 2 base - d0^2 + 2 d0 - 1, which is at most 2r
    // (so exact modulo 2^64, whatever the intermediate sums).
    return done((s << k) + d - 1, left + (s << (k + 1)) - d * d + 2 * d - 1);
}

} // namespace detail

/// Floor of the square root of an unsigned 128-bit value. Exact: result r satisfies
/// r*r <= n < (r+1)*(r+1). Below 2^126, detail::isqrt_rem; above, r = 2 * isqrt(n / 4) or one
/// more. Every path ends in the same unique floor.
template <class B> constexpr uint64_t isqrt(typename B::T n) {
    if (B::clz(n) < 2) {
        const uint64_t r = isqrt<B>(B::shr(n, 2)) << 1;
        const typename B::T up = B::umul(r + 1, r + 1);
        return B::ucmp(up, n) <= 0 ? r + 1 : r;
    }
    uint64_t rem = 0;
    return detail::isqrt_rem<B>(n, &rem);
}
/// Square root of an unsigned 128-bit value rounded to the nearest integer. (No ties exist:
/// (r + 1/2)^2 is never an integer.) Result fits in 64 bits.
template <class B> constexpr uint64_t isqrt_round(typename B::T n) {
    // Round up when n - r^2 > r, i.e. n >= r^2 + r + 1 > (r + 1/2)^2.
    if (B::clz(n) < 2) {
        const uint64_t r = isqrt<B>(n);
        const typename B::T rem = B::sub(n, B::umul(r, r));
        return B::ucmp(rem, B::from_u64(r)) > 0 ? r + 1 : r;
    }
    return detail::isqrt_rem<B, true>(n, nullptr);
}

} // namespace fx::wide
