// Private to the loader: the referenced text formats, Wavefront OBJ meshes and CSV input
// recordings (docs/scenarios.md). Both throw detail::Failure naming `file` and the line and
// column inside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"

namespace fx::harness::detail {

/// `v x y z` and `f a b c ...` (1-based or negative relative indices, `a/b/c` forms, polygons
/// fan-triangulated); comments and vn, vt, vp, o, g, s, usemtl, mtllib, l, p ignored.
void parse_obj(std::string_view text, const std::string& file, std::vector<Vec3>* vertices,
               std::vector<uint32_t>* indices);

/// Header `tick,stick_x,stick_y,jump[,impulse_x,impulse_y,impulse_z]`, then one row per tick,
/// ticks consecutive from 0 and below `ticks`.
void parse_input_csv(std::string_view text, const std::string& file, int64_t ticks,
                     InputStream* out);

} // namespace fx::harness::detail
