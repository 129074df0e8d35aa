// The command line's values that CLI11 cannot check by itself, as functions with tests
// (tests/harness/options_test.cpp): each returns false with a message saying what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commands/commands.h"
#include "commands/option_set.h"

namespace fx::harness {

/// "K/N" with 1 <= K <= N (--shard).
bool parse_shard(std::string_view text, int* k, int* n, std::string* error);

/// "A:B" with 0 <= A <= B, or "A" alone for A:A (--trace-ticks).
bool parse_tick_range(std::string_view text, int64_t* from, int64_t* to, std::string* error);

/// A golden target folder name (x86_64-linux, ...): one path component of letters, digits, '.',
/// '_' and '-', so that --target cannot point the goldens outside --golden-dir ("../x", "/etc").
bool valid_target_name(std::string_view name);

/// desync's one or two inputs: a scenario (run by both sides), a scenario and a golden hash file
/// (.yaml/.yml first), or two hash files.
void assign_desync_inputs(const std::vector<std::string>& inputs, DesyncCommand* cmd);

/// The sides of desync and shrink: a side not given is this program (`self`). For shrink, only
/// when any side option is given (a desync shrink); otherwise both stay empty (check failures).
void default_desync_sides(const std::string& self, DesyncCommand* cmd);
void default_shrink_sides(const std::string& self, ShrinkCommand* cmd);

/// Whether the CI environment variable's value says "this is CI" (bless then refuses): set and
/// not empty, "0", "false", "no" or "off" (any case).
bool ci_is_set(const char* value);

/// This program's path as invoked, made absolute (argv[0] when that fails).
std::string self_path(const char* argv0);

/// The options every suite command shares (scenarios, goldens, target, filter, shard).
void add_suite_options(OptionSet& options, SuiteOptions* suite);

/// --side-timeout SECONDS (desync, shrink, swarm): 1 to 10^6, or 0 (the default) for a limit
/// derived from the scenario (side_limit_ms).
void add_side_timeout(OptionSet& options, int64_t* seconds);
/// The time limit of a side's run of `sc` in ms: `seconds` when given, else side_timeout_ms() of
/// its ticks times its characters (forensics/sides.h).
int64_t side_limit_ms(int64_t seconds, const Scenario& sc);

} // namespace fx::harness
