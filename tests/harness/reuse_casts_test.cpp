// A tick answers a character's overlap and probe queries from its last tick's downward cast
// when the body has not moved since and only static shapes are around, other characters aside,
// whose hits are cast afresh and merged in (kcc::GroundMemo). That
// must change nothing: every bundled scenario is run with and without it, and every tick's
// state of every character must be the same bytes. The runs with it must also skip many
// queries (or this would compare two runs of the same code).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kcc/state_bytes.h"
#include "run/runner.h"
#include "scenario/loader.h"
#include "test_support.h"

using namespace fx;
using namespace fx::harness;

namespace {

struct StateLog final : RunSink {
    std::vector<uint8_t> bytes;
    bool on_tick(int64_t, std::span<const kcc::CharacterState> chars,
                 std::span<const std::pair<uint32_t, Vec3>>, std::span<const Vec3>,
                 std::string*) override {
        for (const kcc::CharacterState& c : chars) {
            const auto b = kcc::serialize_state(c);
            bytes.insert(bytes.end(), b.begin(), b.end());
        }
        return true;
    }
};

struct ProbeCount final : kcc::TraceObserver {
    int64_t probes = 0, reused = 0, overlaps_skipped = 0;
    void on_event(const kcc::TraceEvent& e) override {
        if (e.kind != kcc::TraceKind::kProbe) return;
        ++probes;
        reused += e.reason >= 1;
        overlaps_skipped +=
            (e.reason & ~kcc::kProbeBodiesCast) == 2; // (other characters' hits merged in or not)
    }
};

} // namespace

TEST_CASE("reused casts: every bundled scenario runs to the same bytes with and without them",
          "[runner][memo]") {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(FX_SCENARIOS_DIR))
        if (entry.is_regular_file() && entry.path().extension() == ".yaml")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 60);
    int64_t probes = 0, reused = 0, skipped = 0, compared = 0;
    for (const std::string& f : files) {
        Scenario sc;
        LoadError err;
        REQUIRE(load_scenario(f, LoadOptions{}, &sc, &err));
        // The two largest (the 90,000-tick soak, the 64-character arena) are left to verify:
        // their goldens were made before reuse existed and still match. The emulated legs
        // (FX_TEST_SCALE below 1) run the smaller scenarios only.
        if (sc.ticks * static_cast<int64_t>(sc.characters.size()) > fxtest::scaled(100000))
            continue;
        INFO(f);
        StateLog with, without;
        ProbeCount count;
        RunOptions on;
        on.observer = &count;
        RunOptions off;
        off.reuse_casts = false;
        std::string error;
        REQUIRE(run_scenario(sc, with, on, &error));
        REQUIRE(run_scenario(sc, without, off, &error));
        // (Compared as one flag: an expanded vector would print megabytes.)
        const bool same_size = with.bytes.size() == without.bytes.size();
        REQUIRE(same_size);
        const auto first =
            std::mismatch(with.bytes.begin(), with.bytes.end(), without.bytes.begin());
        const int64_t first_difference =
            first.first == with.bytes.end() ? -1 : first.first - with.bytes.begin();
        REQUIRE(first_difference == -1);
        probes += count.probes;
        reused += count.reused;
        skipped += count.overlaps_skipped;
        ++compared;
    }
    INFO("probes " << probes << ", reused " << reused << ", overlaps skipped " << skipped);
    CHECK(compared >= (fxtest::test_scale() < 1 ? 20 : 60));
    CHECK(reused * 2 > probes); // most probes are answered from the memo
    CHECK(skipped * 2 > reused); // mostly with the overlap query too
}
