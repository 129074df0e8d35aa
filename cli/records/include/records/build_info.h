// What this build is: the target it runs on, the compiler and flags that built it, the
// numeric format and the versions that decide whether two runs can be compared. Printed by
// --version and written into every golden's header as its provenance.
#pragma once

#include <string>

#include "kcc/version.h"

namespace fx::harness {

struct BuildInfo {
    std::string target; ///< "<arch>-<os>", e.g. x86_64-linux, aarch64-linux, wasm32-emscripten
    std::string compiler; ///< e.g. gcc-12.2.0, clang-14.0.6
    std::string flags; ///< build type and optimisation flags
    std::string wide; ///< 128-bit backend: int128 or portable
    bool checked = false; ///< FX_CHECKED build
    /// The source it was built from: the git commit ("unknown" when not built from a git
    /// checkout, or in a program that did not set it), and whether tracked files differed from
    /// it. Not part of any golden (goldens would change with every commit): --version and the
    /// desync bundle's version files carry it.
    std::string commit = "unknown";
    bool dirty = false;
};

const BuildInfo& build_info();

/// Sets build_info()'s commit and dirty flag: fxkcc's main, from the header generated at build
/// time (cmake/FxSourceInfo.cmake), before anything else runs.
void set_source_info(const char* commit, bool dirty);

/// Engine name and version; behaviour version (kcc/version.h: bumped with every intended
/// change of results; the changes are listed in docs/controller.md, "Behaviour versions").
inline constexpr const char* kEngine = "fxkcc 0.1.0";
using kcc::kBehaviourVersion;

/// The text of --version.
std::string version_text();

} // namespace fx::harness
