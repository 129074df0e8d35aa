#include "records/paths.h"

#include <vector>

#include "windows_api.h"

namespace fx::harness {

namespace fs = std::filesystem;

fs::path resolved_path(const fs::path& p, std::error_code& ec) {
    ec.clear();
    const fs::path abs = fs::absolute(p.empty() ? fs::path(".") : p, ec);
    if (ec) return p.lexically_normal();
    fs::path c = fs::weakly_canonical(abs, ec);
    c = ec ? abs.lexically_normal() : c.lexically_normal();
    if (!c.has_filename() && c.has_parent_path() && c != c.root_path()) c = c.parent_path();
    return c;
}

fs::path resolved_path(const fs::path& p) {
    std::error_code ec;
    return resolved_path(p, ec);
}

bool is_link(const fs::path& p) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(p, ec))) return true;
#ifdef _WIN32
    const DWORD attributes = GetFileAttributesW(p.wstring().c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0)
        return true;
#endif
    return false;
}

bool path_within(const fs::path& p, const fs::path& root) {
    auto pi = p.begin();
    for (auto ri = root.begin(); ri != root.end(); ++ri, ++pi) {
        if (ri->empty()) continue; // a trailing separator
        if (pi == p.end() || *pi != *ri) return false;
    }
    return true;
}

namespace {

/// The same file or folder by identity (device and inode; on Windows, volume and file index).
bool same_file(const fs::path& x, const fs::path& y) {
    std::error_code ec;
    return fs::equivalent(x, y, ec) && !ec;
}

/// `folder` and its subfolders one level down (the target folders goldens are written into), as
/// far as they exist; links are listed as they are (same_file follows them).
std::vector<fs::path> folder_and_children(const fs::path& folder) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return out;
    out.push_back(folder);
    constexpr size_t kMostChildren = 4096; // a bound on the work, far above any golden folder's
    for (fs::directory_iterator it(folder, ec), end;
         !ec && it != end && out.size() <= kMostChildren; it.increment(ec)) {
        if (it->is_directory(ec)) out.push_back(it->path());
    }
    return out;
}

/// `inner` (resolved) is `outer` or inside it by identity: one of its ancestors is `outer`.
bool within_by_identity(const fs::path& inner, const fs::path& outer) {
    for (fs::path up = inner;; up = up.parent_path()) {
        if (same_file(up, outer)) return true;
        if (!up.has_relative_path()) return false;
    }
}

} // namespace

bool folder_within(const fs::path& inner, const fs::path& outer) {
    std::error_code ei, eo;
    const fs::path ri = resolved_path(inner, ei), ro = resolved_path(outer, eo);
    if (path_within(ri, ro) || within_by_identity(ri, ro)) return true;
    // A target folder of `outer` that is a link or a bind mount elsewhere.
    for (const fs::path& child : folder_and_children(ro))
        if (within_by_identity(ri, child)) return true;
    return false;
}

bool folders_overlap(const fs::path& a, const fs::path& b) {
    std::error_code ea, eb;
    const fs::path ra = resolved_path(a, ea), rb = resolved_path(b, eb);
    if (path_within(ra, rb) || path_within(rb, ra)) return true;
    // By identity, which no spelling hides: one folder a bind mount of the other or inside it,
    // or a target folder of one the same folder as the other or one of its target folders (a
    // link or a bind mount: issue 51).
    if (within_by_identity(ra, rb) || within_by_identity(rb, ra)) return true;
    const std::vector<fs::path> fa = folder_and_children(ra), fb = folder_and_children(rb);
    for (const fs::path& x : fa)
        for (const fs::path& y : fb)
            if (same_file(x, y)) return true;
    return false;
}

} // namespace fx::harness
