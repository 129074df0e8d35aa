// Versions of the controller a game embeds (docs/embedding.md): the library's own version and
// the behaviour version, bumped with every intended change of results (the changes are listed
// in docs/controller.md, "Behaviour versions"). Goldens record the behaviour version they were
// captured with; a world stepped by a library of another behaviour version computes other bits.
#pragma once

namespace fx::kcc {

inline constexpr int kVersionMajor = 0;
inline constexpr int kVersionMinor = 1;
inline constexpr int kVersionPatch = 0;
inline constexpr int kBehaviourVersion = 18;

} // namespace fx::kcc
