// fxkcc_main: the command line built from the command table, parsed by CLI11.
#include <cstdlib>
#include <vector>

#include "records/build_info.h"
#include "subcommands.h"

namespace fx::harness {
namespace {

const char* kExitCodes = "Exit codes (as git bisect run reads them):\n"
                         "  0    everything matched\n"
                         "  1    a golden mismatch, a stale or a missing golden\n"
                         "  2    bad usage or bad input (scenario, golden or CSV file)\n"
                         "  125  cannot test (cannot write an output, setup failure)\n";

} // namespace

int fxkcc_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err, bool out_terminal,
               bool err_terminal) {
    CLI::App app{"fxkcc: deterministic replay and conformance harness for a fixed-point kinematic character "
                 "controller"};
    app.footer(kExitCodes);
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version, "Print the target, compiler, numeric format, engine and hash versions");
    ColourMode colour = ColourMode::kAuto;
    app.add_option_function<std::string>(
           "--color",
           [&colour](const std::string& v) {
               if (!parse_colour_mode(v, &colour)) {
                   throw CLI::ValidationError("--color", "expected auto, always or never, found '" + v + "'");
               }
           },
           "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never")
        ->type_name("WHEN");

    struct Declared {
        CLI::App* app;
        std::unique_ptr<Subcommand> command;
    };
    std::vector<Declared> declared;
    for (const CommandEntry& entry : command_table()) {
        Declared d{app.add_subcommand(entry.name, entry.help), entry.make()};
        d.app->fallthrough(); // --color after the subcommand's name, too
        d.command->declare(*d.app);
        declared.push_back(std::move(d));
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e, out, err);
        return rc == 0 ? kExitOk : kExitBadInput;
    }
    if (version) {
        out << version_text();
        return kExitOk;
    }
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    Invocation inv{out,
                   err,
                   Style{colour_wanted(colour, out_terminal, no_color, term)},
                   Style{colour_wanted(colour, err_terminal, no_color, term)},
                   err_terminal,
                   self_path(argc > 0 ? argv[0] : "fxkcc")};
    for (Declared& d : declared) {
        if (d.app->parsed()) return d.command->run(inv);
    }
    out << app.help();
    return kExitBadInput;
}

} // namespace fx::harness
