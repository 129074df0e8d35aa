#include "forensics/sides.h"

#include "records/atomic_file.h"
#include "records/text.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#ifdef _WIN32
#include <process.h>
#include <windows.h>
#define FX_GETPID _getpid
#elif defined(__EMSCRIPTEN__)
#include <unistd.h>
#define FX_GETPID getpid
#else
#include <cerrno>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#define FX_GETPID getpid
extern char** environ;
#endif

namespace fs = std::filesystem;

namespace fx::harness {

bool split_words(const std::string& text, std::vector<std::string>* out, std::string* error) {
    out->clear();
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (char c : text) {
        if (quote != 0) {
            if (c == quote) {
                quote = 0;
            } else {
                word += c;
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t') {
            if (in_word) out->push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote != 0) {
        *error = "unclosed quote in '" + text + "'";
        return false;
    }
    if (in_word) out->push_back(word);
    return true;
}

bool make_side(const std::string& command, const std::string& extra, Side* out,
               std::string* error) {
    Side s;
    s.label = command + (extra.empty() ? "" : " (+ " + extra + ")");
    if (!split_words(command, &s.command, error) || !split_words(extra, &s.extra, error))
        return false;
    if (s.command.empty()) {
        *error = "expected a command that runs fxkcc, found an empty string";
        return false;
    }
    *out = std::move(s);
    return true;
}

namespace {

#ifdef _WIN32
/// One argument of a Windows command line, quoted the way CommandLineToArgvW and the C runtime
/// split it back: in double quotes when it has a space, a tab or a quote (or is empty), a quote
/// escaped with a backslash, and backslashes doubled only where they precede a quote.
std::wstring quote_windows_arg(const std::wstring& a) {
    if (!a.empty() && a.find_first_of(L" \t\n\v\"") == std::wstring::npos) return a;
    std::wstring q = L"\"";
    size_t backslashes = 0;
    for (const wchar_t c : a) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        if (c == L'"')
            q.append(backslashes * 2 + 1, L'\\');
        else
            q.append(backslashes, L'\\');
        backslashes = 0;
        q += c;
    }
    q.append(backslashes * 2, L'\\');
    return q + L"\"";
}

std::wstring widen(const std::string& s) {
    if (s.empty()) return std::wstring();
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

/// Runs argv with stdout and stderr into the files and stdin from NUL, no shell: CreateProcessW
/// with each argument quoted for the C runtime. Fills r's exit code (-1 when it cannot start or
/// timed out), timed_out and start_error.
void spawn_and_wait(const std::vector<std::string>& argv, const std::string& out,
                    const std::string& err, int64_t timeout_ms, SideResult* r) {
    bool* const timed_out = &r->timed_out;
    std::wstring line;
    for (const std::string& a : argv)
        line += (line.empty() ? L"" : L" ") + quote_windows_arg(widen(a));
    SECURITY_ATTRIBUTES sa{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE in = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                            OPEN_EXISTING, 0, nullptr);
    HANDLE o = CreateFileW(widen(out).c_str(), GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    HANDLE e = CreateFileW(widen(err).c_str(), GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    int code = -1;
    if (in != INVALID_HANDLE_VALUE && o != INVALID_HANDLE_VALUE && e != INVALID_HANDLE_VALUE) {
        // The child inherits these three handles and no other (PROC_THREAD_ATTRIBUTE_HANDLE_LIST):
        // an inheritable handle the process holds elsewhere (another side's files, a lock) would
        // otherwise stay open in the child for as long as it runs.
        HANDLE inherit[3] = {in, o, e};
        SIZE_T size = 0;
        InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
        std::vector<unsigned char> attrs(size);
        auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attrs.data());
        if (size != 0 && InitializeProcThreadAttributeList(list, 1, 0, &size)) {
            if (UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit,
                                          sizeof inherit, nullptr, nullptr)) {
                STARTUPINFOEXW si{};
                si.StartupInfo.cb = sizeof si;
                si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
                si.StartupInfo.hStdInput = in;
                si.StartupInfo.hStdOutput = o;
                si.StartupInfo.hStdError = e;
                si.lpAttributeList = list;
                PROCESS_INFORMATION pi{};
                if (CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE,
                                   EXTENDED_STARTUPINFO_PRESENT, nullptr, nullptr, &si.StartupInfo,
                                   &pi)) {
                    const DWORD waited = WaitForSingleObject(
                        pi.hProcess, timeout_ms > 0 ? static_cast<DWORD>(
                                                          std::min<int64_t>(timeout_ms, 0x7fffffff))
                                                    : INFINITE);
                    if (waited == WAIT_TIMEOUT) {
                        *timed_out = true;
                        TerminateProcess(pi.hProcess, 1);
                        WaitForSingleObject(pi.hProcess, INFINITE);
                    }
                    DWORD exit_code = 0;
                    if (!*timed_out && GetExitCodeProcess(pi.hProcess, &exit_code))
                        code = static_cast<int>(exit_code);
                    CloseHandle(pi.hThread);
                    CloseHandle(pi.hProcess);
                } else {
                    r->start_error = "Windows error " + std::to_string(GetLastError());
                }
            }
            DeleteProcThreadAttributeList(list);
        }
    }
    for (HANDLE h : {in, o, e}) {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    if (code == -1 && !*timed_out && r->start_error.empty())
        r->start_error = "cannot open its input and output files";
    r->exit_code = code;
}
#elif defined(__EMSCRIPTEN__)
/// WebAssembly under node starts no process: a side cannot run here (desync and shrink run their
/// sides from a native build, e.g. `--b "node build-wasm32-emscripten/cli/fxkcc.js"`).
void spawn_and_wait(const std::vector<std::string>&, const std::string&, const std::string&,
                    int64_t, SideResult* r) {
    r->start_error = "WebAssembly under node starts no process";
}
#else
/// Runs argv (the program found on PATH) with stdout and stderr into the files and stdin from
/// /dev/null, no shell: posix_spawnp, in a process group of its own, registered with the signal
/// handler (remove_temporaries_on_signal) so that a SIGINT or SIGTERM to fxkcc stops it and what
/// it started. After `timeout_ms` (> 0) the group is killed and r->timed_out set. Fills r's exit
/// code (-1 when it cannot start, was killed or timed out), signal and start_error.
void spawn_and_wait(const std::vector<std::string>& argv, const std::string& out,
                    const std::string& err, int64_t timeout_ms, SideResult* r) {
    bool* const timed_out = &r->timed_out;
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        r->start_error = "posix_spawn_file_actions_init failed";
        return;
    }
    posix_spawnattr_t attr;
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        r->start_error = "posix_spawnattr_init failed";
        return;
    }
    // The signals fxkcc handles are blocked from before the spawn until the side is registered,
    // so that none comes between and leaves it running; the side starts with none blocked and
    // their default actions.
    sigset_t handled, previous, none;
    sigemptyset(&handled);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&handled, sig);
    sigemptyset(&none);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &handled);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    int code = -1;
    if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) == 0 &&
        posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) ==
            0 &&
        posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) ==
            0) {
        pid_t pid = 0;
        pthread_sigmask(SIG_BLOCK, &handled, &previous);
        const int spawned = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
        const bool started = spawned == 0;
        if (!started) r->start_error = std::error_code(spawned, std::generic_category()).message();
        int slot = started ? register_on_signal(OnSignal::kKillGroup, "", pid) : -1;
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        if (started) {
            int status = 0;
            pid_t w = 0;
            if (timeout_ms <= 0) {
                do {
                    w = waitpid(pid, &status, 0);
                } while (w == -1 && errno == EINTR);
            } else {
                // Polled, from 1 ms up to 20 ms apart: the side's own run is far longer.
                const auto deadline =
                    std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
                auto pause = std::chrono::milliseconds(1);
                while ((w = waitpid(pid, &status, WNOHANG)) == 0 || (w == -1 && errno == EINTR)) {
                    if (std::chrono::steady_clock::now() >= deadline) {
                        *timed_out = true;
                        kill(-pid, SIGKILL);
                        do {
                            w = waitpid(pid, &status, 0);
                        } while (w == -1 && errno == EINTR);
                        break;
                    }
                    std::this_thread::sleep_for(pause);
                    pause = std::min(pause * 2, std::chrono::milliseconds(20));
                }
            }
            // Whatever the side started in its group goes with it.
            kill(-pid, SIGKILL);
            unregister_on_signal(&slot);
            if (w == pid && !*timed_out && WIFEXITED(status)) code = WEXITSTATUS(status);
            if (w == pid && !*timed_out && WIFSIGNALED(status)) r->signal = WTERMSIG(status);
        }
    } else {
        r->start_error = "cannot open its input and output files";
    }
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    r->exit_code = code;
}
#endif

