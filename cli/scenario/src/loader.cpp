// The scenario loader (scenario/loader.h): walks the YAML document in schema order
// (docs/scenarios.md; the sections in loader_world.cpp, loader_characters.cpp,
// loader_expect.cpp), reads referenced files, and builds a Scenario. The first error found
// is returned; the walk order is the schema's, not the document's.
#include "scenario/loader.h"

#include "records/atomic_file.h"
#include "records/hash_file.h"
#include "records/paths.h"
#include "records/text.h"
#include "scenario/writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <system_error>
#include <utility>

#include "fx/decimal.h"
#include "fx/mat3.h"
#include "fx/trig.h"
#include "geo/shapes.h"
#include "kcc/settings.h"
#include "loader_context.h"
#include "loader_doc.h"
#include "loader_text.h"
#include "loader_yaml.h"
#include "scenario/metric_names.h"

namespace fx::harness {

std::string LoadError::to_string() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
    s += ": ";
    if (!path.empty()) s += path + ": ";
    return s + message;
}

namespace detail {

bool read_file(const fs::path& p, uint64_t max_bytes, std::string* bytes, std::string* error) {
    return read_file_limited(p.string(), max_bytes, bytes, error);
}

/// A referenced file: resolved against the scenario's folder, kept inside the tree, read.
std::shared_ptr<const Ref> read_ref(Ctx& ctx, const Value& v, uint64_t max_bytes) {
    const std::string& rel = v.text("a file path");
    if (rel.empty()) v.fail("expected a file path, found an empty string");
    // Text values may hold line breaks and tabs; a path that every message naming the file would
    // carry to a terminal or a CI log may not (text::acting_character).
    if (text::has_acting_character(rel)) {
        v.fail("expected a file path without control or bidirectional characters, found " +
               detail::shown(rel, 0));
    }
    const fs::path p(rel);
    const fs::path resolved = p.is_absolute() ? p : ctx.base_dir / p;
    const fs::path canon = resolved_path(resolved);
    if (!ctx.allow_outside && !path_within(canon, ctx.root)) {
        v.fail(detail::shown(rel, 0) + " resolves outside the scenarios tree '" +
               text::shown(ctx.root.generic_string()) + "' (pass --allow-outside to permit)");
    }
    const std::string key = canon.string();
    if (const auto it = ctx.refs.find(key); it != ctx.refs.end()) {
        if (it->second->bytes.size() > max_bytes) { // referenced before under a larger limit
            v.fail("cannot read " + detail::shown(rel, 0) + " (resolved to '" +
                   text::shown(canon.generic_string()) +
                   "'): file too large: " + std::to_string(it->second->bytes.size()) +
                   " bytes, the limit is " + std::to_string(max_bytes) + " bytes");
        }
        return it->second;
    }
    auto r = std::make_shared<Ref>();
    std::string error;
    if (!read_file(canon, max_bytes, &r->bytes, &error)) {
        v.fail("cannot read " + detail::shown(rel, 0) + " (resolved to '" +
               text::shown(canon.generic_string()) + "'): " + error);
    }
    r->display = p.is_absolute() ? rel : (ctx.display_dir / p).lexically_normal().generic_string();
    r->resolved = canon;
    ctx.add_input(key);
    ctx.refs.emplace(key, r);
    return r;
}

void use_id(std::map<uint32_t, IdUse>& ids, uint32_t id, const Value& at) {
    const auto it = ids.find(id);
    if (it != ids.end()) {
        at.fail("duplicate id " + std::to_string(id) + " (first used at " + it->second.path +
                ", line " + std::to_string(it->second.line) + ")");
    }
    ids.emplace(id, IdUse{at.path, at.line});
}

geo::ShapeId shape_id(Ctx& ctx, const Value& v) {
    const auto id = static_cast<geo::ShapeId>(v.integer(0, kMaxId));
    use_id(ctx.shape_ids, id, v);
    return id;
}

void rotation(const Map& m, RotationDef* out) {
    const std::optional<Value> r = m.opt("rotation");
    if (!r) return;
    const char* what =
        "a sequence of 3 angles [yaw, pitch, roll] or a matrix of 3 rows [[a, b, c], [d, e, f], [g, h, i]]";
    r->require_sequence(what);
    if (r->size() != 3 || !r->item(0).node.is_sequence()) {
        const Vec3 a = r->vec3(detail::kAngle, what);
        out->yaw = a.x;
        out->pitch = a.y;
        out->roll = a.z;
        return;
    }
    // The exact matrix (a recording's form, kcc::Recorder): rows, each a unit vector, at right
    // angles to each other, right-handed; within 2^-20 (kcc::limits::rotation_error), so that
    // any rotation the fixed-point trigonometry makes is accepted and a shear or a mirror is not.
    Mat3 mat;
    for (int i = 0; i < 3; ++i)
        mat.row[i] =
            r->item(static_cast<size_t>(i)).vec3(detail::kStick, "a row of 3 numbers from -1 to 1");
    if (const std::string why = kcc::limits::rotation_error(mat); !why.empty()) {
        r->fail(
            why.rfind("a reflection", 0) == 0
                ? "expected a rotation matrix, found " + why
                : "expected a rotation matrix (rows of unit length at right angles, within 2^-" +
                      std::to_string(kcc::limits::kRotationToleranceBits) + "), found " + why);
    }
    out->is_matrix = true;
    out->matrix = mat;
}

Scalar half(Scalar v) {
    return v.div_int(2);
}

int64_t tick_in_run(const Ctx& ctx, const Value& v) {
    return v.integer(0, ctx.ticks - 1);
}

} // namespace detail

