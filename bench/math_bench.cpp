// Micro-benchmarks of the fixed-point core: ns per operation. Inputs come from an array so the
// compiler cannot fold them; results are returned to Catch so they are not discarded.
#include <catch2/catch.hpp>

#include "bench_inputs.h"

#include <array>
#include <cstdint>

#include "fx/scalar.h"
#include "fx/sqrt.h"
#include "fx/vec3.h"

namespace {

using fxbench::kN;
using fxbench::make_raws;

// Values of a few metres to a few hundred metres, either sign: the controller's working range.
const auto kA =
    make_raws(1, [](uint64_t s) { return static_cast<int64_t>(s >> 23) - (int64_t{1} << 40); });
const auto kB =
    make_raws(2, [](uint64_t s) { return static_cast<int64_t>(s >> 26) + (int64_t{1} << 30); });

} // namespace

TEST_CASE("bench: scalar", "[.bench][math]") {
    std::size_t i = 0;
    BENCHMARK("mul") {
        i = (i + 1) % kN;
        return fx::Scalar::from_raw(kA[i]) * fx::Scalar::from_raw(kB[i]);
    };
    BENCHMARK("div") {
        i = (i + 1) % kN;
        return fx::Scalar::from_raw(kA[i]) / fx::Scalar::from_raw(kB[i]);
    };
    BENCHMARK("sqrt") {
        i = (i + 1) % kN;
        return fx::sqrt(fx::Scalar::from_raw(kB[i]));
    };
    BENCHMARK("rsqrt") {
        i = (i + 1) % kN;
        return fx::rsqrt(fx::Scalar::from_raw(kB[i]));
    };
}

TEST_CASE("bench: vec3", "[.bench][math]") {
    std::size_t i = 0;
    auto vec = [](std::size_t k) {
        return fx::Vec3{fx::Scalar::from_raw(kA[k]), fx::Scalar::from_raw(kB[k]),
                        fx::Scalar::from_raw(kA[(k + 7) % kN])};
    };
    BENCHMARK("dot") {
        i = (i + 1) % kN;
        return fx::dot(vec(i), vec((i + 1) % kN));
    };
    BENCHMARK("cross") {
        i = (i + 1) % kN;
        return fx::cross(vec(i), vec((i + 1) % kN));
    };
    BENCHMARK("length") {
        i = (i + 1) % kN;
        return fx::length(vec(i));
    };
    BENCHMARK("normalize") {
        i = (i + 1) % kN;
        return fx::normalize(vec(i));
    };
}