/// The file's bytes, or "" when it cannot be read (a side that wrote nothing).
std::string slurp(const std::string& path) {
    std::string text, unused;
    return read_file(path, &text, &unused) ? text : std::string();
}

std::atomic<int> g_counter{0};

} // namespace

TempFolder::TempFolder() {
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    // (Its paths reach messages: a TMPDIR holding a control character is not used.)
    if (ec || text::has_acting_character(base.generic_string())) return;
    for (int i = 0; i < 100; ++i) {
        const fs::path p =
            base / ("fxkcc-" + std::to_string(FX_GETPID()) + "-" + std::to_string(g_counter++));
        const int slot = register_on_signal(OnSignal::kRmdir, p.generic_string());
        if (fs::create_directory(p, ec) && !ec) {
            path_ = p.generic_string();
            slots_.push_back(slot);
            return;
        }
        int unused = slot;
        unregister_on_signal(&unused);
    }
}

TempFolder::~TempFolder() {
    if (path_.empty()) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
    for (int& slot : slots_)
        unregister_on_signal(&slot);
}

std::string TempFolder::file(const std::string& name) const {
    const std::string p = path_ + "/" + name;
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) {
        names_.push_back(name);
        slots_.push_back(register_on_signal(OnSignal::kUnlink, p));
    }
    return p;
}