namespace {

using namespace detail;

/// YAML is Unicode text: the first byte that is not part of a UTF-8 character, and the first
/// control character other than tab, line feed and carriage return, are refused with their line
/// and column (counted in characters). yaml-cpp would otherwise drop or pass them silently.
void check_text(const std::string& file, std::string_view t) {
    static const char kHex[] = "0123456789ABCDEF";
    int line = 1, column = 1;
    for (size_t i = 0; i < t.size();) {
        const auto c = static_cast<unsigned char>(t[i]);
        size_t len = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            len = 1;
            cp = c;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1Fu;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0Fu;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07u;
        }
        bool ok = len > 0 && i + len <= t.size();
        for (size_t k = 1; ok && k < len; ++k) {
            const auto d = static_cast<unsigned char>(t[i + k]);
            ok = (d & 0xC0) == 0x80;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8 either.
        if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
                   (len == 4 && cp < 0x10000) || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)) {
            ok = false;
        }
        if (!ok) {
            detail::fail_at(file, line, column, "",
                            std::string("expected UTF-8 text, found the byte 0x") + kHex[c >> 4] +
                                kHex[c & 15] + " (not a UTF-8 character)");
        }
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || (cp >= 0x7F && cp <= 0x9F)) {
            detail::fail_at(file, line, column, "",
                            std::string("expected text, found the control character U+00") +
                                kHex[cp >> 4] + kHex[cp & 15] +
                                " (only tab, line feed and carriage return are allowed)");
        }
        if (cp == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        i += len;
    }
}

