#include "records/paths.h"

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

bool path_within(const fs::path& p, const fs::path& root) {
    auto pi = p.begin();
    for (auto ri = root.begin(); ri != root.end(); ++ri, ++pi) {
        if (ri->empty()) continue; // a trailing separator
        if (pi == p.end() || *pi != *ri) return false;
    }
    return true;
}

bool folders_overlap(const fs::path& a, const fs::path& b) {
    std::error_code ea, eb;
    const fs::path ra = resolved_path(a, ea), rb = resolved_path(b, eb);
    return path_within(ra, rb) || path_within(rb, ra);
}

} // namespace fx::harness
