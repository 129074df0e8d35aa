#include "forensics/sides.h"

#include "records/atomic_file.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
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
/// with each argument quoted for the C runtime. The exit code, or -1 when it cannot start.
int spawn_and_wait(const std::vector<std::string>& argv, const std::string& out,
                   const std::string& err) {
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
                    WaitForSingleObject(pi.hProcess, INFINITE);
                    DWORD exit_code = 0;
                    if (GetExitCodeProcess(pi.hProcess, &exit_code))
                        code = static_cast<int>(exit_code);
                    CloseHandle(pi.hThread);
                    CloseHandle(pi.hProcess);
                }
            }
            DeleteProcThreadAttributeList(list);
        }
    }
    for (HANDLE h : {in, o, e}) {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    return code;
}
#elif defined(__EMSCRIPTEN__)
/// WebAssembly under node starts no process: a side cannot run here (desync and shrink run their
/// sides from a native build, e.g. `--b "node build-wasm32-emscripten/cli/fxkcc.js"`).
int spawn_and_wait(const std::vector<std::string>&, const std::string&, const std::string&) {
    return -1;
}
#else
/// Runs argv (the program found on PATH) with stdout and stderr into the files and stdin from
/// /dev/null, no shell: posix_spawnp. The exit code; -1 when it cannot start or was killed.
int spawn_and_wait(const std::vector<std::string>& argv, const std::string& out,
                   const std::string& err) {
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    int code = -1;
    if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) == 0 &&
        posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) ==
            0 &&
        posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600) ==
            0) {
        pid_t pid = 0;
        if (posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ) == 0) {
            int status = 0;
            pid_t w = 0;
            do {
                w = waitpid(pid, &status, 0);
            } while (w == -1 && errno == EINTR);
            if (w == pid && WIFEXITED(status)) code = WEXITSTATUS(status);
        }
    }
    posix_spawn_file_actions_destroy(&fa);
    return code;
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
    if (ec) return;
    for (int i = 0; i < 100; ++i) {
        const fs::path p =
            base / ("fxkcc-" + std::to_string(FX_GETPID()) + "-" + std::to_string(g_counter++));
        if (fs::create_directory(p, ec) && !ec) {
            path_ = p.generic_string();
            return;
        }
    }
}

TempFolder::~TempFolder() {
    if (path_.empty()) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
}

SideResult run_side(const Side& side, const std::vector<std::string>& args) {
    SideResult r;
    TempFolder tmp;
    if (!tmp.ok()) {
        r.err = "cannot create a temporary folder";
        return r;
    }
    std::vector<std::string> argv = side.command;
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), side.extra.begin(), side.extra.end());
    const std::string out = tmp.file("out"), err = tmp.file("err");
    r.exit_code = spawn_and_wait(argv, out, err);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

} // namespace fx::harness
