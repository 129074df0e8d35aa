// The library's XXH3-64 (kcc/checksum.h) against the xxHash library's XXH3_64bits, the
// independent reference: every length from 0 to 2,048 bytes (each of the algorithm's paths and
// their boundaries: 0, 1-3, 4-8, 9-16, 17-128, 129-240, then whole and partial stripes and
// blocks of 1,024 bytes) and random inputs up to 20,000 bytes. And World::checksum against the
// goldens' world hash, computed independently from the state bytes.
#include <catch2/catch.hpp>

#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "kcc/checksum.h"
#include "kcc/state_bytes.h"
#include "kcc_test_util.h"
#include "test_support.h"

using namespace fx::kcc;
using namespace kcctest;

TEST_CASE("xxh3_64 is the xxHash library's XXH3_64bits, seed 0, at every length", "[checksum]") {
    fxtest::Rng rng(0xc4ec);
    std::vector<uint8_t> buf(20000);
    for (auto& b : buf)
        b = static_cast<uint8_t>(rng.next());
    for (size_t len = 0; len <= 2048; ++len) {
        INFO("length " << len);
        REQUIRE(xxh3_64({buf.data(), len}) == XXH3_64bits(buf.data(), len));
        // The same lengths at an odd offset (no alignment assumed).
        REQUIRE(xxh3_64({buf.data() + 3, len}) == XXH3_64bits(buf.data() + 3, len));
    }
    for (int i = 0; i < 200; ++i) {
        const size_t len = static_cast<size_t>(rng.range(0, 20000 - 1));
        for (size_t k = 0; k < len; ++k)
            buf[k] = static_cast<uint8_t>(rng.next());
        INFO("random case " << i << ", length " << len);
        REQUIRE(xxh3_64({buf.data(), len}) == XXH3_64bits(buf.data(), len));
    }
    // All-zero and all-ones inputs (carries through every product).
    std::vector<uint8_t> zeros(5000, 0), ones(5000, 0xFF);
    for (size_t len : {size_t{0}, size_t{16}, size_t{240}, size_t{241}, size_t{1024}, size_t{1025},
                       size_t{5000}}) {
        CHECK(xxh3_64({zeros.data(), len}) == XXH3_64bits(zeros.data(), len));
        CHECK(xxh3_64({ones.data(), len}) == XXH3_64bits(ones.data(), len));
    }
}

TEST_CASE(
    "World::checksum is the goldens' world hash: every character's then every platform's bytes",
    "[checksum]") {
    World w;
    add_floor(w);
    Platform p;
    p.id = 50;
    p.half_extents = v3(1, 0.25L, 1);
    p.waypoints = {{v3(-3, 0.25L, 0), 0}, {v3(-3, 0.25L, 5), 60}, {v3(-3, 0.25L, 0), 120}};
    std::string error;
    REQUIRE(w.add_platform(p, &error));
    REQUIRE(w.add_character(4, v3(-3, 0.5L + rest_height(), 0), kDefaults, &error));
    REQUIRE(w.add_character(2, v3(0, rest_height(), 0), kDefaults, &error));
    REQUIRE(w.build(&error));
    for (int64_t t = 0; t < 100; ++t) {
        w.step(std::vector<Input>{stick(0.2L, 1), stick(1, 0, t == 10)});
        // Independently: the concatenation the goldens hash (docs/formats.md), by the library.
        std::vector<uint8_t> all;
        for (const CharacterState& s : w.characters()) {
            const auto b = serialize_state(s);
            all.insert(all.end(), b.begin(), b.end());
        }
        const auto pb = serialize_platform(50, p.center_at(w.tick()));
        all.insert(all.end(), pb.begin(), pb.end());
        INFO("tick " << t);
        REQUIRE(w.checksum() == XXH3_64bits(all.data(), all.size()));
    }
}