void load_document(Ctx& ctx, const LoadOptions& opts, const std::string& text, Scenario* s) {
    check_text(ctx.file, text);
    ctx.budget.total = ctx.budget.left =
        std::max<int64_t>(kMinNodeBudget, static_cast<int64_t>(text.size()));
    Doc doc;
    parse_document(ctx.file, text, opts.fast_yaml_reader, &doc);
    Value root;
    root.file = &ctx.file;
    root.budget = &ctx.budget;
    if (doc.root != Doc::kNone) root.node = DocRef(&doc, doc.root);
    if (doc.documents > 1) {
        fail_at(ctx.file, doc.second_line + 1, doc.second_column + 1, "",
                "expected one YAML document, found " + std::to_string(doc.documents));
    }
    const Map m(root,
                {"format", "name", "description", "deviation", "tick_rate", "ticks", "golden_every",
                 "world", "platforms", "characters", "events", "frames", "expect"},
                "a mapping of scenario keys", /*defer_unknown=*/true);
    const Value fv = m.get("format");
    int64_t format = 0;
    if (!detail::parse_integer(fv.plain("an integer format version"), &format)) {
        fv.fail("expected an integer format version, found " + fv.found());
    }
    if (format != kScenarioFormat) {
        fv.fail("unsupported scenario format " + fv.node.scalar() + " (this build reads format " +
                std::to_string(kScenarioFormat) + ")");
    }
    m.check_unknown();

    const Value nv = m.get("name");
    const char* name_what = "a name of 1 to 64 characters [a-z0-9][a-z0-9._-]*";
    s->name = nv.text(name_what);
    if (!kcc::limits::valid_scenario_name(s->name))
        nv.fail(std::string("expected ") + name_what + ", found " + detail::shown(s->name));
    s->description = m.get("description").text("a description (a string)");
    if (auto tr = m.opt("tick_rate")) s->tick_rate_hz = static_cast<int>(tr->integer(1, 1000));
    ctx.tick_rate = s->tick_rate_hz;
    s->ticks = m.get("ticks").integer(1, kMaxTicks);
    ctx.ticks = s->ticks;
    if (auto ge = m.opt("golden_every")) s->golden_every = ge->integer(1, 100000);
    if (auto w = m.opt("world")) load_world(ctx, *w, s);
    if (auto p = m.opt("platforms")) load_platforms(ctx, *p, s);
    load_characters(ctx, m.get("characters"), s);
    if (auto ev = m.opt("events")) load_events(ctx, *ev, s);
    if (auto f = m.opt("frames")) load_frames(*f, s);
    if (auto d = m.opt("deviation"))
        s->deviation = d->text("a text (why the scenario deviates from KCC-SPEC)");
    if (auto e = m.opt("expect")) load_expect(ctx, opts, *e, s);
}

} // namespace

namespace detail {

bool load(const std::string& text, const std::string& display_path, const fs::path& base_dir,
          const LoadOptions& opts, bool nested, Scenario* out, LoadError* err) {
    Ctx ctx;
    ctx.nested = nested;
    ctx.file = display_path;
    ctx.base_dir = base_dir.empty() ? fs::path(".") : base_dir;
    ctx.display_dir = fs::path(display_path).parent_path();
    ctx.root = resolved_path(opts.root.empty() ? ctx.base_dir : fs::path(opts.root));
    ctx.allow_outside = opts.allow_outside;
    ctx.allow_repeated_triangles = opts.allow_repeated_triangles;
    Scenario s;
    s.path = display_path;
    try {
        load_document(ctx, opts, text, &s);
    } catch (const detail::Failure& f) {
        if (err != nullptr) *err = f.error;
        return false;
    }
    if (!nested) s.digest = simulated_digest(s); // a same_as scenario's digest is never used
    s.inputs = std::move(ctx.inputs);
    *out = std::move(s);
    return true;
}

} // namespace detail

bool load_scenario_text(const std::string& text, const std::string& display_path,
                        const std::string& base_dir, const LoadOptions& opts, Scenario* out,
                        LoadError* err) {
    if (text.size() > kMaxScenarioBytes) {
        if (err != nullptr) {
            *err = LoadError{
                display_path, 0, 0, "",
                "cannot read the scenario: file too large: " + std::to_string(text.size()) +
                    " bytes, the limit is " + std::to_string(kMaxScenarioBytes) + " bytes (" +
                    std::to_string(kMaxScenarioBytes >> 20) + " MiB)"};
        }
        return false;
    }
    return detail::load(text, display_path, fs::path(base_dir), opts, false, out, err);
}

bool load_scenario(const std::string& path, const LoadOptions& opts, Scenario* out,
                   LoadError* err) {
    std::string text;
    std::string error;
    if (!detail::read_file(fs::path(path), kMaxScenarioBytes, &text, &error)) {
        if (err != nullptr) *err = LoadError{path, 0, 0, "", "cannot read the scenario: " + error};
        return false;
    }
    if (!detail::load(text, path, fs::path(path).parent_path(), opts, false, out, err))
        return false;
    out->inputs.insert(out->inputs.begin(), path);
    return true;
}

} // namespace fx::harness
