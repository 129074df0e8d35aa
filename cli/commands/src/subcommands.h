// The subcommands' factories (the command table, table.cpp) and what their option declarations
// share. Private to the commands library.
#pragma once

#include <limits>
#include <memory>

#include "commands/command.h"
#include "commands/commands.h"
#include "commands/options.h"
#include "run/verify.h"

namespace fx::harness {

std::unique_ptr<Subcommand> make_run_subcommand();
std::unique_ptr<Subcommand> make_bench_subcommand();
std::unique_ptr<Subcommand> make_desync_subcommand();
std::unique_ptr<Subcommand> make_verify_subcommand();
std::unique_ptr<Subcommand> make_bless_subcommand();
std::unique_ptr<Subcommand> make_review_subcommand();
std::unique_ptr<Subcommand> make_diff_subcommand();
std::unique_ptr<Subcommand> make_compare_goldens_subcommand();
std::unique_ptr<Subcommand> make_list_subcommand();
std::unique_ptr<Subcommand> make_validate_subcommand();
std::unique_ptr<Subcommand> make_plot_subcommand();
std::unique_ptr<Subcommand> make_shrink_subcommand();
std::unique_ptr<Subcommand> make_synctest_subcommand();
std::unique_ptr<Subcommand> make_swarm_subcommand();

/// False (and a message on err naming `command`) when a filter selected no scenario and
/// --allow-empty was not given (verify, bless).
bool filter_matched(const char* command, const SuiteOptions& suite, size_t matched, size_t of,
                    std::ostream& err);

/// False (and a message on err) when two outcomes share a scenario name (verify, bless).
bool unique_names(const std::vector<Outcome>& outcomes, std::ostream& err);

} // namespace fx::harness
