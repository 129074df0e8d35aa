// Files written whole or not at all: a temporary beside the target, renamed over it when
// complete (AtomicFile), removed on a fatal signal; and the check that outputs name no input.
#include "records/atomic_file.h"
#include "records/paths.h"

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <system_error>

#ifdef _WIN32
#include <process.h>

#include "windows_api.h"

#include <chrono>
#include <thread>
#define FX_GETPID _getpid
#else
#include <signal.h>
#include <unistd.h>
#if !defined(__EMSCRIPTEN__)
#include <sys/wait.h>
#endif
#define FX_GETPID getpid
#endif

namespace fx::harness {

std::string temp_path_for(const std::string& path) {
    // The process id, and a random token drawn once per process: under node (wasm32) every
    // process has the same id, and two blesses at once must not share temporary names.
    static const std::string token = [] {
        std::random_device rd;
        char buf[17];
        std::snprintf(buf, sizeof buf, "%08x%08x", static_cast<unsigned>(rd()),
                      static_cast<unsigned>(rd()));
        return std::string(buf);
    }();
    return path + ".tmp." + std::to_string(static_cast<long long>(FX_GETPID())) + "." + token;
}

// ---- the signal handler's list of temporary files, folders and side processes ----
//
// Fixed storage, so that the handler needs no allocation: a slot is 0 free, 1 being filled, 2
// holding an entry. A path longer than the slot is not registered (it would only be left behind).

namespace {

constexpr int kSignalSlots = 256;
constexpr size_t kSignalPathMax = 4096;

struct SignalSlot {
    std::atomic<int> state{0};
    std::atomic<uint32_t> generation{0}; ///< bumped at every registration
    std::atomic<int> kind{0}; ///< OnSignal
    std::atomic<long long> pid{0}; ///< kKillGroup
    char path[kSignalPathMax];
};

SignalSlot g_signal_slots[kSignalSlots];

int register_slot(OnSignal kind, const std::string& path, long long pid) {
    if (path.size() >= kSignalPathMax) return -1;
    for (int i = 0; i < kSignalSlots; ++i) {
        int expected = 0;
        if (g_signal_slots[i].state.compare_exchange_strong(expected, 1)) {
            g_signal_slots[i].generation.fetch_add(1);
            g_signal_slots[i].kind.store(static_cast<int>(kind));
            g_signal_slots[i].pid.store(pid);
            std::memcpy(g_signal_slots[i].path, path.c_str(), path.size() + 1);
            g_signal_slots[i].state.store(2);
            return i;
        }
    }
    return -1;
}

int register_temporary(const std::string& path) {
    return register_slot(OnSignal::kUnlink, path, 0);
}

void unregister_temporary(int* slot) {
    if (*slot >= 0) g_signal_slots[*slot].state.store(0);
    *slot = -1;
}

#if !defined(_WIN32) && !defined(__EMSCRIPTEN__)
/// One pass over the slots, acting on those of `kind` (async-signal-safe calls only).
void on_signal_pass(OnSignal kind) {
    for (SignalSlot& slot : g_signal_slots) {
        // Another thread may free and reuse the slot meanwhile: the entry is copied, and used
        // only if the slot still holds the same registration afterwards.
        const uint32_t generation = slot.generation.load();
        if (slot.state.load() != 2 || slot.kind.load() != static_cast<int>(kind)) continue;
        char path[kSignalPathMax];
        std::memcpy(path, slot.path, kSignalPathMax);
        path[kSignalPathMax - 1] = '\0';
        const long long pid = slot.pid.load();
        if (slot.state.load() != 2 || slot.generation.load() != generation) continue;
        switch (kind) {
        case OnSignal::kKillGroup:
            if (pid > 0) {
                ::kill(static_cast<pid_t>(-pid), SIGKILL); // the side and what it started
                ::waitpid(static_cast<pid_t>(pid), nullptr, 0); // gone before its files go
            }
            break;
        case OnSignal::kUnlink:
            ::unlink(path);
            break;
        case OnSignal::kRmdir:
            ::rmdir(path);
            break;
        }
    }
}

std::atomic<std::atomic<int>*> g_gentle_stop{nullptr};

extern "C" void fx_remove_temporaries_and_exit(int sig) {
    if (std::atomic<int>* flag = g_gentle_stop.load(); flag != nullptr && sig != SIGHUP) {
        int none = 0;
        if (flag->compare_exchange_strong(none, sig)) {
            static const char kSay[] =
                "fxkcc: stopping after the work in progress (the same signal again stops at once)\n";
            const ssize_t ignored = ::write(2, kSay, sizeof kSay - 1);
            (void)ignored;
            return;
        }
    }
    on_signal_pass(OnSignal::kKillGroup);
    on_signal_pass(OnSignal::kUnlink);
    on_signal_pass(OnSignal::kRmdir);
    std::signal(sig, SIG_DFL);
    std::raise(sig); // delivered once this handler returns: the process ends as the signal says
}
#endif

} // namespace

int register_on_signal(OnSignal kind, const std::string& path, long long pid) {
    return register_slot(kind, path, pid);
}

void unregister_on_signal(int* slot) {
    unregister_temporary(slot);
}

namespace {

/// Windows' reserved device names (NUL, CON, COM1, ...): written in place like a POSIX device.
bool is_windows_device(const std::filesystem::path& p) {
#ifdef _WIN32
    std::string stem = p.stem().string();
    for (char& c : stem)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (stem == "NUL" || stem == "CON" || stem == "PRN" || stem == "AUX") return true;
    return stem.size() == 4 && (stem.compare(0, 3, "COM") == 0 || stem.compare(0, 3, "LPT") == 0) &&
           stem[3] >= '1' && stem[3] <= '9';
#else
    (void)p;
    return false;
#endif
}

std::string errno_text(int e) {
    return std::error_code(e != 0 ? e : EIO, std::generic_category()).message();
}

} // namespace

void stop_gently_on_signal(std::atomic<int>* flag) {
#if !defined(_WIN32) && !defined(__EMSCRIPTEN__)
    g_gentle_stop.store(flag);
#else
    (void)flag;
#endif
}

void remove_temporaries_on_signal() {
#if !defined(_WIN32) && !defined(__EMSCRIPTEN__)
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction previous {};
            if (sigaction(sig, nullptr, &previous) != 0 || previous.sa_handler != SIG_DFL) continue;
            struct sigaction action {};
            action.sa_handler = fx_remove_temporaries_and_exit;
            action.sa_flags = SA_RESTART; // a gentle stop returns: system calls go on
            sigemptyset(&action.sa_mask);
            sigaction(sig, &action, nullptr);
        }
    });
