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
//   scenarios/x.yaml:12:22: world[3].box.half_extents[1]: expected a positive number of metres, found '-1'
// Errors in a referenced file name that file and its own line and column. The catalogue of
// messages is in docs/scenarios.md.
#pragma once

#include <string>

#include "harness/scenario.h"

namespace fx::harness {

struct LoadError {
    std::string file;   ///< display path of the file the error is in
    int line = 0;       ///< 1-based; 0 when the error is about the whole file (e.g. unreadable)
    int column = 0;     ///< 1-based; 0 with line 0
    std::string path;   ///< key path in the scenario, e.g. "world[3].box.half_extents[1]"; may be empty
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
