// `fxkcc bench`: the cost of a character-tick on a scenario (forensics/bench.h,
// docs/performance.md), as text and optionally JSON.
#include <fmt/format.h>

#include <algorithm>

#include "forensics/bench.h"
#include "kcc/motion.h"
#include "records/atomic_file.h"
#include "records/json.h"
#include "subcommands.h"

namespace fx::harness {

int bench_command(const BenchCommand& cmd, std::ostream& out, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(cmd.scenario, cmd.allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    if (cmd.repeat < 1) {
        err << fmt::format("fxkcc bench: --repeat: expected at least 1, found {}\n", cmd.repeat);
        return kExitBadInput;
    }
    if (!cmd.json_path.empty()) {
        if (const std::string conflict = output_conflict({{"--json", cmd.json_path}}, sc.inputs);
            !conflict.empty()) {
            err << "fxkcc bench: " << conflict << "\n";
            return kExitBadInput;
        }
    }
    BenchResult r;
    if (!bench_scenario(sc, cmd.warmup, cmd.repeat, &r, &error)) {
        err << "fxkcc bench: " << error << "\n";
        return kExitBadInput;
    }
    const double ct = static_cast<double>(std::max<int64_t>(r.counted_character_ticks, 1));
    const QueryCounts& q = r.queries;
    const auto per = [ct](int64_t n) { return static_cast<double>(n) / ct; };
    const int64_t total_queries =
        q.overlaps + q.probe_casts + q.slide_sweeps + q.step_casts + q.snap_casts;
    // The world's memory per character: its state, its settings (with the derived limits), what
    // it keeps between ticks, and the world's scratch for it (World::scratch_bytes_per_character).
    // Allocations are not counted here: the controller test "a built world steps without
    // allocating" proves there are none per tick.
    constexpr size_t kStateBytes = sizeof(kcc::CharacterState), kParamsBytes = sizeof(kcc::Params),
                     kMemoBytes = sizeof(kcc::TickCache);
    const size_t kScratchBytes = kcc::World::scratch_bytes_per_character();
    std::string o = fmt::format(
        "{}: {} ticks x {} characters = {} character-ticks, {} timed runs after {} warm-up\n"
        "ns per character-tick: median {:.1f}, min {:.1f}, max {:.1f}\n"
        "queries per character-tick: overlap {:.3f}, probe cast {:.3f}, slide sweep {:.3f}, step cast {:.3f}, "
        "snap cast {:.3f} (total {:.3f}; answered from the last tick's cast: overlap {:.3f}, probe {:.3f}, of them "
        "with a cast against the other characters near {:.3f}; "
        "step attempts {:.3f}; slide sweeps stopped by another character {:.3f})\n"
        "world memory per character: {} bytes (state {}, settings {}, kept between ticks {}, the world's scratch {})\n"
        "time per phase (share of the solve, measured with a clock read per trace event):\n",
        sc.name, sc.ticks, character_ids(sc).size(), r.character_ticks, cmd.repeat, cmd.warmup,
        r.median_ns, r.min_ns, r.max_ns, per(q.overlaps), per(q.probe_casts), per(q.slide_sweeps),
        per(q.step_casts), per(q.snap_casts), per(total_queries), per(q.overlaps_reused),
        per(q.probes_reused), per(q.probes_bodies_cast), per(q.step_attempts), per(q.body_sweeps),
        kStateBytes + kParamsBytes + kMemoBytes + kScratchBytes, kStateBytes, kParamsBytes,
        kMemoBytes, kScratchBytes);
    int64_t total = 0;
    for (int64_t v : r.phase_ns)
        total += v;
    for (int p = 0; p < kPhaseCount; ++p) {
        const int64_t ns = r.phase_ns[static_cast<size_t>(p)];
        const double share =
            total > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(total) : 0;
        o +=
            fmt::format("  {:<24}{:>6.1f} %  ({:.1f} ns per character-tick with the clock reads)\n",
                        kPhaseNames[p], share, per(ns));
    }
    out << o;
    if (!cmd.json_path.empty()) {
        // Wall-clock times to the nanosecond's thousandth, query rates to four places.
        const auto fixed = [](double v, int places) {
            return json_decimal(fmt::format("{:.{}f}", v, places));
        };
        Json doc = Json::object(
            {{"scenario", sc.name},
             {"character_ticks", r.character_ticks},
             {"repeat", cmd.repeat},
             {"ns_per_character_tick", Json::object({{"median", fixed(r.median_ns, 3)},
                                                     {"min", fixed(r.min_ns, 3)},
                                                     {"max", fixed(r.max_ns, 3)}})},
             {"queries_per_character_tick",
              Json::object({{"overlap", fixed(per(q.overlaps), 4)},
                            {"probe_cast", fixed(per(q.probe_casts), 4)},
                            {"slide_sweep", fixed(per(q.slide_sweeps), 4)},
                            {"step_cast", fixed(per(q.step_casts), 4)},
                            {"snap_cast", fixed(per(q.snap_casts), 4)},
                            {"overlap_reused", fixed(per(q.overlaps_reused), 4)},
                            {"probe_reused", fixed(per(q.probes_reused), 4)},
                            {"probe_reused_bodies_cast", fixed(per(q.probes_bodies_cast), 4)}})}});
        doc.set("world_bytes_per_character",
                kStateBytes + kParamsBytes + kMemoBytes + kScratchBytes);
        const std::string j = dump_json(doc);
        if (!write_file_atomic(cmd.json_path, j, &error)) {
            err << "fxkcc bench: " << error << "\n";
            return kExitCannotTest;
        }
    }
    return kExitOk;
}

/// Runs the scenario once with no observer and no output, for instruction counts under
/// callgrind (scripts/bench-callgrind.sh toggles collection around World::step).
int bench_once(const std::string& scenario, bool allow_outside, std::ostream& err) {
    Scenario sc;
    std::string error;
    if (!load_single_scenario(scenario, allow_outside, &sc, &error)) {
        err << error << "\n";
        return kExitBadInput;
    }
    if (!run_once(sc, &error)) {
        err << "fxkcc bench: " << error << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

namespace {

class BenchSubcommand final : public Subcommand {
public:
    void declare(OptionSet& app) override {
        app.add("scenario", &cmd_.scenario, "Scenario file").required();
        app.add("--repeat", &cmd_.repeat, "Timed runs").show_default();
        app.add("--warmup", &cmd_.warmup, "Untimed runs first")
            .show_default()
            .range(0, std::numeric_limits<int>::max());
        app.add("--json", &cmd_.json_path, "Also write the figures as JSON");
        app.flag("--once", &cmd_.once,
                 "One untimed run only (for callgrind: scripts/bench-callgrind.sh)");
        app.flag("--allow-outside", &cmd_.allow_outside,
                 "Let the scenario reference files outside its tree");
    }
    int run(const Invocation& inv) override {
        if (cmd_.once && !cmd_.json_path.empty()) {
            inv.err << "fxkcc bench: --once makes one untimed run and measures nothing: --json "
                       "does not go with it\n";
            return kExitBadInput;
        }
        return cmd_.once ? bench_once(cmd_.scenario, cmd_.allow_outside, inv.err)
                         : bench_command(cmd_, inv.out, inv.err);
    }

private:
    BenchCommand cmd_;
};

} // namespace

std::unique_ptr<Subcommand> make_bench_subcommand() {
    return std::make_unique<BenchSubcommand>();
}

} // namespace fx::harness
