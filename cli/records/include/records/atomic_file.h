// Writing files so that a reader never sees a partial one: the content goes to a temporary file
// in the same directory ("<path>.tmp.<pid>.<token>") which is renamed over the target only once it is
// complete. A crash, an error or a writer destroyed without commit() leaves the target as it was
// (old content, or absent) and removes the temporary file.
//
// No fsync: the guarantee is "complete or old", not durability across a power cut.
// The rename is replace_file: POSIX rename(2), or on Windows MoveFileExW, retried while another
// process holds the target open.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace fx::harness {

/// Writes `content` to `path` through a temporary file and a rename. On failure returns false,
/// sets *err (e.g. "cannot create 'dir/x.tmp.123': No such file or directory") and leaves no
/// temporary file behind.
bool write_file_atomic(const std::string& path, std::string_view content, std::string* err);

/// The temporary-file-plus-rename helper the streaming writers use. Bytes are written in binary
/// mode (LF stays LF on every platform). Not copyable; movable is not needed.
class AtomicFile {
public:
    AtomicFile() = default;
    ~AtomicFile(); ///< removes the temporary file if commit() did not succeed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Creates the temporary file for `path`. False (with *err) if it cannot be created or if
    /// this object is already open.
    bool open(const std::string& path, std::string* err);
    bool is_open() const { return out_.is_open(); }
    /// The stream to write to; valid between open() and commit()/abandon().
    std::ostream& stream() { return out_; }
    /// Flushes, closes and renames the temporary file over the target. False (with *err, and the
    /// temporary file removed) if any write failed or the rename failed.
    bool commit(std::string* err);
    /// Closes and removes the temporary file; the target is untouched.
    void abandon();

    const std::string& path() const { return path_; }
    const std::string& temp_path() const { return temp_; }

private:
    std::ofstream out_;
    std::string path_;
    std::string temp_;
};

/// The most read_file reads (hash files, trajectory CSVs): 1 GiB.
inline constexpr uint64_t kMaxReadBytes = uint64_t{1} << 30;

/// Reads a whole file into *out (binary), refusing a folder and a file of more than max_bytes
/// (by its size before reading, and while reading for devices and pipes). False with *reason
/// such as "Is a directory", "No such file or directory" or "file too large: 104857600 bytes,
/// the limit is 2097152 bytes (2 MiB)". On Windows an open refused with "Permission denied" is
/// retried for up to kReadRetryLimit (a file being replaced). Never throws.
bool read_file_limited(const std::string& path, uint64_t max_bytes, std::string* out, std::string* reason);

/// read_file_limited with kMaxReadBytes. False with "cannot read '<path>': <reason>".
bool read_file(const std::string& path, std::string* out, std::string* err);

/// How long replace_file keeps retrying a rename that Windows refuses because another process
/// has the target open or is replacing it.
inline constexpr std::chrono::seconds kReplaceRetryLimit{30};

/// How long read_file_limited keeps retrying, on Windows, to open a file that it may not open
/// because another process is replacing it at that moment ("Permission denied").
inline constexpr std::chrono::seconds kReadRetryLimit{5};

/// Renames `from` over `to` (same folder), replacing it atomically: a reader sees the old file or
/// the new one. POSIX: rename(2). Windows: MoveFileExW, which fails while another process has
/// `to` open without delete sharing (a reader, a scanner) or is replacing it at that moment; it
/// is retried for up to kReplaceRetryLimit. False with "cannot rename 'from' to 'to': reason".
bool replace_file(const std::string& from, const std::string& to, std::string* err);

/// "<path>.tmp.<pid>.<token>": the temporary name used for `path` by this process (the token is
/// random, drawn once per process: under node every process has the same id).
std::string temp_path_for(const std::string& path);

} // namespace fx::harness