#endif
}

// ---- CheckedFileBuf ----

bool CheckedFileBuf::open(const std::string& path) {
    close();
    error_ = 0;
    written_ = 0;
    errno = 0;
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) {
        error_ = errno != 0 ? errno : EIO;
        return false;
    }
    owned_ = true;
    return true;
}

void CheckedFileBuf::attach(std::FILE* file) {
    close();
    error_ = 0;
    written_ = 0;
    file_ = file;
    owned_ = false;
}

void CheckedFileBuf::fail() {
    if (error_ == 0) error_ = errno != 0 ? errno : EIO;
}

bool CheckedFileBuf::close() {
    if (file_ == nullptr) return error_ == 0;
    errno = 0;
    if (std::fflush(file_) != 0) fail();
    // A flush of the same FILE made elsewhere (std::cout's, when std::cerr flushes its tied
    // stream before writing) may have failed and dropped the bytes: the FILE remembers it.
    if (std::ferror(file_) != 0) fail();
    errno = 0;
    if (owned_ && std::fclose(file_) != 0) fail();
    file_ = nullptr;
    return error_ == 0;
}

CheckedFileBuf::int_type CheckedFileBuf::overflow(int_type ch) {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    if (file_ == nullptr || error_ != 0) return traits_type::eof();
    if (written_ + 1 > limit_) {
        error_ = EFBIG;
        return traits_type::eof();
    }
    errno = 0;
    if (std::fputc(ch, file_) == EOF) {
        fail();
        return traits_type::eof();
    }
    ++written_;
    return ch;
}

std::streamsize CheckedFileBuf::xsputn(const char* s, std::streamsize n) {
    if (file_ == nullptr || error_ != 0 || n <= 0) return 0;
    if (static_cast<uint64_t>(n) > limit_ - written_) {
        error_ = EFBIG;
        return 0;
    }
    errno = 0;
    const size_t written = std::fwrite(s, 1, static_cast<size_t>(n), file_);
    if (written != static_cast<size_t>(n)) fail();
    written_ += written;
    return static_cast<std::streamsize>(written);
}

int CheckedFileBuf::sync() {
    if (file_ == nullptr) return 0;
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_) != 0) fail();
    return error_ == 0 ? 0 : -1;
}

// ---- AtomicFile ----

