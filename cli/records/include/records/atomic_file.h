// Writing output files so that a reader never sees a partial one, and so that an output path
// means what it means to a shell:
//  - a regular file, or a path that does not exist yet: the content goes to a temporary file in
//    the same folder ("<path>.tmp.<pid>.<token>"), renamed over the target only once complete.
//    A crash, an error or a writer destroyed without commit() leaves the target as it was (old
//    content, or absent) and removes the temporary file; so does SIGINT, SIGTERM or SIGHUP on
//    POSIX (remove_temporaries_on_signal). An existing target's permissions carry over (POSIX);
//  - a symbolic link: written through to the file it names (resolved link by link, the
//    temporary file beside that file), never replaced by a regular file;
//  - a device, a FIFO or a socket (/dev/null, a pipe), and any path under /dev/ or /proc/
//    (/dev/stdout): written in place, since it cannot be replaced and must not be (`--csv
//    /dev/null` as root would otherwise turn the machine's /dev/null into a regular file);
//  - a folder: refused ("Is a directory").
// Every write, flush and close is checked: a failure (a full disk, /dev/full) fails commit()
// with "cannot write '<path>': <the system's reason>" (docs/reliability.md).
//
// No fsync: the guarantee is "complete or old", not durability across a power cut.
// The rename is replace_file: POSIX rename(2), or on Windows MoveFileExW, retried while another
// process holds the target open.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace fx::harness {

/// Writes `content` to `path` as AtomicFile does. On failure returns false, sets *err (e.g.
/// "cannot create 'dir/x.tmp.123': No such file or directory", "cannot write 'out.csv': No space
/// left on device") and leaves no temporary file behind.
/// With a `limit`, refuses content longer than it (as AtomicFile::set_limit).
bool write_file_atomic(const std::string& path, std::string_view content, std::string* err,
                       uint64_t limit = UINT64_MAX);

/// A stream buffer over a C file that remembers the first error's errno (std::filebuf does not
/// say why a write failed).
class CheckedFileBuf final : public std::streambuf {
public:
    CheckedFileBuf() = default;
    ~CheckedFileBuf() override { close(); }
    CheckedFileBuf(const CheckedFileBuf&) = delete;
    CheckedFileBuf& operator=(const CheckedFileBuf&) = delete;

    /// Opens `path` for writing ("wb"). False with the errno in error().
    bool open(const std::string& path);
    /// Writes to `file` (e.g. stdout), which close() flushes but leaves open.
    void attach(std::FILE* file);
    bool is_open() const { return file_ != nullptr; }
    /// Flushes and closes; false if this or any earlier write failed.
    bool close();
    /// The first failure's errno (EIO when the system gave none); 0 while all is well.
    int error() const { return error_; }
    /// Fails writes (EFBIG) that would make the file longer than `bytes`.
    void set_limit(uint64_t bytes) { limit_ = bytes; }
    uint64_t limit() const { return limit_; }

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void fail();
    std::FILE* file_ = nullptr;
    bool owned_ = false;
    int error_ = 0;
    uint64_t written_ = 0;
    uint64_t limit_ = UINT64_MAX;
};

/// The writer behind every output file (see the top of this file). Bytes are written in binary
/// mode (LF stays LF on every platform). Not copyable; movable is not needed.
class AtomicFile {
public:
    AtomicFile() : out_(&buf_) {}
    ~AtomicFile(); ///< removes the temporary file if commit() did not succeed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Opens `path` for writing: the temporary file, or the device itself. False (with *err) if
    /// it cannot be created, if `path` is a folder, or if this object is already open.
    bool open(const std::string& path, std::string* err);
    bool is_open() const { return buf_.is_open(); }
    /// The stream to write to; valid between open() and commit()/abandon().
    std::ostream& stream() { return out_; }
    /// False once a write has failed; write_error() then says why.
    bool good() const { return buf_.error() == 0 && !out_.fail(); }
    /// Refuses to grow the file past `bytes` (the formats fxkcc reads back: hash files and
    /// trajectory CSVs stop at kMaxReadBytes, so that every file it writes it can read).
    void set_limit(uint64_t bytes) { buf_.set_limit(bytes); }
    /// "cannot write '<path>': <reason>".
    std::string write_error() const;
    /// Flushes, closes and renames the temporary file over the target. False (with *err, and the
    /// temporary file removed) if any write failed or the rename failed.
    bool commit(std::string* err);
    /// Closes and removes the temporary file; the target is untouched.
    void abandon();

    /// The path as given.
    const std::string& path() const { return path_; }
    /// The file the bytes end up in: path() with its symbolic links resolved.
    const std::string& target_path() const { return target_; }
    /// The temporary file ("" when writing in place).
    const std::string& temp_path() const { return temp_; }

private:
    CheckedFileBuf buf_;
    std::ostream out_;
    std::string path_, target_, temp_;
    int registration_ = -1; ///< slot in the signal handler's list of temporary files
};

/// Where output `path` really is: its symbolic links followed (relative links against their own
/// folder), up to 40 of them. False with *err for a loop ("Too many levels of symbolic links").
bool resolve_output_path(const std::string& path, std::string* resolved, std::string* err);

