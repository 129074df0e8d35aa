// Micro-benchmarks of decimal text <-> fixed point: ns per call. Inputs cycle through arrays
// built once, so the compiler cannot fold them; results are returned to Catch so they are kept.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>

#include "fx/decimal.h"
#include "fx/scalar.h"

namespace {

constexpr std::size_t kN = 1024;

std::array<int64_t, kN> make_raws(uint64_t seed, int shift) {
    std::array<int64_t, kN> a{};
    uint64_t s = seed;
    for (auto& v : a) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v = static_cast<int64_t>(s) >> shift;
    }
    return a;
}

// Working-range values (a few hundred metres either side) and values over the whole range.
const auto kWorking = make_raws(3, 23);
const auto kFull = make_raws(4, 0);

std::array<std::string, kN> shortest_texts(const std::array<int64_t, kN>& raws) {
    std::array<std::string, kN> t;
    for (std::size_t i = 0; i < kN; ++i)
        t[i] = fx::to_string_shortest(fx::Scalar::from_raw(raws[i]));
    return t;
}

std::array<std::string, kN> exact_texts(const std::array<int64_t, kN>& raws) {
    std::array<std::string, kN> t;
    for (std::size_t i = 0; i < kN; ++i)
        t[i] = fx::to_string_exact(fx::Scalar::from_raw(raws[i]));
    return t;
}

} // namespace

TEST_CASE("bench: decimal", "[.bench][math]") {
    const auto short_working = shortest_texts(kWorking);
    const auto exact_full = exact_texts(kFull);
    const std::string long_fraction = "0." + std::string(1000, '3');
    std::size_t i = 0;

    BENCHMARK("parse_decimal shortest, working range") {
        i = (i + 1) % kN;
        return fx::parse_decimal(short_working[i]).value;
    };
    BENCHMARK("parse_decimal exact, full range") {
        i = (i + 1) % kN;
        return fx::parse_decimal(exact_full[i]).value;
    };
    BENCHMARK("parse_decimal 1000 fraction digits") {
        return fx::parse_decimal(long_fraction).value;
    };
    BENCHMARK("to_string_shortest, working range") {
        i = (i + 1) % kN;
        return fx::to_string_shortest(fx::Scalar::from_raw(kWorking[i]));
    };
    BENCHMARK("to_string_shortest, full range") {
        i = (i + 1) % kN;
        return fx::to_string_shortest(fx::Scalar::from_raw(kFull[i]));
    };
    BENCHMARK("to_string_exact, full range") {
        i = (i + 1) % kN;
        return fx::to_string_exact(fx::Scalar::from_raw(kFull[i]));
    };
}