bool resolve_output_path(const std::string& path, std::string* resolved, std::string* err) {
    namespace fs = std::filesystem;
    fs::path p(path);
    for (int links = 0; links <= 40; ++links) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec))) {
            *resolved = p.string();
            return true;
        }
        const fs::path next = fs::read_symlink(p, ec);
        if (ec) {
            *err = "cannot write '" + path + "': " + ec.message();
            return false;
        }
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    *err = "cannot write '" + path + "': " + errno_text(ELOOP);
    return false;
}

namespace {

/// What an output or input path names, for comparing: symbolic links resolved, absolute,
/// normalised; and whether it exists as something other than a regular file or folder.
struct FileIdentity {
    std::filesystem::path path;
    bool device = false;
};

FileIdentity identity(const std::string& path) {
    namespace fs = std::filesystem;
    FileIdentity id;
    if (path.rfind("/dev/", 0) == 0 ||
        path.rfind("/proc/", 0) == 0) { // the system's (AtomicFile::open)
        id.path = path;
        id.device = true;
        return id;
    }
    std::string resolved, unused;
    if (!resolve_output_path(path, &resolved, &unused)) resolved = path;
    std::error_code ec;
    fs::path abs = fs::absolute(resolved, ec);
    fs::path canon = fs::weakly_canonical(abs, ec);
    id.path = ec ? abs.lexically_normal() : canon;
    const fs::file_status st = fs::status(id.path, ec);
    id.device = fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
    return id;
}

bool same_file(const FileIdentity& a, const FileIdentity& b) {
    std::error_code ec;
    if (a.path == b.path) return true;
    return std::filesystem::equivalent(a.path, b.path, ec) && !ec; // hard links
}

/// Why `who` may not write into `folder`: "" when the folder is neither inside the golden folder
/// nor inside its pending folder.
std::string golden_refusal(const std::string& who, const std::filesystem::path& folder,
                           const std::string& golden_dir) {
    for (const auto& [what, golden] : {std::pair<const char*, std::string>{"golden", golden_dir},
                                       {"pending", golden_dir + ".pending"}}) {
        if (!folder_within(folder, golden)) continue;
        return who + " is inside the " + what + " folder '" + golden +
               "': goldens are written by fxkcc bless (pending ones by bless --pending and "
               "accepted by fxkcc review), never by another command's output";
    }
    return "";
}

} // namespace

std::string output_conflict(const std::vector<OutputPath>& outputs,
                            const std::vector<std::string>& inputs) {
    return output_conflict(outputs, inputs, "golden");
}

std::string output_conflict(const std::vector<OutputPath>& outputs,
                            const std::vector<std::string>& inputs, const std::string& golden_dir) {
    for (const OutputPath& o : outputs) {
        if (o.path == "-" || identity(o.path).device) continue;
        std::string resolved, unused;
        if (!resolve_output_path(o.path, &resolved, &unused)) resolved = o.path;
        const std::filesystem::path parent = std::filesystem::path(resolved).parent_path();
        const std::string in_golden = golden_refusal(
            o.option + " '" + o.path + "'", parent.empty() ? "." : parent.string(), golden_dir);
        if (!in_golden.empty()) return in_golden;
    }
    std::vector<FileIdentity> ids;
    for (const OutputPath& o : outputs)
        ids.push_back(o.path == "-" ? FileIdentity{} : identity(o.path));
    for (size_t i = 0; i < outputs.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            const bool both_stdout = outputs[i].path == "-" && outputs[j].path == "-";
            if (both_stdout) {
                return outputs[j].option + " and " + outputs[i].option +
                       " both write to standard output";
            }
            if (outputs[i].path == "-" || outputs[j].path == "-" || ids[i].device) continue;
            if (same_file(ids[i], ids[j])) {
                return outputs[j].option + " '" + outputs[j].path + "' and " + outputs[i].option +
                       " '" + outputs[i].path + "' name the same file";
            }
        }
        if (outputs[i].path == "-" || ids[i].device) continue;
        for (const std::string& input : inputs) {
            if (same_file(ids[i], identity(input))) {
                return outputs[i].option + " '" + outputs[i].path +
                       "' is an input of the command ('" + input + "'): it would be overwritten";
            }
        }
    }
    return "";
}

std::string output_folder_conflict(const OutputPath& dir, const std::string& golden_dir) {
    return golden_refusal(dir.option + " '" + dir.path + "'", dir.path, golden_dir);
}

std::string check_writable(const std::string& path) {
    if (identity(path).device) return "";
    AtomicFile probe;
    std::string why;
    if (!probe.open(path, &why)) return why;
    probe.abandon();
    return "";
}

