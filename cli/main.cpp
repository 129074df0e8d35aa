// fxkcc: the command line. Everything is in the commands library (commands/command.h): the
// command table, option parsing and each subcommand; this file only connects it to the process.
#include <iostream>

#include "commands/command.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#define FX_ISATTY(fd) (_isatty(fd) != 0)
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
    return fx::harness::fxkcc_main(argc, argv, std::cout, std::cerr, FX_ISATTY(1), FX_ISATTY(2));
}
