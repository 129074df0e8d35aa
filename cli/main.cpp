// fxkcc: the command line. Everything is in the commands library (commands/command.h): the
// command table, option parsing and each subcommand; this file only connects it to the process.
#include <iostream>

#include "commands/command.h"
#include "fx_source.h" // FX_SOURCE_COMMIT, FX_SOURCE_DIRTY (cmake/FxSourceInfo.cmake)
#include "records/build_info.h"

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#define FX_ISATTY(fd) (_isatty(fd) != 0)
#elif defined(__EMSCRIPTEN__)
#include <emscripten.h>
// Under node with NODERAWFS, isatty() says yes for pipes and files too; node's streams know.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpedantic"
EM_JS(int, fx_node_isatty, (int fd), {
    var s = fd == 1 ? process.stdout : process.stderr;
    return s && s.isTTY ? 1 : 0;
});
#pragma clang diagnostic pop
#define FX_ISATTY(fd) (fx_node_isatty(fd) != 0)
#else
#include <unistd.h>
#define FX_ISATTY(fd) (isatty(fd) != 0)
#endif

int main(int argc, char** argv) {
#ifdef _WIN32
    // Byte-exact output on Windows: no CRLF translation of hashes, CSVs and reports.
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
    fx::harness::set_source_info(FX_SOURCE_COMMIT, FX_SOURCE_DIRTY != 0);
    fx::harness::remove_temporaries_on_signal(); // no half-written file survives Ctrl-C
    fx::harness::CheckedFileBuf out_buffer; // remembers why a write to stdout failed
    out_buffer.attach(stdout);
    // std::cerr would flush std::cout, a second writer of the same FILE, before each write,
    // and its failures (a full disk) would go unseen: stdout is written and flushed through
    // out_buffer alone, which reports them (finish_standard_output).
    std::cerr.tie(nullptr);
    std::ostream out(&out_buffer);
    const int code =
        fx::harness::fxkcc_main(argc, argv, out, std::cerr, FX_ISATTY(1), FX_ISATTY(2));
    return fx::harness::finish_standard_output(code, out_buffer, std::cerr);
}
