// The run viewer's level and traces (forensics/viewer.h): the scenario's geometry as the page
// draws it (doubles, for drawing only), and the traces cut to what the page has room for.
#include "viewer_detail.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "fx/mat3.h"
#include "records/json.h"

namespace fx::harness::viewer_detail {
namespace {

/// The exact Q31.32 value as a double: drawing needs no more.
double D(Scalar s) {
    return static_cast<double>(s.raw()) / 4294967296.0;
}

std::string vec(const Vec3& v) {
    return "[" + jnum(D(v.x)) + "," + jnum(D(v.y)) + "," + jnum(D(v.z)) + "]";
}

std::string mat(const Mat3& m) {
    std::string s = "[";
    for (int r = 0; r < 3; ++r) {
        const Vec3& row = m.row[r];
        s += (r ? "," : "") + jnum(D(row.x)) + "," + jnum(D(row.y)) + "," + jnum(D(row.z));
    }
    return s + "]";
}

std::string id(uint32_t v) {
    return std::to_string(v);
}

/// base64url: no "/" in the page, so that no byte of its data reads as a "//" reference.
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

} // namespace

std::string jstr(std::string_view s) {
    const std::string t = json_text(s);
    std::string o = "\"";
    for (const char ch : t) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\t':
            o += "\\t";
            break;
        case '\r':
            o += "\\r";
            break;
        case '<':
            o += "\\u003c";
            break;
        case '>':
            o += "\\u003e";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                o += buf;
            } else {
                o += ch;
            }
        }
    }
    return o + "\"";
}

std::string jnum(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    std::string s = buf;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

std::string delta_column(const int64_t* values, size_t n) {
    std::string bytes;
    bytes.reserve(n * 2);
    uint64_t prev = 0;
    for (size_t i = 0; i < n; ++i) {
        // Differences wrap modulo 2^64 (no overflow); zigzag keeps small ones of either sign short.
        const uint64_t d = static_cast<uint64_t>(values[i]) - prev;
        prev = static_cast<uint64_t>(values[i]);
        const auto sd = static_cast<int64_t>(d);
        uint64_t z = (static_cast<uint64_t>(sd) << 1) ^ static_cast<uint64_t>(sd >> 63);
        while (z >= 0x80) {
            bytes += static_cast<char>((z & 0x7f) | 0x80);
            z >>= 7;
        }
        bytes += static_cast<char>(z);
    }
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                           (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                           static_cast<uint8_t>(bytes[i + 2]);
        out += kBase64[v >> 18];
        out += kBase64[(v >> 12) & 63];
        out += kBase64[(v >> 6) & 63];
        out += kBase64[v & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
        if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
        out += kBase64[v >> 18];
        out += kBase64[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string level_json(const Scenario& sc) {
    std::string o = "{\"boxes\":[";
    for (size_t i = 0; i < sc.boxes.size(); ++i) {
        const BoxDef& b = sc.boxes[i];
        o += std::string(i ? "," : "") + "[" + id(b.id) + "," + vec(b.center) + "," +
             vec(b.half_extents) + "," + mat(b.rotation.to_mat3()) + "]";
    }
    o += "],\"spheres\":[";
    for (size_t i = 0; i < sc.spheres.size(); ++i) {
        const SphereDef& s = sc.spheres[i];
        o += std::string(i ? "," : "") + "[" + id(s.id) + "," + vec(s.center) + "," +
             jnum(D(s.radius)) + "]";
    }
    o += "],\"capsules\":[";
    for (size_t i = 0; i < sc.capsules.size(); ++i) {
        const CapsuleDef& c = sc.capsules[i];
        o += std::string(i ? "," : "") + "[" + id(c.id) + "," + vec(c.a) + "," + vec(c.b) + "," +
             jnum(D(c.radius)) + "]";
    }
    o += "],\"planes\":[";
    for (size_t i = 0; i < sc.planes.size(); ++i) {
        const PlaneDef& p = sc.planes[i];
        o += std::string(i ? "," : "") + "[" + id(p.id) + "," + vec(p.normal) + "," +
             jnum(D(p.offset)) + "]";
    }
    o += "],\"meshes\":[";
    // The page draws at most kMaxMeshTriangles triangles in all (each an outline): a larger mesh
    // keeps its first ones, and its vertices only as far as they are used.
    size_t triangles_left = kMaxMeshTriangles;
    for (size_t i = 0; i < sc.meshes.size(); ++i) {
        const MeshDef& m = sc.meshes[i];
        const size_t tris = std::min(m.indices.size() / 3, triangles_left);
        triangles_left -= tris;
        uint32_t used = 0;
        for (size_t k = 0; k < tris * 3; ++k)
            used = std::max(used, m.indices[k] + 1);
        o += std::string(i ? "," : "") + "[" + id(m.id) + ",[";
        for (size_t k = 0; k < used && k < m.vertices.size(); ++k)
            o += (k ? "," : "") + jnum(D(m.vertices[k].x)) + "," + jnum(D(m.vertices[k].y)) + "," +
                 jnum(D(m.vertices[k].z));
        o += "],[";
        for (size_t k = 0; k < tris * 3; ++k)
            o += (k ? "," : "") + std::to_string(m.indices[k]);
        o += "]]";
    }
    o += "],\"platforms\":[";
    for (size_t i = 0; i < sc.platforms.size(); ++i) {
        const PlatformDef& p = sc.platforms[i];
        o += std::string(i ? "," : "") + "[" + id(p.id) + "," + vec(p.half_extents) + "," +
             mat(p.rotation.to_mat3()) + ",[";
        for (size_t k = 0; k < p.waypoints.size(); ++k)
            o += std::string(k ? "," : "") + "[" + std::to_string(p.waypoints[k].tick) + "," +
                 vec(p.waypoints[k].center) + "]";
        o += "]]";
    }
    return o + "]}";
}

std::string characters_json(const Scenario& sc) {
    std::string o = "[";
    std::set<uint32_t> seen;
    for (const CharacterDef& c : sc.characters) {
        if (!seen.insert(c.id).second) continue; // a rejoin: drawn with its first entry's body
        o += std::string(seen.size() > 1 ? "," : "") + "[" + id(c.id) + "," +
             jnum(D(c.settings.radius)) + "," + jnum(D(c.settings.height)) + "]";
    }
    return o + "]";
}
std::string cut_trace(const std::string& trace, const std::set<uint32_t>& keep, int64_t max_bytes,
                      bool* cut) {
    *cut = false;
    if (static_cast<int64_t>(trace.size()) <= max_bytes) return trace;
    std::string out;
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);) {
        // "t=<tick> c=<id> ...": only the characters that matter here.
        const size_t c = line.find(" c=");
        unsigned long id = 0;
        if (c == std::string::npos || std::sscanf(line.c_str() + c + 3, "%lu", &id) != 1 ||
            keep.count(static_cast<uint32_t>(id)) == 0) {
            *cut = true;
            continue;
        }
        if (static_cast<int64_t>(out.size() + line.size()) >= max_bytes) {
            *cut = true;
            break;
        }
        out += line + "\n";
    }
    return out;
}

} // namespace fx::harness::viewer_detail
