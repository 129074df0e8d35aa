// The scenario loader on raw bytes (tests/fuzz/corpus/loader/: the bundled scenarios and the
// e2e ones). Referenced files resolve against scenarios/conformance/ of the source tree (its
// meshes/ and inputs/ and the other scenarios, for same_as), which is also the scenarios tree.
// Properties:
//   - load_scenario_text never crashes, hangs or runs out of memory: it loads, or returns one
//     error with a message;
//   - a loaded scenario builds its world, and its first two ticks run (FX_CHECKED: no overflow);
//   - writing it back (scenario_to_yaml) gives text that loads again and writes back identically.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_util.h"
#include "run/runner.h"
#include "scenario/loader.h"
#include "scenario/writer.h"

namespace {

using fx::fuzz::require;
using namespace fx::harness;

class NullSink final : public RunSink {
public:
    bool on_tick(int64_t, std::span<const fx::kcc::CharacterState>,
                 std::span<const std::pair<uint32_t, fx::Vec3>>, std::span<const fx::Vec3>,
                 std::string*) override {
        return true;
    }
};

std::string base_dir() {
    const char* env = std::getenv("FXKCC_FUZZ_SCENARIOS");
    return env != nullptr ? std::string(env)
                          : std::string(FX_SOURCE_DIR) + "/scenarios/conformance";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string base = base_dir();
    const std::string text(reinterpret_cast<const char*>(data), size);
    LoadOptions opts;
    opts.root = base;
    Scenario sc;
    LoadError err;
    if (!load_scenario_text(text, "fuzz.yaml", base, opts, &sc, &err)) {
        require(!err.message.empty(), "the loader refused without a message");
        return 0;
    }

    std::string error;
    {
        fx::kcc::World world;
        require(build_world(sc, &world, &error), "a loaded scenario does not build: " + error);
    }
    NullSink sink;
    RunOptions run;
    run.stop_after = 1;
    require(run_scenario(sc, sink, run, &error), "a loaded scenario does not run: " + error);

    const std::string yaml = scenario_to_yaml(sc);
    Scenario again;
    LoadError err2;
    require(load_scenario_text(yaml, "fuzz-written.yaml", base, opts, &again, &err2),
            "the written scenario does not load: " + err2.to_string() + "\n--- written ---\n" +
                yaml);
    const std::string yaml2 = scenario_to_yaml(again);
    require(yaml2 == yaml, "writing the reloaded scenario changed it\n--- first ---\n" + yaml +
                               "--- second ---\n" + yaml2);
    return 0;
}
