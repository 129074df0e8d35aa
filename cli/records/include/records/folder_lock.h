// An exclusive lock on a folder, between processes: two blesses of one golden folder take turns
// instead of replacing the same files at the same moment (which Windows refuses).
//
// POSIX: flock(2) on the folder itself, so nothing is written into it. Windows: the file
// "<folder>/.fxkcc-lock", opened with no sharing and deleted on close. Either way the system
// releases the lock when its process ends, killed or not: a killed bless never leaves a stale lock.
// Where the system has no such lock (flock unsupported on the file system, emscripten's in-memory
// stub), acquire() succeeds without one; replacing renames are atomic there (POSIX rename(2)), so
// two blesses at once still write whole files, only in an unspecified order.
#pragma once

#include <string>

namespace fx::harness {

class FolderLock {
public:
    enum class Result { kLocked, kBusy, kError };

    FolderLock() = default;
    ~FolderLock(); ///< releases the lock if held
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

    /// Takes the lock on `folder` (which must exist) if no other holder has it: kLocked, or kBusy
    /// (another process, or another FolderLock of this process, holds it), or kError with *err.
    Result try_lock(const std::string& folder, std::string* err);
    /// Takes the lock, waiting as long as another holder keeps it. False with *err on an error.
    bool lock(const std::string& folder, std::string* err);
    void unlock();
    bool locked() const { return locked_; }
    /// Held and exclusive: the system really keeps every other holder out (false where there is
    /// no lock to take, emscripten's stub or a file system without flock). What only the sole
    /// writer may do (removing another bless's leftovers) waits for this.
    bool exclusive() const { return locked_ && exclusive_; }

private:
    bool locked_ = false;
    bool exclusive_ = false;
#ifdef _WIN32
    void* handle_ = nullptr; ///< the lock file's HANDLE
#else
    int fd_ = -1; ///< the folder, open for flock
#endif
};

} // namespace fx::harness
