// Micro-benchmarks of fx/trig.h: ns per call. Inputs cycle through arrays of varied values so
// the compiler cannot fold them; results are returned to Catch so they are not discarded.
#include <catch2/catch.hpp>

#include "bench_inputs.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "fx/trig.h"

namespace {

using fxbench::kN;
using fxbench::make_raws;

// Angles in (-8, 8) rad (about +-2.5 turns): the usual case.
const auto kAngles =
    make_raws(11, [](uint64_t s) { return static_cast<int64_t>(s >> 28) - (int64_t{1} << 35); });
// Angles across the whole raw range (|x| up to 2^31 rad): the worst case for range reduction.
const auto kHugeAngles = make_raws(12, [](uint64_t s) { return static_cast<int64_t>(s); });
// Degrees in (-1024, 1024).
const auto kDegrees =
    make_raws(13, [](uint64_t s) { return static_cast<int64_t>(s >> 22) - (int64_t{1} << 41); });
// Vector components of a few metres to a few hundred metres, either sign.
const auto kX =
    make_raws(14, [](uint64_t s) { return static_cast<int64_t>(s >> 23) - (int64_t{1} << 40); });
const auto kY =
    make_raws(15, [](uint64_t s) { return static_cast<int64_t>(s >> 24) - (int64_t{1} << 39); });
// Values in [-1, 1] (cosines of angles between normals).
const auto kUnit = make_raws(16, [](uint64_t s) {
    return static_cast<int64_t>(s % ((uint64_t{1} << 33) + 1)) - (int64_t{1} << 32);
});

fx::Scalar at(const std::array<int64_t, kN>& a, std::size_t i) {
    return fx::Scalar::from_raw(a[i]);
}

} // namespace

TEST_CASE("bench: trig", "[.bench][math][trig]") {
    std::size_t i = 0;
    BENCHMARK("sin") {
        i = (i + 1) % kN;
        return fx::sin(at(kAngles, i));
    };
    BENCHMARK("cos") {
        i = (i + 1) % kN;
        return fx::cos(at(kAngles, i));
    };
    BENCHMARK("sincos") {
        i = (i + 1) % kN;
        return fx::sincos(at(kAngles, i));
    };
    BENCHMARK("sin, |x| up to 2^31") {
        i = (i + 1) % kN;
        return fx::sin(at(kHugeAngles, i));
    };
    BENCHMARK("sincos_deg") {
        i = (i + 1) % kN;
        return fx::sincos_deg(at(kDegrees, i));
    };
    BENCHMARK("atan2") {
        i = (i + 1) % kN;
        return fx::atan2(at(kY, i), at(kX, i));
    };
    BENCHMARK("asin") {
        i = (i + 1) % kN;
        return fx::asin(at(kUnit, i));
    };
    BENCHMARK("acos") {
        i = (i + 1) % kN;
        return fx::acos(at(kUnit, i));
    };
    BENCHMARK("deg_to_rad") {
        i = (i + 1) % kN;
        return fx::deg_to_rad(at(kDegrees, i));
    };
    BENCHMARK("rad_to_deg") {
        i = (i + 1) % kN;
        return fx::rad_to_deg(at(kAngles, i));
    };
}