int64_t side_timeout_ms(int64_t character_ticks) {
    return 120000 + 2 * std::max<int64_t>(character_ticks, 0);
}

SideResult run_side(const Side& side, const std::vector<std::string>& args) {
    SideResult r;
    TempFolder tmp;
    if (!tmp.ok()) {
        r.err = "cannot create a temporary folder in the system's (TMPDIR; one whose path holds a "
                "control or bidirectional character is not used)";
        return r;
    }
    std::vector<std::string> argv = side.command;
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), side.extra.begin(), side.extra.end());
    const std::string out = tmp.file("out"), err = tmp.file("err");
    spawn_and_wait(argv, out, err, side.timeout_ms, &r);
    r.out = slurp(out);
    // Quoted in messages after a colon: without its last line breaks, every line with its
    // control, C1 and bidirectional characters escaped (text::shown: \x1b, \u202e), and every line
    // after the first begun with "  | ", so that what a side prints can neither move the cursor,
    // retitle or clear the terminal, nor start a line of the CI log that shows fxkcc's messages
    // (a line "::error::..." is a GitHub Actions command).
    const std::string said_bytes = slurp(err);
    std::string_view said = said_bytes;
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r'))
        said.remove_suffix(1);
    text::Lines lines(said); // (CRLF: a line break)
    std::string_view line;
    for (bool first = true; lines.next(&line); first = false)
        r.err += (first ? "" : "\n  | ") + text::shown(line);
    r.timeout_ms = side.timeout_ms;
    return r;
}

std::string side_outcome(const SideResult& r) {
    if (!r.start_error.empty()) return "could not be started: " + r.start_error;
    if (r.timed_out)
        return "was killed after " + std::to_string(r.timeout_ms / 1000) + "." +
               std::to_string(r.timeout_ms % 1000 / 100) + " s, its time limit (--side-timeout)";
    if (r.signal != 0) {
        std::string name;
#if !defined(_WIN32) && !defined(__EMSCRIPTEN__)
        switch (r.signal) {
        case SIGSEGV:
            name = " (SIGSEGV)";
            break;
        case SIGABRT:
            name = " (SIGABRT)";
            break;
        case SIGKILL:
            name = " (SIGKILL)";
            break;
        case SIGBUS:
            name = " (SIGBUS)";
            break;
        case SIGILL:
            name = " (SIGILL)";
            break;
        case SIGFPE:
            name = " (SIGFPE)";
            break;
        default:
            break;
        }
#endif
        return "was killed by signal " + std::to_string(r.signal) + name;
    }
    return "exited " + std::to_string(r.exit_code);
}

} // namespace fx::harness
