// Files read whole, within a size limit: a device, a FIFO or a file larger than the limit is
// refused with a reason, never read without end.
#include "records/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#ifdef _WIN32
#include <chrono>
#include <thread>
#endif

namespace fx::harness {

std::string byte_limit_text(uint64_t max_bytes) {
    std::string s = std::to_string(max_bytes) + " bytes";
    if (max_bytes >= (uint64_t{1} << 20) && max_bytes % (uint64_t{1} << 20) == 0) {
        s += " (" + std::to_string(max_bytes >> 20) + " MiB)";
    }
    return s;
}

std::string irregular_file_kind(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    switch (st.type()) {
    case fs::file_type::regular:
        return "";
    case fs::file_type::directory:
        return "a folder";
    case fs::file_type::fifo:
        return "a FIFO";
    case fs::file_type::character:
        return "a character device";
    case fs::file_type::block:
        return "a block device";
    case fs::file_type::socket:
        return "a socket";
    case fs::file_type::not_found:
        return fs::is_symlink(fs::symlink_status(path, ec)) ? "a broken symbolic link"
                                                            : "not found";
    default:
        return "not a regular file";
    }
}

bool read_file_limited(const std::string& path, uint64_t max_bytes, std::string* out,
                       std::string* reason) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(st)) {
        *reason = std::error_code(EISDIR, std::generic_category()).message();
        return false;
    }
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
        *reason = "not a regular file: " + irregular_file_kind(path);
        return false;
    }
    if (std::filesystem::is_regular_file(st)) {
        const uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size > max_bytes) {
            *reason = "file too large: " + std::to_string(size) + " bytes, the limit is " +
                      byte_limit_text(max_bytes);
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
        *reason = "file too large: more than the limit of " + byte_limit_text(max_bytes);
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
