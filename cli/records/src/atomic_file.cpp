#include "records/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#ifdef _WIN32
#include <process.h>

#include "windows_api.h"

#include <chrono>
#include <thread>
#define FX_GETPID _getpid
#else
#include <unistd.h>
#define FX_GETPID getpid
#endif

namespace fx::harness {

std::string temp_path_for(const std::string& path) {
    // The process id, and a random token drawn once per process: under node (wasm32) every
    // process has the same id, and two blesses at once must not share temporary names.
    static const std::string token = [] {
        std::random_device rd;
        char buf[17];
        std::snprintf(buf, sizeof buf, "%08x%08x", static_cast<unsigned>(rd()), static_cast<unsigned>(rd()));
        return std::string(buf);
    }();
    return path + ".tmp." + std::to_string(static_cast<long long>(FX_GETPID())) + "." + token;
}

AtomicFile::~AtomicFile() { abandon(); }

bool AtomicFile::open(const std::string& path, std::string* err) {
    if (out_.is_open()) {
        *err = "cannot open '" + path + "': writer already open for '" + path_ + "'";
        return false;
    }
    path_ = path;
    temp_ = temp_path_for(path);
    errno = 0;
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_.is_open()) {
        const int e = errno;
        *err = "cannot create '" + temp_ + "'" + (e != 0 ? std::string(": ") + std::strerror(e) : "");
        temp_.clear();
        return false;
    }
    return true;
}

bool AtomicFile::commit(std::string* err) {
    if (!out_.is_open()) {
        *err = "cannot commit '" + path_ + "': not open";
        return false;
    }
    out_.flush();
    const bool written = static_cast<bool>(out_);
    out_.close();
    if (!written || out_.fail()) {
        *err = "cannot write '" + temp_ + "'";
        abandon();
        return false;
    }
    if (!replace_file(temp_, path_, err)) {
        abandon();
        return false;
    }
    temp_.clear(); // committed: nothing to clean up
    return true;
}

#ifdef _WIN32

bool replace_file(const std::string& from, const std::string& to, std::string* err) {
    using Clock = std::chrono::steady_clock;
    const std::filesystem::path f(from), t(to);
    const Clock::time_point start = Clock::now();
    for (int attempt = 0;; ++attempt) {
        // No MOVEFILE_COPY_ALLOWED: a copy is not atomic. Both names are in one folder.
        if (MoveFileExW(f.c_str(), t.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return true;
        const DWORD code = GetLastError();
        // Refused while another process has `to` open without FILE_SHARE_DELETE (a reader such
        // as verify, a virus scanner) or replaces it at the same moment: wait for it to let go.
        const bool transient =
            code == ERROR_ACCESS_DENIED || code == ERROR_SHARING_VIOLATION || code == ERROR_LOCK_VIOLATION;
        if (!transient || Clock::now() - start > kReplaceRetryLimit) {
            *err = "cannot rename '" + from + "' to '" + to + "': " +
                   std::system_category().message(static_cast<int>(code));
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 10 ? 1 << (attempt / 2) : 50));
    }
}

#else

bool replace_file(const std::string& from, const std::string& to, std::string* err) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec); // rename(2): atomic, whoever has `to` open
    if (ec) {
        *err = "cannot rename '" + from + "' to '" + to + "': " + ec.message();
        return false;
    }
    return true;
}

#endif

void AtomicFile::abandon() {
    if (out_.is_open()) out_.close();
    if (!temp_.empty()) {
        std::error_code ec; // best effort: nothing useful to do if removal fails
        std::filesystem::remove(temp_, ec);
        temp_.clear();
    }
}

bool write_file_atomic(const std::string& path, std::string_view content, std::string* err) {
    AtomicFile f;
    if (!f.open(path, err)) return false;
    f.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
    return f.commit(err);
}

namespace {

std::string limit_text(uint64_t max_bytes) {
    std::string s = std::to_string(max_bytes) + " bytes";
    if (max_bytes >= (uint64_t{1} << 20) && max_bytes % (uint64_t{1} << 20) == 0) {
        s += " (" + std::to_string(max_bytes >> 20) + " MiB)";
    }
    return s;
}

} // namespace

bool read_file_limited(const std::string& path, uint64_t max_bytes, std::string* out, std::string* reason) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(st)) {
        *reason = std::error_code(EISDIR, std::generic_category()).message();
        return false;
    }
    if (std::filesystem::is_regular_file(st)) {
        const uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size > max_bytes) {
            *reason = "file too large: " + std::to_string(size) + " bytes, the limit is " + limit_text(max_bytes);
            return false;
        }
    }
    errno = 0;
    std::FILE* f = std::fopen(path.c_str(), "rb");
#ifdef _WIN32
    // While another process replaces the file (replace_file: a bless), Windows refuses to open
    // it for a moment ("Permission denied", the old file pending deletion): wait for the new one.
    using Clock = std::chrono::steady_clock;
    for (const Clock::time_point start = Clock::now();
         f == nullptr && errno == EACCES && Clock::now() - start < kReadRetryLimit;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        errno = 0;
        f = std::fopen(path.c_str(), "rb");
    }
#endif
    if (f == nullptr) {
        *reason = std::error_code(errno != 0 ? errno : EIO, std::generic_category()).message();
        return false;
    }
    std::string content;
    char buf[65536];
    size_t n = 0;
    bool too_large = false;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        if (content.size() + n > max_bytes) { // a device or a pipe that does not end
            too_large = true;
            break;
        }
        content.append(buf, n);
    }
    const bool bad = std::ferror(f) != 0;
    const int e = errno;
    std::fclose(f);
    if (too_large) {
        *reason = "file too large: more than the limit of " + limit_text(max_bytes);
        return false;
    }
    if (bad) {
        *reason = std::error_code(e != 0 ? e : EIO, std::generic_category()).message();
        return false;
    }
    *out = std::move(content);
    return true;
}

bool read_file(const std::string& path, std::string* out, std::string* err) {
    std::string reason;
    if (!read_file_limited(path, kMaxReadBytes, out, &reason)) {
        *err = "cannot read '" + path + "': " + reason;
        return false;
    }
    return true;
}

} // namespace fx::harness
