#include "forensics/sides.h"

#include "records/atomic_file.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifdef _WIN32
#include <process.h>
#define FX_GETPID _getpid
#else
#include <sys/wait.h>
#include <unistd.h>
#define FX_GETPID getpid
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

bool make_side(const std::string& command, const std::string& extra, Side* out, std::string* error) {
    Side s;
    s.label = command + (extra.empty() ? "" : " (+ " + extra + ")");
    if (!split_words(command, &s.command, error) || !split_words(extra, &s.extra, error)) return false;
    if (s.command.empty()) {
        *error = "expected a command that runs fxkcc, found an empty string";
        return false;
    }
    *out = std::move(s);
    return true;
}

namespace {

std::string quote_arg(const std::string& a) {
#ifdef _WIN32
    std::string q = "\"";
    for (char c : a) {
        if (c == '"') q += '\\';
        q += c;
    }
    return q + "\"";
#else
    std::string q = "'";
    for (char c : a) {
        if (c == '\'') {
            q += "'\\''";
        } else {
            q += c;
        }
    }
    return q + "'";
#endif
}

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
        const fs::path p = base / ("fxkcc-" + std::to_string(FX_GETPID()) + "-" + std::to_string(g_counter++));
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
    std::string cmd;
    auto add = [&](const std::string& a) { cmd += (cmd.empty() ? "" : " ") + quote_arg(a); };
    for (const std::string& a : side.command) add(a);
    for (const std::string& a : args) add(a);
    for (const std::string& a : side.extra) add(a);
    const std::string out = tmp.file("out"), err = tmp.file("err");
    cmd += " > " + quote_arg(out) + " 2> " + quote_arg(err) + " < " +
#ifdef _WIN32
           std::string("NUL");
#else
           std::string("/dev/null");
#endif
    const int status = std::system(cmd.c_str());
#ifdef _WIN32
    r.exit_code = status;
#else
    r.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
#endif
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

} // namespace fx::harness
