// XXH3-64, seed 0, default secret: written from the xxHash specification (xxHash 0.8, scalar
// path). Inputs up to 16 bytes, 17 to 128, 129 to 240, and longer ones in stripes of 64 bytes
// accumulated into eight lanes, scrambled after each block of 16 stripes.
#include "kcc/checksum.h"

#include <bit>
#include <cstring>

#include "fx/wide.h"

namespace fx::kcc {

namespace {

constexpr uint64_t kP32_1 = 0x9E3779B1u, kP32_2 = 0x85EBCA77u, kP32_3 = 0xC2B2AE3Du;
constexpr uint64_t kP64_1 = 0x9E3779B185EBCA87ull, kP64_2 = 0xC2B2AE3D27D4EB4Full,
                   kP64_3 = 0x165667B19E3779F9ull, kP64_4 = 0x85EBCA77C2B2AE63ull,
                   kP64_5 = 0x27D4EB2F165667C5ull;

// The default secret, 192 bytes.
constexpr uint8_t kSecret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

// Little-endian reads: one load where the machine is little-endian, bytes assembled where it is
// not (s390x). The same values either way.
uint64_t le64(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        uint64_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    } else {
        uint64_t v = 0;
        for (int k = 7; k >= 0; --k)
            v = (v << 8) | p[k];
        return v;
    }
}
uint32_t le32(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
        uint32_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    } else {
        return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
               static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
    }
}
uint64_t rotl(uint64_t v, int r) {
    return (v << r) | (v >> (64 - r));
}
uint64_t swap64(uint64_t v) {
    uint64_t r = 0;
    for (int k = 0; k < 8; ++k)
        r |= ((v >> (8 * k)) & 0xFF) << (8 * (7 - k));
    return r;
}

/// The 128-bit product of two 64-bit values, its halves xored: the numeric layer's 64 x 64-bit
/// product (one instruction where the target has it, four 32 x 32 products where it does not).
uint64_t mul_fold(uint64_t a, uint64_t b) {
    using W = wide::Default;
    const W::T p = W::umul(a, b);
    return W::lo64(p) ^ W::hi64(p);
}

uint64_t avalanche_xxh64(uint64_t h) {
    h ^= h >> 33;
    h *= kP64_2;
    h ^= h >> 29;
    h *= kP64_3;
    h ^= h >> 32;
    return h;
}
uint64_t avalanche(uint64_t h) {
    h ^= h >> 37;
    h *= 0x165667919E3779F9ull;
    h ^= h >> 32;
    return h;
}
uint64_t rrmxmx(uint64_t h, uint64_t len) {
    h ^= rotl(h, 49) ^ rotl(h, 24);
    h *= 0x9FB21C651E98DF25ull;
    h ^= (h >> 35) + len;
    h *= 0x9FB21C651E98DF25ull;
    return h ^ (h >> 28);
}
uint64_t mix16(const uint8_t* in, const uint8_t* secret) {
    return mul_fold(le64(in) ^ le64(secret), le64(in + 8) ^ le64(secret + 8));
}

uint64_t upto16(const uint8_t* in, size_t len) {
    if (len > 8) {
        const uint64_t lo = le64(in) ^ (le64(kSecret + 24) ^ le64(kSecret + 32));
        const uint64_t hi = le64(in + len - 8) ^ (le64(kSecret + 40) ^ le64(kSecret + 48));
        return avalanche(len + swap64(lo) + hi + mul_fold(lo, hi));
    }
    if (len >= 4) {
        const uint64_t in64 = le32(in + len - 4) + (static_cast<uint64_t>(le32(in)) << 32);
        return rrmxmx(in64 ^ (le64(kSecret + 8) ^ le64(kSecret + 16)), len);
    }
    if (len > 0) {
        const uint32_t combined =
            static_cast<uint32_t>(in[0]) << 16 | static_cast<uint32_t>(in[len >> 1]) << 24 |
            static_cast<uint32_t>(in[len - 1]) | static_cast<uint32_t>(len) << 8;
        return avalanche_xxh64(combined ^ static_cast<uint64_t>(le32(kSecret) ^ le32(kSecret + 4)));
    }
    return avalanche_xxh64(le64(kSecret + 56) ^ le64(kSecret + 64));
}