/// One output of a command: the option that names it ("--csv") and its path ("-": stdout).
struct OutputPath {
    std::string option;
    std::string path;
};

/// Checked before a command writes anything: no two outputs name the same file (through
/// symbolic links, hard links or different spellings) or both standard output, and no output is
/// one of the command's `inputs` (the scenario, its referenced files). Devices (/dev/null) may
/// be named by several outputs. "" when fine, else the message, e.g. "--hashes 'o.txt' and --csv
/// './o.txt' name the same file" or "--csv 's.yaml' is an input of the command ('s.yaml'): it would
/// be overwritten".
std::string output_conflict(const std::vector<OutputPath>& outputs,
                            const std::vector<std::string>& inputs);
/// The same, and no output inside `golden_dir` (nor inside `golden_dir`.pending, where pending
/// goldens wait for review), through any spelling or link: goldens are written by `fxkcc bless`
/// and `fxkcc review --accept` alone, which CI refuses, so that no other command's output
/// (`run --hashes golden/<target>/NAME.hashes`) replaces one unreviewed. "golden" is the
/// default folder of the commands that have no --golden-dir.
std::string output_conflict(const std::vector<OutputPath>& outputs,
                            const std::vector<std::string>& inputs, const std::string& golden_dir);
/// The same rule for a folder an option writes files into (swarm --out and --emit, desync
/// --bundle): "" when `dir` is not inside `golden_dir` nor its pending folder, else the message.
std::string output_folder_conflict(const OutputPath& dir, const std::string& golden_dir);

/// Whether `path` can be written as write_file_atomic writes it, tried now: its temporary file
/// created and removed (a device, a FIFO or a socket is not opened: a FIFO would wait for a
/// reader). "" when it can, else why ("cannot create 'x/r.json.tmp...': Not a directory", "...
/// Is a directory"). For an output written only after a long computation (swarm's reports).
std::string check_writable(const std::string& path);

/// write_file_atomic for a file that fxkcc names inside a folder an option gave it (swarm --out
/// and --emit, verify --html): the folder was checked before the first write, its files were not.
/// Refused, *err saying why, when the file is a symbolic link (a reused folder or a copied tree:
/// a name fxkcc chose is never written through to somewhere else), or when it is one of `inputs`
/// (output_conflict's rule: a --known file kept in the --emit folder).
bool write_folder_file(const OutputPath& file, std::string_view content,
                       const std::vector<std::string>& inputs, std::string* err);

/// Installs, once per process, handlers for SIGINT, SIGTERM and SIGHUP that stop the side
/// processes still running (their process groups, killed and waited for), remove the temporary
/// files of every open AtomicFile and every registered file, then the registered folders (up to
/// 256 entries in all), and end the process as the signal would have; a signal the program
/// already handles or ignores is left alone. POSIX only: on Windows and under node a killed
/// process leaves its temporary files (the next bless of a golden folder removes those,
/// tidy_golden_folder). fxkcc's main calls it.
void remove_temporaries_on_signal();

/// What the signal handler does with a registered entry.
enum class OnSignal : int {
    kUnlink, ///< removes the file at the path
    kRmdir, ///< removes the folder at the path once its registered files are gone
    kKillGroup, ///< kills the process group `pid` leads (a side), and waits for `pid`
};
/// Registers an entry for the handler (remove_temporaries_on_signal); the slot, or -1 when none
/// is free or the path is too long (then the entry is only left behind on a signal).
int register_on_signal(OnSignal kind, const std::string& path, long long pid = 0);
/// Frees the slot (when >= 0) and sets it to -1.
void unregister_on_signal(int* slot);

/// While `flag` is set here (nullptr clears it), the first SIGINT or SIGTERM that the handler of
/// remove_temporaries_on_signal receives only stores the signal's number in *flag, says on stderr
/// that the command is winding down, and returns: a long command (swarm) stops starting work and
/// reports what it has. A second signal ends the process as before. POSIX only, as that handler.
void stop_gently_on_signal(std::atomic<int>* flag);

/// The most read_file reads (hash files, trajectory CSVs): 1 GiB.
inline constexpr uint64_t kMaxReadBytes = uint64_t{1} << 30;

/// Reads a whole file into *out (binary), refusing anything but a regular file before opening
/// it (a FIFO would block for ever, /dev/zero never end) and a file of more than max_bytes (by
/// its size before reading, and again while reading). False with *reason such as "Is a
/// directory", "No such file or directory", "not a regular file: a FIFO" or "file too large:
/// 104857600 bytes, the limit is 2097152 bytes (2 MiB)". On Windows an open refused with
/// "Permission denied" is retried for up to kReadRetryLimit (a file being replaced). Never throws.
bool read_file_limited(const std::string& path, uint64_t max_bytes, std::string* out,
                       std::string* reason);

/// What `path` is when it is not a regular file: "a folder", "a FIFO", "a character device",
/// "a block device", "a socket", "a broken symbolic link", "not found" (symbolic links to a
/// regular file count as regular). "" for a regular file.
std::string irregular_file_kind(const std::string& path);

/// A size limit in words for messages: "N bytes", with " (M MiB)" for whole mebibytes.
std::string byte_limit_text(uint64_t max_bytes);
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
