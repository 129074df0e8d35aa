// The command table: one line per subcommand, in the order `fxkcc --help` lists them.
#include "subcommands.h"

namespace fx::harness {
namespace {

#define FX_EXIT_HEAD "Exit codes (as git bisect run reads them):\n"
#define FX_EXIT_BAD                                                                                \
    "  2    bad usage or bad input (one line: file:line:column: what was expected), nothing written\n"
#define FX_EXIT_WRITE "  125  cannot test: an output cannot be written\n"

const CommandEntry kCommands[] = {
    {"run", "Run one scenario: summary, and optionally hashes, CSV, trace", make_run_subcommand,
     FX_EXIT_HEAD
     "  0    ran; every expectation and invariant held\n"
     "  1    an expectation or an invariant failed (the outputs are still written)\n" FX_EXIT_BAD
         FX_EXIT_WRITE},
    {"bench", "Cost of a character-tick: timed runs, queries per tick, phases",
     make_bench_subcommand, FX_EXIT_HEAD "  0    measured\n" FX_EXIT_BAD FX_EXIT_WRITE},
    {"desync",
     "Where two runs part: first divergent tick, character, fields, first differing solver step",
     make_desync_subcommand,
     FX_EXIT_HEAD "  0    no desync: every recorded tick's hashes agree\n"
                  "  1    a desync, reported (and bundled with --bundle)\n" FX_EXIT_BAD
                  "  125  a side could not run, or the bundle cannot be written\n"},
    {"verify", "Verify scenarios against this target's goldens", make_verify_subcommand,
     FX_EXIT_HEAD
     "  0    every golden matched and every expectation and invariant held\n"
     "  1    a golden mismatched, is stale or missing, or a check failed\n"
     "       (with --orphans fail: also a golden whose scenario no longer exists)\n" FX_EXIT_BAD
     "  125  cannot test: a report or a pending golden cannot be written\n"},
    {"bless",
     "Regenerate goldens for this target, or write them pending for review (regenerating is refused when CI is set)",
     make_bless_subcommand,
     FX_EXIT_HEAD "  0    blessed (or written pending)\n"
                  "  2    bad usage or bad input, refused (CI, another target), nothing written\n"
                  "  125  a golden cannot be written, or the golden folder cannot be locked\n"},
    {"review",
     "Show pending goldens (bless --pending, verify --pending-dir) against the accepted ones; accept or reject",
     make_review_subcommand,
     FX_EXIT_HEAD
     "  0    shown, accepted or rejected (also: nothing pending)\n"
     "  2    a pending golden is unreadable, altered or stale (nothing accepted), a NAME names no\n"
     "       pending golden, or bad usage\n"
     "  125  a golden cannot be written\n"},
    {"diff",
     "First divergence between two hash files, two trajectory CSVs, or a scenario's run and a hash file",
     make_diff_subcommand,
     FX_EXIT_HEAD
     "  0    identical\n  1    they differ (the first divergence is printed)\n" FX_EXIT_BAD},
    {"compare-goldens",
     "Prove every target captured identical goldens (golden/<target>/), naming any difference",
     make_compare_goldens_subcommand,
     FX_EXIT_HEAD
     "  0    every target's goldens are identical\n"
     "  1    a difference (scenario, target, first tick) or a golden missing on a target\n"
     "  2    bad usage, or a golden unreadable\n"},
    {"list", "List scenarios: name, ticks, characters, path, description", make_list_subcommand,
     FX_EXIT_HEAD "  0    listed\n" FX_EXIT_BAD},
    {"validate", "Load and check scenarios without running them", make_validate_subcommand,
     FX_EXIT_HEAD
     "  0    every scenario loads\n  2    a scenario does not (each error printed), or bad usage\n"},
    {"plot",
     "SVG of the level and one or two trajectories: top and side views, first divergence, capsules",
     make_plot_subcommand,
     FX_EXIT_HEAD
     "  0    the picture is written (whether or not two trajectories differ)\n" FX_EXIT_BAD
         FX_EXIT_WRITE},
    {"shrink",
     "Reduce a failing scenario (expectation, invariant, or a desync of two sides) to a smaller one",
     make_shrink_subcommand,
     FX_EXIT_HEAD "  0    shrunk, written and re-checked\n"
                  "  2    bad input, or the scenario does not fail (the sides do not diverge)\n"
                  "  125  a side could not run, or the output cannot be written\n"},
    {"synctest",
     "Roll back N ticks at every tick and simulate again: snapshot and restore must give the same bits",
     make_synctest_subcommand,
     FX_EXIT_HEAD "  0    every re-simulated tick identical\n"
                  "  1    a desync after a rollback (tick, character, fields)\n" FX_EXIT_BAD},
    {"swarm",
     "Generate runs from a seed, check them with oracles that do not trust the solver, shrink what fails",
     make_swarm_subcommand,
     FX_EXIT_HEAD
     "  0    every oracle held on every run\n"
     "  1    a finding (each shrunk, written with --out, and printed with its reproduction)\n"
     "  2    bad usage (an unknown feature, options that do not go together)\n"
     "  125  cannot test: an output cannot be written, or a side cannot run\n"},
};

#undef FX_EXIT_HEAD
#undef FX_EXIT_BAD
#undef FX_EXIT_WRITE

} // namespace

std::span<const CommandEntry> command_table() {
    return kCommands;
}

const CommandEntry* find_command(std::string_view name) {
    for (const CommandEntry& c : kCommands) {
        if (name == c.name) return &c;
    }
    return nullptr;
}

} // namespace fx::harness
