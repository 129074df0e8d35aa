// The loader's shared state and helpers (private to fx_scenario): the walk context, referenced
// files, ids, and the sections of the schema, each in its own file (loader_world.cpp,
// loader_characters.cpp, loader_expect.cpp), called in schema order by load_document
// (loader.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fx/vec3.h"
#include "geo/shapes.h"
#include "kcc/scenario_limits.h"
#include "loader_yaml.h"
#include "records/hash_file.h"
#include "scenario/loader.h"

namespace fx::harness::detail {

namespace fs = std::filesystem;

// The scenario format's bounds, shared with kcc::Recorder (kcc/scenario_limits.h).
constexpr int64_t kMaxId = kcc::limits::kMaxId;
constexpr int64_t kMaxTicks = kcc::limits::kMaxTicks;
constexpr int64_t kMaxCharacters = kcc::limits::kMaxCharacters;
constexpr int64_t kMaxSteps = 200;

struct IdUse {
    std::string path;
    int line = 0;
};

struct Ctx {
    std::string file; ///< display path of the scenario
    fs::path base_dir; ///< where relative references resolve
    fs::path display_dir; ///< folder of `file`, for displaying referenced files
    fs::path root; ///< canonical scenarios tree
    bool allow_outside = false;
    bool allow_repeated_triangles = false; ///< LoadOptions::allow_repeated_triangles
    std::map<uint32_t, IdUse> shape_ids; ///< shapes and platforms
    std::map<uint32_t, IdUse> character_ids;
    int64_t ticks = 0;
    int tick_rate = 50;
    bool nested = false; ///< loading the other scenario of a same_as expectation
    detail::NodeBudget budget; ///< nodes the walk may still visit (Value::spend)
    std::vector<std::string>
        inputs; ///< referenced files read, resolved, each once (Scenario::inputs)
    /// Referenced files by resolved path, each read once however often it is referenced; and
    /// what they parse to (input CSVs, OBJ meshes), parsed once (docs/reliability.md, memory).
    std::map<std::string, std::shared_ptr<const struct Ref>> refs;
    std::map<std::string, SharedInput> input_csvs;
    /// OBJ files by resolved path: the index in Scenario::meshes of the first mesh made from
    /// it (already checked), which a later reference copies instead of parsing and checking
    /// again; no other copy is kept.
    std::map<std::string, size_t> objs;

    void add_input(const std::string& path) {
        if (std::find(inputs.begin(), inputs.end(), path) == inputs.end()) inputs.push_back(path);
    }
};

struct Ref {
    std::string display; ///< for messages about the file's content
    std::string bytes;
    fs::path resolved; ///< canonical path
};

/// A referenced file: resolved against the scenario's folder, kept inside the tree, read (once
/// per load: a file referenced again is the same Ref).
std::shared_ptr<const Ref> read_ref(Ctx& ctx, const Value& v, uint64_t max_bytes);
/// Loads a scenario's text; `nested`: the other scenario of a same_as expectation.
bool load(const std::string& text, const std::string& display_path, const fs::path& base_dir,
          const LoadOptions& opts, bool nested, Scenario* out, LoadError* err);
void use_id(std::map<uint32_t, IdUse>& ids, uint32_t id, const Value& at);
geo::ShapeId shape_id(Ctx& ctx, const Value& v);
/// `rotation:` of a box or platform: [yaw, pitch, roll] degrees or the matrix (rows).
void rotation(const Map& m, RotationDef* out);
Scalar half(Scalar v);
int64_t tick_in_run(const Ctx& ctx, const Value& v);

// The schema's sections.
void load_world(Ctx& ctx, const Value& v, Scenario* s);
void load_platforms(Ctx& ctx, const Value& v, Scenario* s);
void load_characters(Ctx& ctx, const Value& v, Scenario* s);
void load_events(Ctx& ctx, const Value& v, Scenario* s);
void load_frames(const Value& v, Scenario* s);
void load_expect(Ctx& ctx, const LoadOptions& opts, const Value& v, Scenario* s);

} // namespace fx::harness::detail
