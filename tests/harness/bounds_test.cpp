// The bounds generator (issue 17, item 5): random scenarios at the documented bounds of the
// loader (docs/numeric.md, "Bounds that scenario loading enforces"): shapes up to their largest
// sizes and farthest coordinates, characters with every length setting anywhere up to its
// bound (radius, height, skin, probe, snap, step, depenetration: at most 1000 m each), speeds,
// accelerations and tick rates up to theirs. Every scenario the loader accepts must run without
// an arithmetic overflow: on a checked build (FX_CHECKED: the i686 leg of the test command) an
// overflow is a failure of the run (run_checked). Unchecked builds cannot see one, and skip.
//
// The test command runs 300 scenarios; scripts/test-extended.sh 10,000 (FX_BOUNDS_SCENARIOS).
// By hand, on a checked build:
//   cmake -S . -B /tmp/bc -G Ninja -DCMAKE_BUILD_TYPE=Release -DFX_CHECKED=ON
//   cmake --build /tmp/bc --target fx_harness_tests
//   FX_BOUNDS_SCENARIOS=10000 /tmp/bc/tests/harness/fx_harness_tests "[bounds]"
// FX_BOUNDS_SCENARIOS sets the count (default 300); FX_BOUNDS_PRINT=1 prints each failing
// scenario's YAML, FX_BOUNDS_REFUSALS=1 each refusal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "fx/overflow.h"
#include "run/checks.h"
#include "scenario/loader.h"
#include "test_support.h"

using namespace fx;
using namespace fx::harness;

namespace {

int64_t scenario_count() {
    const char* v = std::getenv("FX_BOUNDS_SCENARIOS");
    return v != nullptr && *v != '\0' ? std::atoll(v) : 300;
}

/// A value in [lo, hi], often at either end or near the low one.
double pick(fxtest::Rng& rng, double lo, double hi) {
    switch (rng.next() % 8) {
    case 0:
        return lo;
    case 1:
        return hi;
    case 2:
        return lo + (hi - lo) * 1e-3 * static_cast<double>(rng.next() % 1001);
    default:
        return lo + (hi - lo) * static_cast<double>(rng.next() % 1000001) / 1e6;
    }
}

/// Decimal text with 6 fractional digits, never beyond [lo, hi] once rounded.
std::string text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    return buf;
}

struct P {
    double x, y, z;
};

std::string text(const P& p) {
    return "[" + text(p.x) + ", " + text(p.y) + ", " + text(p.z) + "]";
}

P around(fxtest::Rng& rng, const P& c, double spread) {
    return {pick(rng, c.x - spread, c.x + spread), pick(rng, c.y - spread, c.y + spread),
            pick(rng, c.z - spread, c.z + spread)};
}

/// A level around `c`: a plane and a few shapes up to their bounds (sizes up to 100 km, capsule
/// segments and triangle edges up to 30 km), all within the coordinate bound.
std::string world(fxtest::Rng& rng, const P& c) {
    std::string w = "world:\n";
    int id = 1;
    const P n{pick(rng, -1, 1), pick(rng, 0.1, 1), pick(rng, -1, 1)};
    w += "  - plane: {id: " + std::to_string(id++) + ", normal: " + text(n) +
         ", offset: " + text(pick(rng, -1000, 1000)) + "}\n";
    const int shapes = 1 + static_cast<int>(rng.next() % 6);
    for (int i = 0; i < shapes; ++i) {
        const double size = rng.next() % 2 ? 100000.0 : 50.0;
        switch (rng.next() % 4) {
        case 0:
            w += "  - box: {id: " + std::to_string(id++) +
                 ", center: " + text(around(rng, c, 1000)) + ", half_extents: " +
                 text(P{pick(rng, 0.001, size), pick(rng, 0.001, size), pick(rng, 0.001, size)}) +
                 ", rotation: " +
                 text(P{pick(rng, -180, 180), pick(rng, -180, 180), pick(rng, -180, 180)}) + "}\n";
            break;
        case 1:
            w += "  - sphere: {id: " + std::to_string(id++) +
                 ", center: " + text(around(rng, c, 1000)) +
                 ", radius: " + text(pick(rng, 0.001, size)) + "}\n";
            break;
        case 2: {
            const P a = around(rng, c, 1000);
            const double seg = rng.next() % 2 ? 17000.0 : 5.0; // |b - a| up to 29.4 km
            w += "  - capsule: {id: " + std::to_string(id++) + ", a: " + text(a) +
                 ", b: " + text(around(rng, a, seg)) + ", radius: " + text(pick(rng, 0.001, size)) +
                 "}\n";
            break;
        }
        default: {
            const double e = rng.next() % 2 ? 8000.0 : 10.0; // edges up to 27.7 km
            const P o = around(rng, c, 1000);
            w += "  - mesh: {id: " + std::to_string(id++) + ", vertices: [" +
                 text(around(rng, o, e)) + ", " + text(around(rng, o, e)) + ", " +
                 text(around(rng, o, e)) + ", " + text(around(rng, o, e)) +
                 "], triangles: [[0, 1, 2], [0, 2, 3]]}\n";
        }
        }
    }
    return w;
}

