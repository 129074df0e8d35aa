#include "records/folder_lock.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#ifdef _WIN32
#include "windows_api.h"
#else
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

namespace fx::harness {

FolderLock::~FolderLock() {
    unlock();
}

#ifdef _WIN32

namespace {

constexpr const wchar_t* kLockName = L".fxkcc-lock";

/// Opens the lock file: a handle, or nullptr with the Windows error in *code.
void* open_lock_file(const std::string& folder, unsigned long* code) {
    const std::filesystem::path p = std::filesystem::path(folder) / kLockName;
    // No sharing: a second opener gets ERROR_SHARING_VIOLATION while this handle lives. Deleted
    // on close, which the system does when the process ends, however it ends.
    HANDLE h = CreateFileW(p.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_HIDDEN | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        *code = GetLastError();
        return nullptr;
    }
    return h;
}

// ERROR_ACCESS_DENIED is also what a file pending deletion answers (the last holder just closed
// it): busy for a while, an error only if it lasts.
bool busy_code(unsigned long code) {
    return code == ERROR_SHARING_VIOLATION || code == ERROR_ACCESS_DENIED;
}

std::string lock_error(const std::string& folder, unsigned long code) {
    return "cannot lock '" + folder +
           "': " + std::system_category().message(static_cast<int>(code));
}

} // namespace

FolderLock::Result FolderLock::try_lock(const std::string& folder, std::string* err) {
    if (locked_) return Result::kLocked;
    unsigned long code = 0;
    handle_ = open_lock_file(folder, &code);
    if (handle_ != nullptr) {
        locked_ = exclusive_ = true;
        return Result::kLocked;
    }
    if (busy_code(code)) return Result::kBusy;
    *err = lock_error(folder, code);
    return Result::kError;
}

bool FolderLock::lock(const std::string& folder, std::string* err) {
    using Clock = std::chrono::steady_clock;
    Clock::time_point denied_since{};
    bool denied = false;
    for (;;) {
        if (locked_) return true;
        unsigned long code = 0;
        handle_ = open_lock_file(folder, &code);
        if (handle_ != nullptr) {
            locked_ = exclusive_ = true;
            return true;
        }
        if (!busy_code(code)) {
            *err = lock_error(folder, code);
            return false;
        }
        if (code == ERROR_ACCESS_DENIED) {
            if (!denied) denied_since = Clock::now();
            denied = true;
            if (Clock::now() - denied_since > std::chrono::seconds(10)) {
                *err = lock_error(folder, code);
                return false;
            }
        } else {
            denied = false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void FolderLock::unlock() {
    if (handle_ != nullptr) CloseHandle(static_cast<HANDLE>(handle_));
    handle_ = nullptr;
    locked_ = false;
}

#else

namespace {

std::string lock_error(const std::string& folder, int e) {
    return "cannot lock '" + folder + "': " + std::strerror(e);
}

#ifndef __EMSCRIPTEN__
/// The file system or the platform has no flock: proceed unlocked (see the header).
bool no_lock_support(int e) {
    return e == ENOSYS || e == EOPNOTSUPP || e == ENOLCK || e == EINVAL;
}
#endif

} // namespace

#ifdef __EMSCRIPTEN__

// emscripten's flock is a stub that does nothing: no lock between node processes (see the header).
FolderLock::Result FolderLock::try_lock(const std::string& folder, std::string* err) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(folder, ec);
    if (!std::filesystem::is_directory(st)) {
        *err = lock_error(folder, std::filesystem::exists(st) ? ENOTDIR : ENOENT);
        return Result::kError;
    }
    locked_ = true;
    exclusive_ = false; // no lock at all between node processes
    return Result::kLocked;
}

bool FolderLock::lock(const std::string& folder, std::string* err) {
    return try_lock(folder, err) == Result::kLocked;
}

#else

FolderLock::Result FolderLock::try_lock(const std::string& folder, std::string* err) {
    if (locked_) return Result::kLocked;
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *err = lock_error(folder, errno);
        return Result::kError;
    }
    const int rc = ::flock(fd, LOCK_EX | LOCK_NB);
    const int e = rc == 0 ? 0 : errno;
    if (rc == 0 || no_lock_support(e)) {
        exclusive_ = rc == 0;
        fd_ = fd;
        locked_ = true;
        return Result::kLocked;
    }
    ::close(fd);
    if (e == EWOULDBLOCK) return Result::kBusy;
    *err = lock_error(folder, e);
    return Result::kError;
}

bool FolderLock::lock(const std::string& folder, std::string* err) {
    if (locked_) return true;
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *err = lock_error(folder, errno);
        return false;
    }
    int rc = 0;
    while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (rc != 0 && !no_lock_support(errno)) {
        *err = lock_error(folder, errno);
        ::close(fd);
        return false;
    }
    exclusive_ = rc == 0;
    fd_ = fd;
    locked_ = true;
    return true;
}

#endif

void FolderLock::unlock() {
    if (fd_ >= 0) ::close(fd_); // closing the last descriptor releases the flock
    fd_ = -1;
    locked_ = false;
}

#endif

} // namespace fx::harness