bool write_folder_file(const OutputPath& file, std::string_view content,
                       const std::vector<std::string>& inputs, std::string* err) {
    if (is_link(file.path)) {
        *err = (file.option.empty() ? "" : file.option + ": ") + "'" + file.path +
               "' is a symbolic link: fxkcc writes the files it names in a folder as files of "
               "their own, never through a link to somewhere else";
        return false;
    }
    if (std::string why = output_conflict({file}, inputs); !why.empty()) {
        *err = why;
        return false;
    }
    return write_file_atomic(file.path, content, err);
}

AtomicFile::~AtomicFile() {
    abandon();
}

bool AtomicFile::open(const std::string& path, std::string* err) {
    namespace fs = std::filesystem;
    if (is_open()) {
        *err = "cannot open '" + path + "': writer already open for '" + path_ + "'";
        return false;
    }
    path_ = path;
    temp_.clear();
    out_.clear();
    // /dev and /proc paths are the system's: its own links (/dev/stdout -> /proc/self/fd/1 ->
    // "pipe:[N]") are followed by the system, never by hand.
    const bool special = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
    if (special) {
        target_ = path;
    } else if (!resolve_output_path(path, &target_, err)) {
        return false;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(target_, ec);
    if (fs::is_directory(st)) {
        *err = "cannot write '" + path + "': " + errno_text(EISDIR);
        return false;
    }
    // A device, a FIFO or a socket cannot be replaced and must not be: written in place.
    if (special || (fs::exists(st) && !fs::is_regular_file(st)) || is_windows_device(target_)) {
        if (!buf_.open(target_)) {
            *err = "cannot write '" + path + "': " + errno_text(buf_.error());
            return false;
        }
        return true;
    }
    temp_ = temp_path_for(target_);
    registration_ = register_temporary(temp_); // before it exists: a signal may come at any moment
    if (!buf_.open(temp_)) {
        *err = "cannot create '" + temp_ + "': " + errno_text(buf_.error());
        unregister_temporary(&registration_);
        temp_.clear();
        return false;
    }
#ifndef _WIN32
    // The replaced file's permissions carry over (not on Windows, where a read-only bit would stop
    // the rename and the clean-up).
    if (fs::is_regular_file(st)) fs::permissions(temp_, st.permissions(), ec); // best effort
#endif
    return true;
}

std::string AtomicFile::write_error() const {
    if (buf_.error() == EFBIG && buf_.limit() != UINT64_MAX) {
        return "cannot write '" + path_ + "': it would be larger than " +
               byte_limit_text(buf_.limit()) +
               ", the most fxkcc reads back (record fewer ticks: golden_every, or a shorter run)";
    }
    return "cannot write '" + path_ + "': " + errno_text(buf_.error());
}

bool AtomicFile::commit(std::string* err) {
    if (!is_open()) {
        *err = "cannot commit '" + path_ + "': not open";
        return false;
    }
    out_.flush();
    const bool closed = buf_.close();
    if (!closed || out_.fail()) {
        *err = write_error();
        abandon();
        return false;
    }
    if (temp_.empty()) return true; // written in place
    if (!replace_file(temp_, target_, err)) {
        abandon();
        return false;
    }
    unregister_temporary(&registration_);
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
        if (MoveFileExW(f.c_str(), t.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            return true;
        const DWORD code = GetLastError();
        // Refused while another process has `to` open without FILE_SHARE_DELETE (a reader such
        // as verify, a virus scanner) or replaces it at the same moment: wait for it to let go.
        const bool transient = code == ERROR_ACCESS_DENIED || code == ERROR_SHARING_VIOLATION ||
                               code == ERROR_LOCK_VIOLATION;
        if (!transient || Clock::now() - start > kReplaceRetryLimit) {
            *err = "cannot rename '" + from + "' to '" + to +
                   "': " + std::system_category().message(static_cast<int>(code));
            return false;
        }
        std::this_thread::sleep_for(
            std::chrono::milliseconds(attempt < 10 ? 1 << (attempt / 2) : 50));
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
    buf_.close();
    if (!temp_.empty()) {
        std::error_code ec; // best effort: nothing useful to do if removal fails
        std::filesystem::remove(temp_, ec);
        temp_.clear();
    }
    unregister_temporary(&registration_);
}

bool write_file_atomic(const std::string& path, std::string_view content, std::string* err,
                       uint64_t limit) {
    AtomicFile f;
    if (!f.open(path, err)) return false;
    f.set_limit(limit);
    f.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
    return f.commit(err);
}

} // namespace fx::harness
