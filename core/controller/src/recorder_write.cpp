// Recorder::write: a recording's files into a folder, all of them or none (kcc/recorder.h).
#include <cstdio>
#include <string>
#include <vector>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#endif

#include "kcc/recorder.h"

namespace fx::kcc {

namespace {

enum class Found { kNothing, kFile, kFolder };

/// What is at `path`, through the C library alone: a folder opens for reading on POSIX, but a
/// read of it fails (on Windows it does not open, and the rename onto it fails instead).
Found found_at(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return Found::kNothing;
    char c;
    const bool folder = std::fread(&c, 1, 1, f) == 0 && std::ferror(f) != 0;
    std::fclose(f);
    return folder ? Found::kFolder : Found::kFile;
}

/// A new file at `path` for writing, never an existing file or link (which fails it): C11's
/// exclusive mode; Windows' C runtime through _O_EXCL (msvcrt.dll has no "x" mode).
std::FILE* create_new(const std::string& path) {
#ifdef _WIN32
    const int fd =
        _open(path.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    if (fd < 0) return nullptr;
    std::FILE* f = _fdopen(fd, "wb");
    if (f == nullptr) _close(fd);
    return f;
#else
    return std::fopen(path.c_str(), "wbx");
#endif
}

/// Replaces `to` by `from` (same folder), as rename does on POSIX.
bool replace(const std::string& from, const std::string& to) {
#ifdef _WIN32
    std::remove(to.c_str()); // rename does not replace an existing file there
#endif
    return std::rename(from.c_str(), to.c_str()) == 0;
}

} // namespace

bool Recorder::write(const std::string& folder, const std::string& name, std::string* error) const {
    std::vector<RecordedFile> files;
    if (!this->files(name, &files, error)) return false;
    const std::string dir = folder.empty() || folder.back() == '/' ? folder : folder + "/";
    auto fail = [error](const std::string& why) {
        if (error != nullptr) *error = "recording: " + why;
        return false;
    };
    // 1. Every file to "<path>.partial", created afresh ("x": never through a file or a link
    //    already there, which is removed first, never followed: issue 51).
    std::vector<std::string> partial;
    auto drop_partial = [&partial] {
        for (const std::string& p : partial)
            std::remove(p.c_str());
    };
    for (const RecordedFile& f : files) {
        const std::string path = dir + f.path + ".partial";
        std::remove(path.c_str()); // a left-over, or a planted link (the link, not its target)
        std::FILE* file = create_new(path);
        if (file == nullptr) {
            drop_partial();
            return fail("cannot write " + dir + f.path);
        }
        partial.push_back(path);
        bool ok = std::fwrite(f.text.data(), 1, f.text.size(), file) == f.text.size();
        if (std::fclose(file) != 0) ok = false;
        if (!ok) {
            drop_partial();
            return fail("cannot write " + dir + f.path);
        }
    }
    // 2. An earlier recording's files of these names aside to "<path>.previous", 3. the new
    //    ones renamed over their names, 4. the earlier ones removed. A failure undoes what was
    //    done, so the folder holds the whole earlier recording or the whole new one, never some
    //    files of each.
    const size_t n = files.size();
    std::vector<std::string> path(n), previous(n);
    std::vector<bool> kept(n, false), placed(n, false);
    for (size_t k = 0; k < n; ++k) {
        path[k] = dir + files[k].path;
        previous[k] = path[k] + ".previous";
    }
    auto undo = [&](const std::string& why) {
        for (size_t k = 0; k < n; ++k) {
            if (placed[k]) std::remove(path[k].c_str());
            if (kept[k]) replace(previous[k], path[k]);
        }
        drop_partial();
        return fail(why);
    };
    for (size_t k = 0; k < n; ++k) {
        const Found at = found_at(path[k]);
        if (at == Found::kFolder) return undo(path[k] + " is a folder");
        if (at == Found::kNothing) continue;
        std::remove(previous[k].c_str());
        if (!replace(path[k], previous[k])) return undo("cannot replace " + path[k]);
        kept[k] = true;
    }
    for (size_t k = 0; k < n; ++k) {
        if (!replace(partial[k], path[k])) return undo("cannot write " + path[k]);
        placed[k] = true;
    }
    for (size_t k = 0; k < n; ++k)
        if (kept[k]) std::remove(previous[k].c_str());
    return true;
}

} // namespace fx::kcc