/// Settings anywhere up to their bounds (lengths up to 1000 m), consistent with each other.
std::string settings(fxtest::Rng& rng) {
    std::string s = "{";
    auto add = [&](const char* key, const std::string& value) {
        if (s.size() > 1) s += ", ";
        s += std::string(key) + ": " + value;
    };
    const bool big = rng.next() % 2 != 0;
    const double cap = 1000.0; // kcc::kMaxSettingLengthMetres
    // Rounded to the 6 digits written, so that height >= 2 radius holds for the text too. The
    // height is at most `cap`, so the radius at most half of it.
    const double radius = std::round(pick(rng, 0.01, big ? cap / 2 : 2.0) * 1e6) / 1e6;
    add("radius", text(radius));
    const double room = std::max(cap - 2 * radius, 0.000002);
    add("height",
        text(2 * radius + pick(rng, 0.000001, rng.next() % 2 ? room : std::min(room, 2.0))));
    add("skin", text(radius * pick(rng, 0.001, 0.9)));
    auto length = [&](const char* key, double lo) {
        const double hi = rng.next() % 2 ? cap : 1.0;
        if (rng.next() % 3 != 0) add(key, text(pick(rng, lo, hi)));
    };
    length("probe_distance", 0.0001);
    length("probe_skin", 0);
    length("snap_distance", 0);
    length("depenetration_cap", 0.0001);
    length("step_height", 0);
    length("step_min_forward", 0);
    if (rng.next() % 2) add("max_speed", text(pick(rng, 0, 1000)));
    if (rng.next() % 2) add("ground_accel", text(pick(rng, 0, 10000)));
    if (rng.next() % 2) add("ground_brake", text(pick(rng, 0, 10000)));
    if (rng.next() % 2) add("air_accel", text(pick(rng, 0, 10000)));
    if (rng.next() % 2) add("jump_speed", text(pick(rng, 0, 1000)));
    if (rng.next() % 2) add("gravity", text(pick(rng, 0, 10000)));
    return s + "}";
}

std::string scenario(fxtest::Rng& rng, int64_t ticks) {
    // Levels near the origin and at the far corners of the coordinate range (|x| <= 1e6 m).
    const double far = rng.next() % 3 == 0 ? 1000000.0 - 120000.0 : 0.0;
    const P c{rng.next() % 2 ? far : -far, 0, rng.next() % 2 ? far : -far};
    std::string t = "format: 1\nname: bounds\ndescription: d\ntick_rate: " +
                    std::to_string(1 + rng.next() % 1000) + "\nticks: " + std::to_string(ticks) +
                    "\n" + world(rng, c) + "characters:\n";
    const int characters = 1 + static_cast<int>(rng.next() % 3);
    for (int i = 1; i <= characters; ++i) {
        t += "  - id: " + std::to_string(i) + "\n    spawn: " + text(around(rng, c, 100)) +
             "\n    settings: " + settings(rng) +
             "\n    input:\n      segments: [{ticks: " + std::to_string(ticks) + ", stick: [" +
             text(pick(rng, -1, 1)) + ", " + text(pick(rng, -1, 1)) + "]}]\n      jumps: [" +
             std::to_string(rng.next() % ticks) +
             "]\n      impulses: [{tick: " + std::to_string(rng.next() % ticks) + ", velocity: " +
             text(P{pick(rng, -1000, 1000), pick(rng, -1000, 1000), pick(rng, -1000, 1000)}) +
             "}]\n";
    }
    return t;
}

} // namespace

TEST_CASE("bounds: scenarios at the documented bounds run without an arithmetic overflow",
          "[bounds]") {
    if (!kChecked) {
        WARN("an unchecked build cannot see an overflow: run this on a checked build (FX_CHECKED)");
        return;
    }
    fxtest::Rng rng(20261201);
    const int64_t count = scenario_count();
    const bool print = std::getenv("FX_BOUNDS_PRINT") != nullptr;
    int64_t loaded = 0, overflowed = 0;
    std::string first;
    for (int64_t i = 0; i < count; ++i) {
        const std::string yaml = scenario(rng, 20 + static_cast<int64_t>(rng.next() % 20));
        Scenario sc;
        LoadError err;
        if (!load_scenario_text(yaml, "bounds.yaml", ".", LoadOptions{}, &sc, &err)) {
            if (std::getenv("FX_BOUNDS_REFUSALS") != nullptr)
                std::fprintf(stderr, "refused: %s\n", err.to_string().c_str());
            continue;
        }
        ++loaded;
        CheckReport report;
        std::string error;
        const bool ran = run_checked(sc, nullptr, RunOptions{}, &report, &error);
        bool overflow = !ran && error.find("overflow") != std::string::npos;
        for (const CheckFailure& f : report.failures)
            overflow = overflow || f.message.find("overflow") != std::string::npos;
        if (!overflow) continue;
        ++overflowed;
        std::string what = error;
        for (const CheckFailure& f : report.failures) {
            if (f.message.find("overflow") != std::string::npos) what = f.message;
        }
        if (first.empty()) first = "scenario " + std::to_string(i) + ": " + what + "\n" + yaml;
        if (print)
            std::fprintf(stderr, "--- scenario %lld: %s\n%s", static_cast<long long>(i),
                         what.c_str(), yaml.c_str());
    }
    INFO("loaded " << loaded << " of " << count << " scenarios; " << overflowed
                   << " overflowed; the first:\n"
                   << first);
    CHECK(loaded > count / 4); // the generator reaches the bounds, not only refusals
    CHECK(overflowed == 0);
}
