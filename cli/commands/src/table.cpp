// The command table: one line per subcommand, in the order `fxkcc --help` lists them.
#include "subcommands.h"

namespace fx::harness {
namespace {

const CommandEntry kCommands[] = {
    {"run", "Run one scenario: summary, and optionally hashes, CSV, trace", make_run_subcommand},
    {"bench", "Cost of a character-tick: timed runs, queries per tick, phases", make_bench_subcommand},
    {"desync", "Where two runs part: first divergent tick, character, fields, first differing solver step",
     make_desync_subcommand},
    {"verify", "Verify scenarios against this target's goldens", make_verify_subcommand},
    {"bless", "Regenerate goldens for this target, or write them pending for review (regenerating is refused when CI is set)",
     make_bless_subcommand},
    {"review", "Show pending goldens (bless --pending, verify --pending-dir) against the accepted ones; accept or reject",
     make_review_subcommand},
    {"diff", "First divergence between two hash files, two trajectory CSVs, or a scenario's run and a hash file",
     make_diff_subcommand},
    {"compare-goldens", "Prove every target captured identical goldens (golden/<target>/), naming any difference",
     make_compare_goldens_subcommand},
    {"list", "List scenarios: name, ticks, characters, path, description", make_list_subcommand},
    {"validate", "Load and check scenarios without running them", make_validate_subcommand},
    {"plot", "SVG of the level and one or two trajectories: top and side views, first divergence, capsules",
     make_plot_subcommand},
    {"shrink", "Reduce a failing scenario (expectation, invariant, or a desync of two sides) to a smaller one",
     make_shrink_subcommand},
};

} // namespace

std::span<const CommandEntry> command_table() { return kCommands; }

const CommandEntry* find_command(std::string_view name) {
    for (const CommandEntry& c : kCommands) {
        if (name == c.name) return &c;
    }
    return nullptr;
}

} // namespace fx::harness
