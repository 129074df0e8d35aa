// Catch2 v3 under Catch2 v2's header name. The tests are written against v2's single header
// (Debian 12's catch2 2.13, and FX_FETCH_DEPS pins v2.13.10); Ubuntu 24.04 and Homebrew ship v3,
// which has no catch2/catch.hpp. cmake/FxDependencies.cmake puts this folder on the include path
// only when the Catch2 it found is v3, so with v2 this file is never seen.
#pragma once

#include <catch2/catch_approx.hpp>
#include <catch2/catch_message.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#ifdef CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/benchmark/catch_benchmark.hpp>
#endif

// v2 has Approx in the global namespace; v3 only as Catch::Approx.
using Catch::Approx;
