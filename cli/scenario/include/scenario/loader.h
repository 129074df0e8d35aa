// Scenario loader: reads a YAML scenario file (schema: docs/scenarios.md) and the files it
// references (Wavefront OBJ meshes, CSV input recordings) into a harness::Scenario.
//
// Every number goes from the text to fixed point through fx::parse_decimal (never through
// floating point); integers are parsed exactly with range checks. Values outside the bounds of
// docs/numeric.md are rejected, so a loaded scenario cannot overflow the simulation.
//
// Errors are values: on failure the loader returns false and fills exactly one LoadError that
// names the file, 1-based line and column, the key path inside the document and what was
// expected and found, e.g.
//   scenarios/x.yaml:12:22: world[3].box.half_extents[1]: expected a positive number of metres,
//   found '-1'
// Errors in a referenced file name that file and its own line and column. The catalogue of
// messages is in docs/scenarios.md.
#pragma once

#include "kcc/scenario_limits.h"

#include <cstdint>
#include <string>

#include "scenario/scenario.h"

namespace fx::harness {

/// Limits on hostile input (docs/bad-inputs.md). A scenario file (and the scenario of a
/// same_as expectation) of more than kMaxScenarioBytes is refused by its size before it is
/// parsed: yaml-cpp needs about 470 bytes of memory and 2.5 us per node, so a file of the
/// smallest nodes costs at most about 0.5 GB and 3 s.
inline constexpr uint64_t kMaxScenarioBytes = kcc::limits::kMaxScenarioBytes; // 2 MiB
/// Referenced OBJ meshes and input CSVs (read by the loader's own parsers): 256 MiB, enough for a
/// CSV of 10,000,000 ticks.
inline constexpr uint64_t kMaxReferencedBytes = uint64_t{256} << 20;
/// The walk of a document visits at most max(kMinNodeBudget, the text's size in bytes) nodes
/// (sequence items and mapping keys), counting an aliased node each time it is used. yaml-cpp
/// never copies an aliased node, but the walk repeats it; without aliases every node takes at
/// least 2 bytes of text, so only a document whose aliases multiply its content (an alias bomb,
/// the billion laughs) reaches the budget, and the walk stays linear in the file's size.
inline constexpr int64_t kMinNodeBudget = int64_t{1} << 16;

struct LoadError {
    std::string file; ///< display path of the file the error is in
    int line = 0; ///< 1-based; 0 when the error is about the whole file (e.g. unreadable)
    int column = 0; ///< 1-based; 0 with line 0
    std::string
        path; ///< key path in the scenario, e.g. "world[3].box.half_extents[1]"; may be empty
    std::string message;

    /// "file:line:column: path: message"; ": path" is omitted when path is empty and
    /// ":line:column" when line is 0.
    std::string to_string() const;
};

struct LoadOptions {
    /// Permit referenced files outside the scenarios tree (the command line's --allow-outside).
    bool allow_outside = false;
    /// The scenarios tree. Referenced files must resolve inside it (after normalising "." and
    /// ".." and resolving symlinks, std::filesystem::weakly_canonical) unless allow_outside.
    /// Empty: the scenario file's own folder.
    std::string root;
    /// Accept a mesh triangle that repeats another's corners. Scenarios may not (it only costs:
    /// 100,000 stacked copies made a 50-tick run take 25 s, docs/reliability.md); the levels
    /// fuzz_controller decodes may, and its regression tests replay them as found.
    bool allow_repeated_triangles = false;
    /// Read the YAML with the fast reader where it can (docs/scenarios.md, "How scenarios are
    /// read"); false: always with yaml-cpp. The result is the same either way (a test compares
    /// them); the switch is for that test.
    bool fast_yaml_reader = true;
};

/// Loads the scenario at `path` (relative paths inside it resolve against its folder).
/// On success fills *out (Scenario::path = path) and returns true. On failure fills *err,
/// leaves *out untouched and returns false.
bool load_scenario(const std::string& path, const LoadOptions& opts, Scenario* out, LoadError* err);

/// As load_scenario, from text already in memory (tests, tools). `display_path` names the
/// text in messages and becomes Scenario::path; referenced files resolve against `base_dir`
/// (empty: the current directory) and are displayed relative to display_path's folder.
bool load_scenario_text(const std::string& text, const std::string& display_path,
                        const std::string& base_dir, const LoadOptions& opts, Scenario* out,
                        LoadError* err);

} // namespace fx::harness