uint64_t upto128(const uint8_t* in, size_t len) {
    uint64_t acc = len * kP64_1;
    if (len > 32) {
        if (len > 64) {
            if (len > 96) {
                acc += mix16(in + 48, kSecret + 96);
                acc += mix16(in + len - 64, kSecret + 112);
            }
            acc += mix16(in + 32, kSecret + 64);
            acc += mix16(in + len - 48, kSecret + 80);
        }
        acc += mix16(in + 16, kSecret + 32);
        acc += mix16(in + len - 32, kSecret + 48);
    }
    acc += mix16(in, kSecret);
    acc += mix16(in + len - 16, kSecret + 16);
    return avalanche(acc);
}

uint64_t upto240(const uint8_t* in, size_t len) {
    uint64_t acc = len * kP64_1;
    const size_t rounds = len / 16;
    for (size_t i = 0; i < 8; ++i)
        acc += mix16(in + 16 * i, kSecret + 16 * i);
    acc = avalanche(acc);
    for (size_t i = 8; i < rounds; ++i)
        acc += mix16(in + 16 * i, kSecret + 16 * (i - 8) + 3);
    acc += mix16(in + len - 16, kSecret + 136 - 17);
    return avalanche(acc);
}

constexpr size_t kStripe = 64;
constexpr size_t kStripesPerBlock = (sizeof kSecret - kStripe) / 8; // 16

void accumulate_stripe(uint64_t acc[8], const uint8_t* in, const uint8_t* secret) {
    for (size_t i = 0; i < 8; ++i) {
        const uint64_t data = le64(in + 8 * i);
        const uint64_t key = data ^ le64(secret + 8 * i);
        acc[i ^ 1] += data;
        acc[i] += (key & 0xFFFFFFFFu) * (key >> 32);
    }
}
void scramble(uint64_t acc[8], const uint8_t* secret) {
    for (size_t i = 0; i < 8; ++i) {
        uint64_t a = acc[i];
        a ^= a >> 47;
        a ^= le64(secret + 8 * i);
        acc[i] = a * kP32_1;
    }
}

uint64_t long_input(const uint8_t* in, size_t len) {
    uint64_t acc[8] = {kP32_3, kP64_1, kP64_2, kP64_3, kP64_4, kP32_2, kP64_5, kP32_1};
    const size_t block = kStripe * kStripesPerBlock;
    const size_t blocks = (len - 1) / block;
    for (size_t b = 0; b < blocks; ++b) {
        for (size_t s = 0; s < kStripesPerBlock; ++s)
            accumulate_stripe(acc, in + b * block + s * kStripe, kSecret + s * 8);
        scramble(acc, kSecret + sizeof kSecret - kStripe);
    }
    const size_t stripes = ((len - 1) - block * blocks) / kStripe;
    for (size_t s = 0; s < stripes; ++s)
        accumulate_stripe(acc, in + blocks * block + s * kStripe, kSecret + s * 8);
    accumulate_stripe(acc, in + len - kStripe, kSecret + sizeof kSecret - kStripe - 7);
    uint64_t result = len * kP64_1;
    for (size_t i = 0; i < 4; ++i)
        result += mul_fold(acc[2 * i] ^ le64(kSecret + 11 + 16 * i),
                           acc[2 * i + 1] ^ le64(kSecret + 11 + 16 * i + 8));
    return avalanche(result);
}

} // namespace

uint64_t xxh3_64(std::span<const uint8_t> bytes) {
    const uint8_t* in = bytes.data();
    const size_t len = bytes.size();
    if (len <= 16) return upto16(in, len);
    if (len <= 128) return upto128(in, len);
    if (len <= 240) return upto240(in, len);
    return long_input(in, len);
}

std::array<uint8_t, kPlatformBytes> serialize_platform(uint32_t id, const Vec3& center) {
    std::array<uint8_t, kPlatformBytes> b{};
    b[0] = kPlatformBytesVersion;
    for (int k = 0; k < 4; ++k)
        b[1 + static_cast<size_t>(k)] = static_cast<uint8_t>(id >> (8 * k));
    const int64_t v[3] = {center.x.raw(), center.y.raw(), center.z.raw()};
    for (size_t c = 0; c < 3; ++c) {
        const uint64_t u = static_cast<uint64_t>(v[c]);
        for (int k = 0; k < 8; ++k)
            b[5 + 8 * c + static_cast<size_t>(k)] = static_cast<uint8_t>(u >> (8 * k));
    }
    return b;
}

} // namespace fx::kcc
