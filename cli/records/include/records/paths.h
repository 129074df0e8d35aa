// Where a path leads, and whether it stays inside a folder: the one rule every command uses to
// compare folders (bless --capture against the golden folder), keep references inside the
// scenarios tree, keep goldens inside the golden folder, and keep a bundle off the current folder.
#pragma once

#include <filesystem>
#include <system_error>

namespace fx::harness {

/// p made absolute, its symbolic links resolved as far as it exists (weakly canonical), then
/// lexically normal, with no trailing separator (a root stays a root). When it cannot be resolved
/// (a folder that cannot be read on the way), `ec` says why and the result is absolute and
/// lexically normal.
std::filesystem::path resolved_path(const std::filesystem::path& p, std::error_code& ec);
std::filesystem::path resolved_path(const std::filesystem::path& p);

/// `p` is a symbolic link, or on Windows any reparse point (a junction or a mount point too), as
/// it is, not followed: what writes and removals in the golden folders never go through.
bool is_link(const std::filesystem::path& p);

/// `p` is `root` or inside it, component by component (not by text: "golden2" is not inside
/// "golden"). Both are taken as given: pass resolved paths.
bool path_within(const std::filesystem::path& p, const std::filesystem::path& root);

/// Two folders (existing or not, in any spelling) are the same or one is inside the other, by
/// path or by identity (a bind mount, a link), or a subfolder of one (a target folder) is the
/// other or one of its subfolders: where pending goldens and captures may not go relative to the
/// golden folder (what is written into one would overwrite or remove the other's files).
bool folders_overlap(const std::filesystem::path& a, const std::filesystem::path& b);

/// `inner` (existing or not, in any spelling) is `outer` or inside it, by path or by identity,
/// or inside one of its subfolders that is a link or a bind mount elsewhere: where a file written
/// into `inner` would land in `outer`'s tree.
bool folder_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

} // namespace fx::harness
