// Helpers shared by the harness unit tests: whole-file reads and writes, and scenario loads that
// must succeed or must fail. (One definition here: the tests are compiled in batches,
// cmake/FxUnity.cmake, where two files' helpers of the same name would collide.)
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fx/scalar.h"
#include "scenario/loader.h"

namespace fxtest {

/// The folder of the harness tests' data files (tests/harness/data).
inline std::string harness_data_dir() {
#ifdef FX_HARNESS_TEST_DATA
    return FX_HARNESS_TEST_DATA;
#else
    return std::filesystem::absolute(std::filesystem::path(__FILE__).parent_path() / "data")
        .string();
#endif
}

/// The whole file, bytes as they are ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Writes `text` as the whole file.
inline void spit(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// n / d, rounded as the scenario reader rounds a decimal.
inline fx::Scalar r(int64_t n, int64_t d) {
    return fx::Scalar::ratio(n, d);
}

/// Loads scenario text that must be valid (relative files resolve against `base`).
inline fx::harness::Scenario load_ok(const std::string& yaml,
                                     const std::string& base = harness_data_dir(),
                                     fx::harness::LoadOptions opts = {}) {
    fx::harness::Scenario s;
    fx::harness::LoadError e;
    const bool ok = fx::harness::load_scenario_text(yaml, "scenarios/x.yaml", base, opts, &s, &e);
    INFO(e.to_string());
    REQUIRE(ok);
    return s;
}

/// Loads scenario text that must be rejected; returns the message. The output scenario must be
/// left as it was.
inline std::string load_err(const std::string& yaml, const std::string& base = harness_data_dir(),
                            fx::harness::LoadOptions opts = {}) {
    fx::harness::Scenario s;
    s.name = "untouched";
    fx::harness::LoadError e;
    const bool ok = fx::harness::load_scenario_text(yaml, "scenarios/x.yaml", base, opts, &s, &e);
    REQUIRE_FALSE(ok);
    CHECK(s.name == "untouched");
    return e.to_string();
}

} // namespace fxtest
